/*
 * ab.h - the one producer of A/B numbers: the change of a patch against
 * its base, the 95 % interval of that change and its p-value, from the
 * two sides' samples.  `compare` (every format), `model validate`, the
 * plots and the paper take their changes from here (plots and paper by
 * rendering `compare -f csv`), so no two places do this arithmetic.
 *
 *   change_pct  (patch_mean - base_mean) / base_mean * 100 of the
 *               arithmetic means; with lower_better (a latency column)
 *               the sign is flipped, (base - patch) / base * 100, so a
 *               positive change is an improvement either way, as
 *               mmtests prints latencies (pndiff on Amean rows);
 *   ci_*_pct    Fieller's interval for the ratio of the means at the
 *               Welch-Satterthwaite degrees of freedom, minus 1, in %:
 *               it carries the base's own uncertainty, and it excludes
 *               zero exactly when Welch's test rejects at the same level,
 *               so `significant` and the interval never disagree;
 *               NaN (unbounded) when the base mean is not itself
 *               distinguishable from zero, or a side has < 2 samples;
 *   p           Welch's two-sided t-test (core/stats.c).
 */
#ifndef MEMSCALE_AB_H
#define MEMSCALE_AB_H

#include <stdbool.h>
#include <stddef.h>

struct ab_result {
	size_t n_base, n_patch;
	double base_mean, patch_mean;
	double change_pct, ci_lo_pct, ci_hi_pct, p;
	bool significant; /* the interval excludes zero (p < 1 - level) */
};

#define AB_LEVEL 0.95

/* A/B numbers of two sample sets at confidence `level` (e.g. AB_LEVEL). */
void ab_compute(const double *base, size_t nb, const double *patch, size_t np,
		bool lower_better, double level, struct ab_result *r);

/* The change of one patch value against one base value, in %, signed as
 * ab_compute's (for single numbers: simulated or published pairs). */
double ab_change_pct(double base, double patch, bool lower_better);

#endif
