/*
 * expfile_published.c - the [published] section of an experiment file
 * (format in expfile.h, struct published_row there): one row per result
 * a paper or mailing list reported, WORKLOAD = BASE, PATCH, CHANGE,
 * MACHINE and optional KEY=VALUE fields, each checked as it is read
 * (numbers, a change that agrees with BASE and PATCH), no two rows for
 * one result, and once the file is read each row's numbers and A/B pair
 * (the knob and its two values, from the variants).
 */
#include "exp/expfile.h"
#include "exp/expfile_parse.h"
#include "exp/published.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One signed percentage without its '%' ("+38.80", "-3.4"). */
static bool signed_pct(const char *s, double *v)
{
	return *s && parse_double(s[0] == '+' ? s + 1 : s, -1e9, 1e9, v) &&
	       (s[0] != '+' || (s[1] != '-' && s[1] != '+'));
}

/*
 * A published CHANGE is '-', a signed percentage ("+25.00%", "-2.5%") or
 * a range of two ("+10..+20%": the worst and best subcase, LO <= HI),
 * and where BASE and PATCH are both given it must be their change,
 * (PATCH - BASE) / BASE, to within the rounding of published tables (0.1
 * percentage points plus 1 % of the change; for a range, inside it with
 * that tolerance): a row that contradicts itself is a typo, and
 * predictions and the ledger would inherit it.
 */
static void check_published_change(struct parser *p, const char *key,
				   const char *base, const char *patch,
				   const char *change)
{
	size_t n = strlen(change);
	double lo, hi, b, pt, implied;
	char *num, *dots;
	bool ok;

	if (!strcmp(change, "-"))
		return;
	num = xstrdup(change);
	ok = n > 1 && change[n - 1] == '%';
	if (ok)
		num[n - 1] = '\0';
	dots = strstr(num, "..");
	if (ok && dots) {
		*dots = '\0';
		ok = signed_pct(num, &lo) && signed_pct(dots + 2, &hi) && lo <= hi;
	} else if (ok) {
		ok = signed_pct(num, &lo);
		hi = lo;
	}
	free(num);
	if (!ok)
		exp_perr(p, p->line, "published '%s': bad change '%s' (want a percentage "
		     "such as +25.00%% or -2.5%%, a range LO..HI%% such as "
		     "+10..+20%%, or '-')", key, change);
	if (!strcmp(base, "-") || !strcmp(patch, "-") ||
	    !parse_double(base, -HUGE_VAL, HUGE_VAL, &b) ||
	    !parse_double(patch, -HUGE_VAL, HUGE_VAL, &pt) || b == 0)
		return;
	implied = (pt - b) / b * 100.0;
	if (implied < lo - (0.1 + 0.01 * fabs(lo)) || implied > hi + (0.1 + 0.01 * fabs(hi)))
		exp_perr(p, p->line, "published '%s': change %s contradicts BASE %s and "
		     "PATCH %s, which make %+.2f%%", key, change, base, patch, implied);
}

/* build=KNOB:VALUE: a model knob and one of its values (not a run
 * setting: lock and counter are the harness's). */
static void exp_published_build(struct parser *p, const char *key, const char *kv)
{
	const char *colon = strchr(kv, ':');
	char *knob;

	if (!colon || colon == kv || !colon[1])
		exp_perr(p, p->line, "published '%s': build '%s' (want build=KNOB:VALUE)", key, kv);
	knob = xstrdup(kv);
	knob[colon - kv] = '\0';
	if (!strcmp(knob, "lock") || !strcmp(knob, "counter"))
		exp_perr(p, p->line, "published '%s': build sets a model knob, not '%s'", key, knob);
	exp_check_setting(p, knob, colon + 1);
	free(knob);
}

