/*
 * cmd_compare.c - `memscale compare BASE PATCH` and `compare --experiment
 * DIR`: base against patch in the report formats of the memcg threads:
 *
 *   table    Shakeel Butt's "Testcase  base  with-patch  (xx.xx %)"
 *            (memcg: rearrange fields of mem_cgroup_per_node, 2024), the
 *            change with its 95 % interval, "n.s." when that holds 0
 *   mmtests  compare-kernels rows as of mmtests 827b444a (2019), as in
 *            Alex Shi's per-memcg lru_lock series
 *   lkp      the 0-day robot's "%stddev %change %stddev" columns
 *   csv      everything, for plots
 *
 * Samples are grouped by workload and workers (and, for a sweep, by the
 * experiment's axis values); each group's repetitions are the samples.
 */
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/csv.h"
#include "core/knob.h"
#include "core/stats.h"
#include "harness/ab_pairs.h"
#include "harness/workload.h"
#include "workloads/wlspec.h"

static int compare_main(int argc, char **argv);

const struct subcommand compare_cmd = {
	.name = "compare",
	.summary = "compare base and patch results (table, mmtests, lkp, csv)",
	.usage = "compare BASE PATCH [options]\n"
		 "       compare --experiment DIR [options]\n"
		 "\n"
		 "BASE and PATCH are result CSVs (grouped by workload and workers) or\n"
		 "files of one sample per line.  --experiment DIR compares every variant\n"
		 "of a sweep directory with the experiment's base variant and shows the\n"
		 "published numbers beside the measured ones.\n"
		 "\n"
		 "options:\n"
		 "  -f, --format F          table (default: the change with its 95 %\n"
		 "                          interval, n.s. when it holds 0), mmtests,\n"
		 "                          lkp or csv\n"
		 "  -W, --where KEY=VAL     keep only rows whose KEY column is VAL (repeatable)\n"
		 "      --column NAME       result column (default ops_per_sec); rows\n"
		 "                          whose cell is empty (another workload's\n"
		 "                          lock class) are left out\n"
		 "      --lower-is-better   the column is a latency: a positive change\n"
		 "                          means lower (default for *_ns columns)\n"
		 "      --higher-is-better  the column is a rate (default otherwise)\n"
		 "  -e, --experiment DIR    compare the variants of a sweep directory\n"
		 "      --per-container     group by the 'container' column too and, for\n"
		 "                          mmtests, add the average over containers\n"
		 "                          (Alex Shi's view of 24 AIM9 containers)\n"
		 "      --base-name N       name of the base column (default: file name)\n"
		 "      --patch-name N      name of the patch column\n"
		 "\n"
		 "mmtests rows: Min Hmean Stddev CoeffVar Max BHmean-50/95/99; % is\n"
		 "pdiff, but pndiff (100 - new*100/base) for Stddev and CoeffVar, so a\n"
		 "positive % there means less spread.  '*' marks a Hmean difference\n"
		 "significant at p < 0.10 (mmtests 2019 t-test).  With --lower-is-better\n"
		 "the rows are Amean and BAmean-P and every % is pndiff, so a positive\n"
		 "% is better in both modes, as mmtests prints latencies.  Operations\n"
		 "of will-it-scale workloads are named TEST-MODE-N as mmtests' wis\n"
		 "reports name them (page_fault2-processes-2); variants without results\n"
		 "get no column.\n"
		 "\n"
		 "csv: one row per A/B pair: experiment,workload,mode,workers,knob,\n"
		 "base,patch,n_base,n_patch,base_mean,patch_mean,change_pct,ci_lo_pct,\n"
		 "ci_hi_pct,p,significant,warnings, then label,axes,column,better,\n"
		 "container,base_value,patch_value,hmean_pdiff,mmtests_p,welch_p,\n"
		 "published.  change_pct is the change of the arithmetic means (sign\n"
		 "flipped with --lower-is-better), ci_* Fieller's 95 % interval of it, p\n"
		 "Welch's; significant = yes exactly when the interval excludes 0.\n"
		 "\n"
		 "Two sides whose kernel-shaped work was calibrated differently\n"
		 "(calib_hash, else kwork_units / kwork_unit_ns) or that ran another\n"
		 "model (page_work, kwork_source, backend) are refused, exit 2.\n",
	.main = compare_main,
};
REGISTER(subcommand, compare_cmd);

