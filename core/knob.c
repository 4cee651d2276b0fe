/* knob.c - knob definitions, knob sets, `--set KEY=VALUE` parsing and
 * kernel profiles (core/knob.h).  The profiles are data files:
 * models/kernels/NAME.ini (or $MEMSCALE_KERNELS), one per kernel version
 * or commit, read with libinih.  A file holds [kernel] (name, commit,
 * title), [knobs] (every knob's value and its source) and, for a commit,
 * an optional [parent]: the profile NAME^ (commit COMMIT^), its title and
 * only the knobs the commit's diff changes; every other knob of the
 * parent is the one in [knobs].  A bad file is refused with one line
 * naming it and exit status 2. */
#include "core/knob.h"
#include "core/file.h"
#include "core/registry.h"
#include "core/util.h"

#include <glob.h>
#include <ini.h>
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

REGISTRY_BOUNDS(knob);

struct knob_entry {
	const struct knob *knob;
	char *value;        /* set explicitly; NULL: not set */
	const char *preset; /* from the profile; NULL: none */
	bool used;
	bool user;          /* set when the knob set was sealed */
};

struct knobset {
	struct knob_entry *e;
	size_t n;
	const struct knob_profile *profile;
	bool sealed;
};

DEFINE_REGISTRY_LOOKUP(knob, struct knob, knob_all, knob_find)

static const struct knob **sorted_knobs(size_t *n)
{
	const struct knob **v;

	*n = knob_all(&v);
	return v;
}

const char *knob_allowed(const struct knob *k, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	switch (k->type) {
	case KNOB_INT:
		snprintf(buf, len, "integer %ld..%ld", k->min, k->max);
		break;
	case KNOB_ENUM:
		for (const struct knob_value *v = k->values; v->value; v++)
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
						"%s%s", v == k->values ? "" : "|",
						v->value);
		break;
	case KNOB_STR:
		snprintf(buf, len, "%s", k->allowed ? k->allowed : "text");
		break;
	case KNOB_PROFILE: {
		const struct knob_profile **v;
		size_t n = knob_profile_all(&v);

		off += (size_t)snprintf(buf, len, "none");
		for (size_t i = 0; i < n; i++)
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
						"|%s", v[i]->name);
		break;
	}
	}
	return buf;
}

struct knobset *knobset_new(void)
{
	size_t n;
	const struct knob **v = sorted_knobs(&n);
	struct knobset *ks = xcalloc(1, sizeof(*ks));

	ks->n = n;
	ks->e = xcalloc(n, sizeof(*ks->e));
	for (size_t i = 0; i < n; i++)
		ks->e[i].knob = v[i];
	return ks;
}

void knobset_free(struct knobset *ks)
{
	if (!ks)
		return;
	for (size_t i = 0; i < ks->n; i++)
		free(ks->e[i].value);
	free(ks->e);
	free(ks);
}

static struct knob_entry *entry(const struct knobset *ks, const struct knob *k)
{
	for (size_t i = 0; i < ks->n; i++)
		if (ks->e[i].knob == k)
			return &ks->e[i];
	die(1, "internal error: knob '%s' is not registered", k->name);
}

bool knob_value_ok(const struct knob *k, const char *value)
{
	long l;

	switch (k->type) {
	case KNOB_INT:
		return parse_long(value, k->min, k->max, &l);
	case KNOB_ENUM:
		for (const struct knob_value *v = k->values; v->value; v++)
			if (!strcmp(v->value, value))
				return true;
		return false;
	case KNOB_STR:
		return *value != '\0' && (!k->check || k->check(value));
	case KNOB_PROFILE:
		return !strcmp(value, "none") || knob_profile_find(value);
	}
	return false;
}

/* Presets every knob the profile names (its file was checked when it was
 * read, below: registered knobs, allowed values). */
static void apply_profile(struct knobset *ks, const struct knob_profile *p)
{
	for (size_t i = 0; i < ks->n; i++)
		ks->e[i].preset = NULL;
	ks->profile = p;
	if (!p)
		return;
	for (const struct knob_preset *s = p->sets; s->knob; s++) {
		const struct knob *k = knob_find(s->knob);

		if (!k || !knob_value_ok(k, s->value))
			die(1, "internal error: kernel profile '%s' sets %s=%s, "
			    "which is no allowed knob value", p->name, s->knob,
			    s->value);
		entry(ks, k)->preset = s->value;
	}
}

