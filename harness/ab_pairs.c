/*
 * ab_pairs.c - the A/B engine of `memscale compare` (harness/ab_pairs.h):
 * loads the base and patch samples, groups them by configuration, pairs
 * each base group with its patches (BASE PATCH files, or the variants of
 * a sweep directory against its base variant), refuses sides that ran
 * another model or calibration, and computes each pair's numbers once
 * through core/ab.c with its warnings.  Printing stays in the command.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file.h"
#include "core/knob.h"
#include "core/util.h"
#include "harness/ab_pairs.h"

static bool row_in_group(const struct ab_pairs *c, const struct csv_table *t,
			 const int *wcol, char *const *row, char *const *key);

static void add_row(struct ab_pairs *c, struct ab_row *r)
{
	c->rows = realloc(c->rows, (c->nrows + 1) * sizeof(*r));
	if (!c->rows)
		die(1, "out of memory");
	c->rows[c->nrows++] = *r;
}

/* The numbers of column col over one side's rows of a group (NULL, *n = 0
 * when the table has no such column or no number there). */
double *ab_pairs_side_numbers(const struct ab_pairs *c, const struct csv_table *t,
			    char *const *key, const char *col, size_t *n)
{
	int vc = t ? csv_col(t, col) : -1, *wcol;
	size_t bad;
	double *x, d;

	*n = 0;
	if (vc < 0 || !(wcol = where_columns(c->where, t, &bad)))
		return NULL;
	x = xcalloc(t->nrows + 1, sizeof(*x));
	for (size_t r = 0; r < t->nrows; r++)
		if (row_in_group(c, t, wcol, t->rows[r], key) &&
		    parse_double(t->rows[r][vc], -HUGE_VAL, HUGE_VAL, &d))
			x[(*n)++] = d;
	free(wcol);
	return x;
}

/* The knob(s) in which variant p differs from the base, with the two
 * values; for BASE PATCH files "" (the files name the sides). */
