/*
 * calib_probe.c - calibration probes (ccbench/libslock-style cache-line
 * and lock latencies) that fill a calibration file (predict/calib.h).
 * Probe timings on a shared or small machine are noisy, which is why
 * every probe is repeated and its spread recorded.  This file runs the
 * probes and records them, and holds the model walk and workload probes;
 * the families live beside it: calib_probe_mem.c (cache lines,
 * transfers, atomics, loads, lock hand-offs) and calib_probe_kernel.c
 * (page faults, syscalls, instruction counts, derived parts).
 */
#include "harness/calib_probe.h"
#include "harness/calib_probe_int.h"
#include "core/procstat.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/arena.h"
#include "core/meta.h"
#include "core/topo.h"
#include "core/util.h"
#include "counters/counter.h"
#include "harness/harness.h"
#include "locks/lock.h"
#include "models/memcg.h"
#include "models/stats/stats.h"

void calib_opts_default(struct calib_opts *o)
{
	*o = (struct calib_opts){ .reps = 7, .scale = 1, .locks = true,
				  .workloads = true, .wl_seconds = 0.3 };
}



static void probe_workloads(struct calib *c, const struct calib_opts *o)
{
	double *v = xcalloc(o->reps, sizeof(double));
	const char *wname;

	for (size_t i = 0; (wname = memcg_sim_workload_at(i)); i++) {
		const struct workload *wl = workload_find(wname);
		struct harness_opts ho;
		long one = 1;
		char name[96];
		unsigned ok = 0;

		if (!wl)
			continue;
		harness_defaults(&ho);
		ho.wl = wl;
		ho.lock = lock_find("qspinlock");
		if (!ho.lock)
			ho.lock = lock_find("pthread_mutex");
		ho.counter = counter_find("percpu_batch"); /* run's default */
		ho.knobs = knobset_new();
		ho.threads = &one;
		ho.nthreads = 1;
		ho.seconds = o->wl_seconds;
		ho.warmup = 1;
		ho.sample_ms = (unsigned)(o->wl_seconds * 1000 / 3) + 1;
		ho.arena_size = (size_t)4 << 30;
		/* Fewer repetitions: each is a whole harness run. */
		for (unsigned r = 0; r < (o->reps + 1) / 2; r++) {
			struct result res;
			memset(&res, 0, sizeof(res));
			if (harness_run_one(&ho, 1, r, &res) == 0 && res.ops_per_sec > 0)
				v[ok++] = 1e9 / res.ops_per_sec;
			result_free(&res);
		}
		knobset_free(ho.knobs);
		if (!ok)
			continue;
		snprintf(name, sizeof(name), "wl.%s", wname);
		calib_record(c, name, v, ok, o->verbose);
	}
	free(v);
}

/* The machine and build description (core/meta.h) as meta.KEY lines. */
static void set_meta(struct calib *c, size_t (*facts)(struct meta_fact *))
{
	struct meta_fact f[META_FACTS_MAX];
	size_t n = facts(f);

	for (size_t i = 0; i < n; i++) {
		char key[64];

		snprintf(key, sizeof(key), "meta.%s", f[i].key);
		if (f[i].text)
			calib_set(c, key, f[i].text);
		else
			calib_set_num(c, key, (double)f[i].num);
	}
}

/*
 * One step of the per-memcg threshold's ancestor walk, measured: the
 * cost per stat update (__mod_memcg_lruvec_state + memcg_rstat_updated)
 * of a leaf at depth 5 minus that at depth 1, over 4 extra levels.
 * Between updates the worker's kernel footprint (models/kwork.h) is
 * walked once, so the walk finds its lines where the kernel's other work
 * per operation leaves them (out of L1), not in a hot loop's L1.  Only
 * the update is timed: the footprint walk (KWORK_LINES dependent loads,
 * microseconds) stays outside the clock, so the 4 levels' difference is
 * a difference of two short intervals, not under 1 % of a block that
 * holds both (format 3 did that: walk.permemcg medians of one VM
 * 5.5-10.6 ns in calibrations minutes apart).  The clock reads are
 * ordered (the vDSO's rdtsc is fenced), so the update's dependent loads
 * cannot overlap the footprint walk before it: the level is priced as
 * the latency of its chain (an assumption: that a level under the LRU
 * lock does not overlap the folio work around it; not measured).  The
 * two models run in alternating blocks of WALK_BLOCK updates and each
 * keeps its fastest block: on a shared machine a block can only be
 * slowed down (preemption, a busy sibling), and the minima of many
 * short interleaved blocks leave that out.  ns per level.
 */
#define WALK_BLOCK 32

