/*
 * expfile.h - experiment files (experiments/<name>.ini): a study written
 * down once, run by `memscale sweep`, compared by `memscale compare
 * --experiment`.
 *
 * Format (INI, read with libinih; one setting per line; '#' or ';' starts
 * a comment; list values are comma separated; numbers are decimal; every
 * key, knob value and timing value is checked when the file is read, an
 * unknown key or bad value is an error "file:line: reason", exit status 2,
 * under --dry-run too):
 *
 *   [experiment]
 *   name        = layout_false_sharing       # required, [a-z0-9_]
 *   description = one line of what it measures
 *   reproduces  = citation of the published table it reproduces
 *   title       = heading of its section in the paper (plain text)
 *   about       = the paragraph under it (plain text; `code` is set in
 *                 typewriter; paper/gen.sh escapes both for TeX)
 *   workloads   = page_fault1, page_fault2   # required, registry names
 *   workers     = 1,2,4 | 1-8 | 50%          # counts, ranges or % of CPUs
 *   mode        = threads | processes
 *   seconds     = 5                          # measured seconds per point
 *   warmup      = 1                          # warm-up samples discarded
 *   sample_ms   = 1000
 *   reps        = 3
 *   base        = base                       # the base variant (default:
 *                                            # the first one defined)
 *   trace       = yes | no                   # stored for the tracer
 *   lock        = pthread_mutex              # --lock, for all points
 *   counter     = percpu_batch               # --counter, for all points
 *
 *   [fixed]                                  # knobs for every point
 *   depth = 3
 *
 *   [variant base]                           # one named A/B set each;
 *   kernel = 70a64b7919cb                    # at least one is required;
 *   [variant patch]                          # `kernel` presets every
 *   kernel = fefc6e6631ff                    # per-kernel knob (memscale
 *                                            # list kernels), other keys
 *                                            # set on top of it
 *
 *   [axis]                                   # extra matrix axes:
 *   depth = 1, 2, 3, 4, 5                    # one point per value
 *
 *   [quick]                                  # --quick overrides
 *   seconds = 0.2
 *   reps = 1
 *   workers = 1,2
 *   workloads = page_fault1                  # subset
 *   variants = base, patch                   # subset
 *   axis.depth = 1, 5                        # fewer axis values
 *
 *   [published]                              # what upstream measured:
 *   # WORKLOAD = BASE, PATCH, CHANGE, MACHINE[, pair=A>B][, cpus=N][, source=TEXT]
 *   # ('-' when not given); pair: the A/B knob's values (default: the
 *   # base variant's and the `patch` variant's, else the first after the
 *   # base); the one source of published numbers (exp/published.h)
 *   fallocate1 = 1000, 1250, +25%, 52 CPUs 1 node, cpus=52
 *   # CHANGE: a signed percentage, a range LO..HI% (worst and best
 *   # subcase) or '-'; with BASE and PATCH given it must be their change
 *   # to within 0.1 points + 1 % (rounding); further
 *   # optional fields: target=NAME (the profile of the machine it ran on,
 *   # predict/targets/), role=dev|held (docs/validation.md; default held),
 *   # workers=N (benchmark workers, when fewer than cpus),
 *   # base_ops_s=X, patch_ops_s=X (the published absolute throughput of
 *   # each side: operations per second over all workers, > 0) with
 *   # abs_source=TEXT (where: thread, message, line; required with them),
 *   # build=KNOB:VALUE (a knob of the published kernel's own build, such
 *   # as its configuration, set on both sides over [fixed] and [predict])
 *
 *   [predict]                                # knobs for `model predict` and
 *   depth = 2                                # `model validate` only, over
 *   containers = cpus                        # [fixed]; `cpus`: the size of
 *                                            # the point predicted
 *
 * In [fixed], [variant] and [axis] a key is a knob (`memscale list
 * variants`) or `lock` / `counter`; values are validated against the
 * registries when the file is read, so a dry run catches every typo.
 * An [axis] may not name a key a [variant] sets, nor a per-kernel knob when
 * a variant sets `kernel` (the axis is applied last and would replace the
 * variant's value); no key is given twice in one section, no item twice
 * in a list of workloads, axis values or [quick] variants, and no
 * [published] row twice; a [published] row names a registered workload.
 * The matrix is workloads x axis values x workers x reps x variants.
 */
#ifndef MEMSCALE_EXPFILE_H
#define MEMSCALE_EXPFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct exp_kv {
	char *key, *value;
	int line;
};

struct exp_variant {
	char *name;
	struct exp_kv *set;
	size_t nset;
	int line;
};

struct exp_axis {
	char *key;
	char **values;
	size_t nvalues;
	int line;
};

/*
 * One [published] row: what upstream measured, as written and as read.
 * The one form of a published row in memory: the reader fills it,
 * `memscale published` prints it (exp/published.h), `compare` shows it
 * and predict/ scores it (predict/predict.h's seed pairs hold copies of
 * it).  The strings belong to the experiment it was read from.
 */
