/*
 * adaptive.c - interleaved A/B repetition until each change's 95 %
 * interval is narrower than a set width or a time budget runs out (see
 * adaptive.h).  The interval is Welch's (unequal variances, Welch-
 * Satterthwaite degrees of freedom) on the difference of the means,
 * divided by the base mean: the interval `memscale compare` reports.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/csv.h"
#include "core/stats.h"
#include "core/util.h"
#include "harness/adaptive.h"

double adaptive_change_ci(const double *base, size_t nb, const double *patch,
			  size_t np, double *lo, double *hi)
{
	double mb = nb ? stats_amean(base, nb) : NAN;
	double mp = np ? stats_amean(patch, np) : NAN;
	double c = (nb && np && mb != 0) ? (mp - mb) / mb * 100.0 : NAN;
	double df, sb, sp, se, t;

	*lo = *hi = NAN;
	if (nb < 2 || np < 2 || !isfinite(c))
		return c;
	sb = stats_stddev(base, nb);
	sp = stats_stddev(patch, np);
	se = sqrt(sb * sb / (double)nb + sp * sp / (double)np);
	if (se == 0) {
		*lo = *hi = c;
		return c;
	}
	stats_welch_p(patch, np, base, nb, NULL, &df);
	t = gsl_cdf_tdist_Qinv(0.025, df);
	*lo = c - t * se / fabs(mb) * 100.0;
	*hi = c + t * se / fabs(mb) * 100.0;
	return c;
}

/* Extra repetition r (>= reps) of variant v in group g: a point id after
 * the matrix's, the same for the same (g, r, v) in every run. */
static size_t extra_id(const struct sweep *s, size_t ngroups, size_t g,
		       unsigned r, size_t v)
{
	size_t nv = s->e->nvariants;
	return s->npoints + ((size_t)(r - s->e->reps) * ngroups + g) * nv + v;
}

/* Point rep r of variant v in group g (matrix or extra). */
static struct sweep_point group_point(const struct sweep *s, size_t ngroups,
				      size_t g, unsigned r, size_t v)
{
	size_t nv = s->e->nvariants, reps = s->e->reps;
	struct sweep_point p = s->points[(g * reps) * nv + v];

	p.rep = r;
	if (r >= reps)
		p.id = extra_id(s, ngroups, g, r, v);
	else
		p.id = (g * reps + r) * nv + v;
	return p;
}

static char *path_of(const char *dir, const struct sweep_point *p)
{
	char id[32];

	sweep_point_id(p, id, sizeof(id));
	return xasprintf("%s/points/%s.csv", dir, id);
}

/* ops_per_sec of a finished point; NAN when absent or unreadable. */
static double point_value(const char *dir, const struct sweep_point *p)
{
	char *path = path_of(dir, p);
	const char *err;
	size_t line;
	struct csv_table *t = access(path, F_OK) ? NULL : csv_read_file(path, &err, &line);
	double v = NAN;
	int c;

	if (t && t->nrows && (c = csv_col(t, "ops_per_sec")) >= 0)
		v = strtod(t->rows[0][c], NULL);
	if (t)
		csv_free(t);
	free(path);
	return v;
}

/* Repetitions of group g whose variants all finished: the matrix's, then
 * extras as long as every variant of that repetition exists. */
static unsigned group_reps(const struct sweep *s, const char *dir, size_t ngroups,
			   size_t g)
{
	unsigned r = s->e->reps;

	for (;; r++) {
		for (size_t v = 0; v < s->e->nvariants; v++) {
			struct sweep_point p = group_point(s, ngroups, g, r, v);
			char *path = path_of(dir, &p);
			int missing = access(path, F_OK);

			free(path);
			if (missing)
				return r;
		}
	}
}

/* Widest interval of group g over its non-base variants (INFINITY when
 * one cannot be computed yet). */
