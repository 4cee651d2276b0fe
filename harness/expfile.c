/*
 * expfile.c - the experiment file reader (format in expfile.h).
 *
 * libinih tokenises the file (sections, KEY = VALUE, trimming); this file
 * feeds it line by line through its reader hook, which is where the line
 * numbers of every message come from, where comments ('#' or ';' at the
 * start or after white space) are removed, where a line libinih would
 * misread is refused with the same "file:line: reason" as always, and
 * where a line longer than libinih's buffer is handed over as a value and
 * its continuation lines (libinih's multi-line values) and joined again.
 *
 * Everything is validated while reading, against the same registries the
 * runs use (workloads, knobs, locks, counters), and every run setting,
 * knob value and timing value is checked, so `sweep --dry-run` finds a
 * typo before hours of measurements instead of in the middle.
 */
#include "harness/expfile.h"
#include "core/knob.h"
#include "core/util.h"
#include "counters/counter.h"
#include "locks/lock.h"
#include "harness/workload.h"
#include "harness/run_opts.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct parser {
	const char *path;
	int line;
	struct experiment *e;
	enum { SEC_NONE, SEC_EXPERIMENT, SEC_FIXED, SEC_VARIANT, SEC_AXIS,
	       SEC_QUICK, SEC_PUBLISHED, SEC_PREDICT } sec;
	struct knobset *scratch; /* validates knob values */
	int experiment_line;
	bool seen[32];           /* [experiment] keys already given */
	char *quick_seen[64];    /* [quick] keys already given, and their lines */
	int quick_line[64];
	size_t nquick_seen;
	/* the reader hook's state */
	FILE *f;
	char *buf;               /* the current physical line */
	size_t cap;
	size_t off;              /* how much of it libinih has had */
	size_t len;              /* its length (kept: linear time per line) */
	char *key, *value;       /* the line's KEY = VALUE, joined from
				  * libinih's calls, dispatched when the
				  * next line is read */
	size_t vlen, vcap;       /* value's length and room (grown by doubling) */
};

static void perr(const struct parser *p, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
static void perr(const struct parser *p, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	die(EXIT_USAGE, "%s:%d: %s", p->path, line, msg);
}

static int cmp_item(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* An item given twice in a list of names or values would run (or count)
 * its points twice: refused, sorted so that a long list costs n log n. */
static void check_unique(const struct parser *p, const char *key, char **v, size_t n)
{
	char **s;

	if (n < 2)
		return;
	s = xcalloc(n, sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_item);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(s[i - 1], s[i]))
			perr(p, p->line, "'%s' lists '%s' twice", key, s[i]);
	free(s);
}

/* Splits a comma list into trimmed, non-empty items. */
static size_t split_list(const struct parser *p, const char *key,
			 const char *value, char ***out)
{
	char *copy = xstrdup(value), *save = copy, *tok;
	size_t n = 0;

	*out = NULL;
	if (!*value) { /* an empty list: caught as an empty matrix */
		free(copy);
		return 0;
	}
	while ((tok = strsep(&save, ","))) {
		tok = str_trim(tok);
		if (!*tok)
			perr(p, p->line, "empty item in the list for '%s'", key);
		*out = realloc(*out, (n + 1) * sizeof(char *));
		if (!*out)
			die(1, "out of memory");
		(*out)[n++] = xstrdup(tok);
	}
	free(copy);
	return n;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '_' && *s != '-')
			return false;
	return true;
}

/* A worker list as `--threads` takes it, checked without dying: each
 * comma item is a count, a range or a percentage of the CPUs. */
static bool valid_workers(const char *s, char *why, size_t len)
{
	char *copy = xstrdup(s), *save = copy, *tok;
	bool ok = *s != '\0';

	while (ok && (tok = strsep(&save, ","))) {
		size_t n = strlen(tok);
		if (n && tok[n - 1] == '%') {
			double d;
			tok[n - 1] = '\0';
			ok = parse_double(tok, 1e-9, 6400, &d);
		} else {
			long *v = NULL;
			const char *err;
			ok = parse_list(tok, 1, workers_max(), &v, &err) > 0;
			free(v);
		}
	}
	/* The same limit the run applies (run_opts.c), so that it is blamed
	 * on this line instead of on a --threads nobody typed. */
	if (!ok)
		snprintf(why, len, "bad workers '%s' (want counts 1..%ld on this "
			 "machine, such as 1,2,4 or 1-8, or percentages of CPUs such "
			 "as 50%%)", s, workers_max());
	free(copy);
	return ok;
}

/* Checks one assignment of a knob, `lock` or `counter`. */
static void check_setting(struct parser *p, const char *key, const char *value)
{
	char err[768];

	if (!strcmp(key, "lock")) {
		if (!lock_find(value))
			perr(p, p->line, "unknown lock '%s' (see 'memscale list locks')",
			     value);
		return;
	}
	if (!strcmp(key, "counter")) {
		if (!counter_find(value))
			perr(p, p->line, "unknown counter '%s' (see 'memscale list "
			     "counters')", value);
		return;
	}
	if (!knobset_set(p->scratch, key, value, err, sizeof(err)))
		perr(p, p->line, "%s", err);
}

