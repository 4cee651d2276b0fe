/* knob.c - knob definitions, knob sets, `--set KEY=VALUE` parsing and
 * kernel profiles (core/knob.h). */
#include "core/knob.h"
#include "core/registry.h"
#include "core/util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

REGISTRY_BOUNDS(knob);
REGISTRY_BOUNDS(knob_profile);

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
DEFINE_REGISTRY_LOOKUP(knob_profile, struct knob_profile, knob_profile_all,
		       knob_profile_find)

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

static bool value_ok(const struct knob *k, const char *value)
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

/* Presets every knob the profile names (the profile's own files are
 * checked by tests/kernels.t: each names registered knobs and allowed
 * values). */
static void apply_profile(struct knobset *ks, const struct knob_profile *p)
{
	for (size_t i = 0; i < ks->n; i++)
		ks->e[i].preset = NULL;
	ks->profile = p;
	if (!p)
		return;
	for (const struct knob_preset *s = p->sets; s->knob; s++) {
		const struct knob *k = knob_find(s->knob);

		if (!k || !value_ok(k, s->value))
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
	if (!value_ok(k, value)) {
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
