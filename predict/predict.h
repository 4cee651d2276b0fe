/*
 * predict.h - extrapolation of the seed A/B experiments to many-core
 * machines with the simulator (sim_memcg.h), side by side with the
 * published changes.
 *
 * The pairs, their shared settings, the machine sizes and the published
 * changes (with citation, the target profile of the machine each ran on
 * and its role in the held-out split, docs/validation.md) are read from
 * the experiment files' [fixed], [variant], [predict] and [published]
 * sections by the experiment reader a layer below (exp/expfile.h, whose
 * struct published_row is the row predicted here), grouped into the
 * pairs below by predict/seeds.c: no table of pairs or published numbers
 * is kept in C.  The published numbers are used ONLY for display and for
 * the error columns; nothing is fitted to them: hardware costs come from
 * the target profile (predict/target.h, sourced figures), the rest from
 * the calibration probes of the machine at hand.
 */
#ifndef MEMSCALE_PREDICT_H
#define MEMSCALE_PREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "exp/expfile.h"
#include "predict/calib.h"
#include "predict/sim_memcg.h"
#include "predict/target.h"

struct seed_pair {
	const char *workload;
	const char *common;  /* "key=value,..." for both sides; the value
			      * `cpus` stands for the size of the point */
	const char *a, *b;   /* the differing settings */
	const struct published_row *pub; /* copies of the experiment's rows */
	size_t npub;
};

struct experiment_def {
	const char *name;
	const char *summary;
	const char *common;  /* [fixed] with [predict] over it: what every
			      * pair shares (a pair adds its rows' build) */
	const struct seed_pair *pairs;
	size_t npairs;
	struct experiment *exp; /* read from; holds the rows' strings */
};

/* The seed pairs of an experiment file (predict/seeds.c): a pair per
 * (workload, A, B, build) of its [published] rows, sharing [fixed] with
 * [predict] over it and the row's build=KNOB:VALUE over both; each row
 * must have an A/B knob and a change, and name a known target (exit 2
 * naming FILE:LINE).  false for a file without [published] rows.  lim:
 * exp_read()'s. */
bool predict_experiment_load(const char *path, const struct exp_limits *lim,
			     struct experiment_def *d);
/* Every experiment file (DIR/NAME.ini) with [published] rows, in file name
 * order (exit 2 when there is none). */
size_t predict_experiments(const char *dir, const struct exp_limits *lim,
			   struct experiment_def **out);
void predict_experiment_free(struct experiment_def *d);

/* The simulated size of a published row: its workers, else its cpus. */
unsigned published_size(const struct published_row *p);

struct predict_opts {
	long *cpus;
	size_t ncpus;         /* 0: only the published sizes */
	uint64_t iters;       /* simulated iterations per configuration */
	uint64_t seed;        /* the simulator's draws (memcg_sim_cfg.seed) */
	unsigned line_size;   /* 0: print both 64 and 128 */
	enum lock_model_kind lock_kind;
	double walk_miss;     /* NAN: from the calibration, or not measured */
	double remote_factor; /* NAN: from the target profile */
	const char *target;   /* --target NAME; NULL: each published row's own
			       * machine, "here" for the other sizes */
	bool band;            /* compute the sensitivity band (PREDICT_BAND_N
			       * more runs a side) */
	bool threads;         /* will-it-scale thread mode: one shared mm */
	unsigned jobs;        /* simulations run at once (0: the CPUs this
			       * process may run on); every number is the
			       * same for any value (predict_sims_run) */
	const struct calib *work; /* NULL: the shipped work reference
				   * (target_work_reference); --sensitivity's
				   * perturbed copy otherwise */
};

/* One predicted point: a pair at a machine size on a target. */
/* A regime string: the class, each side's locks, the hottest lines. */
#define PREDICT_REGIME_LEN 512

/* The sensitivity band's variants (predict_band_costs below). */
#define PREDICT_BAND_N 6

struct predict_point {
	const struct seed_pair *sp;
	const struct published_row *pub; /* NULL: no published row at this size */
	unsigned cpus;
	const struct target *t;      /* NULL: no profile for the row's machine */
	const struct target_costs *tc;
	double pct;                  /* predicted % change B vs A (NAN: none) */
	double err;                  /* signed distance from the published range */
	double band_lo, band_hi;     /* sensitivity band (predict_opts.band), or NAN */
	double band_pct[PREDICT_BAND_N]; /* each variant's change
					  * (predict_band_names); NAN: left
					  * out or not run */
	int band_sim[PREDICT_BAND_N];    /* where a variant's two runs are
					  * among the point's simulations;
					  * -1: left out (none run) */
	unsigned members;            /* seeds each side's value averages
				      * (predict_members) */
	/* Absolute throughput of each side at the central costs: operations
	 * per second over all simulated CPUs (sim_result.ops_per_sec, one
	 * operation = one iteration of the workload's program = one of the
	 * benchmark's counted operations), NAN when that side did not run. */
	double base_ops_s, patch_ops_s;
	/* What bounds it, from the simulated sides: lock-bound, line-bound,
	 * contended or local-bound (or "unknown"), each side's locks (the
	 * busiest first, then by name: utilisation, mean queue, hold), the patch side's three
	 * lines with the most transfers, and "undetermined" when the sign
	 * changes inside the band.  No commas (a CSV field). */
	char regime[PREDICT_REGIME_LEN];
};

/* Target-cost cache of one prediction session (one calibration). */
struct predict_session {
	const struct calib *c;
	const struct predict_opts *o;
	struct target here;
	const struct target *t[32];
	struct target_costs *tc[32];
	bool printed[32];
	size_t n;
};