enum fmt { F_TABLE, F_MMTESTS, F_LKP, F_CSV };

/* ---- formats ---- */

/* A percentage with about three significant digits, signed. */
static void pct3(char *buf, size_t len, double v)
{
	snprintf(buf, len, fabs(v) >= 99.95 ? "%+.0f" : fabs(v) >= 9.995 ? "%+.1f" :
		 "%+.2f", v);
}

/* Shakeel's row, "Testcase base with-patch" then the change of the means
 * in % (patch against base, as the two columns read) with its 95 %
 * interval (core/ab.h, the CSV's change_pct/ci_*_pct), marked "n.s."
 * when the interval holds 0: "+14.11 % n.s. [-34.2..+306]". */
static void table_row(const struct ab_pairs *c, const struct ab_row *r, size_t p)
{
	const struct ab_result *ab = &r->ab[p];
	double sg = c->lower_better ? -1 : 1; /* ab's sign: better is positive */
	double lo = sg > 0 ? ab->ci_lo_pct : -ab->ci_hi_pct;
	double hi = sg > 0 ? ab->ci_hi_pct : -ab->ci_lo_pct;
	char l[32], h[32];

	printf("%-15s %-11.0f %-11.0f %+7.2f %%%s ", r->label,
	       stats_amean(r->base->x, r->base->n),
	       stats_amean(r->patch[p]->x, r->patch[p]->n),
	       stats_pdiff(stats_amean(r->patch[p]->x, r->patch[p]->n),
			   stats_amean(r->base->x, r->base->n)),
	       ab->significant ? "" : " n.s.");
	if (isnan(lo) || isnan(hi)) {
		printf("[interval unbounded: n=%zu/%zu]\n", ab->n_base, ab->n_patch);
		return;
	}
	pct3(l, sizeof(l), lo);
	pct3(h, sizeof(h), hi);
	printf("[%s..%s]\n", l, h);
}

static void print_table(const struct ab_pairs *c)
{
	for (size_t p = 0; p < c->npatch; p++) {
		if (c->npatch > 1)
			printf("%s# %s vs %s\n\n", p ? "\n" : "", c->patch_name[p],
			       c->base_name);
		printf("%-15s %-11s %-11s %s\n\n", "Testcase", "base", "with-patch",
		       "change [95 % interval], n.s.: not significant");
		for (size_t i = 0; i < c->nrows; i++) {
			const struct ab_row *r = &c->rows[i];
			if (!r->patch[p])
				continue;
			table_row(c, r, p);
		}
	}
	for (size_t p = 0; p < c->npatch; p++) {
		bool any = false;

		for (size_t i = 0; i < c->npub; i++) {
			const struct published_row *pub = &c->pub[i];
			/* -1: published as patch -> base, shown turned over */
			int dir = published_direction(c->e, pub, c->patch_var[p]);
			const char *pb = dir > 0 ? pub->base : pub->patch;
			const char *pp = dir > 0 ? pub->patch : pub->base;
			char *chg;

			if (!dir)
				continue;
			if (!any) {
				printf("\nPublished (%s vs %s: %s=%s vs %s; %s):\n\n",
				       c->patch_name[p], c->base_name, pub->knob,
				       dir > 0 ? pub->patch_value : pub->base_value,
				       dir > 0 ? pub->base_value : pub->patch_value, c->pub_from);
				printf("%-19s %-11s %-11s %-9s %s\n", "Testcase", "base",
				       "patch", "change", "machine");
				any = true;
			}
			chg = published_change_text(pub, dir);
			printf("%-19s %-11s %-11s %-9s %s\n", pub->workload,
			       *pb ? pb : "-", *pp ? pp : "-", chg, pub->machine);
			free(chg);
		}
	}
}

/* mmtests' lower-is-better rows: Amean for Hmean, BAmean-P for BHmean-P
 * (stats_summarise(..., false) fills bhmean* with the BAmean values). */