void exp_published_key(struct parser *p, const char *key, const char *value)
{
	struct experiment *e = p->e;
	struct published_row *pub;
	char **f;
	size_t n = exp_split_list(p, key, value, &f);

	if (!exp_workload_known(p->lim, key))
		exp_perr(p, p->line, "published row for unknown workload '%s' (see "
		     "'memscale list workloads')", key);
	if (n < 4)
		exp_perr(p, p->line, "published '%s' wants 4 fields (BASE, PATCH, CHANGE, "
		     "MACHINE; '-' when not given), got %zu", key, n);
	for (int i = 0; i < 2; i++) {
		double d;
		if (strcmp(f[i], "-") && !parse_double(f[i], -HUGE_VAL, HUGE_VAL, &d))
			exp_perr(p, p->line, "published %s value '%s' is not a number or '-'",
			     i ? "patch" : "base", f[i]);
	}
	e->published = realloc(e->published, (e->npublished + 1) * sizeof(*pub));
	if (!e->published)
		die(1, "out of memory");
	pub = &e->published[e->npublished++];
	*pub = (struct published_row){ .seed = NULL, .line = p->line, .workload = xstrdup(key),
				       .base = f[0], .patch = f[1], .change = f[2],
				       .machine = f[3] };
	/* Optional KEY=VALUE fields after MACHINE (exp/expfile.h). */
	for (size_t i = 4; i < n; i++) {
		char *eq = strchr(f[i], '=');
		char **slot = NULL;

		if (eq) {
			*eq = '\0';
			slot = !strcmp(f[i], "pair") ? &pub->pair :
			       !strcmp(f[i], "cpus") ? &pub->text.cpus :
			       !strcmp(f[i], "source") ? &pub->source :
			       !strcmp(f[i], "target") ? &pub->target :
			       !strcmp(f[i], "role") ? &pub->role :
			       !strcmp(f[i], "workers") ? &pub->text.workers :
			       !strcmp(f[i], "base_ops_s") ? &pub->text.base_ops_s :
			       !strcmp(f[i], "patch_ops_s") ? &pub->text.patch_ops_s :
			       !strcmp(f[i], "abs_source") ? &pub->abs_source :
			       !strcmp(f[i], "build") ? &pub->build : NULL;
		}
		if (!slot || *slot || !eq[1])
			exp_perr(p, p->line, "published '%s' field %zu: want pair=BASE>PATCH, "
			     "cpus=N, workers=N, target=NAME, role=dev|held, source=TEXT, "
			     "base_ops_s=X, patch_ops_s=X, abs_source=TEXT or build=KNOB:VALUE "
			     "(once each), got '%s'", key, i + 1, f[i]);
		if ((slot == &pub->text.base_ops_s || slot == &pub->text.patch_ops_s) &&
		    !parse_double(eq + 1, 1e-9, 1e18, &(double){ 0 }))
			exp_perr(p, p->line, "published '%s': %s '%s' is not a throughput "
			     "(ops/s, more than 0)", key, f[i], eq + 1);
		/* cpus is checked below, with the other fields in place */
		if (slot == &pub->text.workers && !parse_long(eq + 1, 1, 65536, &(long){ 0 }))
			exp_perr(p, p->line, "published '%s': %s '%s' is not a count 1..65536",
			     key, f[i], eq + 1);
		if (slot == &pub->build)
			exp_published_build(p, key, eq + 1);
		if (slot == &pub->role && strcmp(eq + 1, "dev") && strcmp(eq + 1, "held"))
			exp_perr(p, p->line, "published '%s': role '%s' (want dev or held)", key, eq + 1);
		*slot = xstrdup(eq + 1);
		free(f[i]);
	}
	check_published_change(p, key, pub->base, pub->patch, pub->change);
	if ((pub->text.base_ops_s || pub->text.patch_ops_s) && !pub->abs_source)
		exp_perr(p, p->line, "published '%s': base_ops_s/patch_ops_s without "
		     "abs_source=TEXT (where they were published)", key);
	if (pub->text.base_ops_s && pub->text.patch_ops_s)
		check_published_change(p, key, pub->text.base_ops_s, pub->text.patch_ops_s,
				       pub->change);
	if (pub->text.cpus) {
		long cpus;
		if (!parse_long(pub->text.cpus, 1, 1L << 20, &cpus))
			exp_perr(p, p->line, "published '%s': bad cpus '%s' (want a count of "
			     "CPUs, 1 or more)", key, pub->text.cpus);
	}
	free(f);
}