bool knobset_set(struct knobset *ks, const char *key, const char *value,
		 char *err, size_t errlen)
{
	const struct knob *k = knob_find(key);
	char allowed[512];
	struct knob_entry *e;

	if (!k) {
		snprintf(err, errlen,
			 "unknown knob '%s' (see 'memscale list variants')", key);
		return false;
	}
	if (!knob_value_ok(k, value)) {
		snprintf(err, errlen, "bad value '%s' for knob '%s' (allowed: %s)",
			 value, key, knob_allowed(k, allowed, sizeof(allowed)));
		return false;
	}
	e = entry(ks, k);
	free(e->value);
	/* Integers are recorded as read ("0100" is 100, and results say 100). */
	if (k->type == KNOB_INT) {
		long l = 0;
		parse_long(value, k->min, k->max, &l);
		e->value = xasprintf("%ld", l);
	} else {
		e->value = xstrdup(value);
	}
	if (k->type == KNOB_PROFILE)
		apply_profile(ks, strcmp(value, "none") ? knob_profile_find(value) : NULL);
	return true;
}

void knobset_set_arg(struct knobset *ks, const char *arg)
{
	char err[768];
	const char *eq = strchr(arg, '=');
	char *key;

	if (!eq || eq == arg)
		die(EXIT_USAGE, "--set wants KEY=VALUE, got '%s'", arg);
	key = strndup(arg, (size_t)(eq - arg));
	if (!knobset_set(ks, key, eq + 1, err, sizeof(err)))
		die(EXIT_USAGE, "%s", err);
	free(key);
}

bool knobset_is_set(const struct knobset *ks, const char *name)
{
	const struct knob *k = knob_find(name);
	return k && entry(ks, k)->value;
}

const char *knob_str(struct knobset *ks, const struct knob *k)
{
	struct knob_entry *e = entry(ks, k);
	e->used = true;
	return e->value ? e->value : e->preset ? e->preset : k->def;
}

const char *knob_origin(const struct knobset *ks, const struct knob *k)
{
	const struct knob_entry *e = entry(ks, k);

	return e->value ? "set" : e->preset ? "kernel" : "default";
}

const char *knobset_value(const struct knobset *ks, const struct knob *k)
{
	return entry(ks, k)->value;
}

const struct knob_profile *knobset_profile(const struct knobset *ks)
{
	return ks->profile;
}

unsigned long knob_uint(struct knobset *ks, const struct knob *k)
{
	long v;
	const char *s = knob_str(ks, k);

	if ((k->type != KNOB_INT && k->type != KNOB_ENUM) ||
	    !parse_long(s, 0, LONG_MAX, &v))
		die(1, "internal error: knob '%s' value '%s' is not a number",
		    k->name, s);
	return (unsigned long)v;
}

long knob_int(struct knobset *ks, const struct knob *k)
{
	long v;
	const char *s = knob_str(ks, k);

	if (k->type != KNOB_INT || !parse_long(s, k->min, k->max, &v))
		die(1, "internal error: knob '%s' value '%s' is not an integer",
		    k->name, s);
	return v;
}

size_t knob_enum(struct knobset *ks, const struct knob *k)
{
	const char *s = knob_str(ks, k);

	for (size_t i = 0; k->values[i].value; i++)
		if (!strcmp(k->values[i].value, s))
			return i;
	die(1, "internal error: knob '%s' value '%s' is not allowed", k->name, s);
}

bool knob_enum_is(struct knobset *ks, const struct knob *k, const char *v)
{
	return !strcmp(k->values[knob_enum(ks, k)].value, v);
}

void knobset_seal(struct knobset *ks)
{
	ks->sealed = true;
	for (size_t i = 0; i < ks->n; i++)
		ks->e[i].user = ks->e[i].value != NULL;
}

const struct knob *knobset_unread(const struct knobset *ks)
{
	for (size_t i = 0; ks->sealed && i < ks->n; i++)
		if (ks->e[i].user && !ks->e[i].used && ks->e[i].knob->type != KNOB_PROFILE)
			return ks->e[i].knob;
	return NULL;
}