static void kv_add(struct parser *p, struct exp_kv **list, size_t *n,
		   const char *key, const char *value)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i].key, key))
			perr(p, p->line, "'%s' is set twice in this section "
			     "(first on line %d)", key, (*list)[i].line);
	check_setting(p, key, value);
	*list = realloc(*list, (*n + 1) * sizeof(**list));
	if (!*list)
		die(1, "out of memory");
	(*list)[*n] = (struct exp_kv){ xstrdup(key), xstrdup(value), p->line };
	(*n)++;
}

static void axis_add(struct parser *p, struct exp_axis **list, size_t *n,
		     const char *key, const char *value, bool check)
{
	struct exp_axis *a;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i].key, key))
			perr(p, p->line, "axis '%s' is given twice (first on line %d)",
			     key, (*list)[i].line);
	*list = realloc(*list, (*n + 1) * sizeof(**list));
	if (!*list)
		die(1, "out of memory");
	a = &(*list)[(*n)++];
	a->key = xstrdup(key);
	a->line = p->line;
	a->nvalues = split_list(p, key, value, &a->values);
	check_unique(p, key, a->values, a->nvalues);
	if (check)
		for (size_t i = 0; i < a->nvalues; i++)
			check_setting(p, key, a->values[i]);
}

/* One scalar run setting (workers, mode, seconds, warmup, sample_ms,
 * reps): 1 set, 0 bad value (reason in why), -1 not such a setting. */
int exp_run_setting(struct experiment *e, const char *key, const char *value,
		    char *why, size_t len)
{
	double d;
	long v;

	if (!strcmp(key, "workers")) {
		/* "1, 50%, 100%" is kept as "1,50%,100%", as --threads takes it */
		char *copy = xstrdup(value), *save = copy, *tok, *norm;
		size_t off = 0;

		norm = xcalloc(strlen(value) + 1, 1);
		while ((tok = strsep(&save, ","))) {
			tok = str_trim(tok);
			off += (size_t)sprintf(norm + off, "%s%s", off ? "," : "", tok);
			if (!*tok)
				norm[0] = '\0', save = NULL; /* empty item: refused below */
		}
		free(copy);
		if (!*norm || !valid_workers(norm, why, len)) {
			if (!*norm)
				snprintf(why, len, "bad workers '%s' (an empty item; want "
					 "counts such as 1,2,4 or 1-8, or percentages of "
					 "CPUs such as 50%%)", value);
			free(norm);
			return 0;
		}
		free(e->workers);
		e->workers = norm;
	} else if (!strcmp(key, "mode")) {
		if (strcmp(value, "threads") && strcmp(value, "processes")) {
			snprintf(why, len, "bad mode '%s' (allowed: "
				 "threads|processes)", value);
			return 0;
		}
		free(e->mode);
		e->mode = xstrdup(value);
	} else if (!strcmp(key, "seconds")) {
		if (!parse_double(value, 1e-3, 1e6, &d)) {
			snprintf(why, len, "bad seconds '%s' (want a positive "
				 "number)", value);
			return 0;
		}
		free(e->seconds);
		e->seconds = xstrdup(value);
	} else if (!strcmp(key, "warmup")) {
		if (!parse_long(value, 0, 10000, &v)) {
			snprintf(why, len, "bad warmup '%s' (want 0..10000 "
				 "samples)", value);
			return 0;
		}
		free(e->warmup);
		e->warmup = xstrdup(value);
	} else if (!strcmp(key, "sample_ms")) {
		if (!parse_long(value, 1, 3600000, &v)) {
			snprintf(why, len, "bad sample_ms '%s' (want 1..3600000)",
				 value);
			return 0;
		}
		free(e->sample_ms);
		e->sample_ms = xstrdup(value);
	} else if (!strcmp(key, "reps")) {
		if (!parse_long(value, 1, 100000, &v)) {
			snprintf(why, len, "bad reps '%s' (want 1..100000)", value);
			return 0;
		}
		e->reps = (unsigned)v;
	} else {
		return -1;
	}
	return 1;
}

/* Keys shared by [experiment] and [quick] that hold run settings. */
static bool run_setting(struct parser *p, struct experiment *e,
			const char *key, const char *value)
{
	char why[256];
	int r;

	if (!strcmp(key, "workloads")) {
		for (size_t i = 0; i < e->nworkloads; i++)
			free(e->workloads[i]);
		free(e->workloads);
		e->nworkloads = split_list(p, key, value, &e->workloads);
		check_unique(p, key, e->workloads, e->nworkloads);
		for (size_t i = 0; i < e->nworkloads; i++)
			if (!workload_find(e->workloads[i]))
				perr(p, p->line, "unknown workload '%s' (see 'memscale "
				     "list workloads')", e->workloads[i]);
		return true;
	}
	r = exp_run_setting(e, key, value, why, sizeof(why));
	if (r == 0)
		perr(p, p->line, "%s", why);
	return r == 1;
}