void ab_pairs_variant_knob(const struct ab_pairs *c, size_t p, char **knob, char **bv,
			 char **pv)
{
	FILE *fk, *fb, *fp;
	size_t lk, lb, lp;
	const struct exp_variant *b, *v;
	bool any = false;

	fk = open_memstream(knob, &lk);
	fb = open_memstream(bv, &lb);
	fp = open_memstream(pv, &lp);
	if (c->e) {
		b = &c->e->variants[c->e->base];
		v = &c->e->variants[c->patch_var[p]];
		for (size_t i = 0; i < v->nset; i++) {
			const char *bval = "";
			for (size_t k = 0; k < b->nset; k++)
				if (!strcmp(b->set[k].key, v->set[i].key))
					bval = b->set[k].value;
			if (!strcmp(bval, v->set[i].value))
				continue;
			fprintf(fk, "%s%s", any ? ";" : "", v->set[i].key);
			fprintf(fb, "%s%s", any ? ";" : "", bval);
			fprintf(fp, "%s%s", any ? ";" : "", v->set[i].value);
			any = true;
		}
	}
	fclose(fk);
	fclose(fb);
	fclose(fp);
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
		else if (!strcmp(names[k], "workers") || !strcmp(names[k], "mode"))
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

/* The varying keys other than workload, mode, workers and container (an
 * experiment's axes), as KEYVALUE joined by '-'; "" when none. */
static char *make_axes(const struct sample_set *s, const struct sample_group *g,
		       char *const *names, size_t from, size_t nkeys)
{
	static const char *const not_axes[] = { "workload", "mode", "workers",
						"container", "variant" };
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	bool any = false;

	for (size_t k = from; k < nkeys; k++) {
		bool skip = !key_varies(s, k);
		for (size_t i = 0; i < ARRAY_SIZE(not_axes); i++)
			skip |= !strcmp(names[k], not_axes[i]);
		if (skip)
			continue;
		fprintf(f, "%s%s%s", any ? "-" : "", names[k], g->key[k]);
		any = true;
	}
	fclose(f);
	return buf;
}

static const char *group_key(const struct sample_group *g, char *const *names,
			  size_t nkeys, const char *name)
{
	for (size_t k = 0; k < nkeys; k++)
		if (!strcmp(names[k], name))
			return g->key[k];
	return "";
}

static void load_or_die(const char *path, const char *column,
			const struct where *where, char **names, size_t nnames,
			struct sample_set *s, bool need_positive)
{
	char err[512];

	if (stats_load_flags(path, column, where, (const char *const *)names,
			     nnames, STATS_SKIP_EMPTY, s, err, sizeof(err)))
		die(EXIT_USAGE, "compare: %s: %s", path, err);
	if (!s->ngroups || (s->plain && !s->groups[0].n))
		die(EXIT_USAGE, "compare: %s: nothing to compare: no samples%s", path,
		    where && where->n ? " match the --where filters" :
		    s->plain ? "" : " (a header and no rows)");
	/* every report alike: a throughput <= 0 is refused, not printed */
	if (stats_set_check(s, need_positive || stats_column_is_throughput(column),
			    names, err, sizeof(err)))
		die(EXIT_USAGE, "compare: %s: %s", path, err);
}

/* ---- one A/B producer, sides checked, warnings ---- */

static void set_names(struct ab_pairs *c, char **names, size_t n)
{
	c->names = xcalloc(n + 1, sizeof(char *));
	memcpy(c->names, names, n * sizeof(char *));
	c->nnames = n;
}

/* Whether row (of t) is in the group whose key is `key`, after --where. */
static bool row_in_group(const struct ab_pairs *c, const struct csv_table *t,
			 const int *wcol, char *const *row, char *const *key)
{
	if (!where_match(c->where, wcol, row))
		return false;
	for (size_t k = 0; k < c->nnames; k++) {
		int gc = csv_col(t, c->names[k]);
		if (strcmp(gc >= 0 ? row[gc] : "", key[k]))
			return false;
	}
	return true;
}

/*
 * The distinct values of column `col` over the rows of t in the group
 * whose key is `key`, in first-seen order joined by '|'; NULL when t has
 * no such column or no such row.
 */
static char *side_values(const struct ab_pairs *c, const struct csv_table *t,
			 char *const *key, const char *col)
{
	int vc = t ? csv_col(t, col) : -1, *wcol;
	size_t bad, len, nseen = 0;
	const char **seen;
	char *buf;
	FILE *f;

	if (vc < 0 || !(wcol = where_columns(c->where, t, &bad)))
		return NULL;
	seen = xcalloc(t->nrows + 1, sizeof(*seen));
	for (size_t r = 0; r < t->nrows; r++) {
		size_t k = 0;
		if (!row_in_group(c, t, wcol, t->rows[r], key))
			continue;
		while (k < nseen && strcmp(seen[k], t->rows[r][vc]))
			k++;
		if (k == nseen)
			seen[nseen++] = t->rows[r][vc];
	}
	free(wcol);
	if (!nseen) {
		free(seen);
		return NULL;
	}
	f = open_memstream(&buf, &len);
	for (size_t k = 0; k < nseen; k++)
		fprintf(f, "%s%s", k ? "|" : "", seen[k]);
	fclose(f);
	free(seen);
	return buf;
}

/* Refuses (exit 2) a pair whose sides differ in column col, when both
 * sides record it. */
static void refuse_if_differ(const struct ab_pairs *c, const struct ab_row *r, size_t p,
			     const char *col, const char *what)
{
	char *bv = side_values(c, c->tbase, r->bkey, col);
	char *pv = side_values(c, c->tpatch, r->patch[p]->key, col);

	if (bv && pv && strcmp(bv, pv))
		die(EXIT_USAGE, "compare: %s: %s %s=%s but %s %s=%s: %s", r->label,
		    c->base_name, col, bv, c->patch_name[p], col, pv, what);
	free(bv);
	free(pv);
}

/* Both sides must have measured the same model with the same calibration
 * of the kernel-shaped work: else the change is the calibrations'. */
static void check_sides(const struct ab_pairs *c, const struct ab_row *r, size_t p)
{
	static const char *const model_cols[] = { "page_work", "kwork_source", "backend" };
	static const char *const calib_why = "the kernel-shaped work was calibrated "
		"differently; calibrate once (model calibrate) and rerun both";
	char *bh = side_values(c, c->tbase, r->bkey, "calib_hash");
	char *ph = side_values(c, c->tpatch, r->patch[p]->key, "calib_hash");

	if (bh && ph) {
		refuse_if_differ(c, r, p, "calib_hash", calib_why);
	} else {
		refuse_if_differ(c, r, p, "kwork_units", calib_why);
		refuse_if_differ(c, r, p, "kwork_unit_ns", calib_why);
	}
	free(bh);
	free(ph);
	for (size_t i = 0; i < ARRAY_SIZE(model_cols); i++)
		refuse_if_differ(c, r, p, model_cols[i], "the sides ran different models");
}

/* Rows of one side (*m) and those with a positive value in col (*n). */
static void count_flag(const struct ab_pairs *c, const struct csv_table *t, char *const *key,
		       const char *col, size_t *n, size_t *m)
{
	int vc = t ? csv_col(t, col) : -1, *wcol;
	size_t bad;

	*n = *m = 0;
	if (vc < 0 || !(wcol = where_columns(c->where, t, &bad)))
		return;
	for (size_t r = 0; r < t->nrows; r++) {
		if (!row_in_group(c, t, wcol, t->rows[r], key))
			continue;
		(*m)++;
		*n += atof(t->rows[r][vc]) > 0;
	}
	free(wcol);
}

/* The warnings of one pair, ';'-joined. */
static char *pair_warnings(const struct ab_pairs *c, const struct ab_row *r, size_t p)
{
	const struct ab_result *ab = &r->ab[p];
	char *buf;
	size_t len, n, m;
	FILE *f = open_memstream(&buf, &len);
	const char *sep = "";

	if (ab->n_base < 2 || ab->n_patch < 2) {
		fprintf(f, "%sfewer than 2 samples a side: no interval", sep);
		sep = ";";
	} else if (isnan(ab->ci_lo_pct)) {
		fprintf(f, "%sinterval unbounded (base mean not distinguishable from 0)", sep);
		sep = ";";
	}
	for (int side = 0; side < 2; side++) {
		const struct csv_table *t = side ? c->tpatch : c->tbase;
		char *const *key = side ? r->patch[p]->key : r->bkey;
		const char *name = side ? c->patch_name[p] : c->base_name;

		count_flag(c, t, key, "desched_flag", &n, &m);
		if (n) {
			fprintf(f, "%s%s: %zu of %zu runs had a worker descheduled", sep,
				name, n, m);
			sep = ";";
		}
		count_flag(c, t, key, "oversubscribed", &n, &m);
		if (n) {
			fprintf(f, "%s%s: %zu of %zu runs oversubscribed", sep, name, n, m);
			sep = ";";
		}
	}
	fclose(f);
	return buf;
}

/* Whether a column is a latency (lower is better) by its name. */
bool ab_column_is_latency(const char *col)
{
	size_t n = strlen(col);

	return (n > 3 && (!strcmp(col + n - 3, "_ns") || !strcmp(col + n - 3, "_us") ||
			  !strcmp(col + n - 3, "_ms"))) ||
	       strstr(col, "latency") != NULL;
}

/* BASE PATCH files: the settings (knobs, lock, counter) whose recorded
 * values differ between the sides, ';'-joined, with the two values. */
static void file_knobs(const struct ab_pairs *c, struct ab_row *r, size_t p)
{
	const struct knob **all;
	size_t nk = knob_all(&all), lk, lb, lp;
	FILE *fk = open_memstream(&r->knob[p], &lk), *fb = open_memstream(&r->bval[p], &lb);
	FILE *fp = open_memstream(&r->pval[p], &lp);
	bool any = false;

	for (size_t i = 0; i < nk + 2; i++) {
		const char *col = i < nk ? all[i]->name : i == nk ? "lock" : "counter";
		char *bv = side_values(c, c->tbase, r->bkey, col);
		char *pv = side_values(c, c->tpatch, r->patch[p]->key, col);

		if (bv && pv && strcmp(bv, pv)) {
			fprintf(fk, "%s%s", any ? ";" : "", col);
			fprintf(fb, "%s%s", any ? ";" : "", bv);
			fprintf(fp, "%s%s", any ? ";" : "", pv);
			any = true;
		}
		free(bv);
		free(pv);
	}
	fclose(fk);
	fclose(fb);
	fclose(fp);
}

/* Every pair through core/ab.c once; checks and warnings beside it. */
void ab_pairs_compute(struct ab_pairs *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		struct ab_row *r = &c->rows[i];
		for (size_t p = 0; p < c->npatch; p++) {
			const struct sample_group *g = r->patch[p];
			if (!g)
				continue;
			if (c->tbase && c->tpatch)
				check_sides(c, r, p);
			if (!c->e && c->tbase && c->tpatch)
				file_knobs(c, r, p);
			ab_compute(r->base->x, r->base->n, g->x, g->n, c->lower_better,
				   AB_LEVEL, &r->ab[p]);
			r->warn[p] = pair_warnings(c, r, p);
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
		if (*group_key(&s->groups[i], names, nnames, "container"))
			return;
	die(EXIT_USAGE, "compare: --per-container: '%s' has no 'container' "
	    "values (result rows cover all of a run's containers)", path);
}

/* The published rows: from experiments/NAME.ini, the one source, when it
 * is there (the copy in a sweep directory records what was run, and may
 * predate corrections); else from the copy. */
void ab_pairs_published(struct ab_pairs *c, const struct experiment *run_copy,
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
struct experiment *ab_pairs_experiment(struct ab_pairs *c, const char *expdir,
				       struct sample_set *bs, char **data)
{
	char *ini = xasprintf("%s/experiment.ini", expdir);
	char *names[64];
	size_t nnames = 0;
	struct experiment *e = exp_load(ini);

	free(ini);
	names[nnames++] = "variant";
	names[nnames++] = "workload";
	names[nnames++] = "mode";
	for (size_t i = 0; i < e->naxes && nnames < 60; i++)
		names[nnames++] = e->axes[i].key;
	names[nnames++] = "workers";
	if (c->per_container)
		names[nnames++] = "container";
	*data = xasprintf("%s/results.csv", expdir);
	load_or_die(*data, c->column, c->where, names, nnames, bs, c->need_positive);
	set_names(c, names, nnames);
	if (c->per_container)
		check_containers(bs, names, nnames, *data);
	c->e = e;
	c->base_name = e->variants[e->base].name;
	for (size_t v = 0; v < e->nvariants && c->npatch < AB_MAX_PATCHES; v++)
		if (v != e->base) {
			c->patch_var[c->npatch] = v;
			c->patch_name[c->npatch++] = e->variants[v].name;
		}
	if (!c->npatch)
		die(EXIT_USAGE, "compare: experiment '%s' has a single variant; "
		    "nothing to compare", e->name);
	for (size_t i = 0; i < bs->ngroups; i++) {
		struct sample_group *g = &bs->groups[i];
		struct ab_row r = { 0 };
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
		r.bkey = g->key;
		r.label = make_label(bs, g, names, 1, nnames, true);
		r.block = make_label(bs, g, names, 1, nnames, false);
		r.axes = make_axes(bs, g, names, 1, nnames);
		r.workload = group_key(g, names, nnames, "workload");
		r.mode = group_key(g, names, nnames, "mode");
		r.workers = group_key(g, names, nnames, "workers");
		r.container = group_key(g, names, nnames, "container");
		add_row(c, &r);
	}
	return e;
}

/* BASE PATCH: groups of one file matched with the other's. */
void ab_pairs_files(struct ab_pairs *c, bool column_given, const char *base,
		    const char *patch, struct sample_set *bs, struct sample_set *ps)
{
	char *names[4];
	size_t nnames = 0;

	names[nnames++] = "workload";
	names[nnames++] = "mode";
	names[nnames++] = "workers";
	if (c->per_container)
		names[nnames++] = "container";
	check_input_file("compare", base, "a results CSV or a file of samples");
	check_input_file("compare", patch, "a results CSV or a file of samples");
	load_or_die(base, c->column, c->where, names, nnames, bs, c->need_positive);
	load_or_die(patch, c->column, c->where, names, nnames, ps, c->need_positive);
	set_names(c, names, nnames);
	/* A plain sample file against a result CSV: which of the CSV's
	 * configurations, and which column, must be said, never guessed. */
	if (bs->plain != ps->plain) {
		const char *csv = bs->plain ? patch : base;
		const struct sample_set *cs = bs->plain ? ps : bs;

		if (!column_given)
			die(EXIT_USAGE, "compare: '%s' is a plain sample file and '%s' a "
			    "result CSV: name the CSV column to compare with --column", bs->plain ?
			    base : patch, csv);
		if (cs->ngroups != 1)
			die(EXIT_USAGE, "compare: result CSV '%s' holds %zu configurations "
			    "(workload, workers): against a plain sample file it must hold "
			    "one", csv, cs->ngroups);
	}
	if (c->per_container)
		check_containers(bs, names, nnames, base);
	c->npatch = 1;
	for (size_t i = 0; i < bs->ngroups; i++) {
		struct sample_group *g = &bs->groups[i];
		struct ab_row r = { 0 };

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
		r.bkey = g->key;
		r.block = make_label(bs, g, names, 0, bs->nkeys, false);
		r.axes = xstrdup("");
		r.workload = group_key(g, names, bs->nkeys, "workload");
		r.mode = group_key(g, names, bs->nkeys, "mode");
		r.workers = group_key(g, names, bs->nkeys, "workers");
		r.container = group_key(g, names, bs->nkeys, "container");
		add_row(c, &r);
	}
}

void ab_pairs_free(struct ab_pairs *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		free(c->rows[i].label);
		free(c->rows[i].block);
		free(c->rows[i].axes);
		for (size_t p = 0; p < c->npatch; p++) {
			free(c->rows[i].warn[p]);
			free(c->rows[i].knob[p]);
			free(c->rows[i].bval[p]);
			free(c->rows[i].pval[p]);
		}
	}
	free(c->names);
	free(c->rows);
	published_free(c->pub, c->npub);
}
