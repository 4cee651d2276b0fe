/*
 * usl.c - Universal Scalability Law fit; see usl.h for the model and its
 * assumptions.  Follows the usl R package (smoeding/usl, R/usl.R): start at
 * gamma = max(y/x), alpha = 0.01, beta = 1e-4.
 */
#include "predict/usl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#include "core/util.h"

double usl_eval(double gamma, double alpha, double beta, double n)
{
	return gamma * n / (1.0 + alpha * (n - 1.0) + beta * n * (n - 1.0));
}

double usl_fit_eval(const struct usl_fit *f, double n)
{
	return usl_eval(f->gamma, f->alpha, f->beta, n);
}

struct usl_data {
	const double *x, *y;
	size_t n;
};

static int usl_f(const gsl_vector *p, void *arg, gsl_vector *r)
{
	const struct usl_data *d = arg;
	double g = gsl_vector_get(p, 0), a = gsl_vector_get(p, 1),
	       b = gsl_vector_get(p, 2);

	for (size_t i = 0; i < d->n; i++)
		gsl_vector_set(r, i, usl_eval(g, a, b, d->x[i]) - d->y[i]);
	return GSL_SUCCESS;
}

/* Analytic Jacobian: with D = 1 + a(N-1) + bN(N-1), X = gN/D,
 * dX/dg = N/D, dX/da = -gN(N-1)/D^2, dX/db = -gN^2(N-1)/D^2. */
static int usl_df(const gsl_vector *p, void *arg, gsl_matrix *jac)
{
	const struct usl_data *d = arg;
	double g = gsl_vector_get(p, 0), a = gsl_vector_get(p, 1),
	       b = gsl_vector_get(p, 2);

	for (size_t i = 0; i < d->n; i++) {
		double n = d->x[i];
		double den = 1.0 + a * (n - 1.0) + b * n * (n - 1.0);

		gsl_matrix_set(jac, i, 0, n / den);
		gsl_matrix_set(jac, i, 1, -g * n * (n - 1.0) / (den * den));
		gsl_matrix_set(jac, i, 2, -g * n * n * (n - 1.0) / (den * den));
	}
	return GSL_SUCCESS;
}

