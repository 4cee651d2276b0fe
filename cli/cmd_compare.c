/*
 * cmd_compare.c - `memscale compare BASE PATCH` and `compare --experiment
 * DIR`: base against patch in the report formats of the memcg threads:
 *
 *   table    Shakeel Butt's "Testcase  base  with-patch  (xx.xx %)"
 *            (memcg: rearrange fields of mem_cgroup_per_node, 2024)
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
#include "core/stats.h"
#include "harness/expfile.h"
#include "harness/published.h"
#include "harness/workload.h"

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
		 "  -f, --format F          table (default), mmtests, lkp or csv\n"
		 "  -W, --where KEY=VAL     keep only rows whose KEY column is VAL (repeatable)\n"
		 "  -c, --column NAME       result column (default ops_per_sec)\n"
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
		 "significant at p < 0.10 (mmtests 2019 t-test).\n",
	.main = compare_main,
};
REGISTER(subcommand, compare_cmd);

enum fmt { F_TABLE, F_MMTESTS, F_LKP, F_CSV };

#define MAX_PATCHES 64

/* One compared configuration: base samples and one set per patch. */
struct cmp_row {
	char *label;
	char *block; /* the label without the worker count (LKP blocks) */
	const char *workload, *workers, *container;
	const struct sample_group *base;
	const struct sample_group *patch[MAX_PATCHES];
};

struct cmp {
	enum fmt fmt;
	const char *column;
	bool per_container;
	size_t npatch;
	const char *base_name;
	const char *patch_name[MAX_PATCHES];
	size_t patch_var[MAX_PATCHES]; /* experiment variant index of each patch */
	struct cmp_row *rows;
	size_t nrows;
	const char *mode, *host; /* for the LKP header */
	const struct experiment *e;
	struct pub_row *pub;    /* the experiment's published rows */
	size_t npub;
	const char *pub_from;   /* the file they were read from */
};

static void add_row(struct cmp *c, struct cmp_row *r)
{
	c->rows = realloc(c->rows, (c->nrows + 1) * sizeof(*r));
	if (!c->rows)
		die(1, "out of memory");
	c->rows[c->nrows++] = *r;
}

/* ---- formats ---- */

static void print_table(const struct cmp *c)
{
	for (size_t p = 0; p < c->npatch; p++) {
		if (c->npatch > 1)
			printf("%s# %s vs %s\n\n", p ? "\n" : "", c->patch_name[p],
			       c->base_name);
		stats_table_print_header(stdout);
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			if (!r->patch[p])
				continue;
			stats_table_print_row(stdout, r->label,
					      stats_amean(r->base->x, r->base->n),
					      stats_amean(r->patch[p]->x, r->patch[p]->n));
		}
	}
	for (size_t p = 0; p < c->npatch; p++) {
		bool any = false;

		for (size_t i = 0; i < c->npub; i++) {
			const struct pub_row *pub = &c->pub[i];
			if (!published_measures(c->e, pub, c->patch_var[p]))
				continue;
			if (!any) {
				printf("\nPublished (%s vs %s: %s=%s vs %s; %s):\n\n",
				       c->patch_name[p], c->base_name, pub->knob,
				       pub->patch_value, pub->base_value, c->pub_from);
				printf("%-19s %-11s %-11s %-9s %s\n", "Testcase", "base",
				       "patch", "change", "machine");
				any = true;
			}
			printf("%-19s %-11s %-11s %-9s %s\n", pub->workload,
			       *pub->base ? pub->base : "-", *pub->patch ? pub->patch : "-",
			       pub->src->change, pub->machine);
		}
	}
}

static void mm_rows(const struct cmp *c, const char *label, int opw,
		    const struct stats_summary *b, const struct stats_summary *pt,
		    const bool *signif)
{
	for (int row = 0; row < MM_NROWS; row++) {
		double base = stats_mm_row_value(b, (enum mm_row)row);
		double v[MAX_PATCHES], pct[MAX_PATCHES];
		bool sig[MAX_PATCHES];

		for (size_t p = 0; p < c->npatch; p++) {
			v[p] = stats_mm_row_value(&pt[p], (enum mm_row)row);
			pct[p] = stats_mm_row_pct((enum mm_row)row, v[p], base);
			sig[p] = row == MM_HMEAN && signif[p];
		}
		stats_mm_print_row(stdout, stats_mm_row_name[row], label, opw, base,
				   c->npatch, v, pct, sig);
	}
}

