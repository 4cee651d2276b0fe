/*
 * stats.h - summary statistics and comparison tests for result samples,
 * with the exact definitions of the two tools whose reports the memcg
 * threads quote:
 *
 *  - mmtests compare-kernels as of its 2019 tree (827b444a, the version
 *    Alex Shi used for the per-memcg lru_lock series): Min, Max, Hmean,
 *    sample Stddev around the arithmetic mean, CoeffVar, BHmean-P over the
 *    best P% of samples, pdiff/pndiff percentages and the Hmean t-test
 *    marked with '*' at p < 0.10;
 *  - LKP (lkp-tests lib/statistics.rb, lib/compare.rb): arithmetic mean,
 *    population stddev (-1 for n <= 1), %change with a 1e-100 zero base.
 *
 * Plus t-based confidence intervals and Welch's t-test (GSL's Student t
 * distribution).  Every function takes a plain array; none reorders the
 * caller's data.
 */
#ifndef MEMSCALE_STATS_H
#define MEMSCALE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/where.h"

double stats_min(const double *x, size_t n);
double stats_max(const double *x, size_t n);
double stats_amean(const double *x, size_t n);
/* n / sum(1/x); -1 if any x <= 0 (mmtests' convention), NaN if n == 0. */
double stats_hmean(const double *x, size_t n);
/* sqrt(sum((x - amean)^2) / (n - 1)); NaN if n <= 1 (mmtests Stddev). */
double stats_stddev(const double *x, size_t n);
/* 100 * Stddev / amean (mmtests CoeffVar). */
double stats_coeffvar(const double *x, size_t n);
/* sqrt(sum((x - avg)^2) / n); -1 if n <= 1 (LKP calc_avg_stddev). */
double stats_pop_stddev(const double *x, size_t n);
double stats_median(const double *x, size_t n);

/*
 * mmtests BHmean-P: sort best first (descending when higher is better),
 * k = max(1, floor(n * P / 100)), Hmean of the k best.  When lower is
 * better this is BAmean-P: the arithmetic mean of the k smallest.
 */
double stats_bmean(const double *x, size_t n, int pct, bool higher_better);

/* mmtests pdiff (higher is better): new*100/base - 100; 0 if equal or
 * new == 0, 100 if base == 0. */
double stats_pdiff(double new_, double base);
/* mmtests pndiff (Stddev, CoeffVar, lower is better): 100 - new*100/base;
 * 100 if new == 0, -99 if base == 0. */
double stats_pndiff(double new_, double base);
/* LKP %change: 100 * (new - base) / base, base 0 replaced by 1e-100. */
double stats_lkp_change(double new_, double base);

/* Half-width of the two-sided t-based confidence interval of the mean
 * (level e.g. 0.95): t(1 - (1-level)/2, n-1) * s / sqrt(n); NaN if n < 2. */
double stats_ci_half(const double *x, size_t n, double level);

/* Welch's unequal-variance t-test, two-sided p-value; NaN if either side
 * has fewer than 2 samples.  *t_out and *df_out are optional. */
double stats_welch_p(const double *a, size_t na, const double *b, size_t nb,
		     double *t_out, double *df_out);
/* mmtests 2019 significance: t = |Hmean_a - Hmean_b| /
 * sqrt(s_a^2/n_a + s_b^2/n_b), df = n_a + n_b - 2, p = 2 P(T > t). */
double stats_mmtests_p(const double *a, size_t na, const double *b, size_t nb);
#define MMTESTS_SIGNIFICANT_P 0.10

/* All the summary numbers of one sample set. */
struct stats_summary {
	size_t n;
	double min, max, amean, hmean, median, stddev, coeffvar, pop_stddev;
	double bhmean50, bhmean95, bhmean99;
	double ci95;
};
void stats_summarise(const double *x, size_t n, bool higher_better,
		     struct stats_summary *s);

/* ---- report lines, with the field widths of the published tools ---- */