static const char *const mm_lower_name[MM_NROWS] = {
	[MM_MIN] = "Min", [MM_HMEAN] = "Amean", [MM_STDDEV] = "Stddev",
	[MM_COEFFVAR] = "CoeffVar", [MM_MAX] = "Max", [MM_BHMEAN50] = "BAmean-50",
	[MM_BHMEAN95] = "BAmean-95", [MM_BHMEAN99] = "BAmean-99",
};

static double mm_value(const struct ab_pairs *c, const struct stats_summary *s, int row)
{
	if (c->lower_better && row == MM_HMEAN)
		return s->amean;
	return stats_mm_row_value(s, (enum mm_row)row);
}

/* pdiff, or pndiff for the spread rows and every row of a latency. */
static double mm_pct(const struct ab_pairs *c, int row, double v, double base)
{
	if (c->lower_better)
		return stats_pndiff(v, base);
	return stats_mm_row_pct((enum mm_row)row, v, base);
}

/* One row per mmtests statistic; only the variants in ran[] (nran). */
static void mm_rows(const struct ab_pairs *c, const char *label, int opw,
		    const struct stats_summary *b, const struct stats_summary *pt,
		    const bool *signif, const size_t *ran, size_t nran)
{
	for (int row = 0; row < MM_NROWS; row++) {
		double base = mm_value(c, b, row);
		double v[AB_MAX_PATCHES], pct[AB_MAX_PATCHES];
		bool sig[AB_MAX_PATCHES];

		for (size_t k = 0; k < nran; k++) {
			size_t p = ran[k];
			v[k] = mm_value(c, &pt[p], row);
			pct[k] = mm_pct(c, row, v[k], base);
			sig[k] = row == MM_HMEAN && signif && signif[p];
		}
		stats_mm_print_row(stdout, c->lower_better ? mm_lower_name[row] :
				   stats_mm_row_name[row], label, opw, base, nran, v,
				   pct, sig);
	}
}

/* The variants with a result in any row: mmtests prints no column for a
 * kernel that never ran. */
static size_t mm_ran(const struct ab_pairs *c, size_t *ran)
{
	size_t n = 0;

	for (size_t p = 0; p < c->npatch; p++)
		for (size_t i = 0; i < c->nrows; i++)
			if (c->rows[i].patch[p]) {
				ran[n++] = p;
				break;
			}
	return n;
}

static void print_mmtests(const struct ab_pairs *c)
{
	const char *names[AB_MAX_PATCHES + 1];
	int opw = 1;
	struct stats_summary b, pt[AB_MAX_PATCHES];
	bool sig[AB_MAX_PATCHES], hb = !c->lower_better;
	size_t ran[AB_MAX_PATCHES], nran = mm_ran(c, ran);

	names[0] = c->base_name;
	for (size_t k = 0; k < nran; k++)
		names[k + 1] = c->patch_name[ran[k]];
	for (size_t i = 0; i < c->nrows; i++)
		if ((int)strlen(c->rows[i].label) > opw)
			opw = (int)strlen(c->rows[i].label);
	stats_mm_print_header(stdout, opw, nran + 1, names);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct ab_row *r = &c->rows[i];
		stats_summarise(r->base->x, r->base->n, hb, &b);
		for (size_t p = 0; p < c->npatch; p++) {
			const struct sample_group *g = r->patch[p];
			if (g)
				stats_summarise(g->x, g->n, hb, &pt[p]);
			else
				stats_summarise(NULL, 0, hb, &pt[p]);
			/* mmtests' own test: Hmean for rates; a latency's Amean
			 * row is marked by the one A/B producer's Welch p */
			sig[p] = g && (hb ? stats_mmtests_p(r->base->x, r->base->n, g->x,
							    g->n) < MMTESTS_SIGNIFICANT_P :
					   r->ab[p].p < MMTESTS_SIGNIFICANT_P);
		}
		mm_rows(c, r->label, opw, &b, pt, sig, ran, nran);
	}
	if (!c->per_container)
		return;
	/* Alex Shi's view: each row averaged over the containers (his awk
	 * '{a+=$3; b+=$6} END {print a/24, b/24}'), per workload label. */
	printf("\n# average over containers\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const char *lab = c->rows[i].workload;
		size_t n = 0;
		bool seen = false;
		double avg[AB_MAX_PATCHES + 1][MM_NROWS] = { { 0 } };

		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(c->rows[k].workload, lab) &&
				!strcmp(c->rows[k].workers, c->rows[i].workers);
		if (seen)
			continue;
		for (size_t k = i; k < c->nrows; k++) {
			const struct ab_row *r = &c->rows[k];
			if (strcmp(r->workload, lab) || strcmp(r->workers, c->rows[i].workers))
				continue;
			n++;
			stats_summarise(r->base->x, r->base->n, hb, &b);
			for (int row = 0; row < MM_NROWS; row++)
				avg[0][row] += mm_value(c, &b, row);
			for (size_t p = 0; p < c->npatch; p++) {
				if (r->patch[p])
					stats_summarise(r->patch[p]->x, r->patch[p]->n, hb,
							&pt[p]);
				else
					stats_summarise(NULL, 0, hb, &pt[p]);
				for (int row = 0; row < MM_NROWS; row++)
					avg[p + 1][row] += mm_value(c, &pt[p], row);
			}
		}
		for (int row = 0; row < MM_NROWS; row++) {
			double v[AB_MAX_PATCHES], pct[AB_MAX_PATCHES];
			double base = avg[0][row] / (double)n;
			for (size_t k = 0; k < nran; k++) {
				v[k] = avg[ran[k] + 1][row] / (double)n;
				pct[k] = mm_pct(c, row, v[k], base);
			}
			stats_mm_print_row(stdout, c->lower_better ? mm_lower_name[row] :
					   stats_mm_row_name[row], lab, opw, base, nran, v,
					   pct, NULL);
		}
	}
}