static void print_mmtests(const struct cmp *c)
{
	const char *names[MAX_PATCHES + 1];
	int opw = 1;
	struct stats_summary b, pt[MAX_PATCHES];
	bool sig[MAX_PATCHES];

	names[0] = c->base_name;
	for (size_t p = 0; p < c->npatch; p++)
		names[p + 1] = c->patch_name[p];
	for (size_t i = 0; i < c->nrows; i++)
		if ((int)strlen(c->rows[i].label) > opw)
			opw = (int)strlen(c->rows[i].label);
	stats_mm_print_header(stdout, opw, c->npatch + 1, names);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];
		stats_summarise(r->base->x, r->base->n, true, &b);
		for (size_t p = 0; p < c->npatch; p++) {
			const struct sample_group *g = r->patch[p];
			if (g)
				stats_summarise(g->x, g->n, true, &pt[p]);
			else
				stats_summarise(NULL, 0, true, &pt[p]);
			sig[p] = g && stats_mmtests_p(r->base->x, r->base->n, g->x,
						      g->n) < MMTESTS_SIGNIFICANT_P;
		}
		mm_rows(c, r->label, opw, &b, pt, sig);
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
		double avg[MAX_PATCHES + 1][MM_NROWS] = { { 0 } };

		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(c->rows[k].workload, lab) &&
				!strcmp(c->rows[k].workers, c->rows[i].workers);
		if (seen)
			continue;
		for (size_t k = i; k < c->nrows; k++) {
			const struct cmp_row *r = &c->rows[k];
			if (strcmp(r->workload, lab) || strcmp(r->workers, c->rows[i].workers))
				continue;
			n++;
			stats_summarise(r->base->x, r->base->n, true, &b);
			for (int row = 0; row < MM_NROWS; row++)
				avg[0][row] += stats_mm_row_value(&b, (enum mm_row)row);
			for (size_t p = 0; p < c->npatch; p++) {
				if (r->patch[p])
					stats_summarise(r->patch[p]->x, r->patch[p]->n, true,
							&pt[p]);
				else
					stats_summarise(NULL, 0, true, &pt[p]);
				for (int row = 0; row < MM_NROWS; row++)
					avg[p + 1][row] += stats_mm_row_value(&pt[p],
									      (enum mm_row)row);
			}
		}
		for (int row = 0; row < MM_NROWS; row++) {
			double v[MAX_PATCHES], pct[MAX_PATCHES];
			double base = avg[0][row] / (double)n;
			for (size_t p = 0; p < c->npatch; p++) {
				v[p] = avg[p + 1][row] / (double)n;
				pct[p] = stats_mm_row_pct((enum mm_row)row, v[p], base);
			}
			stats_mm_print_row(stdout, stats_mm_row_name[row], lab, opw,
					   base, c->npatch, v, pct, NULL);
		}
	}
}

/*
 * LKP's metric names (lkp-tests programs/<suite>/parse): will-it-scale's
 * "<N>.processes" / "<N>.threads" (total ops/s at N tasks) and
 * "per_process_ops" / "per_thread_ops" (ops/s per task), AIM9's
 * "<test>.ops_per_sec"; columns LKP has no name for keep memscale's,
 * under "memscale.".
 */
/* A will-it-scale test: its workload's description (written once, in
 * its file) says so. */
static bool wis_test(const char *w)
{
	const struct workload *wl = workload_find(w);

	return wl && !strncmp(wl->description, "will-it-scale ", 14);
}

