/*
 * runstat.c - harness hooks that give every worker lock-class statistics
 * and turn them into trace aggregates (memscale:lock_agg, memscale:
 * run_phase) and result columns, without knowing the workload.
 *
 * Columns per lock class (CSV-safe key, lock_class_keys[]), for every
 * class the workload declares (workload->lock_classes), in every row:
 *   <key>_contended_pct  100 * contended / acquired in the measured window
 *   <key>_wait_avg_ns    wait total / contended (avg over contended
 *                        acquisitions, as in the lockstat table)
 *   <key>_wait_max_ns    longest wait of the whole run (warm-up included:
 *                        a maximum cannot be windowed after the fact)
 * The set depends on the workload only, never on which classes a run
 * happened to take: a local sweep, a standalone `run` and a fleet
 * `--point` run write the same header, and a class the run did not
 * acquire (pgdat->lru_lock under lru_lock=lruvec) gets empty fields, not
 * a zero that would read as "uncontended".  A class acquired outside the
 * declaration is an internal error (the declaration would be wrong).
 */
#include "trace/tp.h"
#include "harness/runstat.h"
#include "harness/harness_types.h"
#include "counters/counter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct knob_value lockstat_values[] = {
	{ "on", "per-worker lock-class statistics (tracked_lock), result columns" },
	{ "off", "plain lock/unlock, no statistics (pure lock microbenchmark)" },
	{ NULL },
};
static const struct knob knob_lockstat = {
	.name = "lockstat", .owner = "tracing", .type = KNOB_ENUM, .def = "on",
	.values = lockstat_values,
	.help = "collect per-worker lock-class statistics (perf lock / lock_stat)",
};
static const struct knob knob_hold_every = {
	.name = "lockstat_hold_every", .owner = "tracing", .type = KNOB_INT,
	.def = "64", .min = 0, .max = 1 << 20,
	.help = "time the hold of one uncontended acquisition in N (rounded up "
		"to a power of two; 0 = no hold times); contended holds are "
		"always timed for the trace",
};
REGISTER(knob, knob_lockstat);
REGISTER(knob, knob_hold_every);

/* One harness run at a time: the measured-window baseline lives here. */
static struct lock_stat base[LC_NR];
static bool have_base;
static uint32_t nsample;
static unsigned hold_every;
static struct lock_owner_slot *owners;

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (h ^ 0xff) * 0x100000001b3ull; /* field separator */
}

uint64_t runstat_config_id(const struct run *r)
{
	const struct knob **used;
	size_t n = knobset_used(r->knobs, &used);
	uint64_t h = 0xcbf29ce484222325ull;
	char num[32];

	h = fnv1a(h, r->wl->name);
	h = fnv1a(h, (r->wl->flags & WL_F_USES_LOCK) && r->lock ? r->lock->name : "");
	h = fnv1a(h, (r->wl->flags & WL_F_USES_COUNTER) && r->counter ?
		  r->counter->name : "");
	h = fnv1a(h, r->mode == MODE_THREADS ? "threads" : "processes");
	snprintf(num, sizeof(num), "%u", r->nworkers);
	h = fnv1a(h, num);
	for (size_t i = 0; i < n; i++) {
		h = fnv1a(h, used[i]->name);
		h = fnv1a(h, knob_str(r->knobs, used[i]));
	}
	free(used);
	return h;
}

void runstat_setup(struct run *r)
{
	have_base = false;
	nsample = 0;
	hold_every = 0;
	owners = NULL;
	if (knob_enum_is(r->knobs, &knob_lockstat, "off"))
		return;
	hold_every = (unsigned)knob_int(r->knobs, &knob_hold_every);
	owners = arena_alloc(r->arena, LS_OWNER_SLOTS * sizeof(*owners), PAD_SIZE);
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct worker *w = &r->workers[i];

		w->lock_stats = arena_alloc_padded(r->arena,
						   LC_NR * sizeof(struct lock_stat));
		lock_stats_init(w->lock_stats, i, hold_every, owners);
	}
}