/*
 * LKP's metric names (lkp-tests programs/<suite>/parse): will-it-scale's
 * "<N>.processes" / "<N>.threads" (total ops/s at N tasks) and
 * "per_process_ops" / "per_thread_ops" (ops/s per task), AIM9's
 * "<test>.ops_per_sec"; columns LKP has no name for keep memscale's,
 * under "memscale.".  LKP's job axis says "process" / "thread".
 */
static bool lkp_threads(const char *mode)
{
	return mode && !strcmp(mode, "threads");
}

/* The spec of a row's workload (workloads/wlspec.h): by memscale's name
 * ("aim9_page_test", "kernel:page_fault2") or by the suite's name of the
 * test, as a result file of the suite's own harness says it
 * ("page_test"); NULL for a workload of no suite. */
static const struct wl_spec *row_spec(const char *w)
{
	const struct wl_spec *s = wl_spec_find(w), **all;
	size_t n = s ? 0 : wl_spec_all(&all);

	for (size_t i = 0; i < n && !s; i++)
		if (!strcmp(all[i]->test, w))
			s = all[i];
	return s;
}

static enum wl_suite row_suite(const char *w)
{
	const struct wl_spec *s = row_spec(w);

	return s ? s->suite : 0;
}

static char *lkp_metric(const struct ab_row *r, const char *col)
{
	const struct wl_spec *s = row_spec(r->workload);
	const char *task = lkp_threads(r->mode) ? "thread" : "process";

	if (s && s->suite == WL_SUITE_WIS) {
		if (!strcmp(col, "ops_per_sec") && *r->workers)
			return xasprintf("will-it-scale.%s.%s", r->workers,
					 lkp_threads(r->mode) ? "threads" : "processes");
		if (!strcmp(col, "per_worker_ops"))
			return xasprintf("will-it-scale.per_%s_ops", task);
		return xasprintf("will-it-scale.%s", col);
	}
	if (s && s->suite == WL_SUITE_AIM9)
		return xasprintf("aim9.%s.%s", s->test, col);
	return xasprintf("memscale.%s.%s", s ? s->name : r->workload, col);
}

/* LKP's test suite of a workload, for the header's testcase field. */
static const char *lkp_suite(const char *w)
{
	const struct wl_spec *s = row_spec(w);

	return s ? wl_suite_name(s->suite) : "memscale";
}

/* lkp-tests etc/index-perf.yaml: the KPIs ("will-it-scale\..+_ops",
 * "aim9\..+\.ops_per_sec", "vm-scalability.throughput"), which its
 * bisect reports sort first (sort_bisect_stats). */
