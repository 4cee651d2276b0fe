/*
 * published.c - [published] rows of experiment files, resolved to knob
 * value pairs (see published.h).
 */
#include "harness/published.h"
#include "core/csv.h"
#include "core/util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *setting(const struct experiment *e, size_t v, const char *key)
{
	const struct exp_variant *var = &e->variants[v];

	for (size_t i = 0; i < var->nset; i++)
		if (!strcmp(var->set[i].key, key))
			return var->set[i].value;
	for (size_t i = 0; i < e->nfixed; i++)
		if (!strcmp(e->fixed[i].key, key))
			return e->fixed[i].value;
	return NULL;
}

size_t published_default_variant(const struct experiment *e)
{
	for (size_t v = 0; v < e->nvariants; v++)
		if (v != e->base && !strcmp(e->variants[v].name, "patch"))
			return v;
	for (size_t v = 0; v < e->nvariants; v++)
		if (v != e->base)
			return v;
	return e->base;
}

const char *exp_ab_knob(const struct experiment *e, size_t v, const char **a,
			const char **b)
{
	const struct exp_variant *var = &e->variants[v];

	for (size_t i = 0; i < var->nset; i++) {
		const char *k = var->set[i].key, *bv = setting(e, e->base, k);
		if (!bv || strcmp(bv, var->set[i].value)) {
			*a = bv ? bv : "";
			*b = var->set[i].value;
			return k;
		}
	}
	/* a key only the base sets */
	for (size_t i = 0; i < e->variants[e->base].nset; i++) {
		const char *k = e->variants[e->base].set[i].key;
		if (!setting(e, v, k)) {
			*a = e->variants[e->base].set[i].value;
			*b = "";
			return k;
		}
	}
	return NULL;
}

static double number(const char *s)
{
	double d;

	return strcmp(s, "-") && parse_double(s, -HUGE_VAL, HUGE_VAL, &d) ? d : NAN;
}

/* "LO..HI%": a published range (worst and best subcase); false when
 * the change is one number. */
static bool range_of(const char *change, double *lo, double *hi)
{
	char *t = xstrdup(change), *dots = strstr(t, ".."), *end;
	size_t n = strlen(t);
	bool ok = false;

	if (n && t[n - 1] == '%')
		t[--n] = '\0';
	if (dots) {
		*dots = '\0';
		*lo = strtod(t, &end);
		ok = end != t && !*end;
		*hi = strtod(dots + 2, &end);
		ok = ok && end != dots + 2 && !*end && *lo <= *hi;
	}
	free(t);
	return ok;
}

static double change_of(const struct exp_published *p)
{
	char *t = xstrdup(p->change), *end;
	double d, b = number(p->base), q = number(p->patch);
	size_t n = strlen(t);

	if (n && t[n - 1] == '%')
		t[n - 1] = '\0';
	d = strtod(t, &end);
	if (end == t || *end)
		d = NAN;
	free(t);
	if (isnan(d) && !isnan(b) && !isnan(q) && b != 0)
		d = (q - b) / b * 100;
	return d;
}

size_t published_rows(const struct experiment *e, struct pub_row **out)
{
	struct pub_row *rows = xcalloc(e->npublished + 1, sizeof(*rows));
	size_t dv = published_default_variant(e);
	const char *a = "", *b = "", *knob = exp_ab_knob(e, dv, &a, &b);

	for (size_t i = 0; i < e->npublished; i++) {
		const struct exp_published *p = &e->published[i];
		struct pub_row *r = &rows[i];

		r->src = p;
		r->seed = e->name;
		r->knob = knob ? knob : "";
		r->workload = p->workload;
		if (p->pair && strchr(p->pair, '>')) {
			r->base_value = xstrdup(p->pair);
			*strchr(r->base_value, '>') = '\0';
			r->patch_value = xstrdup(strchr(p->pair, '>') + 1);
		} else {
			r->base_value = xstrdup(a);
			r->patch_value = xstrdup(b);
		}
		r->machine = p->machine;
		r->cpus = p->cpus ? p->cpus : "";
		r->source = p->source ? p->source : "";
		r->base = strcmp(p->base, "-") ? p->base : "";
		r->patch = strcmp(p->patch, "-") ? p->patch : "";
		if (range_of(p->change, &r->change_lo, &r->change_hi))
			r->change_pct = NAN;
		else
			r->change_lo = r->change_hi = r->change_pct = change_of(p);
	}
	*out = rows;
	return e->npublished;
}

void published_for_run(struct pub_row *rows, size_t n,
		       const struct experiment *canon, const struct experiment *run)
{
	for (size_t i = 0; i < n; i++) {
		struct pub_row *r = &rows[i];

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
				free(r->base_value);
				free(r->patch_value);
				r->base_value = xstrdup(a);
				r->patch_value = xstrdup(b);
				break;
			}
			break;
		}
	}
}

void published_free(struct pub_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].base_value);
		free(rows[i].patch_value);
	}
	free(rows);
}

int published_measures(const struct experiment *e, const struct pub_row *r,
		       size_t v)
{
	const char *a, *b, *knob = exp_ab_knob(e, v, &a, &b);

	return knob && !strcmp(knob, r->knob) && !strcmp(a, r->base_value) &&
	       !strcmp(b, r->patch_value);
}

int published_direction(const struct experiment *e, const struct pub_row *r,
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

char *published_change_text(const struct pub_row *r, int dir)
{
	double lo, hi;

	if (dir >= 0)
		return xasprintf("%s", r->src->change);
	if (!isnan(r->change_pct)) {
		lo = published_reverse_pct(r->change_pct);
		if (!isnan(lo))
			return xasprintf("%+.2f%% (reversed from %s)", lo, r->src->change);
	} else if (!isnan(r->change_lo) && !isnan(r->change_hi)) {
		/* decreasing in p: the high end becomes the low one */
		lo = published_reverse_pct(r->change_hi);
		hi = published_reverse_pct(r->change_lo);
		if (!isnan(lo) && !isnan(hi))
			return xasprintf("%+.2f..%+.2f%% (reversed from %s)", lo, hi,
					 r->src->change);
	}
	return xasprintf("-");
}

void published_csv_header(FILE *f)
{
	fputs("seed,knob,workload,base_variant,patch_variant,machine,cpus,base,"
	      "patch,change_pct,source\n", f);
}

void published_csv_row(FILE *f, const struct pub_row *r)
{
	csv_field(f, r->seed, 0);
	csv_field(f, r->knob, 0);
	csv_field(f, r->workload, 0);
	csv_field(f, r->base_value, 0);
	csv_field(f, r->patch_value, 0);
	csv_field(f, r->machine, 0);
	csv_field(f, r->cpus, 0);
	csv_field(f, r->base, 0);
	csv_field(f, r->patch, 0);
	if (isnan(r->change_pct) && !isnan(r->change_lo)) {
		char range[64];
		snprintf(range, sizeof(range), "%g..%g", r->change_lo, r->change_hi);
		csv_field(f, range, 0);
	} else {
		csv_num(f, r->change_pct, 0);
	}
	csv_field(f, r->source, 1);
}
