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

#include "cli/cli.h"
#include "core/csv.h"
#include "core/stats.h"
#include "harness/expfile.h"

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
	struct cmp_row *rows;
	size_t nrows;
	const char *mode, *host; /* for the LKP header */
	const struct experiment *e;
	size_t published_patch; /* the patch the [published] rows measured */
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
	if (c->e && c->e->npublished) {
		const struct experiment *e = c->e;
		printf("\nPublished (%s vs %s)%s%s:\n\n", c->base_name,
		       c->patch_name[c->published_patch], e->reproduces ? " - " : "",
		       e->reproduces ? e->reproduces : "");
		printf("%-15s %-11s %-8s %-10s %s\n", "Testcase", "base", "patch",
		       "change", "machine");
		for (size_t i = 0; i < e->npublished; i++) {
			const struct exp_published *pub = &e->published[i];
			printf("%-15s %-11s %-8s %-10s %s\n", pub->workload, pub->base,
			       pub->patch, pub->change, pub->machine);
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

static void print_lkp(const struct cmp *c)
{
	char values[512];

	for (size_t p = 0; p < c->npatch; p++) {
		if (p)
			printf("\n");
		snprintf(values, sizeof(values), "%s/%s/%s", c->mode, c->host,
			 c->column);
		stats_lkp_print_header(stdout, "mode/host/column", values,
				       c->base_name, c->patch_name[p]);
		for (size_t i = 0; i < c->nrows; i++) {
			const struct cmp_row *r = &c->rows[i];
			char *key;
			if (!r->patch[p])
				continue;
			key = xasprintf("%s.%s", r->label, c->column);
			stats_lkp_print_row(stdout, key,
					    stats_amean(r->base->x, r->base->n),
					    stats_pop_stddev(r->base->x, r->base->n),
					    stats_amean(r->patch[p]->x, r->patch[p]->n),
					    stats_pop_stddev(r->patch[p]->x, r->patch[p]->n));
			free(key);
		}
	}
}

static void csv_num(double v)
{
	if (isnan(v))
		csv_field(stdout, "", 0);
	else
		csv_fieldf(stdout, 0, "%.10g", v);
}

/* The experiment's published changes for a workload, "CHANGE (MACHINE)"
 * joined by "; ", as the last field of a row. */
static void published_field(const struct cmp *c, const char *workload)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool first = true;

	for (size_t i = 0; c->e && i < c->e->npublished; i++) {
		const struct exp_published *pub = &c->e->published[i];
		if (strcmp(pub->workload, workload))
			continue;
		fprintf(f, "%s%s (%s)", first ? "" : "; ", pub->change, pub->machine);
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
			csv_num(ba);
			csv_num(stats_hmean(b->x, b->n));
			csv_num(stats_stddev(b->x, b->n));
			csv_fieldf(stdout, 0, "%zu", g->n);
			csv_num(pa);
			csv_num(stats_hmean(g->x, g->n));
			csv_num(stats_stddev(g->x, g->n));
			csv_num(stats_lkp_change(pa, ba));
			csv_num(stats_pdiff(stats_hmean(g->x, g->n),
					    stats_hmean(b->x, b->n)));
			csv_num(stats_welch_p(b->x, b->n, g->x, g->n, NULL, NULL));
			csv_num(mp);
			csv_fieldf(stdout, 0, "%d", !isnan(mp) && mp < MMTESTS_SIGNIFICANT_P);
			published_field(c, p == c->published_patch ? r->workload : "");
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
			char *const *names, size_t from, size_t nkeys)
{
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	bool any = false;

	for (size_t k = from; k < nkeys; k++) {
		const char *v = g->key[k];
		if (strcmp(names[k], "workload") && !key_varies(s, k))
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

static int compare_main(int argc, char **argv)
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
	struct cmp c = { .fmt = F_TABLE, .column = "ops_per_sec" };
	struct where where = { 0 };
	char *names[64], *bname = NULL, *pname = NULL, *mode, *host;
	const char *expdir = NULL, *base_opt = NULL, *patch_opt = NULL, *data;
	size_t nnames = 0;
	struct sample_set bs, ps;
	struct experiment *e = NULL;
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:W:c:e:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "table"))
				c.fmt = F_TABLE;
			else if (!strcmp(optarg, "mmtests"))
				c.fmt = F_MMTESTS;
			else if (!strcmp(optarg, "lkp"))
				c.fmt = F_LKP;
			else if (!strcmp(optarg, "csv"))
				c.fmt = F_CSV;
			else
				die(EXIT_USAGE, "compare: bad --format '%s' (allowed: "
				    "table|mmtests|lkp|csv)", optarg);
			break;
		case 'W':
			cli_where_arg(&compare_cmd, &where, optarg);
			break;
		case 'c':
			c.column = optarg;
			break;
		case 'e':
			expdir = optarg;
			break;
		case 'P':
			c.per_container = true;
			break;
		case 'B':
			base_opt = optarg;
			break;
		case 'N':
			patch_opt = optarg;
			break;
		default:
			cli_bad_option(&compare_cmd, argv[optind - 1]);
		}
	}

	if (expdir) {
		char *ini = xasprintf("%s/experiment.ini", expdir);
		char *csv = xasprintf("%s/results.csv", expdir);
		if (optind < argc)
			die(EXIT_USAGE, "compare: unexpected argument '%s' with "
			    "--experiment", argv[optind]);
		e = exp_load(ini);
		names[nnames++] = "variant";
		names[nnames++] = "workload";
		for (size_t a = 0; a < e->naxes && nnames < 60; a++)
			names[nnames++] = e->axes[a].key;
		names[nnames++] = "workers";
		if (c.per_container)
			names[nnames++] = "container";
		load_or_die(csv, c.column, &where, names, nnames, &bs);
		c.e = e;
		c.base_name = e->variants[e->base].name;
		for (size_t v = 0; v < e->nvariants && c.npatch < MAX_PATCHES; v++)
			if (v != e->base)
				c.patch_name[c.npatch++] = e->variants[v].name;
		if (!c.npatch)
			die(EXIT_USAGE, "compare: experiment '%s' has a single variant; "
			    "nothing to compare", e->name);
		/* [published] rows measured the variant named "patch", or else
		 * the first variant after the base. */
		for (size_t p = 0; p < c.npatch; p++)
			if (!strcmp(c.patch_name[p], "patch"))
				c.published_patch = p;
		/* Rows: every base group; patches matched on the other keys. */
		for (size_t i = 0; i < bs.ngroups; i++) {
			struct sample_group *g = &bs.groups[i];
			struct cmp_row r = { 0 };
			char *key[64];
			bool any = false;
			if (strcmp(g->key[0], c.base_name))
				continue;
			memcpy(key, g->key, nnames * sizeof(char *));
			for (size_t p = 0; p < c.npatch; p++) {
				key[0] = (char *)c.patch_name[p];
				r.patch[p] = stats_set_find(&bs, key);
				any |= r.patch[p] != NULL;
			}
			if (!any)
				continue;
			r.base = g;
			r.label = make_label(&bs, g, names, 1, nnames);
			r.workload = key_of(g, names, nnames, "workload");
			r.workers = key_of(g, names, nnames, "workers");
			r.container = key_of(g, names, nnames, "container");
			add_row(&c, &r);
		}
		data = csv;
		free(ini);
		ps.ngroups = 0;
		ps.groups = NULL;
		ps.nkeys = 0;
	} else {
		if (argc - optind != 2)
			die(EXIT_USAGE, "compare: want BASE and PATCH files (or "
			    "--experiment DIR)");
		names[nnames++] = "workload";
		names[nnames++] = "workers";
		if (c.per_container)
			names[nnames++] = "container";
		check_input_file("compare", argv[optind], "a results CSV or a file of samples");
		check_input_file("compare", argv[optind + 1], "a results CSV or a file of samples");
		load_or_die(argv[optind], c.column, &where, names, nnames, &bs);
		load_or_die(argv[optind + 1], c.column, &where, names, nnames,
			    &ps);
		if (c.per_container && !bs.plain &&
		    !*key_of(&bs.groups[0], names, nnames, "container"))
			warnx_("compare: note: --per-container but '%s' has no "
			       "'container' values", argv[optind]);
		bname = file_label(argv[optind]);
		pname = file_label(argv[optind + 1]);
		c.base_name = base_opt ? base_opt : bname;
		c.patch_name[0] = patch_opt ? patch_opt : pname;
		c.npatch = 1;
		for (size_t i = 0; i < bs.ngroups; i++) {
			struct sample_group *g = &bs.groups[i];
			struct cmp_row r = { 0 };
			r.patch[0] = bs.plain || ps.plain ?
				(ps.ngroups ? &ps.groups[0] : NULL) :
				stats_set_find(&ps, g->key);
			if (!r.patch[0]) {
				char *l = make_label(&bs, g, names, 0, bs.nkeys);
				warnx_("compare: note: no '%s' results for %s", c.patch_name[0], l);
				free(l);
				continue;
			}
			r.base = g;
			r.label = make_label(&bs, g, names, 0, bs.nkeys);
			r.workload = bs.nkeys ? g->key[0] : "";
			r.workers = bs.nkeys > 1 ? g->key[1] : "";
			r.container = bs.nkeys > 2 ? g->key[2] : "";
			add_row(&c, &r);
		}
		data = argv[optind];
	}
	for (size_t i = 0; i < c.nrows; i++)
		if (!c.rows[i].base->n)
			die(EXIT_USAGE, "compare: no base samples for %s", c.rows[i].label);
	if (!c.nrows)
		die(EXIT_USAGE, "compare: nothing to compare (no configuration has "
		    "both base and patch results%s)", where.n ? " after --where" : "");
	mode = first_value(data, "mode");
	host = first_value(data, "host");
	c.mode = mode;
	c.host = host;

	switch (c.fmt) {
	case F_TABLE:
		print_table(&c);
		break;
	case F_MMTESTS:
		print_mmtests(&c);
		break;
	case F_LKP:
		print_lkp(&c);
		break;
	case F_CSV:
		print_csv(&c);
		break;
	}

	for (size_t i = 0; i < c.nrows; i++)
		free(c.rows[i].label);
	free(c.rows);
	stats_set_free(&bs);
	stats_set_free(&ps);
	if (expdir)
		free((char *)data);
	exp_free(e);
	free(bname);
	free(pname);
	free(mode);
	free(host);
	where_free(&where);
	return 0;
}