static bool lkp_kpi(const char *key)
{
	size_t n = strlen(key);

	return (!strncmp(key, "will-it-scale.", 14) && n > 18 &&
		!strcmp(key + n - 4, "_ops")) ||
	       (!strncmp(key, "aim9.", 5) && n > 17 && !strcmp(key + n - 12, ".ops_per_sec")) ||
	       !strcmp(key, "vm-scalability.throughput");
}

/* One metric line of `lkp compare`: the base's average and ±stddev, then
 * per further commit its %change, average and ±stddev (lib/compare.rb
 * show_perf_change), then the key. */
static void lkp_line(const char *key, size_t ncommits, const double *avg,
		     const double *sd)
{
	char v[32], e[32];
	size_t kl = strlen(key);

	for (size_t i = 0; i < ncommits; i++) {
		if (i) {
			/* percentages (keys ending in '%') change absolutely */
			double ch = kl && key[kl - 1] == '%' ? avg[i] - avg[0] :
				    stats_lkp_change(avg[i], avg[0]);
			printf(fabs(ch) < 1e5 ? "%+10.1f" : "%+10.2g", ch);
			printf(kl && key[kl - 1] == '%' ? "  " : "%% ");
		}
		stats_lkp_value(v, sizeof(v), avg[i]);
		stats_lkp_err(e, sizeof(e), avg[i], sd[i]);
		printf("%s%s", v, e);
	}
	printf("  %s\n", key);
}

/* The group header of `lkp compare` (show_group_header, show_perf_header):
 * common axes, the commits, their names right-aligned in 16 and 27
 * columns, the %stddev / %change legend once per further commit. */
static void lkp_header(const char *axes, const char *values, size_t n,
		       const char *const *names)
{
	for (int i = 0; i < 89; i++)
		putchar('=');
	printf("\n%s:\n  %s\n\ncommit: \n", axes, values);
	for (size_t i = 0; i < n; i++)
		printf("  %s\n", names[i]);
	printf("\n%16.16s ", names[0]);
	for (size_t i = 1; i < n; i++)
		printf("%27.27s ", names[i]);
	printf("\n---------------- ");
	for (size_t i = 1; i < n; i++)
		printf("--------------------------- ");
	printf("\n         %%stddev");
	for (size_t i = 1; i < n; i++)
		printf("     %%change         %%stddev");
	printf("\n             \\  ");
	for (size_t i = 1; i < n; i++)
		printf("        |                \\  ");
	printf("\n");
}

/*
 * One LKP block per job (workload, axis values, task count: LKP's
 * nr_task is a job axis), every commit that ran it side by side, as `lkp
 * compare` prints several commits; rows are metrics, KPIs first.  With the
 * default column the per-task KPI (per_worker_ops) comes with the total.
 */
static void print_lkp(const struct ab_pairs *c, const char *host)
{
	for (size_t i = 0; i < c->nrows; i++) {
		const struct ab_row *r = &c->rows[i];
		const char *names[AB_MAX_PATCHES + 1];
		size_t ran[AB_MAX_PATCHES], nran = 0, ncols = 0;
		const char *cols[2];
		char *values, *keys[2];
		const char *task = lkp_threads(r->mode) ? "thread" : "process";

		for (size_t p = 0; p < c->npatch; p++)
			if (r->patch[p])
				ran[nran++] = p;
		if (!nran)
			continue;
		names[0] = c->base_name;
		for (size_t k = 0; k < nran; k++)
			names[k + 1] = c->patch_name[ran[k]];
		if (i)
			printf("\n");
		values = xasprintf("%s/%s/%s/%s/%s", task, *r->workers ? r->workers : "-",
				   host, r->block, lkp_suite(r->workload));
		lkp_header("mode/nr_task/tbox_group/test/testcase", values, nran + 1, names);
		free(values);
		cols[ncols++] = c->column;
		if (!strcmp(c->column, "ops_per_sec") && c->tbase &&
		    csv_col(c->tbase, "per_worker_ops") >= 0)
			cols[ncols++] = "per_worker_ops";
		for (size_t k = 0; k < ncols; k++)
			keys[k] = lkp_metric(r, cols[k]);
		if (ncols == 2 && lkp_kpi(keys[1]) && !lkp_kpi(keys[0])) {
			const char *tc = cols[0];
			char *tk = keys[0];
			cols[0] = cols[1], keys[0] = keys[1];
			cols[1] = tc, keys[1] = tk;
		}
		for (size_t k = 0; k < ncols; k++) {
			double avg[AB_MAX_PATCHES + 1], sd[AB_MAX_PATCHES + 1];

			for (size_t j = 0; j <= nran; j++) {
				const struct sample_group *g = j ? r->patch[ran[j - 1]] : r->base;
				size_t n = g->n;
				double *x = g->x, *own = NULL;

				if (cols[k] != c->column)
					x = own = ab_pairs_side_numbers(c, j ? c->tpatch : c->tbase,
							       j ? g->key : r->bkey, cols[k], &n);
				avg[j] = stats_amean(x, n);
				sd[j] = stats_pop_stddev(x, n);
				free(own);
			}
			lkp_line(keys[k], nran + 1, avg, sd);
			free(keys[k]);
		}
	}
}

