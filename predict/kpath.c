/*
 * kpath.c - the kernel path reference (kpath.h): predict/work/kpath.ini,
 * read through core/file.h like every input: a [probe] section and one
 * section of counts per value of knob kpath, each counted in one
 * distribution kernel (scripts/kpath/count.sh) and standing in for the
 * profiles' commits of its era, as docs/calibration.md and every
 * prediction's parameter list say.
 */
#include "predict/kpath.h"

#include <ini.h>
#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/util.h"
#include "core/knob.h"

struct kparse {
	struct kpath *k;
	struct ini_cont cont; /* the key last read, the value a continuation extends */
	char err[256];
	struct ini_lines in;
};

static int set_str(struct kparse *p, const char **slot, const char *v)
{
	if (*slot) {
		snprintf(p->err, sizeof(p->err), "'%s' is given twice", p->cont.key);
		return 0;
	}
	*slot = xstrdup(v);
	p->cont.slot = (char **)slot;
	return 1;
}

static int set_num(struct kparse *p, double *slot, const char *v, double max)
{
	double x;

	if (!isnan(*slot)) {
		snprintf(p->err, sizeof(p->err), "'%s' is given twice", p->cont.key);
		return 0;
	}
	if (!parse_double(v, 1, max, &x)) {
		snprintf(p->err, sizeof(p->err), "bad value '%.40s' for '%s' (want an instruction "
			 "count, 1 to %g)", v, p->cont.key, max);
		return 0;
	}
	*slot = x;
	return 1;
}

/* An era's counts per folio or page, each KEY and KEY.source; an
 * optional one may be left out whole (count and source). */
static const struct {
	const char *key;
	size_t off;
	bool optional;
} era_counts[] = {
	{ "add", offsetof(struct kpath_count, add), false },
	{ "del", offsetof(struct kpath_count, del), false },
	{ "isolate", offsetof(struct kpath_count, isolate), false },
	{ "zalloc", offsetof(struct kpath_count, zalloc), false },
	{ "zfree", offsetof(struct kpath_count, zfree), false },
	{ "reclaim", offsetof(struct kpath_count, reclaim), true },
	{ "fault", offsetof(struct kpath_count, fault), true },
	{ "hold", offsetof(struct kpath_count, hold), true },
};

/* count i of era e (const in, not out: as strchr) */
static struct kpath_num *era_count(const struct kpath_count *e, size_t i)
{
	return (struct kpath_num *)((const char *)e + era_counts[i].off);
}

/* num's count (up to max) where the rest of the key after its name is
 * empty, its source where it is ".source": 1, or 0 with p->err set; -1
 * where it is anything else. */
static int set_count(struct kparse *p, struct kpath_num *num, const char *rest, const char *v,
		     double max)
{
	if (!*rest)
		return set_num(p, &num->n, v, max);
	if (!strcmp(rest, ".source"))
		return set_str(p, &num->src, v);
	return -1;
}

static bool count_done(const struct kpath_num *num)
{
	return !isnan(num->n) && num->src;
}

/* body.WORKLOAD or body.WORKLOAD.source: WORKLOAD a registry name's
 * characters (which workloads exist is the tests' to check: this layer
 * does not know them) */
static int set_body(struct kparse *p, struct kpath_count *e, const char *k, const char *v)
{
	const char *dot = strchr(k, '.');
	size_t len = dot ? (size_t)(dot - k) : strlen(k);
	struct kpath_body *b = NULL;

	if (!len || len > 40 || strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_") != len ||
	    (dot && strcmp(dot, ".source"))) {
		snprintf(p->err, sizeof(p->err), "bad key '%.60s' (want body.WORKLOAD or "
			 "body.WORKLOAD.source)", p->cont.key);
		return 0;
	}
	for (unsigned i = 0; i < e->nbody; i++)
		if (strlen(e->body[i].workload) == len && !strncmp(e->body[i].workload, k, len))
			b = &e->body[i];
	if (!b) {
		char name[41];

		if (e->nbody == KPATH_MAX_BODY) {
			snprintf(p->err, sizeof(p->err), "more than %d body counts in a section",
				 KPATH_MAX_BODY);
			return 0;
		}
		memcpy(name, k, len);
		name[len] = '\0';
		b = &e->body[e->nbody++];
		b->workload = xstrdup(name);
		b->c.n = NAN;
	}
	/* per operation: AIM9's operations run thousands of system calls */
	return set_count(p, &b->c, k + len, v, 1e9);
}

