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
 * runs use (knobs, locks, counters; the workloads and the most workers
 * this machine runs come from the layers above that own them, as data:
 * struct exp_limits, harness/expfile.h's exp_load), and every run
 * setting, knob value and timing value is checked, so `sweep --dry-run`
 * finds a typo before hours of measurements instead of in the middle.
 *
 * The [published] rows are read by expfile_published.c, and the error
 * line and comma lists every section uses are expfile_parse.c's
 * (expfile_parse.h holds the reader's state they share).
 */
#include "exp/expfile.h"
#include "exp/expfile_parse.h"
#include "core/knob.h"
#include "core/util.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
static bool valid_workers(const char *s, long max, char *why, size_t len)
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
			ok = parse_list(tok, 1, max, &v, &err) > 0;
			free(v);
		}
	}
	/* The same limit the run applies (run_opts.c), so that it is blamed
	 * on this line instead of on a --threads nobody typed. */
	if (!ok)
		snprintf(why, len, "bad workers '%s' (want counts 1..%ld on this "
			 "machine, such as 1,2,4 or 1-8, or percentages of CPUs such "
			 "as 50%%)", s, max);
	free(copy);
	return ok;
}

static void kv_add(struct parser *p, struct exp_kv **list, size_t *n,
		   const char *key, const char *value)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*list)[i].key, key))
			exp_perr(p, p->line, "'%s' is set twice in this section "
			     "(first on line %d)", key, (*list)[i].line);
	exp_check_setting(p, key, value);
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
			exp_perr(p, p->line, "axis '%s' is given twice (first on line %d)",
			     key, (*list)[i].line);
	*list = realloc(*list, (*n + 1) * sizeof(**list));
	if (!*list)
		die(1, "out of memory");
	a = &(*list)[(*n)++];
	a->key = xstrdup(key);
	a->line = p->line;
	a->nvalues = exp_split_list(p, key, value, &a->values);
	exp_check_unique(p, key, a->values, a->nvalues);
	if (check)
		for (size_t i = 0; i < a->nvalues; i++)
			exp_check_setting(p, key, a->values[i]);
}

/* One scalar run setting (workers, mode, seconds, warmup, sample_ms,
 * reps): 1 set, 0 bad value (reason in why), -1 not such a setting. */
int exp_set_run(struct experiment *e, const char *key, const char *value,
		const struct exp_limits *lim, char *why, size_t len)
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
		if (!*norm || !valid_workers(norm, lim ? lim->workers_max : EXP_WORKERS_MAX,
						why, len)) {
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
		e->nworkloads = exp_split_list(p, key, value, &e->workloads);
		exp_check_unique(p, key, e->workloads, e->nworkloads);
		for (size_t i = 0; i < e->nworkloads; i++)
			if (!exp_workload_known(p->lim, e->workloads[i]))
				exp_perr(p, p->line, "unknown workload '%s' (see 'memscale "
				     "list workloads')", e->workloads[i]);
		return true;
	}
	r = exp_set_run(e, key, value, p->lim, why, sizeof(why));
	if (r == 0)
		exp_perr(p, p->line, "%s", why);
	return r == 1;
}

/* ---- [experiment]: one row per key ---- */