struct published_row {
	const char *seed;      /* the experiment's name */
	int line;              /* where it was written */
	/* as written: WORKLOAD = BASE, PATCH, CHANGE, MACHINE ('-' where
	 * BASE, PATCH or CHANGE was not given) */
	char *workload, *base, *patch, *change, *machine;
	/* optional fields as written; NULL when not given */
	char *pair;            /* "A>B" */
	char *source;
	char *target;          /* target profile of the machine it ran on
				* (predict/targets/) */
	char *role;            /* "dev" or "held" (docs/validation.md); NULL: held */
	char *abs_source;      /* where base_ops_s/patch_ops_s were published */
	char *build;           /* "KNOB:VALUE": a knob the published run's own
				* kernel build sets on both sides (its
				* configuration, not the commits'), as
				* `--set KNOB=VALUE` would */
	struct {               /* the optional fields read as numbers below */
		char *cpus, *workers, *base_ops_s, *patch_ops_s;
	} text;
	/* Read: the A/B knob and its two values (pair=A>B, else the base
	 * variant's against the default one's, published_default_variant);
	 * knob "" when no knob differs.  They point into the experiment, or
	 * into a recorded run's (published_for_run). */
	const char *knob, *base_value, *patch_value;
	char *pair_base, *pair_patch; /* pair= split (owned), or NULL */
	double change_pct;     /* NaN when not given nor computable, or a range */
	double lo, hi;         /* the change, or the range LO..HI% (worst and
				* best subcase); NaN when there is none */
	unsigned cpus;         /* machine size (0: not stated) */
	unsigned workers;      /* benchmark workers when fewer than cpus (0: cpus) */
	bool dev;              /* role=dev: a development row of
				* docs/validation.md's split (false: held out) */
	/* The published absolute throughput of each side, in operations per
	 * second over all workers (will-it-scale's and vm-scalability's
	 * totals, in the simulator's unit of one operation); 0 when not
	 * published.  For display and the ledger's ratio columns only. */
	double base_ops_s, patch_ops_s;
	const char *note;      /* the citation: source, else machine */
};

struct experiment {
	char *path;
	char *name, *description, *reproduces;
	char *title, *about;    /* the paper's section; NULL when not given */
	char **workloads;
	size_t nworkloads;
	char *workers;          /* as written: "1,2", "50%" */
	char *mode;             /* "threads" or "processes" */
	char *seconds, *warmup, *sample_ms; /* validated strings */
	unsigned reps;
	bool trace;
	char *lock, *counter;   /* NULL: the run defaults */
	size_t base;            /* index of the base variant */
	struct exp_kv *fixed;
	size_t nfixed;
	struct exp_variant *variants;
	size_t nvariants;
	struct exp_axis *axes;
	size_t naxes;
	struct published_row *published;
	size_t npublished;
	struct exp_kv *predict; /* [predict]: knobs for the predictions only */
	size_t npredict;
	bool has_quick;
	/* [quick] overrides, applied by exp_apply_quick() */
	struct experiment *quick;
};

/*
 * What only the layers above know, handed down as data: the registered
 * workloads (harness/workload.h), which [experiment] workloads and [published] rows must name,
 * and the most workers a run takes on this machine (harness/run_opts.h:
 * workers_max()).  harness/expfile.h's exp_limits_here() fills it.  A
 * NULL limits checks the form alone: any workload name, and workers up
 * to EXP_WORKERS_MAX.
 */
struct exp_limits {
	const char *const *workloads;
	size_t nworkloads;
	long workers_max;
};
#define EXP_WORKERS_MAX (1L << 20)

/* Parses and validates; on any problem prints "file:line: reason" and
 * exits with EXIT_USAGE. */
struct experiment *exp_read(const char *path, const struct exp_limits *lim);
/* Whether lim lets an experiment name workload `name` (true: no lim). */
static inline bool exp_workload_known(const struct exp_limits *lim, const char *name)
{
	if (!lim)
		return true;
	for (size_t i = 0; i < lim->nworkloads; i++)
		if (!strcmp(lim->workloads[i], name))
			return true;
	return false;
}
/* Replaces settings with the [quick] profile (no-op without one). */
void exp_apply_quick(struct experiment *e);
/* Sets one run setting (workers, mode, seconds, warmup, sample_ms, reps)
 * as the [experiment] section would: 1 done, 0 bad value (reason in why),
 * -1 not a run setting. */
int exp_set_run(struct experiment *e, const char *key, const char *value,
		const struct exp_limits *lim, char *why, size_t len);
void exp_free(struct experiment *e);

/* Total points: workloads x axis combinations x workers x reps x variants
 * (workers resolved on this machine); SIZE_MAX when the product
 * overflows. */
size_t exp_npoints(const struct experiment *e, size_t nworkers);

#endif