/* ---- [experiment]: one row per key ---- */

static void set_name(struct parser *p, const char *value)
{
	if (!valid_name(value))
		perr(p, p->line, "bad name '%s' (want lower-case letters, "
		     "digits, '_' or '-')", value);
	p->e->name = xstrdup(value);
}

static void set_description(struct parser *p, const char *value)
{
	p->e->description = xstrdup(value);
}

static void set_reproduces(struct parser *p, const char *value)
{
	p->e->reproduces = xstrdup(value);
}

static void set_title(struct parser *p, const char *value) { p->e->title = xstrdup(value); }
static void set_about(struct parser *p, const char *value) { p->e->about = xstrdup(value); }

static void set_base(struct parser *p, const char *value)
{
	/* Resolved once every variant has been read. */
	p->e->quick->name = xstrdup(value);
	p->e->quick->base = (size_t)p->line;
}

static void set_trace(struct parser *p, const char *value)
{
	if (!strcmp(value, "yes"))
		p->e->trace = true;
	else if (!strcmp(value, "no"))
		p->e->trace = false;
	else
		perr(p, p->line, "bad trace '%s' (allowed: yes|no)", value);
}

static void set_lock(struct parser *p, const char *value)
{
	check_setting(p, "lock", value);
	p->e->lock = xstrdup(value);
}

static void set_counter(struct parser *p, const char *value)
{
	check_setting(p, "counter", value);
	p->e->counter = xstrdup(value);
}

/* workloads, workers, mode, seconds, warmup, sample_ms, reps */
static void set_run(struct parser *p, const char *value);

static const struct exp_key {
	const char *key;
	void (*set)(struct parser *p, const char *value);
} exp_keys[] = {
	{ "name", set_name },
	{ "description", set_description },
	{ "reproduces", set_reproduces },
	{ "workloads", set_run },   /* index 3: finish() reads seen[3] */
	{ "workers", set_run },
	{ "mode", set_run },
	{ "seconds", set_run },
	{ "warmup", set_run },
	{ "sample_ms", set_run },
	{ "reps", set_run },
	{ "base", set_base },
	{ "trace", set_trace },
	{ "lock", set_lock },
	{ "counter", set_counter },
	{ "title", set_title },     /* new keys go last */
	{ "about", set_about },
};

static const char *current_key;

static void set_run(struct parser *p, const char *value)
{
	run_setting(p, p->e, current_key, value);
}

static void experiment_key(struct parser *p, const char *key, const char *value)
{
	char allowed[512];
	size_t k, off = 0;

	for (k = 0; k < ARRAY_SIZE(exp_keys); k++)
		if (!strcmp(exp_keys[k].key, key))
			break;
	if (k == ARRAY_SIZE(exp_keys)) {
		for (size_t i = 0; i < ARRAY_SIZE(exp_keys); i++)
			off += (size_t)snprintf(allowed + off, sizeof(allowed) - off,
						"%s%s", i ? ", " : "", exp_keys[i].key);
		perr(p, p->line, "unknown key '%s' in [experiment] (allowed: %s)",
		     key, allowed);
	}
	if (p->seen[k])
		perr(p, p->line, "'%s' is set twice in [experiment]", key);
	p->seen[k] = true;
	current_key = key;
	exp_keys[k].set(p, value);
}

static void quick_key(struct parser *p, const char *key, const char *value)
{
	struct experiment *q = p->e->quick;

	/* A second `reps = ` would silently win over the first. */
	for (size_t i = 0; i < p->nquick_seen; i++)
		if (!strcmp(p->quick_seen[i], key))
			perr(p, p->line, "'%s' is set twice in [quick] (first on line %d)",
			     key, p->quick_line[i]);
	if (p->nquick_seen < ARRAY_SIZE(p->quick_seen)) {
		p->quick_line[p->nquick_seen] = p->line;
		p->quick_seen[p->nquick_seen++] = xstrdup(key);
	}
	if (run_setting(p, q, key, value))
		return;
	if (!strcmp(key, "variants")) {
		char **names;
		size_t n = split_list(p, key, value, &names);
		check_unique(p, key, names, n);
		q->variants = xcalloc(n, sizeof(*q->variants));
		for (size_t i = 0; i < n; i++)
			q->variants[i] = (struct exp_variant){ .name = names[i],
							       .line = p->line };
		q->nvariants = n;
		free(names);
		return;
	}
	if (!strncmp(key, "axis.", 5) && key[5]) {
		axis_add(p, &q->axes, &q->naxes, key + 5, value, true);
		return;
	}
	perr(p, p->line, "unknown key '%s' in [quick] (allowed: workloads, "
	     "variants, workers, mode, seconds, warmup, sample_ms, reps, "
	     "axis.KNOB)", key);
}

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
		perr(p, p->line, "published '%s': bad change '%s' (want a percentage "
		     "such as +25.00%% or -2.5%%, a range LO..HI%% such as "
		     "+10..+20%%, or '-')", key, change);
	if (!strcmp(base, "-") || !strcmp(patch, "-") ||
	    !parse_double(base, -HUGE_VAL, HUGE_VAL, &b) ||
	    !parse_double(patch, -HUGE_VAL, HUGE_VAL, &pt) || b == 0)
		return;
	implied = (pt - b) / b * 100.0;
	if (implied < lo - (0.1 + 0.01 * fabs(lo)) || implied > hi + (0.1 + 0.01 * fabs(hi)))
		perr(p, p->line, "published '%s': change %s contradicts BASE %s and "
		     "PATCH %s, which make %+.2f%%", key, change, base, patch, implied);
}