size_t knobset_used(const struct knobset *ks, const struct knob ***out)
{
	size_t n = 0;
	const struct knob **v = xcalloc(ks->n + 1, sizeof(*v));

	for (size_t i = 0; i < ks->n; i++)
		if (ks->e[i].used || ks->e[i].value)
			v[n++] = ks->e[i].knob;
	*out = v;
	return n;
}

/* ---- kernel profiles: the data files ---- */

#define KP_MAX_BYTES (64 * 1024) /* a profile is a few KiB */
#define KP_MAX_SETS 64

/* One side of a file: the commit ([knobs]) or its parent ([parent]). */
struct kp_side {
	char *title;
	struct kp_set { char *knob, *value, *source; int line; } set[KP_MAX_SETS];
	size_t n;
};

struct kp_parse {
	const char *path;
	char *name, *commit;
	struct kp_side side[2]; /* [knobs], [parent] */
	bool has_parent;
	struct ini_cont cont; /* the key last read, the value a continuation extends */
	char err[512];
	struct ini_lines in; /* the file, its line, why it stopped (core/file.h) */
};

const char *kernel_dir(void)
{
	static const char *dir;

	if (!dir)
		dir = data_dir("MEMSCALE_KERNELS", "models/kernels");
	return dir;
}

static int kp_set_once(struct kp_parse *p, char **slot, const char *v)
{
	if (*slot) {
		snprintf(p->err, sizeof(p->err), "'%s' is given twice", p->cont.key);
		return 0;
	}
	*slot = xstrdup(v);
	p->cont.slot = slot;
	return 1;
}

/* The slot of KEY (KNOB or KNOB.source) in a side. */
static int kp_on_knob(struct kp_parse *p, struct kp_side *s, const char *key, const char *value)
{
	size_t len = strlen(key);
	bool is_src = len > 7 && !strcmp(key + len - 7, ".source");
	char knob[64];
	const struct knob *k;
	struct kp_set *e = NULL;

	snprintf(knob, sizeof(knob), "%.*s", (int)(is_src ? len - 7 : len), key);
	k = knob_find(knob);
	if (!k || k->type == KNOB_PROFILE) {
		snprintf(p->err, sizeof(p->err), "unknown knob '%s' (see 'memscale list knobs')",
			 knob);
		return 0;
	}
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->set[i].knob, k->name))
			e = &s->set[i];
	if (!e) {
		if (s->n == KP_MAX_SETS) {
			snprintf(p->err, sizeof(p->err), "more than %d knobs", KP_MAX_SETS);
			return 0;
		}
		e = &s->set[s->n++];
		e->knob = xstrdup(k->name);
	}
	if (!is_src)
		e->line = p->in.line;
	return kp_set_once(p, is_src ? &e->source : &e->value, value);
}

static int kp_on_value(void *user, const char *sec, const char *key, const char *value)
{
	struct kp_parse *p = user;

	if (ini_cont_take(&p->cont, sec, key, value))
		return 1;
	if (!strcmp(sec, "kernel")) {
		if (!strcmp(key, "name"))
			return kp_set_once(p, &p->name, value);
		if (!strcmp(key, "commit"))
			return kp_set_once(p, &p->commit, value);
		if (!strcmp(key, "title"))
			return kp_set_once(p, &p->side[0].title, value);
		snprintf(p->err, sizeof(p->err),
			 "unknown key '%s' in [kernel] (want name, commit, title)", key);
		return 0;
	}
	if (!strcmp(sec, "knobs"))
		return kp_on_knob(p, &p->side[0], key, value);
	if (!strcmp(sec, "parent")) {
		p->has_parent = true;
		if (!strcmp(key, "title"))
			return kp_set_once(p, &p->side[1].title, value);
		return kp_on_knob(p, &p->side[1], key, value);
	}
	snprintf(p->err, sizeof(p->err),
		 "unknown section '[%s]' (want [kernel], [knobs], [parent])", sec);
	return 0;
}

static bool kp_name_ok(const char *s)
{
	if (!*s || strlen(s) > 64 || !strcmp(s, "none"))
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s))
			return false;
	return true;
}

