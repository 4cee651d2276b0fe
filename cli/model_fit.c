/*
 * model_fit.c - `memscale model fit usl`: Universal Scalability Law fit
 * (predict/usl.h) of a results CSV or of 'N throughput' lines.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "core/csv.h"
#include "predict/usl.h"

/* Loads (N, X) pairs from a results CSV or a plain two-column file. */
static size_t load_xy(const char *path, struct mopts *m, double **x, double **y)
{
	FILE *f;
	char line[4096];
	size_t n = 0, cap = 64, lineno = 0;

	check_input_file("model fit usl", path, "a results CSV or two columns N X");
	f = open_input_file("model fit usl", path, "a results CSV or two columns N X");
	/* A header naming "workers" means a results CSV. */
	if (fgets(line, sizeof(line), f) && strstr(line, "workers")) {
		const char *err = NULL;
		size_t el = 0;
		struct csv_table *t;
		int cx, cy, *wcol;
		size_t bad = 0;

		fclose(f);
		t = csv_read_file(path, &err, &el);
		if (!t)
			die(EXIT_USAGE, "model fit usl: %s: line %zu: %s", path, el, err);
		cx = csv_col(t, "workers");
		cy = csv_col(t, m->y ? m->y : "ops_per_sec");
		if (cy < 0)
			die(EXIT_USAGE, "model fit usl: %s: no column '%s'", path,
			    m->y ? m->y : "ops_per_sec");
		*x = xmalloc((t->nrows + 1) * sizeof(double));
		*y = xmalloc((t->nrows + 1) * sizeof(double));
		wcol = where_columns(&m->where, t, &bad);
		if (!wcol) {
			char *key = where_key(&m->where, bad);
			die(EXIT_USAGE, "model fit usl: --where column '%s' not in the data", key);
		}
		for (size_t r = 0; r < t->nrows; r++) {
			if (!where_match(&m->where, wcol, t->rows[r]))
				continue;
			if (!parse_double(t->rows[r][cx], 1, 1e9, &(*x)[n]) ||
			    !parse_double(t->rows[r][cy], 0, 1e300, &(*y)[n]))
				die(EXIT_USAGE, "model fit usl: %s: row %zu: bad workers '%s' or %s '%s'",
				    path, r + 2, t->rows[r][cx], m->y ? m->y : "ops_per_sec",
				    t->rows[r][cy]);
			n++;
		}
		free(wcol);
		csv_free(t);
		return n;
	}
	if (m->where.n || m->y)
		die(EXIT_USAGE, "model fit usl: --where/--y need a results CSV; '%s' has no header", path);
	rewind(f);
	*x = xmalloc(cap * sizeof(double));
	*y = xmalloc(cap * sizeof(double));
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *a, *b, *extra;

		lineno++;
		a = strtok_r(line, " \t,\r\n", &save);
		if (!a || *a == '#')
			continue;
		b = strtok_r(NULL, " \t,\r\n", &save);
		extra = strtok_r(NULL, " \t,\r\n", &save);
		if (n == cap) {
			cap *= 2;
			*x = realloc(*x, cap * sizeof(double));
			*y = realloc(*y, cap * sizeof(double));
			if (!*x || !*y)
				die(1, "out of memory");
		}
		if (!b || extra || !parse_double(a, 1, 1e9, &(*x)[n]) ||
		    !parse_double(b, 0, 1e300, &(*y)[n]))
			die(EXIT_USAGE, "model fit usl: %s: line %zu: want 'N throughput' "
			    "(N >= 1, throughput >= 0)", path, lineno);
		n++;
	}
	fclose(f);
	return n;
}