/* The published changes of variant p for a workload, "CHANGE (MACHINE)"
 * joined by "; ", as the last field of a row. */
static void published_field(const struct ab_pairs *c, size_t p, const char *workload)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool first = true;

	for (size_t i = 0; i < c->npub; i++) {
		const struct published_row *pub = &c->pub[i];
		/* a reversed pair (before vs base of a row published as
		 * before -> base) gets the change turned over */
		int dir = strcmp(pub->workload, workload) ? 0 :
			  published_direction(c->e, pub, c->patch_var[p]);
		char *chg;

		if (!dir)
			continue;
		chg = published_change_text(pub, dir);
		fprintf(f, "%s%s (%s)", first ? "" : "; ", chg, pub->machine);
		free(chg);
		first = false;
	}
	fclose(f);
	csv_field(stdout, buf, 1);
	free(buf);
}

static void print_csv(const struct ab_pairs *c)
{
	static const char *const cols[] = {
		/* the shared interface (plots, paper, report) */
		"experiment", "workload", "mode", "workers", "knob", "base", "patch",
		"n_base", "n_patch", "base_mean", "patch_mean", "change_pct",
		"ci_lo_pct", "ci_hi_pct", "p", "significant", "warnings",
		/* more of the same pair */
		"label", "axes", "column", "better", "container", "base_value",
		"patch_value", "hmean_pdiff", "mmtests_p", "welch_p", "published",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		csv_field(stdout, cols[i], i + 1 == ARRAY_SIZE(cols));
	for (size_t p = 0; p < c->npatch; p++) {
		char *vknob, *vbv, *vpv;

		ab_pairs_variant_knob(c, p, &vknob, &vbv, &vpv);
		for (size_t i = 0; i < c->nrows; i++) {
			const struct ab_row *r = &c->rows[i];
			const struct sample_group *b = r->base, *g = r->patch[p];
			const struct ab_result *ab = &r->ab[p];
			const char *knob = r->knob[p] ? r->knob[p] : vknob;
			const char *bv = r->knob[p] ? r->bval[p] : vbv;
			const char *pv = r->knob[p] ? r->pval[p] : vpv;
			if (!g)
				continue;
			csv_field(stdout, c->e ? c->e->name : "", 0);
			csv_field(stdout, r->workload, 0);
			csv_field(stdout, r->mode, 0);
			csv_field(stdout, r->workers, 0);
			csv_field(stdout, knob, 0);
			csv_field(stdout, c->base_name, 0);
			csv_field(stdout, c->patch_name[p], 0);
			csv_fieldf(stdout, 0, "%zu", ab->n_base);
			csv_fieldf(stdout, 0, "%zu", ab->n_patch);
			csv_num(stdout, ab->base_mean, 0);
			csv_num(stdout, ab->patch_mean, 0);
			csv_num(stdout, ab->change_pct, 0);
			csv_num(stdout, ab->ci_lo_pct, 0);
			csv_num(stdout, ab->ci_hi_pct, 0);
			csv_num(stdout, ab->p, 0);
			csv_field(stdout, ab->significant ? "yes" : "no", 0);
			csv_field(stdout, r->warn[p], 0);
			csv_field(stdout, r->label, 0);
			csv_field(stdout, r->axes, 0);
			csv_field(stdout, c->column, 0);
			csv_field(stdout, c->lower_better ? "lower" : "higher", 0);
			csv_field(stdout, r->container, 0);
			csv_field(stdout, bv, 0);
			csv_field(stdout, pv, 0);
			csv_num(stdout, stats_pdiff(stats_hmean(g->x, g->n),
					    stats_hmean(b->x, b->n)), 0);
			csv_num(stdout, stats_mmtests_p(b->x, b->n, g->x, g->n), 0);
			csv_num(stdout, ab->p, 0);
			published_field(c, p, r->workload);
		}
		free(vknob);
		free(vbv);
		free(vpv);
	}
}

static char *file_label(const char *path)
{
	char *copy = xstrdup(path), *b = xstrdup(basename(copy));
	size_t n = strlen(b);

	if (n > 4 && !strcmp(b + n - 4, ".csv"))
		b[n - 4] = '\0';
	free(copy);
	return b;
}

/* The mmtests and CSV reports print harmonic means. */
static bool needs_hmean(enum fmt fmt)
{
	return fmt == F_MMTESTS || fmt == F_CSV;
}

/* Runs whose row says a worker was descheduled while holding or waiting
 * for a modelled spinlock (harness desched_flag); nothing for files
 * without the column. */
static void desched_note(const char *path)
{
	const char *err;
	size_t line, n = 0;
	struct csv_table *t = csv_read_file(path, &err, &line);
	int c;

	if (t && (c = csv_col(t, "desched_flag")) >= 0) {
		for (size_t i = 0; i < t->nrows; i++)
			n += atof(t->rows[i][c]) > 0;
		printf("# %s: %zu of %zu runs had a worker descheduled while holding or "
		       "waiting for a modelled spinlock (desched_flag)\n", path, n, t->nrows);
	}
	csv_free(t);
}

/* The first value of a column in a CSV, for the LKP header. */
static char *first_value(const char *path, const char *col)
{
	const char *err;
	size_t line;
	struct csv_table *t = csv_read_file(path, &err, &line);
	char *v = NULL;
	int c;

	if (t && (c = csv_col(t, col)) >= 0 && t->nrows)
		v = xstrdup(t->rows[0][c]);
	csv_free(t);
	return v ? v : xstrdup("-");
}

/* mmtests names a will-it-scale operation TEST-MODE-N (ExtractWiscommon,
 * "$wl-$model-$nthr"): the mode and worker count are always in it. */
static void mmtests_labels(struct ab_pairs *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		struct ab_row *r = &c->rows[i];
		if (row_suite(r->workload) != WL_SUITE_WIS || !*r->mode || !*r->workers)
			continue;
		free(r->label);
		r->label = xasprintf("%s-%s%s%s%s%s-%s", r->workload, r->mode,
				     *r->axes ? "-" : "", r->axes,
				     *r->container ? "-c" : "", r->container, r->workers);
	}
}