static char *lkp_metric(const struct cmp *c, const struct cmp_row *r)
{
	const char *w = r->workload, *col = c->column;
	bool procs = !c->mode || strcmp(c->mode, "threads");

	if (!strncmp(w, "kernel:", 7))
		w += 7;
	if (wis_test(w)) {
		if (!strcmp(col, "ops_per_sec") && *r->workers)
			return xasprintf("will-it-scale.%s.%s", r->workers,
					 procs ? "processes" : "threads");
		if (!strcmp(col, "per_worker_ops"))
			return xasprintf("will-it-scale.per_%s_ops",
					 procs ? "process" : "thread");
		return xasprintf("will-it-scale.%s", col);
	}
	if (!strncmp(w, "aim9_", 5))
		w += 5;
	if (!strcmp(w, "page_test") || !strcmp(w, "brk_test"))
		return xasprintf("aim9.%s.%s", w, col);
	return xasprintf("memscale.%s.%s", w, col);
}

/* LKP's test suite of a workload, for the header's testcase field. */
static const char *lkp_suite(const char *w)
{
	if (!strncmp(w, "kernel:", 7))
		w += 7;
	if (wis_test(w))
		return "will-it-scale";
	if (strstr(w, "page_test") || strstr(w, "brk_test"))
		return "aim9";
	if (strstr(w, "lru_"))
		return "vm-scalability";
	return "memscale";
}

/* One LKP comparison block per (patch, workload and axis values), as the
 * robot prints one per job: the header names the parameters, the rows are
 * metrics.  Patches without results print nothing. */
static void print_lkp(const struct cmp *c)
{
	bool first = true;

	for (size_t p = 0; p < c->npatch; p++) {
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			bool seen = false;
			char *values;

			if (!r->patch[p])
				continue;
			for (size_t k = 0; k < i && !seen; k++)
				seen = c->rows[k].patch[p] && !strcmp(c->rows[k].block, r->block);
			if (seen)
				continue;
			if (!first)
				printf("\n");
			first = false;
			values = xasprintf("%s/%s/%s/%s", c->mode, c->host, r->block,
					   lkp_suite(r->workload));
			stats_lkp_print_header(stdout, "mode/tbox_group/test/testcase", values,
					       c->base_name, c->patch_name[p]);
			free(values);
			for (size_t k = i; k < c->nrows; k++) {
				const struct cmp_row *q = &c->rows[k];
				char *key;

				if (!q->patch[p] || strcmp(q->block, r->block))
					continue;
				key = lkp_metric(c, q);
				stats_lkp_print_row(stdout, key,
						    stats_amean(q->base->x, q->base->n),
						    stats_pop_stddev(q->base->x, q->base->n),
						    stats_amean(q->patch[p]->x, q->patch[p]->n),
						    stats_pop_stddev(q->patch[p]->x, q->patch[p]->n));
				free(key);
			}
		}
	}
}

/* The published changes of variant p for a workload, "CHANGE (MACHINE)"
 * joined by "; ", as the last field of a row. */
static void published_field(const struct cmp *c, size_t p, const char *workload)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool first = true;

	for (size_t i = 0; i < c->npub; i++) {
		const struct pub_row *pub = &c->pub[i];
		if (strcmp(pub->workload, workload) ||
		    !published_measures(c->e, pub, c->patch_var[p]))
			continue;
		fprintf(f, "%s%s (%s)", first ? "" : "; ", pub->src->change, pub->machine);
		first = false;
	}
	fclose(f);
	csv_field(stdout, buf, 1);
	free(buf);
}