int usl_fit(const double *x, const double *y, size_t n, struct usl_fit *out,
	    const char **err)
{
	const gsl_multifit_nlinear_type *T = gsl_multifit_nlinear_trust;
	gsl_multifit_nlinear_parameters params =
		gsl_multifit_nlinear_default_parameters();
	struct usl_data d = { x, y, n };
	gsl_multifit_nlinear_fdf fdf;
	gsl_multifit_nlinear_workspace *w;
	gsl_vector *p0, *res;
	gsl_matrix *covar;
	double start_g = 0, ymean = 0, tss = 0, chisq;
	size_t distinct = 0;
	int info = 0, status;
	gsl_error_handler_t *old;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		if (!(x[i] >= 1.0) || !isfinite(y[i]) || y[i] < 0) {
			*err = "workers must be >= 1 and throughput finite and >= 0";
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			seen |= x[j] == x[i];
		distinct += !seen;
		if (y[i] / x[i] > start_g)
			start_g = y[i] / x[i];
		ymean += y[i] / (double)n;
	}
	if (distinct < 3) {
		*err = "need at least 3 distinct worker counts to fit 3 parameters";
		return -1;
	}
	if (start_g <= 0) {
		*err = "all throughputs are zero";
		return -1;
	}

	fdf.f = usl_f;
	fdf.df = usl_df;
	fdf.fvv = NULL;
	fdf.n = n;
	fdf.p = 3;
	fdf.params = &d;
	params.trs = gsl_multifit_nlinear_trs_lm;
	params.scale = gsl_multifit_nlinear_scale_more;

	/* Do not let GSL abort the process on a numerical error. */
	old = gsl_set_error_handler_off();
	w = gsl_multifit_nlinear_alloc(T, &params, n, 3);
	p0 = gsl_vector_alloc(3);
	gsl_vector_set(p0, 0, start_g);
	gsl_vector_set(p0, 1, 0.01);
	gsl_vector_set(p0, 2, 1e-4);
	gsl_multifit_nlinear_init(p0, &fdf, w);
	status = gsl_multifit_nlinear_driver(500, 1e-10, 1e-10, 1e-12, NULL,
					     NULL, &info, w);

	res = gsl_multifit_nlinear_residual(w);
	gsl_blas_ddot(res, res, &chisq);
	covar = gsl_matrix_alloc(3, 3);
	gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, covar);

	out->gamma = gsl_vector_get(w->x, 0);
	out->alpha = gsl_vector_get(w->x, 1);
	out->beta = gsl_vector_get(w->x, 2);
	out->rss = chisq;
	out->n = n;
	out->iterations = (int)gsl_multifit_nlinear_niter(w);
	out->converged = status == GSL_SUCCESS;
	/* Scale the covariance by the residual variance chisq / dof. */
	if (n > 3) {
		double s2 = chisq / (double)(n - 3);
		out->gamma_se = sqrt(gsl_matrix_get(covar, 0, 0) * s2);
		out->alpha_se = sqrt(gsl_matrix_get(covar, 1, 1) * s2);
		out->beta_se = sqrt(gsl_matrix_get(covar, 2, 2) * s2);
	} else {
		out->gamma_se = out->alpha_se = out->beta_se = NAN;
	}
	out->peak_n = out->beta > 0 && out->alpha < 1
			      ? sqrt((1.0 - out->alpha) / out->beta)
			      : INFINITY;
	for (size_t i = 0; i < n; i++)
		tss += (y[i] - ymean) * (y[i] - ymean);
	out->r2 = tss > 0 ? 1.0 - chisq / tss : 1.0;

	gsl_matrix_free(covar);
	gsl_vector_free(p0);
	gsl_multifit_nlinear_free(w);
	gsl_set_error_handler(old);
	if (!isfinite(out->gamma) || !isfinite(out->alpha) || !isfinite(out->beta)) {
		*err = "fit diverged";
		return -1;
	}
	return 0;
}

static int cmp_pair(const void *a, const void *b)
{
	const double *pa = a, *pb = b;
	return (pa[0] > pb[0]) - (pa[0] < pb[0]);
}

size_t usl_group_mean(const double *x, const double *y, size_t n,
		      double **xs, double **ys)
{
	double *pairs = xmalloc(2 * n * sizeof(double) + 1);
	size_t g = 0;

	for (size_t i = 0; i < n; i++) {
		pairs[2 * i] = x[i];
		pairs[2 * i + 1] = y[i];
	}
	qsort(pairs, n, 2 * sizeof(double), cmp_pair);
	*xs = xmalloc(n * sizeof(double) + 1);
	*ys = xmalloc(n * sizeof(double) + 1);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double sum = 0;
		while (j < n && pairs[2 * j] == pairs[2 * i])
			sum += pairs[2 * j++ + 1];
		(*xs)[g] = pairs[2 * i];
		(*ys)[g++] = sum / (double)(j - i);
		i = j;
	}
	free(pairs);
	return g;
}

double usl_holdout(const double *x, const double *y, size_t n, size_t k,
		   struct usl_fit *fit, double *rel_err, const char **err)
{
	double sum = 0;

	if (k == 0 || k >= n) {
		*err = "hold-out count must leave at least one point on each side";
		return NAN;
	}
	if (usl_fit(x, y, n - k, fit, err))
		return NAN;
	for (size_t i = n - k; i < n; i++) {
		double pred = usl_fit_eval(fit, x[i]);
		double e = y[i] != 0 ? (pred - y[i]) / y[i] : INFINITY;
		if (rel_err)
			rel_err[i - (n - k)] = e;
		sum += fabs(e);
	}
	return sum / (double)k;
}