static double group_width(const struct sweep *s, const char *dir, size_t ngroups,
			  size_t g, unsigned reps)
{
	size_t nv = s->e->nvariants, base = s->e->base;
	double *b = xcalloc(reps + 1, sizeof(double)), *x = xcalloc(reps + 1, sizeof(double));
	double widest = 0;
	size_t nb = 0;

	for (unsigned r = 0; r < reps; r++) {
		struct sweep_point p = group_point(s, ngroups, g, r, base);
		double y = point_value(dir, &p);
		if (isfinite(y))
			b[nb++] = y;
	}
	for (size_t v = 0; v < nv; v++) {
		size_t nx = 0;
		double lo, hi;

		if (v == base)
			continue;
		for (unsigned r = 0; r < reps; r++) {
			struct sweep_point p = group_point(s, ngroups, g, r, v);
			double y = point_value(dir, &p);
			if (isfinite(y))
				x[nx++] = y;
		}
		adaptive_change_ci(b, nb, x, nx, &lo, &hi);
		if (!isfinite(lo) || !isfinite(hi))
			widest = INFINITY;
		else if (hi - lo > widest)
			widest = hi - lo;
	}
	free(b);
	free(x);
	return widest;
}

int adaptive_run(const struct sweep *s, const char *dir,
		 const struct adaptive_opts *ao, adaptive_run_fn run, void *ctx,
		 char *why, size_t len)
{
	size_t nv = s->e->nvariants, reps = s->e->reps;
	size_t ngroups = (nv && reps) ? s->npoints / (nv * reps) : 0;
	size_t *todo = xcalloc(ngroups ? ngroups : 1, sizeof(size_t)), extra = 0;
	unsigned *have = xcalloc(ngroups ? ngroups : 1, sizeof(unsigned));
	uint64_t st = s->seed ^ 0x9e3779b97f4a7c15ull;
	double per_set = 0; /* seconds one A/B set took, measured */
	size_t sets = 0;
	int status = 0;

	snprintf(why, len, "no A/B groups");
	for (unsigned round = 0; ngroups; round++) {
		size_t n = 0;
		double worst = 0;

		for (size_t g = 0; g < ngroups; g++) {
			double w;

			have[g] = group_reps(s, dir, ngroups, g);
			w = group_width(s, dir, ngroups, g, have[g]);
			if (w > worst)
				worst = w;
			if (!(w < ao->ci_pct))
				todo[n++] = g;
		}
		if (!n) {
			snprintf(why, len, "every change's 95 %% interval is narrower than "
				 "%g pp (widest %.3g pp) after %zu extra A/B set(s)",
				 ao->ci_pct, worst, extra);
			break;
		}
		if (round >= ao->max_rounds) {
			snprintf(why, len, "stopped after %u rounds (%zu extra A/B sets): "
				 "%zu of %zu groups still have an interval %g pp or wider",
				 round, extra, n, ngroups, ao->ci_pct);
			break;
		}
		/* shuffled group order, as the matrix's blocks */
		for (size_t i = n; i > 1; i--) {
			size_t j = (size_t)(splitmix64(&st) % i), tmp = todo[i - 1];
			todo[i - 1] = todo[j];
			todo[j] = tmp;
		}
		for (size_t i = 0; i < n; i++) {
			size_t g = todo[i];
			double el = (double)(now_ns() - ao->t0_ns) / 1e9;
			uint64_t t1 = now_ns();

			if (ao->budget_s > 0 && el + per_set > ao->budget_s) {
				snprintf(why, len, "the time budget (%g s) ran out after %zu extra "
					 "A/B set(s): %zu of %zu groups still have an interval "
					 "%g pp or wider (widest %.3g pp)", ao->budget_s, extra,
					 n - i, ngroups, ao->ci_pct, worst);
				goto out;
			}
			/* base first, then the other variants, back to back */
			for (size_t k = 0; k < nv; k++) {
				size_t v = k == 0 ? s->e->base : (k <= s->e->base ? k - 1 : k);
				struct sweep_point p = group_point(s, ngroups, g, have[g], v);

				status = run(&p, ctx);
				if (status) {
					snprintf(why, len, "%s after %zu extra A/B set(s)",
						 status == 130 ? "interrupted" : "a point failed", extra);
					if (status != 130)
						status = 1;
					goto out;
				}
			}
			extra++;
			sets++;
			per_set += ((double)(now_ns() - t1) / 1e9 - per_set) / (double)sets;
		}
	}
out:
	free(todo);
	free(have);
	return status;
}