/* The 2019 mmtests Multiops rows, in order. */
enum mm_row {
	MM_MIN, MM_HMEAN, MM_STDDEV, MM_COEFFVAR, MM_MAX,
	MM_BHMEAN50, MM_BHMEAN95, MM_BHMEAN99, MM_NROWS,
};
extern const char *const stats_mm_row_name[MM_NROWS];
double stats_mm_row_value(const struct stats_summary *s, enum mm_row row);
/* pdiff or pndiff, whichever compare-kernels uses for the row. */
double stats_mm_row_pct(enum mm_row row, double new_, double base);

/* "%-9s %-*s" then "%12.2f (%7.2f%%)" for the base column and, per
 * patch, "%12.2f (%7.2f%%)" or with '*' for a significant Hmean. */
void stats_mm_print_row(FILE *f, const char *stat, const char *op, int opw,
			double base, size_t npatch, const double *patch,
			const double *pct, const bool *signif);
/* Two header rows: each name split at the first '-' (not inside -rcN). */
void stats_mm_print_header(FILE *f, int opw, size_t nnames,
			   const char *const *names);

/* LKP value: %10.2f below 1000, %10.4g above 1e8, else %10d. */
void stats_lkp_value(char *buf, size_t len, double v);
/* LKP "±" column: " ±%3d%%" when 100*stddev/avg > 2, else 6 blanks. */
void stats_lkp_err(char *buf, size_t len, double avg, double stddev);
/* One row: base, ±, change (absolute when `key` ends in '%'), new, ±, key. */
void stats_lkp_print_row(FILE *f, const char *key, double base_avg,
			 double base_sd, double new_avg, double new_sd);
/* The "%stddev %change %stddev" header with LKP's 16/27 commit widths. */
void stats_lkp_print_header(FILE *f, const char *axes, const char *values,
			    const char *base, const char *patch);

/* Shakeel-style "Testcase  base  with-patch" table. */
void stats_table_print_header(FILE *f);
void stats_table_print_row(FILE *f, const char *testcase, double base,
			   double patch);

/* ---- loading samples ---- */

/*
 * A sample file is either plain (one number per line; blank lines and
 * '#' comments skipped) or a memscale result CSV.  From a CSV, `column`
 * is read from the rows that pass every `where` filter ("KEY=VALUE",
 * matched as text), grouped by the values of the `group` columns (a
 * missing group column groups as "").  Groups keep first-seen order.
 */
struct sample_group {
	char **key;  /* one value per group column */
	double *x;
	size_t n, cap;
};

struct sample_set {
	bool plain;
	size_t ngroups, nkeys;
	size_t nempty; /* rows skipped for an empty cell (STATS_SKIP_EMPTY) */
	struct sample_group *groups;
};

/* Returns 0, or -1 with a one-line reason in err (no path prefix).
 * where: the rows to keep (core/where.h), or NULL for every row. */
int stats_load(const char *path, const char *column,
	       const struct where *where,
	       const char *const *group, size_t ngroup,
	       struct sample_set *out, char *err, size_t errlen);
/* The same, with flags: STATS_SKIP_EMPTY skips rows whose `column` cell
 * is empty (a column other workloads do not have) instead of refusing. */
#define STATS_SKIP_EMPTY 1u
int stats_load_flags(const char *path, const char *column,
		     const struct where *where,
		     const char *const *group, size_t ngroup, unsigned flags,
		     struct sample_set *out, char *err, size_t errlen);
void stats_set_free(struct sample_set *s);
/*
 * Refuses what no statistic here can summarise honestly: a sample <= 0
 * when `need_positive` (a harmonic mean, Hmean and BHmean, is undefined;
 * mmtests would print -1 and call it significant), and samples whose
 * mean, spread or interval overflow a double (two samples of 1e308 give
 * an infinite mean and a NaN stddev).  Returns 0, or -1 with one line in
 * err naming the group and the sample.
 */
/* A throughput column (ops_per_sec, *.ops_per_sec, *throughput*): a
 * sample <= 0 is no measurement, whatever the report. */
bool stats_column_is_throughput(const char *col);
int stats_set_check(const struct sample_set *s, bool need_positive,
		    char *const *group_names, char *err, size_t errlen);
/* The group whose key equals `key`, or NULL. */
struct sample_group *stats_set_find(const struct sample_set *s,
				    char *const *key);

#endif