/* Checks one side's knobs: each has a value, an allowed one, and a
 * source; [parent] changes only knobs [knobs] sets. */
static void kp_check_side(struct kp_parse *p, int side)
{
	char allowed[512];
	const struct kp_side *s = &p->side[side];

	for (size_t i = 0; i < s->n; i++) {
		const struct kp_set *e = &s->set[i];
		const struct knob *k = knob_find(e->knob);

		if (!e->value)
			die(EXIT_USAGE, "kernel profile %s: %s.source without %s = VALUE",
			    p->path, e->knob, e->knob);
		if (!knob_value_ok(k, e->value))
			die(EXIT_USAGE, "kernel profile %s:%d: bad value '%s' for knob '%s' "
			    "(allowed: %s)", p->path, e->line, e->value, e->knob,
			    knob_allowed(k, allowed, sizeof(allowed)));
		if (!e->source || !*e->source)
			die(EXIT_USAGE, "kernel profile %s:%d: knob '%s' has no source "
			    "(%s.source = the commit and file it was read from)", p->path,
			    e->line, e->knob, e->knob);
		if (side == 1) {
			size_t j;

			for (j = 0; j < p->side[0].n && strcmp(p->side[0].set[j].knob, e->knob); j++)
				;
			if (j == p->side[0].n)
				die(EXIT_USAGE, "kernel profile %s:%d: [parent] sets '%s', which "
				    "[knobs] does not", p->path, e->line, e->knob);
			if (!strcmp(p->side[0].set[j].value, e->value) &&
			    !strcmp(p->side[0].set[j].source, e->source))
				die(EXIT_USAGE, "kernel profile %s:%d: [parent] repeats %s as in "
				    "[knobs] (list only what the diff changes)", p->path,
				    e->line, e->knob);
		}
	}
}

static struct knob_preset *kp_presets(const struct kp_side *base, const struct kp_side *over)
{
	struct knob_preset *v = xcalloc(base->n + 1, sizeof(*v));

	for (size_t i = 0; i < base->n; i++) {
		const struct kp_set *e = &base->set[i];

		for (size_t j = 0; over && j < over->n; j++)
			if (!strcmp(over->set[j].knob, e->knob))
				e = &over->set[j];
		v[i] = (struct knob_preset){ xstrdup(e->knob), xstrdup(e->value),
					     xstrdup(e->source) };
	}
	return v;
}

static void kp_parse_free(struct kp_parse *p)
{
	free(p->name);
	free(p->commit);
	for (int s = 0; s < 2; s++) {
		free(p->side[s].title);
		for (size_t i = 0; i < p->side[s].n; i++) {
			free(p->side[s].set[i].knob);
			free(p->side[s].set[i].value);
			free(p->side[s].set[i].source);
		}
	}
}

static void kp_read_file(struct kp_parse *p, unsigned flags)
{
	const char *why;
	struct stat st;
	int rc;

	p->in.f = file_read_open(p->path, flags, &why);
	if (!p->in.f)
		die(EXIT_USAGE, "kernel profile '%s' %s", p->path, why);
	if (fstat(fileno(p->in.f), &st) || st.st_size > KP_MAX_BYTES)
		die(EXIT_USAGE, "kernel profile %s: over %d bytes", p->path, KP_MAX_BYTES);
	rc = ini_parse_stream(ini_lines_read, &p->in, kp_on_value, p);
	if (ferror(p->in.f) && !p->in.bad)
		p->in.bad = "read error";
	fclose(p->in.f);
	p->in.f = NULL;
	if (p->in.bad)
		die(EXIT_USAGE, "kernel profile %s:%d: %s", p->path, p->in.line, p->in.bad);
	if (rc)
		die(EXIT_USAGE, "kernel profile %s:%d: %s", p->path, rc,
		    p->err[0] ? p->err : "not a 'key = value' line or [section]");
}