void runstat_adopt(struct worker *w, struct lock_stat *set)
{
	lock_stats_init(set, w->id, hold_every, owners);
	w->lock_stats = set;
}

/* Sum of the workers' live stats (relaxed snapshots: fields may be from
 * slightly different moments, which a periodic aggregate and the
 * measured-window baseline tolerate).  Final values are read after
 * join/waitpid. */
static void sum_workers(const struct run *r, struct lock_stat *out)
{
	struct lock_stat *sets[r->nworkers ? r->nworkers : 1];

	for (unsigned i = 0; i < r->nworkers; i++)
		sets[i] = r->workers[i].lock_stats;
	lock_stats_sum(out, sets, r->nworkers);
}

static void emit_aggregates(const struct run *r, uint32_t sample)
{
	uint64_t cfg;

	if (!MS_TP_ENABLED(lock_agg))
		return;
	cfg = runstat_config_id(r);
	for (unsigned i = 0; i < r->nworkers; i++) {
		const struct lock_stat *set = r->workers[i].lock_stats;

		if (!set)
			continue;
		for (unsigned c = 0; c < LC_NR; c++) {
			struct lock_stat snap;

			lock_stat_snapshot(&snap, &set[c]);
			if (snap.acquired)
				MS_TP(lock_agg, cfg, r->rep, sample, (int)c, i, &snap);
		}
	}
}

static const char *const phase_names[] = {
	[PHASE_WARMUP] = "warmup",
	[PHASE_MEASUREMENT] = "measurement",
	[PHASE_STOP] = "stop",
};

void runstat_phase(struct run *r, enum run_phase ph)
{
	if (ph == PHASE_MEASUREMENT && r->workers[0].lock_stats) {
		sum_workers(r, base);
		have_base = true;
	}
	if (MS_TP_ENABLED(run_phase))
		MS_TP(run_phase, phase_names[ph], runstat_config_id(r),
		      r->wl->name,
		      (r->wl->flags & WL_F_USES_LOCK) && r->lock ? r->lock->name : "",
		      r->nworkers, r->rep);
}

void runstat_sample(struct run *r, unsigned sample)
{
	nsample = sample + 1;
	emit_aggregates(r, sample);
}

void runstat_finish(struct run *r, struct result *res)
{
	struct lock_stat tot[LC_NR];
	char name[64];

	if (!r->nworkers || !r->workers[0].lock_stats)
		return;
	/* Final record: sample = number of samples taken, after the last
	 * periodic one, so readers keep the highest sample per worker. */
	emit_aggregates(r, nsample);
	sum_workers(r, tot);
	for (unsigned c = 0; c < LC_NR; c++)
		if (tot[c].acquired && !(r->wl->lock_classes & (1u << c)))
			die(1, "internal error: workload '%s' acquired lock class %s "
			    "that its lock_classes does not declare", r->wl->name,
			    lock_class_keys[c]);
	for (unsigned c = 0; c < LC_NR; c++) {
		const struct lock_stat *t = &tot[c];
		const struct lock_stat *b = have_base ? &base[c] : NULL;
		uint64_t acq = t->acquired - (b ? b->acquired : 0);
		uint64_t con = t->contended - (b ? b->contended : 0);
		uint64_t wait = t->wait_ns - (b ? b->wait_ns : 0);
		bool used = t->acquired != 0;

		if (!(r->wl->lock_classes & (1u << c)))
			continue;
		snprintf(name, sizeof(name), "%s_contended_pct", lock_class_keys[c]);
		result_metric(res, name, !used ? NAN :
			      acq ? 100.0 * (double)con / (double)acq : 0);
		snprintf(name, sizeof(name), "%s_wait_avg_ns", lock_class_keys[c]);
		result_metric(res, name, !used ? NAN : con ? (double)wait / (double)con : 0);
		snprintf(name, sizeof(name), "%s_wait_max_ns", lock_class_keys[c]);
		result_metric(res, name, !used ? NAN : (double)t->wait_max_ns);
	}
}
