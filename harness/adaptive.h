/*
 * adaptive.h - repeating a sweep's A/B sets until their answers are sharp
 * enough (`memscale sweep --ci PCT --budget SECONDS`).
 *
 * After the matrix has run, every A/B group (workload, axis values,
 * workers) gets one more repetition of all its variants, base first and
 * back to back (interleaved A B A B as in the matrix), in a shuffled group
 * order, round after round, for as long as the 95 % interval of some
 * variant's change against the base is at least PCT percentage points
 * wide, and the time budget (counted from the start of the sweep) allows
 * another set.  Extra repetitions are points like any other
 * (points/pNNNN.csv, ids after the matrix's, rep = reps, reps+1, ...), so
 * an interrupted sweep keeps them and --resume continues the rounds.
 * What stopped the repetition is written to DIR/adaptive.txt and stderr.
 */
#ifndef MEMSCALE_ADAPTIVE_H
#define MEMSCALE_ADAPTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/sweep.h"

/*
 * The change of patch against base in % of the base mean, and its 95 %
 * Welch interval (*lo, *hi: NAN when either side has fewer than 2 runs or
 * the base mean is 0).  Returns the change (NAN when not computable).
 */
double adaptive_change_ci(const double *base, size_t nb, const double *patch,
			  size_t np, double *lo, double *hi);

struct adaptive_opts {
	double ci_pct;      /* wanted interval width, percentage points; 0: never enough */
	double budget_s;    /* seconds from t0_ns; 0: no budget */
	uint64_t t0_ns;     /* when the sweep started */
	unsigned max_rounds; /* safety stop */
};

/* Runs one point; 0 done, 130 interrupted, other: failed. */
typedef int (*adaptive_run_fn)(const struct sweep_point *p, void *ctx);

/*
 * The rounds for the sweep s in dir.  Returns 0, 130 when interrupted, 1
 * when a point failed or a result could not be read; `why` receives the
 * sentence saying what stopped it.
 */
int adaptive_run(const struct sweep *s, const char *dir,
		 const struct adaptive_opts *ao, adaptive_run_fn run, void *ctx,
		 char *why, size_t len);

#endif