static void print_csv(const struct cmp *c)
{
	static const char *const cols[] = {
		"label", "workload", "workers", "container", "column", "base",
		"patch", "base_n", "base_amean", "base_hmean", "base_stddev",
		"patch_n", "patch_amean", "patch_hmean", "patch_stddev",
		"change_pct", "hmean_pdiff", "welch_p", "mmtests_p", "significant",
		"published",
	};

	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		csv_field(stdout, cols[i], i + 1 == ARRAY_SIZE(cols));
	for (size_t p = 0; p < c->npatch; p++)
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			const struct sample_group *b = r->base, *g = r->patch[p];
			double ba, pa, mp;
			if (!g)
				continue;
			ba = stats_amean(b->x, b->n);
			pa = stats_amean(g->x, g->n);
			mp = stats_mmtests_p(b->x, b->n, g->x, g->n);
			csv_field(stdout, r->label, 0);
			csv_field(stdout, r->workload, 0);
			csv_field(stdout, r->workers, 0);
			csv_field(stdout, r->container, 0);
			csv_field(stdout, c->column, 0);
			csv_field(stdout, c->base_name, 0);
			csv_field(stdout, c->patch_name[p], 0);
			csv_fieldf(stdout, 0, "%zu", b->n);
			csv_num(stdout, ba, 0);
			csv_num(stdout, stats_hmean(b->x, b->n), 0);
			csv_num(stdout, stats_stddev(b->x, b->n), 0);
			csv_fieldf(stdout, 0, "%zu", g->n);
			csv_num(stdout, pa, 0);
			csv_num(stdout, stats_hmean(g->x, g->n), 0);
			csv_num(stdout, stats_stddev(g->x, g->n), 0);
			csv_num(stdout, stats_lkp_change(pa, ba), 0);
			csv_num(stdout, stats_pdiff(stats_hmean(g->x, g->n),
					    stats_hmean(b->x, b->n)), 0);
			csv_num(stdout, stats_welch_p(b->x, b->n, g->x, g->n, NULL, NULL), 0);
			csv_num(stdout, mp, 0);
			csv_fieldf(stdout, 0, "%d", !isnan(mp) && mp < MMTESTS_SIGNIFICANT_P);
			published_field(c, p, r->workload);
		}
}

/* ---- building rows ---- */

/* Whether the key position holds more than one distinct value. */
static bool key_varies(const struct sample_set *s, size_t k)
{
	for (size_t i = 1; i < s->ngroups; i++)
		if (strcmp(s->groups[i].key[k], s->groups[0].key[k]))
			return true;
	return false;
}

/*
 * Label: the workload, then the values of every other varying key (axis
 * knobs as KEYVALUE, workers as a plain count, container as cN), joined
 * by '-', as mmtests names its operations (e.g. "procs-52").
 */
static char *make_label(const struct sample_set *s, const struct sample_group *g,
			char *const *names, size_t from, size_t nkeys,
			bool with_workers)
{
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	bool any = false;

	for (size_t k = from; k < nkeys; k++) {
		const char *v = g->key[k];
		if (strcmp(names[k], "workload") && !key_varies(s, k))
			continue;
		if (!with_workers && !strcmp(names[k], "workers"))
			continue;
		if (any)
			fputc('-', f);
		if (!strcmp(names[k], "workload"))
			fputs(*v ? v : "samples", f);
		else if (!strcmp(names[k], "workers"))
			fputs(v, f);
		else if (!strcmp(names[k], "container"))
			fprintf(f, "c%s", v);
		else
			fprintf(f, "%s%s", names[k], v);
		any = true;
	}
	if (!any)
		fputs("samples", f);
	fclose(f);
	return buf;
}

static const char *key_of(const struct sample_group *g, char *const *names,
			  size_t nkeys, const char *name)
{
	for (size_t k = 0; k < nkeys; k++)
		if (!strcmp(names[k], name))
			return g->key[k];
	return "";
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

static void load_or_die(const char *path, const char *column,
			const struct where *where, char **names, size_t nnames,
			struct sample_set *s)
{
	char err[512];

	if (stats_load(path, column, where, (const char *const *)names,
		       nnames, s, err, sizeof(err)))
		die(EXIT_USAGE, "compare: %s: %s", path, err);
}

/* The first value of a column in a CSV, for the LKP header. */
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

/* ---- command line ---- */

struct compare_args {
	const char *expdir, *base_opt, *patch_opt;
	struct where where;
};

static void parse_args(int argc, char **argv, struct cmp *c, struct compare_args *a)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "where", required_argument, NULL, 'W' },
		{ "column", required_argument, NULL, 'c' },
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
		switch (opt) {
		case 'f': {
			size_t f = 0;
			while (f < ARRAY_SIZE(fmts) && strcmp(optarg, fmts[f]))
				f++;
			if (f == ARRAY_SIZE(fmts))
				die(EXIT_USAGE, "compare: bad --format '%s' (allowed: "
				    "table|mmtests|lkp|csv)", optarg);
			c->fmt = (enum fmt)f;
			break;
		}
		case 'W':
			cli_where_arg(&compare_cmd, &a->where, optarg);
			break;
		case 'c':
			c->column = optarg;
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
			cli_bad_option(&compare_cmd, argv[optind - 1]);
		}
	}
}

