/*
 * usl.h - Universal Scalability Law (Gunther, Guerrilla Capacity Planning
 * eq. 4.31):  X(N) = gamma N / (1 + alpha (N-1) + beta N (N-1)).
 *
 * alpha is contention (a serial fraction), beta coherency (pairwise
 * cross-talk, the signature of O(N) hand-offs), gamma single-worker
 * throughput.  Fitted by nonlinear least squares (GSL multifit_nlinear,
 * trust region + Levenberg-Marquardt) on all three coefficients, like the
 * usl R package >= 2.0; standard errors come from the covariance of the
 * fit scaled by the residual variance.
 *
 * Assumptions: throughput samples are independent with equal variance;
 * the model is smooth (no mode switches between the measured N and the
 * extrapolated N).  Parameters are not constrained; a negative alpha or
 * beta is reported as it is (it means the data do not show that effect).
 */
#ifndef MEMSCALE_USL_H
#define MEMSCALE_USL_H

#include <stdbool.h>
#include <stddef.h>

struct usl_fit {
	double gamma, alpha, beta;
	double gamma_se, alpha_se, beta_se;
	double peak_n;   /* sqrt((1 - alpha) / beta); INFINITY when beta <= 0 */
	double rss;      /* residual sum of squares */
	double r2;       /* coefficient of determination */
	size_t n;        /* points used */
	int iterations;
	bool converged;
};

double usl_eval(double gamma, double alpha, double beta, double n);
double usl_fit_eval(const struct usl_fit *f, double n);

/*
 * Fit x[i] (workers) -> y[i] (throughput).  Needs at least 3 points with
 * distinct x.  Returns 0, or -1 with *err set to a static message.
 */
int usl_fit(const double *x, const double *y, size_t n, struct usl_fit *out,
	    const char **err);

/*
 * Hold-out check (PerfModels' gnuplot-usl style): fit on the first n - k
 * points (sorted by workers), predict the last k.  rel_err[i] (k entries,
 * may be NULL) gets (predicted - measured) / measured; returns the mean
 * absolute relative error, or NAN with *err set when the fit fails.
 */
double usl_holdout(const double *x, const double *y, size_t n, size_t k,
		   struct usl_fit *fit, double *rel_err, const char **err);

/*
 * Mean throughput per distinct worker count, sorted by workers.  Returns
 * the number of groups; xs/ys are malloc'd.
 */
size_t usl_group_mean(const double *x, const double *y, size_t n,
		      double **xs, double **ys);

#endif