static void set_name(struct parser *p, const char *value)
{
	if (!valid_name(value))
		exp_perr(p, p->line, "bad name '%s' (want lower-case letters, "
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
		exp_perr(p, p->line, "bad trace '%s' (allowed: yes|no)", value);
}

static void set_lock(struct parser *p, const char *value)
{
	exp_check_setting(p, "lock", value);
	p->e->lock = xstrdup(value);
}

static void set_counter(struct parser *p, const char *value)
{
	exp_check_setting(p, "counter", value);
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
	{ "workloads", set_run },
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
		exp_perr(p, p->line, "unknown key '%s' in [experiment] (allowed: %s)",
		     key, allowed);
	}
	if (p->seen[k])
		exp_perr(p, p->line, "'%s' is set twice in [experiment]", key);
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
			exp_perr(p, p->line, "'%s' is set twice in [quick] (first on line %d)",
			     key, p->quick_line[i]);
	if (p->nquick_seen < ARRAY_SIZE(p->quick_seen)) {
		p->quick_line[p->nquick_seen] = p->line;
		p->quick_seen[p->nquick_seen++] = xstrdup(key);
	}
	if (run_setting(p, q, key, value))
		return;
	if (!strcmp(key, "variants")) {
		char **names;
		size_t n = exp_split_list(p, key, value, &names);
		exp_check_unique(p, key, names, n);
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
	exp_perr(p, p->line, "unknown key '%s' in [quick] (allowed: workloads, "
	     "variants, workers, mode, seconds, warmup, sample_ms, reps, "
	     "axis.KNOB)", key);
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
			exp_perr(p, p->line, "bad variant name '%s' (want lower-case letters, "
			     "digits, '_' or '-')", vn);
		for (size_t i = 0; i < e->nvariants; i++)
			if (!strcmp(e->variants[i].name, vn))
				exp_perr(p, p->line, "variant '%s' is defined twice (first on "
				     "line %d)", vn, e->variants[i].line);
		e->variants = realloc(e->variants, (e->nvariants + 1) *
				      sizeof(*e->variants));
		if (!e->variants)
			die(1, "out of memory");
		e->variants[e->nvariants++] = (struct exp_variant){
			.name = xstrdup(vn), .line = p->line };
		p->sec = SEC_VARIANT;
	} else {
		exp_perr(p, p->line, "unknown section '[%s]' (allowed: experiment, fixed, "
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
		exp_perr(p, p->line, "missing key before '='");
	if (!*value && !list_key(p, key))
		exp_perr(p, p->line, "missing value for '%s'", key);
	switch (p->sec) {
	case SEC_NONE:
		exp_perr(p, p->line, "'%s' outside any section (start with "
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
		exp_published_key(p, key, value);
		break;
	case SEC_PREDICT:
		/* A knob for the predictions only; `cpus` stands for the
		 * machine size of the point predicted. */
		if (!strcmp(key, "lock") || !strcmp(key, "counter"))
			exp_perr(p, p->line, "[predict] sets knobs only, not '%s'", key);
		if (!strcmp(value, "cpus")) {
			const struct knob *k = knob_find(key);
			if (!k || k->type != KNOB_INT)
				exp_perr(p, p->line, "[predict] %s = cpus: '%s' is not a numeric knob",
				     key, key);
			for (size_t i = 0; i < e->npredict; i++)
				if (!strcmp(e->predict[i].key, key))
					exp_perr(p, p->line, "'%s' is set twice in this section "
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
			exp_perr(p, p->line, "line too long to split (more than %zu "
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
			exp_perr(p, p->line, "not a text file (a NUL byte)");
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
				exp_perr(p, p->line, "malformed section header '%s'", s);
			*end = '\0';
			section(p, s + 1);
			continue; /* libinih's own section tracking is not used */
		}
		if (!strchr(s, '='))
			exp_perr(p, p->line, "expected 'KEY = VALUE' or '[section]', got '%s'", s);
		if (strcspn(s, ":") < strcspn(s, "="))
			exp_perr(p, p->line, "expected 'KEY = VALUE' or '[section]', got "
			     "'%s' (no ':' in a key)", s);
		break;
	}
	{
		size_t len = p->len, k = len;
		size_t eq = (size_t)(strchr(s, '=') - s);
		if (len > room && !(k = split_at(s, eq + 1, room)))
			exp_perr(p, p->line, "line too long to split (more than %zu "
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

/* Whether [experiment] gave KEY (its index in exp_keys, found by name). */
static bool key_seen(const struct parser *p, const char *key)
{
	for (size_t k = 0; k < ARRAY_SIZE(exp_keys); k++)
		if (!strcmp(exp_keys[k].key, key))
			return p->seen[k];
	return false;
}

/* Whole-file checks once everything is read. */
static void finish(struct parser *p, int last_line)
{
	struct experiment *e = p->e, *q = e->quick;
	int at = p->experiment_line ? p->experiment_line : 1;

	if (!p->experiment_line)
		exp_perr(p, 1, "no [experiment] section");
	if (!e->name)
		exp_perr(p, at, "[experiment] has no 'name'");
	if (!e->nworkloads && !key_seen(p, "workloads"))
		exp_perr(p, at, "[experiment] has no 'workloads' (missing workload)");
	if (!e->nvariants)
		exp_perr(p, last_line, "no [variant NAME] section (want at least one)");
	if (q->name) {
		e->base = find_variant(e, q->name);
		if (e->base == (size_t)-1)
			exp_perr(p, (int)q->base, "base '%s' is not a defined variant",
			     q->name);
	}
	for (size_t i = 0; i < e->naxes; i++)
		for (size_t j = 0; j < e->nfixed; j++)
			if (!strcmp(e->axes[i].key, e->fixed[j].key))
				exp_perr(p, e->axes[i].line, "'%s' is both an axis and a "
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
					exp_perr(p, e->axes[i].line, "axis '%s' would override "
					     "[variant %s] '%s = %s' (line %d): every point of "
					     "both variants would run the axis value",
					     e->axes[i].key, e->variants[v].name, kv->key,
					     kv->value, kv->line);
				if (kn && kn->per_kernel && !strcmp(kv->key, "kernel"))
					exp_perr(p, e->axes[i].line, "axis '%s' would override the "
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
			exp_perr(p, last_line, "[quick] workload '%s' is not in the "
			     "experiment's workloads", q->workloads[i]);
	}
	for (size_t i = 0; i < q->nvariants; i++)
		if (find_variant(e, q->variants[i].name) == (size_t)-1)
			exp_perr(p, q->variants[i].line, "[quick] variant '%s' is not "
			     "defined", q->variants[i].name);
	for (size_t i = 0; i < q->naxes; i++) {
		size_t j = 0;
		while (j < e->naxes && strcmp(e->axes[j].key, q->axes[i].key))
			j++;
		if (j == e->naxes)
			exp_perr(p, q->axes[i].line, "[quick] axis.%s: '%s' is not an "
			     "[axis] of the experiment", q->axes[i].key,
			     q->axes[i].key);
	}
	exp_published_unique(p);
	exp_published_resolve(e);
	if (!e->nworkloads)
		exp_perr(p, at, "empty matrix: the workloads list is empty");
	for (size_t i = 0; i < e->naxes; i++)
		if (!e->axes[i].nvalues)
			exp_perr(p, e->axes[i].line, "empty matrix: axis '%s' has no values",
			     e->axes[i].key);
	for (size_t i = 0; i < q->naxes; i++)
		if (!q->axes[i].nvalues)
			exp_perr(p, q->axes[i].line, "empty matrix: [quick] axis.%s has no "
			     "values", q->axes[i].key);
	if (e->has_quick && q->nvariants == 0 && q->variants) 
		exp_perr(p, last_line, "empty matrix: [quick] variants is empty");
}

struct experiment *exp_read(const char *path, const struct exp_limits *lim)
{
	struct parser p = { .path = path, .lim = lim };
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
	/* the rows' A/B pairs point into the variants kept */
	exp_published_resolve(e);
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
		struct published_row *pub = &e->published[i];
		free(pub->workload);
		free(pub->base);
		free(pub->patch);
		free(pub->change);
		free(pub->machine);
		free(pub->pair);
		free(pub->source);
		free(pub->target);
		free(pub->role);
		free(pub->abs_source);
		free(pub->build);
		free(pub->text.cpus);
		free(pub->text.workers);
		free(pub->text.base_ops_s);
		free(pub->text.patch_ops_s);
		free(pub->pair_base);
		free(pub->pair_patch);
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