static void published_key(struct parser *p, const char *key, const char *value)
{
	struct experiment *e = p->e;
	struct exp_published *pub;
	char **f;
	size_t n = split_list(p, key, value, &f);

	if (!workload_find(key))
		perr(p, p->line, "published row for unknown workload '%s' (see "
		     "'memscale list workloads')", key);
	if (n < 4)
		perr(p, p->line, "published '%s' wants 4 fields (BASE, PATCH, CHANGE, "
		     "MACHINE; '-' when not given), got %zu", key, n);
	for (int i = 0; i < 2; i++) {
		double d;
		if (strcmp(f[i], "-") && !parse_double(f[i], -HUGE_VAL, HUGE_VAL, &d))
			perr(p, p->line, "published %s value '%s' is not a number or '-'",
			     i ? "patch" : "base", f[i]);
	}
	e->published = realloc(e->published, (e->npublished + 1) * sizeof(*pub));
	if (!e->published)
		die(1, "out of memory");
	pub = &e->published[e->npublished++];
	*pub = (struct exp_published){ xstrdup(key), f[0], f[1], f[2], f[3], p->line };
	/* Optional KEY=VALUE fields after MACHINE (harness/published.h). */
	for (size_t i = 4; i < n; i++) {
		char *eq = strchr(f[i], '=');
		char **slot = NULL;

		if (eq) {
			*eq = '\0';
			slot = !strcmp(f[i], "pair") ? &pub->pair :
			       !strcmp(f[i], "cpus") ? &pub->cpus :
			       !strcmp(f[i], "source") ? &pub->source :
			       !strcmp(f[i], "target") ? &pub->target :
			       !strcmp(f[i], "role") ? &pub->role :
			       !strcmp(f[i], "workers") ? &pub->workers :
			       !strcmp(f[i], "base_ops_s") ? &pub->base_ops_s :
			       !strcmp(f[i], "patch_ops_s") ? &pub->patch_ops_s :
			       !strcmp(f[i], "abs_source") ? &pub->abs_source : NULL;
		}
		if (!slot || *slot || !eq[1])
			perr(p, p->line, "published '%s' field %zu: want pair=BASE>PATCH, "
			     "cpus=N, workers=N, target=NAME, role=dev|held, source=TEXT, "
			     "base_ops_s=X, patch_ops_s=X or abs_source=TEXT (once each), "
			     "got '%s'", key, i + 1, f[i]);
		if ((slot == &pub->base_ops_s || slot == &pub->patch_ops_s) &&
		    !parse_double(eq + 1, 1e-9, 1e18, &(double){ 0 }))
			perr(p, p->line, "published '%s': %s '%s' is not a throughput "
			     "(ops/s, more than 0)", key, f[i], eq + 1);
		/* cpus is checked below, with the other fields in place */
		if (slot == &pub->workers && !parse_long(eq + 1, 1, 65536, &(long){ 0 }))
			perr(p, p->line, "published '%s': %s '%s' is not a count 1..65536",
			     key, f[i], eq + 1);
		if (slot == &pub->role && strcmp(eq + 1, "dev") && strcmp(eq + 1, "held"))
			perr(p, p->line, "published '%s': role '%s' (want dev or held)", key, eq + 1);
		*slot = xstrdup(eq + 1);
		free(f[i]);
	}
	check_published_change(p, key, pub->base, pub->patch, pub->change);
	if ((pub->base_ops_s || pub->patch_ops_s) && !pub->abs_source)
		perr(p, p->line, "published '%s': base_ops_s/patch_ops_s without "
		     "abs_source=TEXT (where they were published)", key);
	if (pub->base_ops_s && pub->patch_ops_s)
		check_published_change(p, key, pub->base_ops_s, pub->patch_ops_s, pub->change);
	if (pub->cpus) {
		long cpus;
		if (!parse_long(pub->cpus, 1, 1L << 20, &cpus))
			perr(p, p->line, "published '%s': bad cpus '%s' (want a count of "
			     "CPUs, 1 or more)", key, pub->cpus);
	}
	free(f);
}

