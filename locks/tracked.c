/*
 * tracked.c - the out-of-line parts of tracked locking (see tracked.h):
 * the contended path with its trace records, timed releases, and the
 * helpers that initialise and sum per-worker lock statistics.
 */
#include "tracked.h"
#include "../trace/trace.h"

#include <string.h>

const char *const lock_class_names[LC_NR] = {
	[LC_PGDAT_LRU] = "pgdat->lru_lock",
	[LC_LRUVEC_LRU] = "lruvec->lru_lock",
	[LC_PAGE_COUNTER] = "page_counter",
	[LC_STATS_FLUSH] = "stats_flush",
	[LC_COUNTER_FOLD] = "percpu_counter->lock",
	[LC_BENCH] = "bench",
};

const char *const lock_class_keys[LC_NR] = {
	[LC_PGDAT_LRU] = "pgdat_lru_lock",
	[LC_LRUVEC_LRU] = "lruvec_lru_lock",
	[LC_PAGE_COUNTER] = "page_counter",
	[LC_STATS_FLUSH] = "stats_flush",
	[LC_COUNTER_FOLD] = "percpu_counter_lock",
	[LC_BENCH] = "bench",
};

/* Class and worker for trace records: a zero-filled stat that never went
 * through lock_stats_init() is labelled "unclassified", not class 0. */
static inline int class_of(const struct lock_stat *st)
{
	return st->inited && st->cls < LC_NR ? st->cls : LC_UNCLASSIFIED;
}

static inline uint32_t worker_of(const struct lock_stat *st)
{
	return st->inited ? st->worker : LS_WORKER_UNKNOWN;
}

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

/* The contention_end record of an outer hold of the same class still
 * pending when an inner contended acquisition needs the scratch fields: it
 * is written now (inside the outer critical section, the rare nested
 * case), so the trace keeps one record per contended acquisition. */
static void flush_pending_end(void *lock, struct lock_stat *st)
{
	if (st->pend_end) {
		st->pend_end = 0;
		MS_TP(contention_end, class_of(st), lock, worker_of(st),
		      st->pend_wait_ns);
	}
}

void tracked_lock_slow(const struct lock_ops *ops, void *lock, void *ctx,
		       struct lock_stat *st)
{
	int c = class_of(st);
	uint32_t me = worker_of(st);
	uint64_t t0, t1, w;

	flush_pending_end(lock, st);
	MS_TP(contention_begin, c, lock, me);
	t0 = now_ns();
	ops->lock(lock, ctx);
	t1 = now_ns();
	w = t1 - t0;
	ls_add(&st->contended, 1);
	ls_add(&st->wait_ns, w);
	if (w > st->wait_max_ns)
		ls_set(&st->wait_max_ns, w);
	if (!st->wait_min_ns || w < st->wait_min_ns)
		ls_set(&st->wait_min_ns, w ? w : 1);
	ls_add(&st->wait_hist[lock_hist_bucket(w)], 1);
	tracked_note_owner(lock, st);
	/* contention_end (and lock_release) are written by the unlock:
	 * tracked_unlock() takes the slow path while t_acquired != 0. */
	st->pend_wait_ns = w;
	st->pend_end = 1;
	/* The clock was just read: time every contended hold for the
	 * per-event record, but count it in the statistics only when the
	 * sampler would have picked it (unbiased mean). */
	st->hold_sampled = st->hold_on && !(st->acquired & st->hold_mask);
	st->hold_contended = st->hold_on;
	st->t_acquired = t1 ? t1 : 1;
}

void tracked_unlock_slow(const struct lock_ops *ops, void *lock, void *ctx,
			 struct lock_stat *st)
{
	bool timed = st->hold_sampled || st->hold_contended;
	uint64_t h = timed ? now_ns() - st->t_acquired : 0;

	st->t_acquired = 0;
	ops->unlock(lock, ctx);
	/* Everything below runs outside the critical section. */
	if (st->hold_sampled) {
		st->hold_sampled = 0;
		ls_add(&st->hold_n, 1);
		ls_add(&st->hold_ns, h);
		if (h > st->hold_max_ns)
			ls_set(&st->hold_max_ns, h);
		ls_add(&st->hold_hist[lock_hist_bucket(h)], 1);
	}
	flush_pending_end(lock, st);
	if (st->hold_contended) {
		st->hold_contended = 0;
		MS_TP(lock_release, class_of(st), lock, worker_of(st), h);
	}
}
