/*
 * stats.c - summary statistics, tests and report lines (see stats.h).
 *
 * Definitions follow mmtests' 2019 tree (827b444a: Stat.pm, Summarise.pm,
 * Compare.pm, PrintGeneric.pm) and lkp-tests (lib/statistics.rb,
 * lib/compare.rb, lkp-tests @bbbc29c).  The t distribution comes from
 * GSL.
 */
#include "core/stats.h"
#include "core/csv.h"
#include "core/util.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_min(const double *x, size_t n)
{
	double m = n ? x[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double stats_max(const double *x, size_t n)
{
	double m = n ? x[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

double stats_amean(const double *x, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double stats_hmean(const double *x, size_t n)
{
	double inv = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (x[i] <= 0)
			return -1;
		inv += 1.0 / x[i];
	}
	return (double)n / inv;
}

static double sum_sq_dev(const double *x, size_t n)
{
	double m = stats_amean(x, n), sq = 0;

	for (size_t i = 0; i < n; i++)
		sq += (x[i] - m) * (x[i] - m);
	return sq;
}

double stats_stddev(const double *x, size_t n)
{
	if (n <= 1)
		return NAN;
	return sqrt(sum_sq_dev(x, n) / (double)(n - 1));
}

double stats_coeffvar(const double *x, size_t n)
{
	double m = stats_amean(x, n);

	if (n <= 1 || m == 0)
		return NAN;
	return 100.0 * stats_stddev(x, n) / m;
}

double stats_pop_stddev(const double *x, size_t n)
{
	if (n <= 1)
		return -1;
	return sqrt(sum_sq_dev(x, n) / (double)n);
}

static int cmp_asc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_desc(const void *a, const void *b)
{
	return cmp_asc(b, a);
}

static double *sorted_copy(const double *x, size_t n, bool descending)
{
	double *s = xmalloc((n ? n : 1) * sizeof(double));

	memcpy(s, x, n * sizeof(double));
	qsort(s, n, sizeof(double), descending ? cmp_desc : cmp_asc);
	return s;
}

double stats_median(const double *x, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = sorted_copy(x, n, false);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double stats_bmean(const double *x, size_t n, int pct, bool higher_better)
{
	double *s, v;
	size_t k;

	if (!n)
		return NAN;
	k = (size_t)floor((double)n * pct / 100.0);
	if (k < 1)
		k = 1;
	s = sorted_copy(x, n, higher_better);
	v = higher_better ? stats_hmean(s, k) : stats_amean(s, k);
	free(s);
	return v;
}

double stats_pdiff(double new_, double base)
{
	if (new_ == base || new_ == 0)
		return 0;
	if (base == 0)
		return 100;
	return new_ * 100.0 / base - 100.0;
}

double stats_pndiff(double new_, double base)
{
	if (new_ == base)
		return 0;
	if (new_ == 0)
		return 100;
	if (base == 0)
		return -99;
	return 100.0 - new_ * 100.0 / base;
}

double stats_lkp_change(double new_, double base)
{
	if (base == 0)
		base = 1e-100;
	return 100.0 * (new_ - base) / base;
}

double stats_ci_half(const double *x, size_t n, double level)
{
	double t;

	if (n < 2 || level <= 0 || level >= 1)
		return NAN;
	t = gsl_cdf_tdist_Qinv((1.0 - level) / 2.0, (double)(n - 1));
	return t * stats_stddev(x, n) / sqrt((double)n);
}

/* Two-sided p-value for |t| with df degrees of freedom. */
static double two_sided_p(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	return 2.0 * gsl_cdf_tdist_Q(fabs(t), df);
}

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb,
		     double *t_out, double *df_out)
{
	double va, vb, se2, t, df;

	if (na < 2 || nb < 2)
		return NAN;
	va = stats_stddev(a, na);
	vb = stats_stddev(b, nb);
	va = va * va / (double)na;
	vb = vb * vb / (double)nb;
	se2 = va + vb;
	if (se2 == 0) {
		/* No spread at all: equal means are p=1, different ones p=0. */
		t = stats_amean(a, na) == stats_amean(b, nb) ? 0 : INFINITY;
		df = (double)(na + nb - 2);
	} else {
		t = (stats_amean(a, na) - stats_amean(b, nb)) / sqrt(se2);
		/* Welch-Satterthwaite degrees of freedom. */
		df = se2 * se2 / (va * va / (double)(na - 1) +
				  vb * vb / (double)(nb - 1));
	}
	if (t_out)
		*t_out = t;
	if (df_out)
		*df_out = df;
	return t == 0 ? 1.0 : two_sided_p(t, df);
}

double stats_mmtests_p(const double *a, size_t na, const double *b, size_t nb)
{
	double sa, sb, se, diff;

	if (na < 2 || nb < 2)
		return NAN;
	sa = stats_stddev(a, na);
	sb = stats_stddev(b, nb);
	se = sqrt(sa * sa / (double)na + sb * sb / (double)nb);
	diff = fabs(stats_hmean(a, na) - stats_hmean(b, nb));
	if (diff == 0)
		return 1.0;
	if (se == 0)
		return 0.0;
	return two_sided_p(diff / se, (double)(na + nb - 2));
}

void stats_summarise(const double *x, size_t n, bool higher_better,
		     struct stats_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->min = stats_min(x, n);
	s->max = stats_max(x, n);
	s->amean = stats_amean(x, n);
	s->hmean = stats_hmean(x, n);
	s->median = stats_median(x, n);
	s->stddev = stats_stddev(x, n);
	s->coeffvar = stats_coeffvar(x, n);
	s->pop_stddev = stats_pop_stddev(x, n);
	s->bhmean50 = stats_bmean(x, n, 50, higher_better);
	s->bhmean95 = stats_bmean(x, n, 95, higher_better);
	s->bhmean99 = stats_bmean(x, n, 99, higher_better);
	s->ci95 = stats_ci_half(x, n, 0.95);
}

/* ---- mmtests compare-kernels lines ---- */

const char *const stats_mm_row_name[MM_NROWS] = {
	[MM_MIN] = "Min", [MM_HMEAN] = "Hmean", [MM_STDDEV] = "Stddev",
	[MM_COEFFVAR] = "CoeffVar", [MM_MAX] = "Max",
	[MM_BHMEAN50] = "BHmean-50", [MM_BHMEAN95] = "BHmean-95",
	[MM_BHMEAN99] = "BHmean-99",
};

double stats_mm_row_value(const struct stats_summary *s, enum mm_row row)
{
	switch (row) {
	case MM_MIN: return s->min;
	case MM_HMEAN: return s->hmean;
	case MM_STDDEV: return s->stddev;
	case MM_COEFFVAR: return s->coeffvar;
	case MM_MAX: return s->max;
	case MM_BHMEAN50: return s->bhmean50;
	case MM_BHMEAN95: return s->bhmean95;
	case MM_BHMEAN99: return s->bhmean99;
	case MM_NROWS: break;
	}
	return NAN;
}

double stats_mm_row_pct(enum mm_row row, double new_, double base)
{
	/* Spread rows are lower-is-better: a positive % means it shrank. */
	if (row == MM_STDDEV || row == MM_COEFFVAR)
		return stats_pndiff(new_, base);
	return stats_pdiff(new_, base);
}

void stats_mm_print_row(FILE *f, const char *stat, const char *op, int opw,
			double base, size_t npatch, const double *patch,
			const double *pct, const bool *signif)
{
	fprintf(f, "%-9s %-*s", stat, opw, op);
	fprintf(f, "%12.2f (%7.2f%%)", base, 0.0);
	for (size_t i = 0; i < npatch; i++) {
		if (signif && signif[i])
			fprintf(f, "%12.2f *%7.2f%%*", patch[i], pct[i]);
		else
			fprintf(f, "%12.2f (%7.2f%%)", patch[i], pct[i]);
	}
	fputc('\n', f);
}

/* Where to split a kernel/test name: the first '-' that does not start
 * an "-rcN" suffix; NULL when there is none. */
static const char *mm_split_point(const char *name)
{
	const char *p = name;

	while ((p = strchr(p, '-'))) {
		if (!(p[1] == 'r' && p[2] == 'c' && p[3] >= '0' && p[3] <= '9'))
			return p;
		p++;
	}
	return NULL;
}

void stats_mm_print_header(FILE *f, int opw, size_t nnames,
			   const char *const *names)
{
	char *line;
	size_t len;

	/* Each kernel column is "%12.2f (%7.2f%%)": 23 characters wide;
	 * names are right-aligned in it, trailing blanks dropped. */
	for (int row = 0; row < 2; row++) {
		FILE *m = open_memstream(&line, &len);
		fprintf(m, "%*s", 9 + 1 + opw, "");
		for (size_t i = 0; i < nnames; i++) {
			const char *cut = mm_split_point(names[i]);
			if (row == 0)
				fprintf(m, "%23.*s", cut ? (int)(cut - names[i]) :
					(int)strlen(names[i]), names[i]);
			else
				fprintf(m, "%23s", cut ? cut + 1 : "");
		}
		fclose(m);
		while (len && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(f, "%s\n", line);
		free(line);
	}
}

/* ---- LKP lines ---- */

#define LKP_ABS_WIDTH 10
#define LKP_REL_WIDTH 10
#define LKP_ERR_WIDTH 6

void stats_lkp_value(char *buf, size_t len, double v)
{
	if (fabs(v) < 1000)
		snprintf(buf, len, "%*.2f", LKP_ABS_WIDTH, v);
	else if (fabs(v) > 1e8)
		snprintf(buf, len, "%*.4g", LKP_ABS_WIDTH, v);
	else
		snprintf(buf, len, "%*lld", LKP_ABS_WIDTH, (long long)llround(v));
}

void stats_lkp_err(char *buf, size_t len, double avg, double stddev)
{
	double rel = avg != 0 && stddev > 0 ? 100.0 * stddev / fabs(avg) : 0;

	if (rel > 2)
		snprintf(buf, len, " \u00b1%3d%%", (int)llround(rel));
	else
		snprintf(buf, len, "%*s", LKP_ERR_WIDTH, "");
}

void stats_lkp_print_row(FILE *f, const char *key, double base_avg,
			 double base_sd, double new_avg, double new_sd)
{
	char bv[32], be[32], nv[32], ne[32], ch[32];
	size_t kl = strlen(key);

	stats_lkp_value(bv, sizeof(bv), base_avg);
	stats_lkp_err(be, sizeof(be), base_avg, base_sd);
	stats_lkp_value(nv, sizeof(nv), new_avg);
	stats_lkp_err(ne, sizeof(ne), new_avg, new_sd);
	if (kl && key[kl - 1] == '%') {
		/* Percentages change absolutely: "+3.5", no % sign. */
		snprintf(ch, sizeof(ch), "%+*.1f ", LKP_REL_WIDTH, new_avg - base_avg);
	} else {
		double c = stats_lkp_change(new_avg, base_avg);
		if (fabs(c) >= 1e5)
			snprintf(ch, sizeof(ch), "%+*.2g%%", LKP_REL_WIDTH, c);
		else
			snprintf(ch, sizeof(ch), "%+*.1f%%", LKP_REL_WIDTH, c);
	}
	fprintf(f, "%s%s%s %s%s  %s\n", bv, be, ch, nv, ne, key);
}

void stats_lkp_print_header(FILE *f, const char *axes, const char *values,
			    const char *base, const char *patch)
{
	for (int i = 0; i < 89; i++)
		fputc('=', f);
	fprintf(f, "\n%s:\n  %s\n\ncommit: \n  %s\n  %s\n\n", axes, values,
		base, patch);
	/* Commit columns: the first cut to 16 characters, the others to 27. */
	fprintf(f, "%-16.16s %-27.27s \n", base, patch);
	fprintf(f, "---------------- --------------------------- \n");
	fprintf(f, "         %%stddev     %%change         %%stddev\n");
	fprintf(f, "             \\          |                \\  \n");
}

/* ---- Shakeel-style table ---- */

void stats_table_print_header(FILE *f)
{
	fprintf(f, "%-15s %-11s %s\n\n", "Testcase", "base", "with-patch");
}

void stats_table_print_row(FILE *f, const char *testcase, double base,
			   double patch)
{
	fprintf(f, "%-15s %-11.0f %-8.0f (%5.2f %%)\n", testcase, base, patch,
		stats_pdiff(patch, base));
}

/* ---- loading samples ---- */

static void group_push(struct sample_group *g, double v)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->x = realloc(g->x, g->cap * sizeof(double));
		if (!g->x)
			die(1, "out of memory");
	}
	g->x[g->n++] = v;
}

static struct sample_group *group_get(struct sample_set *s, char *const *key)
{
	struct sample_group *g = stats_set_find(s, key);

	if (g)
		return g;
	s->groups = realloc(s->groups, (s->ngroups + 1) * sizeof(*s->groups));
	if (!s->groups)
		die(1, "out of memory");
	g = &s->groups[s->ngroups++];
	memset(g, 0, sizeof(*g));
	g->key = xcalloc(s->nkeys ? s->nkeys : 1, sizeof(char *));
	for (size_t i = 0; i < s->nkeys; i++)
		g->key[i] = xstrdup(key[i]);
	return g;
}

struct sample_group *stats_set_find(const struct sample_set *s,
				    char *const *key)
{
	for (size_t i = 0; i < s->ngroups; i++) {
		size_t k = 0;
		while (k < s->nkeys && !strcmp(s->groups[i].key[k], key[k]))
			k++;
		if (k == s->nkeys)
			return &s->groups[i];
	}
	return NULL;
}

void stats_set_free(struct sample_set *s)
{
	for (size_t i = 0; i < s->ngroups; i++) {
		for (size_t k = 0; k < s->nkeys; k++)
			free(s->groups[i].key[k]);
		free(s->groups[i].key);
		free(s->groups[i].x);
	}
	free(s->groups);
	memset(s, 0, sizeof(*s));
}

/* " in workload=W workers=N", or "" for a plain file's one group. */
static void group_where(const struct sample_set *s, const struct sample_group *g,
			char *const *names, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < s->nkeys && off < len; k++)
		if (*g->key[k])
			off += (size_t)snprintf(buf + off, len - off, "%s%s=%s",
						off ? " " : " in ",
						names ? names[k] : "key", g->key[k]);
}

bool stats_column_is_throughput(const char *col)
{
	size_t n = strlen(col);

	return (n >= 11 && !strcmp(col + n - 11, "ops_per_sec")) ||
	       strstr(col, "throughput") != NULL;
}

int stats_set_check(const struct sample_set *s, bool need_positive,
		    char *const *group_names, char *err, size_t errlen)
{
	char where[256];

	for (size_t i = 0; i < s->ngroups; i++) {
		const struct sample_group *g = &s->groups[i];
		struct stats_summary sm;

		group_where(s, g, group_names, where, sizeof(where));
		for (size_t k = 0; need_positive && k < g->n; k++)
			if (!(g->x[k] > 0) || !isfinite(1.0 / g->x[k])) {
				snprintf(err, errlen, "sample %zu of %zu%s is %g: a throughput, "
					 "like a harmonic mean (Hmean, BHmean), needs every "
					 "sample > 0", k + 1, g->n, where, g->x[k]);
				return -1;
			}
		stats_summarise(g->x, g->n, true, &sm);
		if (g->n && (!isfinite(sm.amean) ||
			     (g->n > 1 && (!isfinite(sm.stddev) || !isfinite(sm.ci95))))) {
			snprintf(err, errlen, "the %zu samples%s are too large: their mean "
				 "or spread overflows a double", g->n, where);
			return -1;
		}
	}
	return 0;
}

/* The whole input, "-" standard input: bounded, and ending at the chunk
 * that holds a NUL (core/file.c), whose line the caller names. */
static char *slurp(const char *path, size_t *len, const char **why)
{
	FILE *f = strcmp(path, "-") ? input_fopen(path, why) : stdin;
	char *buf;

	*len = 0;
	if (!f)
		return NULL;
	buf = file_read_to_nul(f, FILE_READ_MAX, len, why);
	if (f != stdin)
		fclose(f);
	return buf;
}

/* The first line that is neither blank nor a comment, trimmed. */
static bool first_line_is_number(const char *buf)
{
	char line[256];

	while (*buf) {
		size_t n = strcspn(buf, "\r\n");
		size_t a = 0, b = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
		double d;

		memcpy(line, buf, b);
		line[b] = '\0';
		while (b && (line[b - 1] == ' ' || line[b - 1] == '\t' ||
			     line[b - 1] == '\r'))
			line[--b] = '\0';
		while (line[a] == ' ' || line[a] == '\t')
			a++;
		if (line[a] && line[a] != '#')
			return parse_double(line + a, -HUGE_VAL, HUGE_VAL, &d);
		buf += n;
		buf += *buf == '\r';
		buf += *buf == '\n';
	}
	return true; /* empty: a plain file with no samples */
}

static int load_plain(char *buf, struct sample_set *out, char *err,
		      size_t errlen)
{
	char *save = NULL, *line;
	size_t lineno = 0;
	char *const nokey[1] = { NULL };
	struct sample_group *g;

	out->plain = true;
	out->nkeys = 0;
	g = group_get(out, nokey);
	/* Lines end in LF, CR LF or a lone CR: a lone CR becomes LF (CR LF
	 * keeps its CR, trimmed below). */
	for (char *q = buf; *q; q++)
		if (*q == '\r' && q[1] != '\n')
			*q = '\n';
	/* strsep keeps empty lines, so the line numbers stay right. */
	save = buf;
	while ((line = strsep(&save, "\n"))) {
		char *p = line, *e;
		double d;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		if (!*p || *p == '#')
			continue;
		if (!parse_double(p, -HUGE_VAL, HUGE_VAL, &d) || !isfinite(d)) {
			snprintf(err, errlen, "line %zu: '%s' is not a number", lineno, p);
			return -1;
		}
		group_push(g, d);
	}
	return 0;
}

int stats_load(const char *path, const char *column,
	       const struct where *where,
	       const char *const *group, size_t ngroup,
	       struct sample_set *out, char *err, size_t errlen)
{
	return stats_load_flags(path, column, where, group, ngroup, 0, out, err,
				errlen);
}

int stats_load_flags(const char *path, const char *column,
		     const struct where *where,
		     const char *const *group, size_t ngroup, unsigned flags,
		     struct sample_set *out, char *err, size_t errlen)
{
	size_t len, line, bad = 0;
	const char *why = NULL;
	char *buf = slurp(path, &len, &why), *nul;
	const char *cerr = NULL;
	struct csv_table *t;
	FILE *mf;
	int vcol, *gcol, *wcol, rc = -1;
	char **key;
	static const struct where no_filter;

	if (!where)
		where = &no_filter;

	memset(out, 0, sizeof(*out));
	if (!buf) {
		snprintf(err, errlen, "%s", why ? why : "cannot be read");
		return -1;
	}
	/* A NUL ends every string function's view of the line: "420\0 30202"
	 * would read as 420, and the lines after it would vanish. */
	if ((nul = memchr(buf, '\0', len))) {
		size_t ln = 1;
		for (const char *q = buf; q < nul; q++)
			ln += *q == '\n' || (*q == '\r' && q[1] != '\n');
		snprintf(err, errlen, "line %zu: NUL byte in the input", ln);
		free(buf);
		return -1;
	}
	/* A UTF-8 byte-order mark is no part of the first value or column name. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		memmove(buf, buf + 3, len - 2);
		len -= 3;
	}
	if (first_line_is_number(buf)) {
		if (where->n) {
			snprintf(err, errlen, "--where needs a result CSV, not a "
				 "plain sample file");
			free(buf);
			return -1;
		}
		rc = load_plain(buf, out, err, errlen);
		free(buf);
		return rc;
	}
	mf = fmemopen(buf, len, "r");
	t = mf ? csv_read(mf, &cerr, &line) : NULL;
	if (mf)
		fclose(mf);
	free(buf);
	if (!t) {
		snprintf(err, errlen, "line %zu: %s", line, cerr ? cerr : "unreadable");
		return -1;
	}
	vcol = csv_col(t, column);
	if (vcol < 0) {
		snprintf(err, errlen, "no column '%s' in the CSV header", column);
		csv_free(t);
		return -1;
	}
	gcol = xcalloc(ngroup + 1, sizeof(int));
	key = xcalloc(ngroup + 1, sizeof(char *));
	wcol = where_columns(where, t, &bad);
	if (!wcol) {
		char *name = where_key(where, bad);
		snprintf(err, errlen, "--where '%s': no column '%s' in the CSV header",
			 where->pairs[bad], name);
		free(name);
		goto out;
	}
	for (size_t i = 0; i < ngroup; i++)
		gcol[i] = csv_col(t, group[i]);
	out->nkeys = ngroup;
	for (size_t r = 0; r < t->nrows; r++) {
		char **row = t->rows[r];
		size_t i;
		double d;

		if (!where_match(where, wcol, row))
			continue;
		if ((flags & STATS_SKIP_EMPTY) && !*row[vcol]) {
			out->nempty++;
			continue;
		}
		if (!parse_double(row[vcol], -HUGE_VAL, HUGE_VAL, &d)) {
			snprintf(err, errlen, "row %zu: column '%s' holds '%s', not a "
				 "number", r + 2, column, row[vcol]);
			goto out;
		}
		for (i = 0; i < ngroup; i++)
			key[i] = gcol[i] >= 0 ? row[gcol[i]] : "";
		group_push(group_get(out, key), d);
	}
	rc = 0;
out:
	if (rc)
		stats_set_free(out);
	free(key);
	free(gcol);
	free(wcol);
	csv_free(t);
	return rc;
}