/* ---- command line ---- */

struct compare_args {
	enum fmt fmt;
	int better; /* 0 by the column's name, 1 higher, -1 lower is better */
	const char *expdir, *base_opt, *patch_opt;
	struct where where;
	bool column_given; /* -c said (a plain file against a CSV needs it) */
};

static void compare_parse_args(int argc, char **argv, struct ab_pairs *c, struct compare_args *a)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "where", required_argument, NULL, 'W' },
		{ "column", required_argument, NULL, 'C' },
		{ "lower-is-better", no_argument, NULL, 'L' },
		{ "higher-is-better", no_argument, NULL, 'H' },
		{ "experiment", required_argument, NULL, 'e' },
		{ "per-container", no_argument, NULL, 'P' },
		{ "base-name", required_argument, NULL, 'B' },
		{ "patch-name", required_argument, NULL, 'N' },
		{ 0 },
	};
	static const char *const fmts[] = {
		[F_TABLE] = "table", [F_MMTESTS] = "mmtests", [F_LKP] = "lkp", [F_CSV] = "csv",
	};
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:W:c:e:", longopts, NULL)) != -1) {
		if (opt == 'c')
			die(EXIT_USAGE, "compare: -c is --counter in run and validate; "
			    "say --column NAME for a result column");
		switch (opt) {
		case 'f': {
			size_t f = 0;
			while (f < ARRAY_SIZE(fmts) && strcmp(optarg, fmts[f]))
				f++;
			if (f == ARRAY_SIZE(fmts))
				die(EXIT_USAGE, "compare: bad --format '%s' (allowed: "
				    "table|mmtests|lkp|csv)", optarg);
			a->fmt = (enum fmt)f;
			break;
		}
		case 'W':
			cli_where_arg(&compare_cmd, &a->where, optarg);
			break;
		case 'C':
			c->column = optarg;
			a->column_given = true;
			break;
		case 'L':
			a->better = -1;
			break;
		case 'H':
			a->better = 1;
			break;
		case 'e':
			a->expdir = optarg;
			break;
		case 'P':
			c->per_container = true;
			break;
		case 'B':
			a->base_opt = optarg;
			break;
		case 'N':
			a->patch_opt = optarg;
			break;
		default:
			cli_bad_getopt(&compare_cmd, argv, "f:W:c:e:");
		}
	}
}