static void section(struct parser *p, char *s)
{
	struct experiment *e = p->e;
	char *name = str_trim(s);

	if (!strcmp(name, "experiment")) {
		p->sec = SEC_EXPERIMENT;
		p->experiment_line = p->line;
	} else if (!strcmp(name, "fixed")) {
		p->sec = SEC_FIXED;
	} else if (!strcmp(name, "axis")) {
		p->sec = SEC_AXIS;
	} else if (!strcmp(name, "quick")) {
		p->sec = SEC_QUICK;
		e->has_quick = true;
	} else if (!strcmp(name, "published")) {
		p->sec = SEC_PUBLISHED;
	} else if (!strcmp(name, "predict")) {
		p->sec = SEC_PREDICT;
	} else if (!strncmp(name, "variant", 7) && isspace((unsigned char)name[7])) {
		char *vn = str_trim(name + 7);
		if (!valid_name(vn))
			perr(p, p->line, "bad variant name '%s' (want lower-case letters, "
			     "digits, '_' or '-')", vn);
		for (size_t i = 0; i < e->nvariants; i++)
			if (!strcmp(e->variants[i].name, vn))
				perr(p, p->line, "variant '%s' is defined twice (first on "
				     "line %d)", vn, e->variants[i].line);
		e->variants = realloc(e->variants, (e->nvariants + 1) *
				      sizeof(*e->variants));
		if (!e->variants)
			die(1, "out of memory");
		e->variants[e->nvariants++] = (struct exp_variant){
			.name = xstrdup(vn), .line = p->line };
		p->sec = SEC_VARIANT;
	} else {
		perr(p, p->line, "unknown section '[%s]' (allowed: experiment, fixed, "
		     "variant NAME, axis, quick, published, predict)", name);
	}
}

/* Lists that may be written empty; an empty one is an empty matrix. */
static bool list_key(const struct parser *p, const char *key)
{
	if (p->sec == SEC_AXIS)
		return true;
	if (p->sec == SEC_EXPERIMENT || p->sec == SEC_QUICK)
		return !strcmp(key, "workloads") || !strcmp(key, "variants") ||
		       !strncmp(key, "axis.", 5);
	return false;
}

static void line_kv(struct parser *p, const char *key, const char *value)
{
	struct experiment *e = p->e;

	if (!*key)
		perr(p, p->line, "missing key before '='");
	if (!*value && !list_key(p, key))
		perr(p, p->line, "missing value for '%s'", key);
	switch (p->sec) {
	case SEC_NONE:
		perr(p, p->line, "'%s' outside any section (start with "
		     "[experiment])", key);
	case SEC_EXPERIMENT:
		experiment_key(p, key, value);
		break;
	case SEC_FIXED:
		kv_add(p, &e->fixed, &e->nfixed, key, value);
		break;
	case SEC_VARIANT: {
		struct exp_variant *v = &e->variants[e->nvariants - 1];
		kv_add(p, &v->set, &v->nset, key, value);
		break;
	}
	case SEC_AXIS:
		axis_add(p, &e->axes, &e->naxes, key, value, true);
		break;
	case SEC_QUICK:
		quick_key(p, key, value);
		break;
	case SEC_PUBLISHED:
		published_key(p, key, value);
		break;
	case SEC_PREDICT:
		/* A knob for the predictions only; `cpus` stands for the
		 * machine size of the point predicted. */
		if (!strcmp(key, "lock") || !strcmp(key, "counter"))
			perr(p, p->line, "[predict] sets knobs only, not '%s'", key);
		if (!strcmp(value, "cpus")) {
			const struct knob *k = knob_find(key);
			if (!k || k->type != KNOB_INT)
				perr(p, p->line, "[predict] %s = cpus: '%s' is not a numeric knob",
				     key, key);
			for (size_t i = 0; i < e->npredict; i++)
				if (!strcmp(e->predict[i].key, key))
					perr(p, p->line, "'%s' is set twice in this section "
					     "(first on line %d)", key, e->predict[i].line);
			e->predict = realloc(e->predict, (e->npredict + 1) * sizeof(*e->predict));
			if (!e->predict)
				die(1, "out of memory");
			e->predict[e->npredict++] = (struct exp_kv){ xstrdup(key), xstrdup(value),
								     p->line };
		} else {
			kv_add(p, &e->predict, &e->npredict, key, value);
		}
		break;
	}
}