/* --per-container needs results that name their container: one result
 * row covers all of a run's workers, whatever their memcgs, so without a
 * 'container' column every "container" would repeat the same rows. */
static void check_containers(const struct sample_set *s, char *const *names,
			     size_t nnames, const char *path)
{
	if (s->plain || !s->ngroups)
		return;
	for (size_t i = 0; i < s->ngroups; i++)
		if (*key_of(&s->groups[i], names, nnames, "container"))
			return;
	die(EXIT_USAGE, "compare: --per-container: '%s' has no 'container' "
	    "values (result rows cover all of a run's containers)", path);
}

/* The published rows: from experiments/NAME.ini, the one source, when it
 * is there (the copy in a sweep directory records what was run, and may
 * predate corrections); else from the copy. */
static void load_published(struct cmp *c, const struct experiment *run_copy,
			   struct experiment **owned)
{
	char *canon = xasprintf("experiments/%s.ini", run_copy->name);
	const struct experiment *src = run_copy;

	*owned = NULL;
	if (access(canon, R_OK) == 0) {
		*owned = exp_load(canon);
		src = *owned;
		c->pub_from = (*owned)->path;
	} else {
		c->pub_from = run_copy->path;
	}
	free(canon);
	c->npub = published_rows(src, &c->pub);
	if (src != run_copy)
		published_for_run(c->pub, c->npub, src, run_copy);
}

/* --experiment DIR: every base group against each patch variant. */
static struct experiment *experiment_rows(struct cmp *c, const struct compare_args *a,
					  struct sample_set *bs, char **data)
{
	char *ini = xasprintf("%s/experiment.ini", a->expdir);
	char *names[64];
	size_t nnames = 0;
	struct experiment *e = exp_load(ini);

	free(ini);
	names[nnames++] = "variant";
	names[nnames++] = "workload";
	for (size_t i = 0; i < e->naxes && nnames < 60; i++)
		names[nnames++] = e->axes[i].key;
	names[nnames++] = "workers";
	if (c->per_container)
		names[nnames++] = "container";
	*data = xasprintf("%s/results.csv", a->expdir);
	load_or_die(*data, c->column, &a->where, names, nnames, bs);
	if (c->per_container)
		check_containers(bs, names, nnames, *data);
	c->e = e;
	c->base_name = e->variants[e->base].name;
	for (size_t v = 0; v < e->nvariants && c->npatch < MAX_PATCHES; v++)
		if (v != e->base) {
			c->patch_var[c->npatch] = v;
			c->patch_name[c->npatch++] = e->variants[v].name;
		}
	if (!c->npatch)
		die(EXIT_USAGE, "compare: experiment '%s' has a single variant; "
		    "nothing to compare", e->name);
	for (size_t i = 0; i < bs->ngroups; i++) {
		struct sample_group *g = &bs->groups[i];
		struct cmp_row r = { 0 };
		char *key[64];
		bool any = false;

		if (strcmp(g->key[0], c->base_name))
			continue;
		memcpy(key, g->key, nnames * sizeof(char *));
		for (size_t p = 0; p < c->npatch; p++) {
			key[0] = (char *)c->patch_name[p];
			r.patch[p] = stats_set_find(bs, key);
			any |= r.patch[p] != NULL;
		}
		if (!any)
			continue;
		r.base = g;
		r.label = make_label(bs, g, names, 1, nnames, true);
		r.block = make_label(bs, g, names, 1, nnames, false);
		r.workload = key_of(g, names, nnames, "workload");
		r.workers = key_of(g, names, nnames, "workers");
		r.container = key_of(g, names, nnames, "container");
		add_row(c, &r);
	}
	return e;
}