struct walk_model {
	struct arena *a;
	struct model *m;
	struct model_worker *mw;
};

static void walk_model_new(struct walk_model *w, const struct stats_design *v,
			   unsigned depth)
{
	const struct lock_ops *lock = lock_find("qspinlock");
	struct model_params p;

	model_params_default(&p);
	p.stats = v;
	p.depth = depth;
	p.page_work = PAGE_WORK_KERNEL;
	w->a = arena_create((size_t)64 << 20);
	w->m = model_setup(w->a, &p, lock ? lock : lock_find("pthread_mutex"), 1, 64);
	w->mw = model_worker(w->m, 0);
	model_worker_populate(w->m, 0);
}

static double walk_block(struct walk_model *w, uint64_t *k)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < WALK_BLOCK; i++, (*k)++) {
		uint64_t t0;

		kwork_spend(&w->mw->kw, KWORK_LINES);
		t0 = now_ns();
		model_mod_lruvec_state(w->mw, w->mw->memcg, 0, NR_ANON_MAPPED,
				       (*k & 1) ? -1 : 1);
		sum += now_ns() - t0;
	}
	return (double)sum / WALK_BLOCK;
}

static double walk_step_once(const struct stats_design *v, unsigned blocks)
{
	struct walk_model d1, d5;
	double b1 = INFINITY, b5 = INFINITY;
	uint64_t k1 = 0, k5 = 0;

	walk_model_new(&d1, v, 1);
	walk_model_new(&d5, v, 5);
	for (unsigned b = 0; b < blocks; b++) {
		b1 = fmin(b1, walk_block(&d1, &k1));
		b5 = fmin(b5, walk_block(&d5, &k5));
	}
	arena_destroy(d1.a);
	arena_destroy(d5.a);
	return fmax(0, (b5 - b1) / 4);
}

static void probe_walk(struct calib *c, const struct calib_opts *o)
{
	/* every stats design with a walk probe (models/stats/), by name */
	const struct stats_design **d;
	size_t n = stats_design_all(&d);
	double *v = xcalloc(o->reps, sizeof(double));

	for (size_t k = 0; k < n; k++) {
		if (!d[k]->probe)
			continue;
		for (unsigned r = 0; r < o->reps; r++)
			v[r] = walk_step_once(d[k], (unsigned)calib_probe_scaled(o, 400));
		calib_record(c, d[k]->probe, v, o->reps, o->verbose);
	}
	free(v);
}

double calib_probe_best(const char *probe, unsigned reps)
{
	double best = NAN, insn;

	for (unsigned r = 0; r < (reps ? reps : 1); r++) {
		double v;
		if (!strcmp(probe, "fault"))
			v = calib_time_faults(FAULT_ANON, FAULT_PAGES, calib_clock_pair_ns(), &insn);
		else if (!strcmp(probe, "syscall"))
			v = calib_time_syscall_blocks(20000);
		else if (!strcmp(probe, "page"))
			v = calib_time_page_copy(20000);
		else
			return NAN;
		if (isnan(best) || v < best)
			best = v;
	}
	return best;
}

/* /proc/loadavg's 1, 5 and 15 minute figures: how busy the machine was
 * (a shared machine's probes are slowed by the others' work). */
static void set_loadavg(struct calib *c, const char *key)
{
	FILE *f = file_kernel_open("/proc/loadavg", "r");
	double a, b, d;

	if (f && fscanf(f, "%lf %lf %lf", &a, &b, &d) == 3) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.2f %.2f %.2f", a, b, d);
		calib_set(c, key, buf);
	}
	if (f)
		fclose(f);
}

/*
 * The single-thread probes, one repetition of each per round.  Their
 * rounds are spread over the whole calibration (SINGLE_POINTS places
 * between the other probes), not run back to back: all seven took under
 * a second, so a host disturbance of a few seconds (another tenant on
 * this vCPU's physical core) slowed every repetition alike, and the least
 * disturbed one that predict reads was disturbed too.  On the 2-vCPU VM a
 * calibration of 2026-12-02 measured getppid at 193.7-199.4 ns in all
 * seven, where three others found 162.9 ns.
 */
#define SINGLE_POINTS 6

static const struct { const char *name; int which; uint64_t n; } single[] = {
	{ "atomic.uncontended", 0, 2000000 }, { "hit", 1, 2000000 },
	{ "miss", 2, 200000 }, { "percpu", 3, 2000000 },
	{ "list", 4, 2000000 }, { "page", 5, 20000 },
	{ "syscall", 7, 20000 },
};

