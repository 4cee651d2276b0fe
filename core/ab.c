/*
 * ab.c - change, interval and p of one A/B pair (core/ab.h).
 *
 * Fieller's interval: with a = base mean, b = patch mean, va, vb their
 * squared standard errors and t the t quantile, the ratio R = b/a is in
 * the set where (b - R a)^2 <= t^2 (vb + R^2 va), i.e.
 *   R^2 (a^2 - t^2 va) - 2 R a b + (b^2 - t^2 vb) <= 0.
 * At R = 1 this is |b - a| <= t sqrt(va + vb), Welch's test; so the
 * interval of R - 1 holds 0 exactly when Welch's p >= 1 - level.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "core/ab.h"
#include "core/stats.h"

double ab_change_pct(double base, double patch, bool lower_better)
{
	double c = (patch - base) / base * 100.0;

	if (base == 0 || isnan(base) || isnan(patch))
		return NAN;
	return lower_better ? -c : c;
}

/* Fieller's bounds of R = b/a, or NaN when the set is not an interval. */
static void fieller(double a, double b, double va, double vb, double t,
		    double *lo, double *hi)
{
	double A = a * a - t * t * va, B = -2.0 * a * b, C = b * b - t * t * vb;
	double disc = B * B - 4.0 * A * C;

	*lo = *hi = NAN;
	if (A <= 0 || disc < 0)
		return;
	*lo = (-B - sqrt(disc)) / (2.0 * A);
	*hi = (-B + sqrt(disc)) / (2.0 * A);
}

void ab_compute(const double *base, size_t nb, const double *patch, size_t np,
		bool lower_better, double level, struct ab_result *r)
{
	double a, b, va, vb, df = NAN, t, lo, hi, sa, sb;

	r->n_base = nb;
	r->n_patch = np;
	r->base_mean = a = nb ? stats_amean(base, nb) : NAN;
	r->patch_mean = b = np ? stats_amean(patch, np) : NAN;
	r->change_pct = ab_change_pct(a, b, lower_better);
	r->ci_lo_pct = r->ci_hi_pct = NAN;
	r->p = NAN;
	r->significant = false;
	if (nb < 2 || np < 2)
		return;
	r->p = stats_welch_p(base, nb, patch, np, NULL, &df);
	sa = stats_stddev(base, nb);
	sb = stats_stddev(patch, np);
	va = sa * sa / (double)nb;
	vb = sb * sb / (double)np;
	if (isnan(df) || df <= 0)
		return;
	t = gsl_cdf_tdist_Qinv((1.0 - level) / 2.0, df);
	if (va + vb == 0) {
		lo = hi = b / a;
		if (a == 0)
			return;
	} else {
		fieller(a, b, va, vb, t, &lo, &hi);
	}
	if (isnan(lo))
		return;
	lo = (lo - 1.0) * 100.0;
	hi = (hi - 1.0) * 100.0;
	if (lower_better) {
		double x = lo;
		lo = -hi;
		hi = -x;
	}
	r->ci_lo_pct = lo;
	r->ci_hi_pct = hi;
	r->significant = !isnan(r->p) && r->p < 1.0 - level;
}