double kpath_body(const struct kpath *k, int era, const char *workload, const char **src)
{
	const struct kpath_count *e = &k->era[era];

	for (unsigned i = 0; i < e->nbody; i++)
		if (!strcmp(e->body[i].workload, workload)) {
			if (src)
				*src = e->body[i].c.src;
			return e->body[i].c.n;
		}
	return NAN;
}

static int on_kpath_value(void *user, const char *sec, const char *key, const char *value)
{
	struct kparse *p = user;
	struct kpath *k = p->k;
	struct kpath_count *e = NULL;

	if (ini_cont_take(&p->cont, sec, key, value))
		return 1;
	if (!strcmp(sec, "probe")) {
		if (!strcmp(key, "list"))
			return set_num(p, &k->list_probe, value, 1e6);
		if (!strcmp(key, "list.source"))
			return set_str(p, &k->list_probe_src, value);
		snprintf(p->err, sizeof(p->err), "unknown key '%s' in [probe] (want list, "
			 "list.source)", key);
		return 0;
	}
	/* a count's section is named as the knob kpath's value it serves */
	for (int i = 0; i < KPATH_NR; i++)
		if (!strcmp(sec, knob_kpath.values[i].value))
			e = &k->era[i];
	if (!e) {
		snprintf(p->err, sizeof(p->err), "unknown section '[%.40s]' (want [probe] or a "
			 "value of knob kpath)", sec);
		return 0;
	}
	if (!strcmp(key, "kernel"))
		return set_str(p, &e->kernel, value);
	if (!strcmp(key, "like")) {
		for (int i = 0; i < KPATH_NR; i++)
			if (!strcmp(value, knob_kpath.values[i].value) && &k->era[i] != e &&
			    e->like < 0 && k->era[i].like < 0) {
				e->like = i;
				return 1;
			}
		snprintf(p->err, sizeof(p->err), "[%s] like '%.40s': want another era's name, "
			 "once, of an era not itself like another", sec, value);
		return 0;
	}
	if (!strncmp(key, "body.", 5))
		return set_body(p, e, key + 5, value);
	for (size_t i = 0; i < sizeof(era_counts) / sizeof(era_counts[0]); i++) {
		size_t n = strlen(era_counts[i].key);
		int rc;

		if (strncmp(key, era_counts[i].key, n))
			continue;
		rc = set_count(p, era_count(e, i), key + n, value, 1e6);
		if (rc >= 0)
			return rc;
	}
	snprintf(p->err, sizeof(p->err), "unknown key '%s' in [%s] (want kernel, add, del, "
		 "isolate, zalloc, zfree, reclaim, fault, hold and their .source, like)", key, sec);
	return 0;
}

void kpath_free(struct kpath *k)
{
	for (int i = 0; i < KPATH_NR; i++) {
		struct kpath_count *e = &k->era[i];

		free((char *)e->kernel);
		for (size_t c = 0; c < sizeof(era_counts) / sizeof(era_counts[0]); c++)
			free((char *)era_count(e, c)->src);
		for (unsigned b = 0; b < e->nbody; b++) {
			free(e->body[b].workload);
			free((char *)e->body[b].c.src);
		}
	}
	free((char *)k->list_probe_src);
	memset(k, 0, sizeof(*k));
}

static bool complete(const struct kpath *k)
{
	for (int i = 0; i < KPATH_NR; i++) {
		const struct kpath_count *e = &k->era[i];

		if (!e->kernel)
			return false;
		for (size_t c = 0; c < sizeof(era_counts) / sizeof(era_counts[0]); c++) {
			const struct kpath_num *num = era_count(e, c);
			bool absent = isnan(num->n) && !num->src;

			/* an overlay (like) gives only what its build adds */
			if (!count_done(num) && !((era_counts[c].optional || e->like >= 0) && absent))
				return false;
		}
		for (unsigned b = 0; b < e->nbody; b++)
			if (!count_done(&e->body[b].c))
				return false;
		if (e->like >= 0 && k->era[e->like].like >= 0)
			return false; /* one level: what a build adds to a counted era */
	}
	return !isnan(k->list_probe) && k->list_probe_src;
}