/* BASE PATCH: groups of one file matched with the other's. */
static void file_rows(struct cmp *c, const struct compare_args *a, const char *base,
		      const char *patch, struct sample_set *bs, struct sample_set *ps)
{
	char *names[4];
	size_t nnames = 0;

	names[nnames++] = "workload";
	names[nnames++] = "workers";
	if (c->per_container)
		names[nnames++] = "container";
	check_input_file("compare", base, "a results CSV or a file of samples");
	check_input_file("compare", patch, "a results CSV or a file of samples");
	load_or_die(base, c->column, &a->where, names, nnames, bs);
	load_or_die(patch, c->column, &a->where, names, nnames, ps);
	if (c->per_container)
		check_containers(bs, names, nnames, base);
	c->npatch = 1;
	for (size_t i = 0; i < bs->ngroups; i++) {
		struct sample_group *g = &bs->groups[i];
		struct cmp_row r = { 0 };

		r.patch[0] = bs->plain || ps->plain ?
			(ps->ngroups ? &ps->groups[0] : NULL) :
			stats_set_find(ps, g->key);
		r.label = make_label(bs, g, names, 0, bs->nkeys, true);
		if (!r.patch[0]) {
			warnx_("compare: note: no '%s' results for %s", c->patch_name[0],
			       r.label);
			free(r.label);
			continue;
		}
		r.base = g;
		r.block = make_label(bs, g, names, 0, bs->nkeys, false);
		r.workload = bs->nkeys ? g->key[0] : "";
		r.workers = bs->nkeys > 1 ? g->key[1] : "";
		r.container = bs->nkeys > 2 ? g->key[2] : "";
		add_row(c, &r);
	}
}

static void print_report(const struct cmp *c)
{
	switch (c->fmt) {
	case F_TABLE:
		print_table(c);
		break;
	case F_MMTESTS:
		print_mmtests(c);
		break;
	case F_LKP:
		print_lkp(c);
		break;
	case F_CSV:
		print_csv(c);
		break;
	}
}

static int compare_main(int argc, char **argv)
{
	struct cmp c = { .fmt = F_TABLE, .column = "ops_per_sec" };
	struct compare_args a = { 0 };
	char *bname = NULL, *pname = NULL, *mode, *host, *data = NULL;
	struct sample_set bs = { 0 }, ps = { 0 };
	struct experiment *e = NULL, *canon = NULL;

	parse_args(argc, argv, &c, &a);
	if (a.expdir) {
		if (optind < argc)
			die(EXIT_USAGE, "compare: unexpected argument '%s' with "
			    "--experiment", argv[optind]);
		e = experiment_rows(&c, &a, &bs, &data);
		load_published(&c, e, &canon);
	} else {
		if (argc - optind != 2)
			die(EXIT_USAGE, "compare: want BASE and PATCH files (or "
			    "--experiment DIR)");
		bname = file_label(argv[optind]);
		pname = file_label(argv[optind + 1]);
		c.base_name = a.base_opt ? a.base_opt : bname;
		c.patch_name[0] = a.patch_opt ? a.patch_opt : pname;
		file_rows(&c, &a, argv[optind], argv[optind + 1], &bs, &ps);
		data = xstrdup(argv[optind]);
	}
	for (size_t i = 0; i < c.nrows; i++)
		if (!c.rows[i].base->n)
			die(EXIT_USAGE, "compare: no base samples for %s", c.rows[i].label);
	if (!c.nrows)
		die(EXIT_USAGE, "compare: nothing to compare (no configuration has "
		    "both base and patch results%s)", a.where.n ? " after --where" : "");
	c.mode = mode = first_value(data, "mode");
	c.host = host = first_value(data, "host");
	print_report(&c);

	if (c.fmt == F_TABLE) {
		desched_note(data);
		if (!a.expdir)
			desched_note(argv[optind + 1]);
	}

	for (size_t i = 0; i < c.nrows; i++) {
		free(c.rows[i].label);
		free(c.rows[i].block);
	}
	free(c.rows);
	published_free(c.pub, c.npub);
	stats_set_free(&bs);
	stats_set_free(&ps);
	free(data);
	exp_free(e);
	exp_free(canon);
	free(bname);
	free(pname);
	free(mode);
	free(host);
	where_free(&a.where);
	return 0;
}
