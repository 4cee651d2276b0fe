/*
 * published.c - [published] rows of experiment files: carried over to a
 * recorded run, matched to its variants, turned over, and written as CSV
 * (see published.h; expfile_published.c reads them).
 */
#include "exp/published.h"
#include "core/csv.h"
#include "core/util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t published_rows(const struct experiment *e, struct published_row **out)
{
	struct published_row *rows = xcalloc(e->npublished + 1, sizeof(*rows));

	for (size_t i = 0; i < e->npublished; i++)
		rows[i] = e->published[i];
	*out = rows;
	return e->npublished;
}

void published_for_run(struct published_row *rows, size_t n,
		       const struct experiment *canon, const struct experiment *run)
{
	for (size_t i = 0; i < n; i++) {
		struct published_row *r = &rows[i];

		for (size_t v = 0; v < canon->nvariants; v++) {
			const char *a, *b, *knob;

			if (!published_measures(canon, r, v))
				continue;
			for (size_t w = 0; w < run->nvariants; w++) {
				if (w == run->base || strcmp(run->variants[w].name,
							     canon->variants[v].name))
					continue;
				knob = exp_ab_knob(run, w, &a, &b);
				if (!knob || published_measures(run, r, w))
					break;
				r->knob = knob;
				r->base_value = a;
				r->patch_value = b;
				break;
			}
			break;
		}
	}
}

void published_free(struct published_row *rows, size_t n)
{
	(void)n; /* the strings are the experiment's */
	free(rows);
}

int published_measures(const struct experiment *e, const struct published_row *r,
		       size_t v)
{
	const char *a, *b, *knob = exp_ab_knob(e, v, &a, &b);

	return knob && !strcmp(knob, r->knob) && !strcmp(a, r->base_value) &&
	       !strcmp(b, r->patch_value);
}

int published_direction(const struct experiment *e, const struct published_row *r,
			size_t v)
{
	const char *a, *b, *knob = exp_ab_knob(e, v, &a, &b);

	if (!knob || strcmp(knob, r->knob))
		return 0;
	if (!strcmp(a, r->base_value) && !strcmp(b, r->patch_value))
		return 1;
	if (!strcmp(a, r->patch_value) && !strcmp(b, r->base_value))
		return -1;
	return 0;
}

double published_reverse_pct(double p)
{
	if (isnan(p) || p <= -100)
		return NAN;
	return 100 / (1 + p / 100) - 100;
}

char *published_change_text(const struct published_row *r, int dir)
{
	double lo, hi;

	if (dir >= 0)
		return xasprintf("%s", r->change);
	if (!isnan(r->change_pct)) {
		lo = published_reverse_pct(r->change_pct);
		if (!isnan(lo))
			return xasprintf("%+.2f%% (reversed from %s)", lo, r->change);
	} else if (!isnan(r->lo) && !isnan(r->hi)) {
		/* decreasing in p: the high end becomes the low one */
		lo = published_reverse_pct(r->hi);
		hi = published_reverse_pct(r->lo);
		if (!isnan(lo) && !isnan(hi))
			return xasprintf("%+.2f..%+.2f%% (reversed from %s)", lo, hi,
					 r->change);
	}
	return xasprintf("-");
}

void published_csv_header(FILE *f)
{
	fputs("seed,knob,workload,base_variant,patch_variant,machine,cpus,base,"
	      "patch,change_pct,source,workers,target,role,build,base_ops_s,"
	      "patch_ops_s,abs_source\n", f);
}

void published_csv_row(FILE *f, const struct published_row *r)
{
	csv_field(f, r->seed, 0);
	csv_field(f, r->knob, 0);
	csv_field(f, r->workload, 0);
	csv_field(f, r->base_value, 0);
	csv_field(f, r->patch_value, 0);
	csv_field(f, r->machine, 0);
	csv_field(f, r->text.cpus ? r->text.cpus : "", 0);
	csv_field(f, strcmp(r->base, "-") ? r->base : "", 0);
	csv_field(f, strcmp(r->patch, "-") ? r->patch : "", 0);
	if (isnan(r->change_pct) && !isnan(r->lo)) {
		char range[64];
		snprintf(range, sizeof(range), "%g..%g", r->lo, r->hi);
		csv_field(f, range, 0);
	} else {
		csv_num(f, r->change_pct, 0);
	}
	csv_field(f, r->source ? r->source : "", 0);
	/* the optional fields, as written ("" where not given) */
	csv_field(f, r->text.workers ? r->text.workers : "", 0);
	csv_field(f, r->target ? r->target : "", 0);
	csv_field(f, r->dev ? "dev" : "held", 0);
	csv_field(f, r->build ? r->build : "", 0);
	csv_field(f, r->text.base_ops_s ? r->text.base_ops_s : "", 0);
	csv_field(f, r->text.patch_ops_s ? r->text.patch_ops_s : "", 0);
	csv_field(f, r->abs_source ? r->abs_source : "", 1);
}