size_t knob_profile_load(const char *path, unsigned flags, struct knob_profile **out)
{
	struct kp_parse p = { .path = path };
	struct knob_profile *v;
	const struct knob **k;
	size_t nk = knob_all(&k), n;

	kp_read_file(&p, flags);
	if (!p.name || !p.commit || !p.side[0].title)
		die(EXIT_USAGE, "kernel profile %s: [kernel] wants name, commit and title", path);
	if (!kp_name_ok(p.name))
		die(EXIT_USAGE, "kernel profile %s: bad name '%s' (want letters, digits, "
		    "'.', '_', '-')", path, p.name);
	if (p.has_parent && !p.side[1].title)
		die(EXIT_USAGE, "kernel profile %s: [parent] wants a title", path);
	kp_check_side(&p, 0);
	kp_check_side(&p, 1);
	for (size_t i = 0; i < nk; i++) {
		size_t j;

		if (!k[i]->per_kernel)
			continue;
		for (j = 0; j < p.side[0].n && strcmp(p.side[0].set[j].knob, k[i]->name); j++)
			;
		if (j == p.side[0].n)
			die(EXIT_USAGE, "kernel profile %s: [knobs] does not set the "
			    "per-kernel knob '%s'", path, k[i]->name);
	}
	n = p.has_parent ? 2 : 1;
	v = xcalloc(n, sizeof(*v));
	v[0] = (struct knob_profile){ xstrdup(p.name), xstrdup(p.side[0].title),
				      xstrdup(p.commit), kp_presets(&p.side[0], NULL),
				      xstrdup(path) };
	if (p.has_parent)
		v[1] = (struct knob_profile){ xasprintf("%s^", p.name), xstrdup(p.side[1].title),
					      xasprintf("%s^", p.commit),
					      kp_presets(&p.side[0], &p.side[1]), xstrdup(path) };
	kp_parse_free(&p);
	*out = v;
	return n;
}

void knob_profile_free(struct knob_profile *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (const struct knob_preset *s = v[i].sets; s->knob; s++) {
			free((char *)s->knob);
			free((char *)s->value);
			free((char *)s->source);
		}
		free((void *)v[i].sets);
		free((char *)v[i].name);
		free((char *)v[i].title);
		free((char *)v[i].commit);
		free((char *)v[i].file);
	}
	free(v);
}

static int cmp_profile(const void *a, const void *b)
{
	return strcmp((*(const struct knob_profile *const *)a)->name,
		      (*(const struct knob_profile *const *)b)->name);
}

size_t knob_profile_all(const struct knob_profile ***out)
{
	static const struct knob_profile **all;
	static size_t n;

	if (!all) {
		char *pat = xasprintf("%s/*.ini", kernel_dir());
		/* shown as the repository path unless $MEMSCALE_KERNELS moved it */
		bool shown_rel = !getenv("MEMSCALE_KERNELS") || !*getenv("MEMSCALE_KERNELS");
		glob_t g;

		all = xcalloc(1, sizeof(*all));
		if (!glob(pat, 0, NULL, &g)) {
			for (size_t i = 0; i < g.gl_pathc; i++) {
				const char *base = strrchr(g.gl_pathv[i], '/') + 1;
				struct knob_profile *v;
				size_t m = knob_profile_load(g.gl_pathv[i], FILE_NOFOLLOW, &v);

				if (strlen(v[0].name) != strlen(base) - 4 ||
				    strncmp(v[0].name, base, strlen(base) - 4))
					die(EXIT_USAGE, "kernel profile %s: name '%s' is not the "
					    "file's name", g.gl_pathv[i], v[0].name);
				if (shown_rel)
					for (size_t j = 0; j < m; j++) {
						free((char *)v[j].file);
						v[j].file = xasprintf("models/kernels/%s", base);
					}
				all = realloc(all, (n + m + 1) * sizeof(*all));
				if (!all)
					die(1, "out of memory");
				for (size_t j = 0; j < m; j++)
					all[n++] = &v[j];
			}
			globfree(&g);
		}
		free(pat);
		qsort(all, n, sizeof(*all), cmp_profile);
		for (size_t i = 1; i < n; i++)
			if (!strcmp(all[i - 1]->name, all[i]->name))
				die(EXIT_USAGE, "kernel profile '%s' is defined in %s and %s",
				    all[i]->name, all[i - 1]->file, all[i]->file);
	}
	*out = all;
	return n;
}

const struct knob_profile *knob_profile_find(const char *name)
{
	const struct knob_profile **all;
	size_t n = knob_profile_all(&all);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