/* n + the era it is like's m, NAN where neither is counted */
static double sum_counts(double n, double m)
{
	return isnan(n) ? m : isnan(m) ? n : n + m;
}

/*
 * Each overlay era (like = ERA) made whole: its counts are what its
 * build adds to ERA's, so each becomes ERA's plus its own, a count it
 * leaves out is ERA's, and so is a body.WORKLOAD (its own added to
 * ERA's where both count it).  The sources stay the overlay's where it
 * gives one (kpath_costs prints the era's kernel beside them).  The era
 * whose bodies and its like's do not fit KPATH_MAX_BODY (-1: none).
 */
static int overlay(struct kpath *k)
{
	for (int i = 0; i < KPATH_NR; i++) {
		struct kpath_count *e = &k->era[i];
		const struct kpath_count *b;

		if (e->like < 0)
			continue;
		b = &k->era[e->like];
		for (size_t c = 0; c < sizeof(era_counts) / sizeof(era_counts[0]); c++) {
			struct kpath_num *num = era_count(e, c);
			const struct kpath_num *base = era_count(b, c);

			num->n = sum_counts(num->n, base->n);
			if (!num->src && base->src)
				num->src = xstrdup(base->src);
		}
		for (unsigned j = 0; j < e->nbody; j++)
			e->body[j].c.n = sum_counts(e->body[j].c.n,
						    kpath_body(k, e->like, e->body[j].workload, NULL));
		for (unsigned j = 0; j < b->nbody; j++)
			if (isnan(kpath_body(k, i, b->body[j].workload, NULL))) {
				struct kpath_body *nb;

				if (e->nbody == KPATH_MAX_BODY)
					return i;
				nb = &e->body[e->nbody++];
				nb->workload = xstrdup(b->body[j].workload);
				nb->c = (struct kpath_num){ b->body[j].c.n, xstrdup(b->body[j].c.src) };
			}
	}
	return -1;
}

int kpath_load(const char *path, struct kpath *k, char *err, size_t errlen)
{
	struct kparse p = { .k = k };
	const char *why;
	int rc;

	memset(k, 0, sizeof(*k));
	for (int i = 0; i < KPATH_NR; i++) {
		k->era[i].like = -1;
		for (size_t c = 0; c < sizeof(era_counts) / sizeof(era_counts[0]); c++)
			era_count(&k->era[i], c)->n = NAN;
	}
	k->list_probe = NAN;
	p.in.f = input_fopen(path, &why);
	if (!p.in.f) {
		snprintf(err, errlen, "'%s' %s", path, why);
		return -1;
	}
	rc = ini_parse_stream(ini_lines_read, &p.in, on_kpath_value, &p);
	if (ferror(p.in.f) && !p.in.bad)
		p.in.bad = "read error";
	fclose(p.in.f);
	if (p.in.bad || rc) {
		snprintf(err, errlen, "'%s' line %d: %s", path, p.in.bad ? p.in.line : rc,
			 p.in.bad ? p.in.bad : p.err[0] ? p.err : "not an INI line");
		kpath_free(k);
		return -1;
	}
	if (!complete(k)) {
		snprintf(err, errlen, "'%s': want [probe] list and, for every value of knob kpath, "
			 "a section with kernel, add, del, isolate, zalloc and zfree, each count (and "
			 "each body.WORKLOAD, reclaim and fault) with its .source", path);
		kpath_free(k);
		return -1;
	}
	rc = overlay(k);
	if (rc >= 0) {
		snprintf(err, errlen, "'%s': [%s] and the era it is like count more than %d "
			 "workloads' bodies", path, knob_kpath.values[rc].value, KPATH_MAX_BODY);
		kpath_free(k);
		return -1;
	}
	return 0;
}

const struct kpath *kpath_reference(void)
{
	static struct kpath k;
	static bool loaded;

	if (!loaded) {
		char err[512], *path = xasprintf("%s/kpath.ini",
						 data_dir("MEMSCALE_WORK", "predict/work"));

		if (kpath_load(path, &k, err, sizeof(err)))
			die(EXIT_USAGE, "kernel path reference %s", err);
		free(path);
		loaded = true;
	}
	return &k;
}