/* Strips a comment: '#' or ';' at the start or after white space. */
static void strip_comment(char *s)
{
	for (char *c = s; *c; c++)
		if ((*c == '#' || *c == ';') &&
		    (c == s || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
}

/* libinih's handler: collects KEY = VALUE (a long value arrives in parts,
 * as libinih's multi-line continuations); the reader dispatches it. */
static int on_value(void *user, const char *section_name, const char *name,
		    const char *value)
{
	struct parser *p = user;

	(void)section_name; /* sections are tracked by the reader */
	size_t n = strlen(value);

	if (!p->key) {
		p->key = xstrdup(name);
		p->vlen = 0;
	}
	if (p->vlen + n + 1 > p->vcap) {
		/* doubling: a long line's parts are joined in linear time */
		size_t cap = p->vcap ? p->vcap : 256;
		while (cap < p->vlen + n + 1)
			cap *= 2;
		p->value = realloc(p->value, cap);
		if (!p->value)
			die(1, "out of memory");
		p->vcap = cap;
	}
	memcpy(p->value + p->vlen, value, n + 1);
	p->vlen += n;
	return 1;
}

static void dispatch(struct parser *p)
{
	if (!p->key)
		return;
	line_kv(p, p->key, p->value);
	free(p->key);
	p->key = NULL;
	p->vlen = 0;
	if (p->value)
		p->value[0] = '\0';
}

/*
 * A split point for a line longer than libinih's buffer: after the '=',
 * between two non-blank characters, the second one a letter, digit, '.',
 * '-' or '%' (libinih trims each part, and reads a part that starts with
 * '#' or ';' as a comment), as far on as `max` allows.  0: none.
 */
static size_t split_at(const char *s, size_t from, size_t max)
{
	for (size_t k = max; k > from; k--)
		if (!isspace((unsigned char)s[k - 1]) &&
		    (isalnum((unsigned char)s[k]) || strchr(".-%", s[k])))
			return k;
	return 0;
}

/* libinih's reader hook: one (cleaned) line, or one part of a long one. */
static char *ini_reader_next_line(char *str, int num, void *user)
{
	struct parser *p = user;
	size_t room = (size_t)num - 2; /* text + '\n' + NUL */
	char *s;

	if (p->buf && p->buf[p->off]) {
		/* the rest of a long line, as a continuation (leading blank) */
		size_t len = p->len - p->off, k = len;
		if (len > room - 1 && !(k = split_at(p->buf + p->off, 0, room - 1)))
			perr(p, p->line, "line too long to split (more than %zu "
			     "characters without a break)", room);
		snprintf(str, (size_t)num, " %.*s\n", (int)k, p->buf + p->off);
		p->off += k;
		return str;
	}
	dispatch(p);
	for (;;) {
		ssize_t got = getline(&p->buf, &p->cap, p->f);

		if (got < 0) {
			if (ferror(p->f))
				die_errno(EXIT_USAGE, "cannot read experiment file '%s'",
					  p->path);
			p->buf[0] = '\0';
			p->off = p->len = 0;
			return NULL;
		}
		p->line++;
		if ((size_t)got != strlen(p->buf))
			perr(p, p->line, "not a text file (a NUL byte)");
		strip_comment(p->buf);
		s = str_trim(p->buf);
		p->len = strlen(s);
		memmove(p->buf, s, p->len + 1);
		s = p->buf;
		p->off = 0;
		if (!*s)
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');
			if (!end || str_trim(end + 1)[0])
				perr(p, p->line, "malformed section header '%s'", s);
			*end = '\0';
			section(p, s + 1);
			continue; /* libinih's own section tracking is not used */
		}
		if (!strchr(s, '='))
			perr(p, p->line, "expected 'KEY = VALUE' or '[section]', got '%s'", s);
		if (strcspn(s, ":") < strcspn(s, "="))
			perr(p, p->line, "expected 'KEY = VALUE' or '[section]', got "
			     "'%s' (no ':' in a key)", s);
		break;
	}
	{
		size_t len = p->len, k = len;
		size_t eq = (size_t)(strchr(s, '=') - s);
		if (len > room && !(k = split_at(s, eq + 1, room)))
			perr(p, p->line, "line too long to split (more than %zu "
			     "characters without a break)", room);
		/* An empty value: libinih passes "", which line_kv judges. */
		snprintf(str, (size_t)num, "%.*s\n", (int)k, s);
		p->off = k;
	}
	return str;
}

static size_t find_variant(const struct experiment *e, const char *name)
{
	for (size_t i = 0; i < e->nvariants; i++)
		if (!strcmp(e->variants[i].name, name))
			return i;
	return (size_t)-1;
}

/* The identity of a published row: workload, machine and the optional
 * fields that tell two rows of one workload apart (the source aside). */
static char *published_id(const struct exp_published *r)
{
	return xasprintf("%s\n%s\n%s\n%s\n%s\n%s\n%s", r->workload, r->machine,
			 r->cpus ? r->cpus : "", r->target ? r->target : "",
			 r->pair ? r->pair : "", r->workers ? r->workers : "",
			 r->role ? r->role : "");
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
static void check_published_unique(const struct parser *p)
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
			perr(p, k[i].line, "published '%s' repeats the row of line %d "
			     "(same machine, cpus, target, pair, workers and role)",
			     strtok(k[i].id, "\n"), k[i - 1].line);
	for (size_t i = 0; i < e->npublished; i++)
		free(k[i].id);
	free(k);
}

/* Whole-file checks once everything is read. */
static void finish(struct parser *p, int last_line)
{
	struct experiment *e = p->e, *q = e->quick;
	int at = p->experiment_line ? p->experiment_line : 1;

	if (!p->experiment_line)
		perr(p, 1, "no [experiment] section");
	if (!e->name)
		perr(p, at, "[experiment] has no 'name'");
	if (!e->nworkloads && !p->seen[3])
		perr(p, at, "[experiment] has no 'workloads' (missing workload)");
	if (!e->nvariants)
		perr(p, last_line, "no [variant NAME] section (want at least one)");
	if (q->name) {
		e->base = find_variant(e, q->name);
		if (e->base == (size_t)-1)
			perr(p, (int)q->base, "base '%s' is not a defined variant",
			     q->name);
	}
	for (size_t i = 0; i < e->naxes; i++)
		for (size_t j = 0; j < e->nfixed; j++)
			if (!strcmp(e->axes[i].key, e->fixed[j].key))
				perr(p, e->axes[i].line, "'%s' is both an axis and a "
				     "[fixed] setting (line %d)", e->axes[i].key,
				     e->fixed[j].line);
	/* An axis is applied after the variants (cmd_sweep.c point_opts):
	 * over a key a variant sets, it would replace the variant's value at
	 * every point and both sides of the A/B would run the same setting;
	 * over a per-kernel knob, it would replace what a variant's kernel
	 * presets. */
	for (size_t i = 0; i < e->naxes; i++) {
		const struct knob *kn = knob_find(e->axes[i].key);

		for (size_t v = 0; v < e->nvariants; v++)
			for (size_t k = 0; k < e->variants[v].nset; k++) {
				const struct exp_kv *kv = &e->variants[v].set[k];

				if (!strcmp(kv->key, e->axes[i].key))
					perr(p, e->axes[i].line, "axis '%s' would override "
					     "[variant %s] '%s = %s' (line %d): every point of "
					     "both variants would run the axis value",
					     e->axes[i].key, e->variants[v].name, kv->key,
					     kv->value, kv->line);
				if (kn && kn->per_kernel && !strcmp(kv->key, "kernel"))
					perr(p, e->axes[i].line, "axis '%s' would override the "
					     "per-kernel value that [variant %s] 'kernel = %s' "
					     "(line %d) presets", e->axes[i].key,
					     e->variants[v].name, kv->value, kv->line);
			}
	}
	/* [quick] must stay inside the full matrix. */
	for (size_t i = 0; i < q->nworkloads; i++) {
		size_t j = 0;
		while (j < e->nworkloads && strcmp(e->workloads[j], q->workloads[i]))
			j++;
		if (j == e->nworkloads)
			perr(p, last_line, "[quick] workload '%s' is not in the "
			     "experiment's workloads", q->workloads[i]);
	}
	for (size_t i = 0; i < q->nvariants; i++)
		if (find_variant(e, q->variants[i].name) == (size_t)-1)
			perr(p, q->variants[i].line, "[quick] variant '%s' is not "
			     "defined", q->variants[i].name);
	for (size_t i = 0; i < q->naxes; i++) {
		size_t j = 0;
		while (j < e->naxes && strcmp(e->axes[j].key, q->axes[i].key))
			j++;
		if (j == e->naxes)
			perr(p, q->axes[i].line, "[quick] axis.%s: '%s' is not an "
			     "[axis] of the experiment", q->axes[i].key,
			     q->axes[i].key);
	}
	check_published_unique(p);
	if (!e->nworkloads)
		perr(p, at, "empty matrix: the workloads list is empty");
	for (size_t i = 0; i < e->naxes; i++)
		if (!e->axes[i].nvalues)
			perr(p, e->axes[i].line, "empty matrix: axis '%s' has no values",
			     e->axes[i].key);
	for (size_t i = 0; i < q->naxes; i++)
		if (!q->axes[i].nvalues)
			perr(p, q->axes[i].line, "empty matrix: [quick] axis.%s has no "
			     "values", q->axes[i].key);
	if (e->has_quick && q->nvariants == 0 && q->variants) 
		perr(p, last_line, "empty matrix: [quick] variants is empty");
}

struct experiment *exp_load(const char *path)
{
	struct parser p = { .path = path };
	struct stat st;
	int r;

	p.f = open_input_file("experiment", path, "an experiment file");
	if (fstat(fileno(p.f), &st) == 0 && st.st_size == 0)
		die(EXIT_USAGE, "experiment file '%s' is empty (want an "
		    "[experiment] section)", path);
	p.e = xcalloc(1, sizeof(*p.e));
	p.e->quick = xcalloc(1, sizeof(*p.e->quick));
	p.e->path = xstrdup(path);
	p.e->workers = xstrdup("1");
	p.e->mode = xstrdup("threads");
	p.e->seconds = xstrdup("3");
	p.e->warmup = xstrdup("1");
	p.e->sample_ms = xstrdup("1000");
	p.e->reps = 1;
	p.scratch = knobset_new();
	r = ini_parse_stream(ini_reader_next_line, &p, on_value, &p);
	dispatch(&p);
	if (r)
		/* the reader refuses every line libinih could not take */
		die(1, "internal error: %s:%d: libinih refused a line (%d)", path,
		    p.line, r);
	free(p.buf);
	free(p.value);
	fclose(p.f);
	knobset_free(p.scratch);
	for (size_t i = 0; i < p.nquick_seen; i++)
		free(p.quick_seen[i]);
	finish(&p, p.line ? p.line : 1);
	return p.e;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void free_axes(struct exp_axis *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].key);
		free_strs(a[i].values, a[i].nvalues);
	}
	free(a);
}