struct single_rounds {
	double *v;              /* ARRAY_SIZE(single) x reps */
	unsigned done;          /* rounds run */
	double total, steal;    /* CPU jiffies over the rounds */
};

/* Point `point` of SINGLE_POINTS: run the rounds that fall before it. */
static void single_rounds_at(struct single_rounds *sr, const struct calib_opts *o,
			     struct pair_line *line, unsigned point)
{
	unsigned upto = (unsigned)((uint64_t)o->reps * (point + 1) / SINGLE_POINTS);
	double t0, s0, t1, s1;
	bool jiffies;

	if (sr->done >= upto)
		return;
	jiffies = calib_cpu_jiffies(&t0, &s0);
	for (; sr->done < upto; sr->done++) {
		unsigned r = sr->done;
		for (size_t k = 0; k < ARRAY_SIZE(single); k++) {
			uint64_t n = calib_probe_scaled(o, single[k].n);
			double *v = &sr->v[k * o->reps + r];
			switch (single[k].which) {
			case 0: *v = calib_time_atomic(n, &line[1]); break;
			case 1: *v = calib_time_chase(n, 4096); break;
			case 2: *v = calib_time_chase(n, (size_t)64 << 20); break;
			case 3: *v = calib_time_percpu(n, &line[1]); break;
			case 4: *v = calib_time_list(n); break;
			case 5: *v = calib_time_page_copy(n); break;
			default: *v = calib_time_syscall_blocks(n); break;
			}
		}
	}
	if (jiffies && calib_cpu_jiffies(&t1, &s1) && t1 >= t0) {
		sr->total += t1 - t0;
		sr->steal += s1 - s0;
	}
	/* The rounds' steal is theirs (sr): restart calib_record()'s window, so the
	 * next probe's steal_pct covers that probe alone. */
	calib_steal_since_last();
}

static void single_record(struct calib *c, const struct calib_opts *o,
			  const struct single_rounds *sr)
{
	double steal = sr->total > 0 ? 100 * sr->steal / sr->total : NAN, insn;

	for (size_t k = 0; k < ARRAY_SIZE(single); k++) {
		calib_record_steal(c, single[k].name, &sr->v[k * o->reps], o->reps, o->verbose,
			     steal);
		if (single[k].which == 7) {
			/* Instructions: one more loop, counted. */
			uint64_t n = calib_probe_scaled(o, 10 * single[k].n);
			calib_insn_start();
			calib_time_syscall(n);
			insn = calib_insn_stop() / (double)n;
			if (isfinite(insn))
				calib_set_num(c, "syscall.insn", insn);
		}
	}
}

void calib_measure(struct calib *c, const struct calib_opts *o)
{
	struct pair_line *line = aligned_alloc(PAD_SIZE, sizeof(*line) * 2);
	struct single_rounds sr = {
		.v = xcalloc(ARRAY_SIZE(single) * (size_t)o->reps, sizeof(double)),
	};
	double total0 = 0, steal0 = 0, total1 = 0, steal1 = 0;

	memset(c, 0, sizeof(*c));
	memset(line, 0, sizeof(*line) * 2);
	calib_set(c, "format", CALIB_FORMAT);
	set_meta(c, meta_machine);
	set_meta(c, meta_build);
	calib_set(c, "meta.time", meta_now_iso());
	calib_set_num(c, "meta.reps", o->reps);
	calib_set(c, "meta.single_reps", "spread over the calibration");
	set_loadavg(c, "meta.loadavg_start");
	calib_steal_since_last();
	calib_cpu_jiffies(&total0, &steal0);
	calib_insn_open();
	calib_set(c, "meta.instructions", calib_insn_how());

	single_rounds_at(&sr, o, line, 0);
	calib_probe_pairs(c, o, line);
	single_rounds_at(&sr, o, line, 1);
	calib_probe_faults(c, o);
	single_rounds_at(&sr, o, line, 2);
	probe_walk(c, o);
	single_rounds_at(&sr, o, line, 3);
	if (o->locks)
		calib_probe_locks(c, o, line);
	single_rounds_at(&sr, o, line, 4);
	if (o->workloads)
		probe_workloads(c, o);
	single_rounds_at(&sr, o, line, 5);
	single_record(c, o, &sr);
	/* the fault and syscall components subtract single probes (clear,
	 * syscall): after every round */
	calib_derive_parts(c);
	set_loadavg(c, "meta.loadavg_end");
	if (calib_cpu_jiffies(&total1, &steal1) && total1 > total0)
		calib_set_num(c, "steal_pct", 100 * (steal1 - steal0) / (total1 - total0));
	free(sr.v);
	free(line);
}
