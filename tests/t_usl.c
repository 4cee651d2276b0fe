/*
 * t_usl.c - the USL fitter recovers known coefficients: exactly from
 * noiseless data, and within a few standard errors from data with 1 %
 * Gaussian noise (fixed GSL seed, so the test is deterministic); the
 * peak N* and the hold-out check follow from the fit.
 */
#include <math.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "predict/usl.h"
#include "tap.h"

#define G 1000.0
#define A 0.03
#define B 2e-4

int main(void)
{
	static const double ns[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128 };
	size_t n = sizeof(ns) / sizeof(ns[0]);
	double y[sizeof(ns) / sizeof(ns[0])], rel[4];
	struct usl_fit f;
	const char *err = NULL;
	gsl_rng *rng;
	double mae;

	for (size_t i = 0; i < n; i++)
		y[i] = usl_eval(G, A, B, ns[i]);
	ok(usl_fit(ns, y, n, &f, &err) == 0, "noiseless fit succeeds");
	ok(fabs(f.gamma / G - 1) < 1e-6 && fabs(f.alpha / A - 1) < 1e-5 &&
	   fabs(f.beta / B - 1) < 1e-5,
	   "noiseless: gamma %.6g alpha %.6g beta %.6g", f.gamma, f.alpha, f.beta);
	ok(fabs(f.peak_n - sqrt((1 - A) / B)) < 1e-3, "peak N* = %.2f (want %.2f)",
	   f.peak_n, sqrt((1 - A) / B));

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 12345);
	for (size_t i = 0; i < n; i++)
		y[i] = usl_eval(G, A, B, ns[i]) * (1 + gsl_ran_gaussian(rng, 0.01));
	gsl_rng_free(rng);
	ok(usl_fit(ns, y, n, &f, &err) == 0 && f.converged, "noisy fit converges");
	diag("gamma %.4g +- %.2g, alpha %.4g +- %.2g, beta %.4g +- %.2g, N* %.1f, R2 %.5f",
	     f.gamma, f.gamma_se, f.alpha, f.alpha_se, f.beta, f.beta_se, f.peak_n, f.r2);
	ok(fabs(f.gamma - G) < 4 * f.gamma_se && f.gamma_se < 0.03 * G,
	   "gamma within 4 SE of the truth");
	ok(fabs(f.alpha - A) < 4 * f.alpha_se && f.alpha_se < 0.5 * A,
	   "alpha within 4 SE of the truth");
	ok(fabs(f.beta - B) < 4 * f.beta_se && f.beta_se < 0.5 * B,
	   "beta within 4 SE of the truth");
	ok(f.r2 > 0.99, "R^2 %.5f", f.r2);

	/* Hold-out: fit 10 points, predict 48..128 within a few percent. */
	mae = usl_holdout(ns, y, n, 4, &f, rel, &err);
	ok(isfinite(mae) && mae < 0.05, "hold-out mean |rel err| %.3f < 5%%", mae);

	/* Bad input is refused, not fitted. */
	ok(usl_fit(ns, y, 2, &f, &err) == -1 && err, "two points refused");
	{
		double x2[] = { 1, 1, 1, 2 }, y2[] = { 1, 1, 1, 2 };
		ok(usl_fit(x2, y2, 4, &f, &err) == -1, "two distinct N refused");
		x2[0] = 0;
		ok(usl_fit(x2, y2, 4, &f, &err) == -1, "N = 0 refused");
	}
	ok(isnan(usl_holdout(ns, y, n, n, &f, NULL, &err)), "hold-out of everything refused");
	{
		double gx[] = { 2, 1, 2, 1, 4 }, gy[] = { 10, 4, 20, 6, 7 }, *xs, *ys;
		size_t g = usl_group_mean(gx, gy, 5, &xs, &ys);
		ok(g == 3 && xs[0] == 1 && ys[0] == 5 && xs[1] == 2 && ys[1] == 15 &&
		   xs[2] == 4 && ys[2] == 7, "grouping by workers takes the mean");
		free(xs);
		free(ys);
	}
	return done_testing();
}