static void free_kvs(struct exp_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void exp_apply_quick(struct experiment *e)
{
	struct experiment *q = e->quick;

	if (!e->has_quick)
		return;
#define TAKE(field) do { if (q->field) { free(e->field); e->field = q->field; \
	q->field = NULL; } } while (0)
	TAKE(workers);
	TAKE(mode);
	TAKE(seconds);
	TAKE(warmup);
	TAKE(sample_ms);
#undef TAKE
	if (q->reps)
		e->reps = q->reps;
	if (q->nworkloads) {
		free_strs(e->workloads, e->nworkloads);
		e->workloads = q->workloads;
		e->nworkloads = q->nworkloads;
		q->workloads = NULL;
		q->nworkloads = 0;
	}
	if (q->nvariants) {
		/* Keep the chosen variants in the order of the file, and the
		 * base first among them if it was chosen.  The base is known
		 * by its index: its name is freed below when it is not kept,
		 * before later variants are looked at. */
		struct exp_variant *keep = xcalloc(q->nvariants, sizeof(*keep));
		size_t n = 0, nb = (size_t)-1;
		for (size_t i = 0; i < e->nvariants; i++) {
			bool chosen = false;
			for (size_t j = 0; j < q->nvariants; j++)
				chosen |= !strcmp(q->variants[j].name, e->variants[i].name);
			if (chosen) {
				if (i == e->base)
					nb = n;
				keep[n++] = e->variants[i];
			} else {
				free(e->variants[i].name);
				free_kvs(e->variants[i].set, e->variants[i].nset);
			}
		}
		free(e->variants);
		e->variants = keep;
		e->nvariants = n;
		e->base = nb == (size_t)-1 ? 0 : nb;
	}
	for (size_t i = 0; i < q->naxes; i++)
		for (size_t j = 0; j < e->naxes; j++)
			if (!strcmp(e->axes[j].key, q->axes[i].key)) {
				free_strs(e->axes[j].values, e->axes[j].nvalues);
				e->axes[j].values = q->axes[i].values;
				e->axes[j].nvalues = q->axes[i].nvalues;
				q->axes[i].values = NULL;
				q->axes[i].nvalues = 0;
			}
}