static void print_report(const struct ab_pairs *c, enum fmt fmt, const char *host)
{
	switch (fmt) {
	case F_TABLE:
		print_table(c);
		break;
	case F_MMTESTS:
		print_mmtests(c);
		break;
	case F_LKP:
		print_lkp(c, host);
		break;
	case F_CSV:
		print_csv(c);
		break;
	}
}

static int compare_main(int argc, char **argv)
{
	struct ab_pairs c = { .column = "ops_per_sec" };
	struct compare_args a = { .fmt = F_TABLE };
	char *bname = NULL, *pname = NULL, *host, *data = NULL;
	struct sample_set bs = { 0 }, ps = { 0 };
	struct experiment *e = NULL, *canon = NULL;
	struct csv_table *tb = NULL, *tp = NULL;
	const char *err;
	size_t eline;

	compare_parse_args(argc, argv, &c, &a);
	c.where = &a.where;
	c.lower_better = a.better ? a.better < 0 : ab_column_is_latency(c.column);
	c.need_positive = needs_hmean(a.fmt);
	if (a.expdir) {
		if (optind < argc)
			die(EXIT_USAGE, "compare: unexpected argument '%s' with "
			    "--experiment", argv[optind]);
		e = ab_pairs_experiment(&c, a.expdir, &bs, &data);
		ab_pairs_published(&c, e, &canon);
		c.tbase = c.tpatch = tb = csv_read_file(data, &err, &eline);
	} else {
		if (argc - optind != 2)
			die(EXIT_USAGE, "compare: want BASE and PATCH files (or "
			    "--experiment DIR)");
		bname = file_label(argv[optind]);
		pname = file_label(argv[optind + 1]);
		c.base_name = a.base_opt ? a.base_opt : bname;
		c.patch_name[0] = a.patch_opt ? a.patch_opt : pname;
		ab_pairs_files(&c, a.column_given, argv[optind], argv[optind + 1], &bs, &ps);
		data = xstrdup(argv[optind]);
		if (!bs.plain && !ps.plain) {
			c.tbase = tb = csv_read_file(argv[optind], &err, &eline);
			c.tpatch = tp = csv_read_file(argv[optind + 1], &err, &eline);
		}
	}
	for (size_t i = 0; i < c.nrows; i++)
		if (!c.rows[i].base->n)
			die(EXIT_USAGE, "compare: no base samples for %s", c.rows[i].label);
	if (!c.nrows)
		die(EXIT_USAGE, "compare: nothing to compare (no configuration has "
		    "both base and patch results%s%s)", a.where.n ? " after --where" : "",
		    bs.nempty ? "; the column is empty in the other rows" : "");
	ab_pairs_compute(&c);
	if (a.fmt == F_MMTESTS)
		mmtests_labels(&c);
	host = first_value(data, "host");
	print_report(&c, a.fmt, host);

	if (a.fmt == F_TABLE) {
		desched_note(data);
		if (!a.expdir)
			desched_note(argv[optind + 1]);
	}

	ab_pairs_free(&c);
	csv_free(tb);
	csv_free(tp);
	stats_set_free(&bs);
	stats_set_free(&ps);
	free(data);
	exp_free(e);
	exp_free(canon);
	free(bname);
	free(pname);
	free(host);
	where_free(&a.where);
	return 0;
}