/* The identity of a published row: workload, machine and the optional
 * fields that tell two rows of one workload apart (the source aside). */
static char *published_id(const struct published_row *r)
{
	return xasprintf("%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s", r->workload, r->machine,
			 r->text.cpus ? r->text.cpus : "", r->target ? r->target : "",
			 r->pair ? r->pair : "", r->text.workers ? r->text.workers : "",
			 r->role ? r->role : "", r->build ? r->build : "");
}

struct pub_key {
	char *id;
	int line;
};

static int cmp_pub_key(const void *a, const void *b)
{
	const struct pub_key *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* Two [published] rows for the same workload on the same machine (and
 * cpus, target, pair, workers, role) would count one result twice. */
void exp_published_unique(const struct parser *p)
{
	const struct experiment *e = p->e;
	struct pub_key *k;

	if (e->npublished < 2)
		return;
	k = xcalloc(e->npublished, sizeof(*k));
	for (size_t i = 0; i < e->npublished; i++)
		k[i] = (struct pub_key){ published_id(&e->published[i]), e->published[i].line };
	qsort(k, e->npublished, sizeof(*k), cmp_pub_key);
	for (size_t i = 1; i < e->npublished; i++)
		if (!strcmp(k[i - 1].id, k[i].id))
			exp_perr(p, k[i].line, "published '%s' repeats the row of line %d "
			     "(same machine, cpus, target, pair, workers and role)",
			     strtok(k[i].id, "\n"), k[i - 1].line);
	for (size_t i = 0; i < e->npublished; i++)
		free(k[i].id);
	free(k);
}

/* ---- each row read, once the file is: its numbers and A/B pair ---- */

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

static double change_of(const struct published_row *p)
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

/* A count the reader checked, as a number (0: not given, or beyond
 * 65536, the most the predictions take). */
static unsigned count_of(const char *s)
{
	long v;

	return s && parse_long(s, 1, 65536, &v) ? (unsigned)v : 0;
}

void exp_published_resolve(struct experiment *e)
{
	size_t dv = e->nvariants ? published_default_variant(e) : 0;
	const char *a = "", *b = "", *knob = e->nvariants ? exp_ab_knob(e, dv, &a, &b) : NULL;

	for (size_t i = 0; i < e->npublished; i++) {
		struct published_row *r = &e->published[i];

		r->seed = e->name;
		r->knob = knob ? knob : "";
		if (r->pair && strchr(r->pair, '>')) {
			if (!r->pair_base) {
				r->pair_base = xstrdup(r->pair);
				*strchr(r->pair_base, '>') = '\0';
				r->pair_patch = xstrdup(strchr(r->pair, '>') + 1);
			}
			r->base_value = r->pair_base;
			r->patch_value = r->pair_patch;
		} else {
			r->base_value = a;
			r->patch_value = b;
		}
		if (range_of(r->change, &r->lo, &r->hi))
			r->change_pct = NAN;
		else
			r->lo = r->hi = r->change_pct = change_of(r);
		r->cpus = count_of(r->text.cpus);
		r->workers = count_of(r->text.workers);
		r->dev = r->role && !strcmp(r->role, "dev");
		/* checked above: positive numbers, with their source */
		r->base_ops_s = r->text.base_ops_s ? strtod(r->text.base_ops_s, NULL) : 0;
		r->patch_ops_s = r->text.patch_ops_s ? strtod(r->text.patch_ops_s, NULL) : 0;
		r->note = r->source ? r->source : r->machine;
	}
}