int model_fit(struct mopts *m)
{
	double *x, *y, *gx, *gy;
	size_t n, g;
	struct usl_fit fit;
	const char *err = NULL;

	if (m->nargs < 1 || strcmp(m->args[0], "usl"))
		die(EXIT_USAGE, "model fit: unknown model '%s' (want: usl)",
		    m->nargs ? m->args[0] : "");
	m->action = "fit usl";
	if (m->nargs != 2)
		die(EXIT_USAGE, "model fit usl: want one DATA file");
	n = load_xy(m->args[1], m, &x, &y);
	g = usl_group_mean(x, y, n, &gx, &gy);
	if (g < 3)
		die(EXIT_USAGE, "model fit usl: %s: %zu distinct worker counts; need at least 3",
		    m->args[1], g);
	{
		size_t pos = 0;
		for (size_t i = 0; i < g; i++)
			pos += gy[i] > 0;
		/* Bad data, not a failed fit: no curve passes through zeros. */
		if (pos < 3)
			die(EXIT_USAGE, "model fit usl: %s: %zu of %zu worker counts have a "
			    "throughput above 0; need at least 3", m->args[1], pos, g);
	}
	if (m->holdout && (size_t)m->holdout + 3 > g)
		die(EXIT_USAGE, "model fit usl: --holdout %ld leaves fewer than 3 points to fit",
		    m->holdout);
	if (m->holdout) {
		double *rel = xmalloc((size_t)m->holdout * sizeof(double));
		double mae = usl_holdout(gx, gy, g, (size_t)m->holdout, &fit, rel, &err);
		if (isnan(mae))
			die(1, "model fit usl: %s", err);
		printf("hold-out: fitted %zu points, predicting the last %ld\n",
		       g - (size_t)m->holdout, m->holdout);
		printf("%8s %14s %14s %9s\n", "N", "measured", "predicted", "rel_err");
		for (size_t i = g - (size_t)m->holdout; i < g; i++)
			printf("%8g %14.6g %14.6g %+8.2f%%\n", gx[i], gy[i],
			       usl_fit_eval(&fit, gx[i]), 100 * rel[i - (g - (size_t)m->holdout)]);
		printf("hold-out mean |rel err| %.2f%%\n", 100 * mae);
		free(rel);
	} else if (usl_fit(gx, gy, g, &fit, &err)) {
		die(1, "model fit usl: %s", err);
	}
	if (g < 6)
		fprintf(stderr, "model fit usl: warning: only %zu points (the usl package "
			"warns below 6)\n", g);
	printf("USL fit over %zu points (%s)%s\n", fit.n, m->args[1],
	       fit.converged ? "" : "  [NOT CONVERGED]");
	printf("  gamma %.6g +- %.3g   (single-worker throughput)\n", fit.gamma, fit.gamma_se);
	printf("  alpha %.6g +- %.3g   (contention)\n", fit.alpha, fit.alpha_se);
	printf("  beta  %.6g +- %.3g   (coherency)\n", fit.beta, fit.beta_se);
	if (isfinite(fit.peak_n))
		printf("  peak N* = sqrt((1-alpha)/beta) = %.1f, X(N*) = %.6g\n",
		       fit.peak_n, usl_fit_eval(&fit, fit.peak_n));
	else
		printf("  peak N*: none (beta <= 0: no retrograde region)\n");
	printf("  R^2 %.5f, RSS %.6g, %d iterations\n", fit.r2, fit.rss, fit.iterations);
	/* Gunther's law holds for 0 <= alpha <= 1 and beta >= 0: outside
	 * that the curve fits the points but no longer means contention and
	 * coherency (e.g. throughput falling from 1 to 2 workers). */
	if (fit.alpha < 0 || fit.alpha > 1 || fit.beta < 0)
		printf("  NOTE: outside the USL's valid range (0 <= alpha <= 1, beta >= 0):"
		       "%s%s the coefficients describe this curve only, not contention "
		       "and coherency costs\n", fit.alpha < 0 || fit.alpha > 1 ?
		       " alpha out of [0,1];" : "", fit.beta < 0 ? " beta < 0;" : "");
	free(x);
	free(y);
	free(gx);
	free(gy);
	return 0;
}
