/*
 * lock_stat.c - lock class names and the helpers that initialise, copy
 * and sum per-worker lock statistics (see lock_stat.h).
 */
#include "trace/lock_stat.h"

#include <string.h>

const char *const lock_class_names[LC_NR] = {
	[LC_PGDAT_LRU] = "pgdat->lru_lock",
	[LC_LRUVEC_LRU] = "lruvec->lru_lock",
	[LC_PAGE_COUNTER] = "page_counter",
	[LC_STATS_FLUSH] = "stats_flush",
	[LC_COUNTER_FOLD] = "percpu_counter->lock",
	[LC_BENCH] = "bench",
	[LC_ZONE] = "zone->lock",
};

const char *const lock_class_keys[LC_NR] = {
	[LC_PGDAT_LRU] = "pgdat_lru_lock",
	[LC_LRUVEC_LRU] = "lruvec_lru_lock",
	[LC_PAGE_COUNTER] = "page_counter",
	[LC_STATS_FLUSH] = "stats_flush",
	[LC_COUNTER_FOLD] = "percpu_counter_lock",
	[LC_BENCH] = "bench",
	[LC_ZONE] = "zone_lock",
};

void lock_stats_init(struct lock_stat *set, unsigned worker,
		     unsigned hold_every, struct lock_owner_slot *owners)
{
	uint64_t p = 1;

	while (p < hold_every)
		p <<= 1;
	memset(set, 0, LC_NR * sizeof(*set));
	for (unsigned c = 0; c < LC_NR; c++) {
		set[c].worker = worker;
		set[c].cls = (uint8_t)c;
		set[c].inited = 1;
		set[c].hold_on = hold_every > 0;
		set[c].hold_mask = p - 1;
		set[c].owners = owners;
	}
}

#define LD(f) (out->f = __atomic_load_n(&st->f, __ATOMIC_RELAXED))
void lock_stat_snapshot(struct lock_stat *out, const struct lock_stat *st)
{
	memset(out, 0, sizeof(*out));
	LD(acquired);
	LD(contended);
	LD(wait_ns);
	LD(wait_max_ns);
	LD(wait_min_ns);
	LD(hold_ns);
	LD(hold_n);
	LD(hold_max_ns);
	LD(handoffs);
	for (unsigned b = 0; b < LS_HIST; b++) {
		LD(wait_hist[b]);
		LD(hold_hist[b]);
	}
	/* configuration: written before the workers started */
	out->hold_mask = st->hold_mask;
	out->owners = st->owners;
	out->worker = st->worker;
	out->cls = st->cls;
	out->inited = st->inited;
	out->hold_on = st->hold_on;
}
#undef LD

void lock_stats_sum(struct lock_stat *out, struct lock_stat *const *sets,
		    unsigned n)
{
	memset(out, 0, LC_NR * sizeof(*out));
	for (unsigned i = 0; i < n; i++) {
		if (!sets[i])
			continue;
		for (unsigned c = 0; c < LC_NR; c++) {
			struct lock_stat snap, *s = &snap;
			struct lock_stat *o = &out[c];

			lock_stat_snapshot(&snap, &sets[i][c]);

			o->acquired += s->acquired;
			o->contended += s->contended;
			o->wait_ns += s->wait_ns;
			if (s->wait_max_ns > o->wait_max_ns)
				o->wait_max_ns = s->wait_max_ns;
			if (s->wait_min_ns && (!o->wait_min_ns ||
					       s->wait_min_ns < o->wait_min_ns))
				o->wait_min_ns = s->wait_min_ns;
			o->hold_ns += s->hold_ns;
			o->hold_n += s->hold_n;
			if (s->hold_max_ns > o->hold_max_ns)
				o->hold_max_ns = s->hold_max_ns;
			o->handoffs += s->handoffs;
			for (unsigned b = 0; b < LS_HIST; b++) {
				o->wait_hist[b] += s->wait_hist[b];
				o->hold_hist[b] += s->hold_hist[b];
			}
		}
	}
}

