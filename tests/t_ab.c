/*
 * t_ab.c - core/ab.c, the one producer of A/B numbers: the change of the
 * means, Fieller's interval (its bounds solve Fieller's equation at the
 * Welch degrees of freedom), the interval excluding 0 exactly when
 * Welch's p < 0.05, the sign flip of a lower-is-better column, and the
 * degenerate cases (one sample, no spread).
 */
#include "core/ab.h"
#include "core/stats.h"
#include "tap.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

static void fieller_residual(const double *a, size_t na, const double *b, size_t nb,
			     double r_pct, const char *what)
{
	double df, ma = stats_amean(a, na), mb = stats_amean(b, nb);
	double sa = stats_stddev(a, na), sb = stats_stddev(b, nb);
	double va = sa * sa / (double)na, vb = sb * sb / (double)nb, t, R, lhs, rhs;

	stats_welch_p(a, na, b, nb, NULL, &df);
	t = gsl_cdf_tdist_Qinv(0.025, df);
	R = 1 + r_pct / 100;
	lhs = (mb - R * ma) * (mb - R * ma);
	rhs = t * t * (vb + R * R * va);
	ok(fabs(lhs - rhs) <= 1e-9 * rhs, "%s bound solves Fieller's equation "
	   "(%.9g vs %.9g)", what, lhs, rhs);
}

int main(void)
{
	/* the Welch example of t_stats.c: means 3 and 6 */
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 6, 8, 10 };
	struct ab_result r, l;
	unsigned agree = 0, nsig = 0, trials = 400;

	ab_compute(a, 5, b, 5, false, AB_LEVEL, &r);
	ok(r.n_base == 5 && r.n_patch == 5, "sample counts");
	ok(r.base_mean == 3 && r.patch_mean == 6, "means 3 and 6");
	ok(fabs(r.change_pct - 100) < 1e-12, "change +100 %% (%g)", r.change_pct);
	ok(fabs(r.p - 0.1075311949) < 1e-9, "p is Welch's (%.10g)", r.p);
	ok(r.ci_lo_pct < 0 && r.ci_hi_pct > 100, "interval [%g, %g] spans 0 and the "
	   "estimate", r.ci_lo_pct, r.ci_hi_pct);
	ok(!r.significant, "p > 0.05: not significant");
	fieller_residual(a, 5, b, 5, r.ci_lo_pct, "lower");
	fieller_residual(a, 5, b, 5, r.ci_hi_pct, "upper");
	/* Fieller's interval of a ratio is not symmetric around it */
	ok(r.ci_hi_pct - r.change_pct > r.change_pct - r.ci_lo_pct,
	   "asymmetric: wider above (ratio interval)");

	ab_compute(a, 5, b, 5, true, AB_LEVEL, &l);
	ok(l.change_pct == -r.change_pct && l.ci_lo_pct == -r.ci_hi_pct &&
	   l.ci_hi_pct == -r.ci_lo_pct && l.p == r.p,
	   "lower-is-better flips change and interval, keeps p");

	/* the interval excludes 0 exactly when Welch rejects at 5 % */
	srand(7);
	for (unsigned k = 0; k < trials; k++) {
		double x[6], y[6];
		for (int i = 0; i < 6; i++) {
			x[i] = 100 + (rand() % 1000) / 100.0;
			y[i] = 100 + (k % 7) * 0.8 + (rand() % 1000) / 100.0;
		}
		ab_compute(x, 6, y, 6, false, AB_LEVEL, &r);
		agree += r.significant == (r.p < 0.05) &&
			 r.significant == (r.ci_lo_pct > 0 || r.ci_hi_pct < 0);
		nsig += r.significant;
	}
	ok(agree == trials, "interval, p and significant agree in %u of %u", agree,
	   trials);
	ok(nsig > 0 && nsig < trials, "both outcomes occur (%u significant)", nsig);

	ab_compute(a, 1, b, 5, false, AB_LEVEL, &r);
	ok(isnan(r.p) && isnan(r.ci_lo_pct) && !r.significant &&
	   fabs(r.change_pct - 500) < 1e-12, "one base sample: change, no interval");
	{
		const double c[] = { 2, 2, 2 }, d[] = { 3, 3, 3 };
		ab_compute(c, 3, d, 3, false, AB_LEVEL, &r);
		ok(r.significant && r.ci_lo_pct == 50 && r.ci_hi_pct == 50,
		   "no spread: a point interval at +50 %%");
	}
	ok(fabs(ab_change_pct(200, 150, false) + 25) < 1e-12 &&
	   fabs(ab_change_pct(200, 150, true) - 25) < 1e-12 &&
	   isnan(ab_change_pct(0, 1, false)), "ab_change_pct of single values");
	return done_testing();
}