void predict_session_init(struct predict_session *s, const struct calib *c,
			  const struct predict_opts *o);
void predict_session_free(struct predict_session *s);
/* Evaluates sp at `cpus` (pub: the published row there, or NULL). */
void predict_point_eval(struct predict_session *s, const struct seed_pair *sp,
			const struct published_row *pub, unsigned cpus,
			struct predict_point *pt);
/* n points at once, pts[i] exactly as predict_point_eval(req[i]) gives
 * it; their simulations run together (s->o->jobs at a time). */
struct predict_req {
	const struct seed_pair *sp;
	const struct published_row *pub;
	unsigned cpus;
};
void predict_points_eval(struct predict_session *s, const struct predict_req *req, size_t n,
			 struct predict_point *pts);

/*
 * Independent simulations run together: one memcg_sim_run_prog() each,
 * up to `jobs` at a time on threads, results in place.  A simulation
 * whose inputs (workload, configuration, costs, cores, iterations) are
 * byte for byte an earlier one's is not run again: it gets that one's
 * result (the simulator is deterministic: fixed seed, no global state).
 * The results, and so every printed number, do not depend on `jobs`.
 */
struct predict_sim {
	/* in */
	const char *workload;
	struct memcg_sim_cfg cfg;
	struct memcg_costs c;
	unsigned ncores;
	uint64_t per_core;
	/* out */
	int rc;                /* memcg_sim_run_prog's */
	const char *err;       /* when rc != 0 */
	struct sim_result r;   /* when rc == 0 */
	struct sim_prog prog;  /* the program that ran (names r's lines) */
	long same;             /* an earlier identical one's index, or -1 */
};
/*
 * A side's value is the mean over `members` simulations, each of
 * iters / members iterations, with seeds seed, seed + 1, ...: the
 * simulator settles into one of several rates for some programs whatever
 * the run's length (docs/validation.md), so only an average over seeds
 * narrows the spread.  As many members as the iterations allow at
 * MIN_PER_CORE each per CPU, at most PREDICT_MEMBERS (1 for a short run).
 */
#define PREDICT_MEMBERS 4
unsigned predict_members(uint64_t iters, unsigned cpus);
/* Member `member` of the simulation of pair sp's side `diff` at `iters`
 * iterations in all (pt's size, machine, and costs c) into *out, to run
 * with predict_sims_run() or memcg_sim_run_prog() on its fields. */
void predict_side_sim(const struct seed_pair *sp, const char *diff,
		      const struct memcg_costs *c, const struct predict_opts *o,
		      uint64_t iters, unsigned member, const struct predict_point *pt,
		      struct predict_sim *out);
/* 0: the CPUs this process may run on. */
unsigned predict_jobs(unsigned jobs);
/* Runs v[0..n), `jobs` at once (0: predict_jobs), each recording made
 * while the simulations of the ones before it run; identical inputs
 * run once (same).  The results do not depend on jobs. */
void predict_sims_run(struct predict_sim *v, size_t n, unsigned jobs);
void predict_sims_free(struct predict_sim *v, size_t n);
/* The effective value of knob `name` on side A (patch false) or B. */
const char *predict_side_value(const struct seed_pair *sp, bool patch, const char *name,
			       char *buf, size_t len);
/* "kernel=A -> B": the sides as the published tables name them. */
void predict_pair_label(const struct seed_pair *sp, char *buf, size_t len);
/* Only the target pt would run on for published row pub. */
void predict_point_eval_target(struct predict_session *s, const struct published_row *pub,
			       struct predict_point *pt);
/* Prints the parameter table of pt's target once per session. */
void predict_print_target(struct predict_session *s, const struct predict_point *pt,
			  FILE *out);

/* The sensitivity band's variants: k = 0, 1 the local work (fault, page,
 * syscall, extra_local_ns, the counted system-call bodies' pace insn_ns
 * and a build's extra per fault kfault_ns) x0.5 and x2; k = 2, 3 the
 * memcg work on the shared paths (cs_scale, per-CPU adds, walk steps)
 * x0.67 and x1.5; and the two modelling choices no source settles: k = 4
 * the other request type of the L2 spatial prefetcher's pair fill after
 * an ownership miss (sim_costs.pair_rfo flipped; sources.ini
 * pair_rfo_intel is an inference), k = 5 the footprint model's reuse as
 * a scan (FP_SCAN) instead of uniform.  A prediction's band is the range of its value
 * under the PREDICT_BAND_N variants and the central costs.  False (and
 * *out = *base) for a variant that changes nothing at this line size or
 * without the target's caches: a prediction does not run it, model
 * validate's points run it as the central costs (predict_sims_run runs
 * identical inputs once), and the band leaves it out. */
/* What each variant does, for the explanation ("local work x0.5", ...). */
extern const char *const predict_band_names[PREDICT_BAND_N];
bool predict_band_costs(const struct memcg_costs *base, int k, unsigned line_size,
			struct memcg_costs *out);
/* The regime of one simulated point, as predict_point.regime says it for
 * a pair: class, busiest lock's utilisation, queue and hold, the three
 * lines with the most transfers per iteration.  No commas. */
struct sim_result;
struct sim_prog;
void predict_regime_one(const struct sim_result *r, const struct memcg_costs *c,
			const struct sim_prog *names, char *buf, size_t len);

/* Prints the table; returns 0, or EXIT_USAGE on a bad table entry. */
int predict_run(const struct experiment_def *e, const struct calib *c,
		const struct predict_opts *o, FILE *out);

/* Applies "k=v,k=v" through the knob registry (exit 2 on bad input); a
 * value `cpus` becomes the number given (the size of the point). */
void predict_apply_knobs(struct knobset *ks, const char *list, unsigned cpus);

#endif