static void exp_free_quick(struct experiment *q)
{
	free(q->workers);
	free(q->mode);
	free(q->seconds);
	free(q->warmup);
	free(q->sample_ms);
	free(q->name);
	free_strs(q->workloads, q->nworkloads);
	for (size_t i = 0; i < q->nvariants; i++)
		free(q->variants[i].name);
	free(q->variants);
	free_axes(q->axes, q->naxes);
	free(q);
}

void exp_free(struct experiment *e)
{
	if (!e)
		return;
	free(e->path);
	free(e->name);
	free(e->description);
	free(e->title);
	free(e->about);
	free(e->reproduces);
	free_strs(e->workloads, e->nworkloads);
	free(e->workers);
	free(e->mode);
	free(e->seconds);
	free(e->warmup);
	free(e->sample_ms);
	free(e->lock);
	free(e->counter);
	free_kvs(e->fixed, e->nfixed);
	for (size_t i = 0; i < e->nvariants; i++) {
		free(e->variants[i].name);
		free_kvs(e->variants[i].set, e->variants[i].nset);
	}
	free(e->variants);
	free_axes(e->axes, e->naxes);
	for (size_t i = 0; i < e->npublished; i++) {
		struct exp_published *pub = &e->published[i];
		free(pub->workload);
		free(pub->base);
		free(pub->patch);
		free(pub->change);
		free(pub->machine);
		free(pub->pair);
		free(pub->cpus);
		free(pub->source);
		free(pub->target);
		free(pub->role);
		free(pub->workers);
		free(pub->base_ops_s);
		free(pub->patch_ops_s);
		free(pub->abs_source);
	}
	free(e->published);
	free_kvs(e->predict, e->npredict);
	exp_free_quick(e->quick);
	free(e);
}

size_t exp_npoints(const struct experiment *e, size_t nworkers)
{
	size_t n = 1;
	size_t f[4] = { e->nworkloads, nworkers, e->reps, e->nvariants };

	/* Every factor comes from input: checked, saturating at SIZE_MAX. */
	for (size_t i = 0; i < 4; i++)
		if (__builtin_mul_overflow(n, f[i], &n))
			return SIZE_MAX;
	for (size_t i = 0; i < e->naxes; i++)
		if (__builtin_mul_overflow(n, e->axes[i].nvalues, &n))
			return SIZE_MAX;
	return n;
}
