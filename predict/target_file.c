/*
 * target_file.c - the target-machine profiles as data: predict/targets/
 * NAME.ini (or any path) read with libinih, every fact with its source
 * (or an @NAME of sources.ini), checked for range and order, and listed
 * (`memscale list targets`); see target.h.  The composition of a
 * prediction's costs from a profile is target.c's.
 */
#include "predict/target.h"

#include <glob.h>
#include <ini.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file.h"
#include "core/util.h"

/* The facts of a profile: key in [facts], field, unit for the listing,
 * and the range a value must lie in (whole numbers where integral). */
static const struct {
	const char *key, *unit;
	size_t off;
	double lo, hi;
	bool integral;
} facts[] = {
	{ "ghz", "GHz", offsetof(struct target, ghz), 0.1, 10, false },
	{ "xfer_ns", "ns", offsetof(struct target, xfer_ns), 1, 10000, false },
	{ "xfer_remote_ns", "ns", offsetof(struct target, xfer_remote_ns), 1, 10000, false },
	{ "dram_ns", "ns", offsetof(struct target, dram_ns), 10, 10000, false },
	{ "atomic_cycles", "cycles", offsetof(struct target, atomic_cycles), 1, 1000, false },
	{ "hit_cycles", "cycles", offsetof(struct target, hit_cycles), 1, 100, false },
	{ "pair_bytes", "bytes", offsetof(struct target, pair_bytes), 64, 128, true },
	{ "pair_rfo", "flag", offsetof(struct target, pair_rfo), 0, 1, true },
	{ "inval_step_cycles", "cycles", offsetof(struct target, inval_step_cycles), 0, 10000,
	  false },
	{ "l2_kib", "KiB", offsetof(struct target, l2_kib), 16, 1 << 20, false },
	{ "llc_mib", "MiB", offsetof(struct target, llc_mib), 0.25, 1 << 20, false },
	{ "l2_cycles", "cycles", offsetof(struct target, l2_cycles), 2, 200, false },
	{ "llc_cycles", "cycles", offsetof(struct target, llc_cycles), 4, 2000, false },
	{ "llc_victim", "flag", offsetof(struct target, llc_victim), 0, 1, true },
	{ "smt", "threads", offsetof(struct target, smt), 1, 16, true },
	{ "smt_gain", "x", offsetof(struct target, smt_gain), 0, 1, false },
	{ "entry_cycles", "cycles", offsetof(struct target, entry_cycles), 10, 100000, false },
	{ "pti_cycles", "cycles", offsetof(struct target, pti_cycles), 0, 100000, false },
	{ "ibrs_entry_cycles", "cycles", offsetof(struct target, ibrs_entry_cycles), 0, 100000, false },
};

#define NFACTS ARRAY_SIZE(facts)

const char *target_dir(void)
{
	static const char *dir;

	if (!dir)
		dir = data_dir("MEMSCALE_TARGETS", "predict/targets");
	return dir;
}

/* One file being read: the [target] strings and counts, the fact values
 * and sources as written (resolved after the file is read). */
struct tparse {
	const char *path;
	char *str[5];  /* name, description, cpu, identified_by, stand_in */
	long num[4];   /* sockets, nodes, cores, cpus; -1 unset */
	char *val[NFACTS], *src[NFACTS];
	int val_line[NFACTS];
	struct ini_cont cont; /* the key last read, the value a continuation extends */
	char err[512];
	struct ini_lines in; /* the file, its line, why the reader stopped
			      * early (a NUL byte, a long line): core/file.h */
	/* sources.ini */
	bool is_sources;
	struct shared_fact { char *name, *value, *source; } *shared;
	size_t nshared;
};

static const char *const tstr_keys[] = { "name", "description", "cpu", "identified_by",
					 "stand_in" };
static const char *const tnum_keys[] = { "sockets", "nodes", "cores", "cpus" };

static int tset(struct tparse *p, char **slot, const char *v)
{
	if (*slot) {
		snprintf(p->err, sizeof(p->err), "'%s' is given twice", p->cont.key);
		return 0;
	}
	*slot = xstrdup(v);
	p->cont.slot = slot;
	return 1;
}

static int on_target_value(void *user, const char *sec, const char *key, const char *value)
{
	struct tparse *p = user;
	char full[64];

	if (ini_cont_take(&p->cont, sec, key, value))
		return 1;
	if (p->is_sources) {
		struct shared_fact *f = NULL;
		for (size_t i = 0; i < p->nshared; i++)
			if (!strcmp(p->shared[i].name, sec))
				f = &p->shared[i];
		if (!f) {
			p->shared = realloc(p->shared, (p->nshared + 1) * sizeof(*p->shared));
			if (!p->shared)
				die(1, "out of memory");
			f = &p->shared[p->nshared++];
			*f = (struct shared_fact){ xstrdup(sec), NULL, NULL };
		}
		if (!strcmp(key, "value"))
			return tset(p, &f->value, value);
		if (!strcmp(key, "source"))
			return tset(p, &f->source, value);
		snprintf(p->err, sizeof(p->err), "unknown key '%s' in [%s] (want value, source)",
			 key, sec);
		return 0;
	}
	if (!strcmp(sec, "target")) {
		for (size_t i = 0; i < ARRAY_SIZE(tstr_keys); i++)
			if (!strcmp(key, tstr_keys[i]))
				return tset(p, &p->str[i], value);
		for (size_t i = 0; i < ARRAY_SIZE(tnum_keys); i++)
			if (!strcmp(key, tnum_keys[i])) {
				if (p->num[i] >= 0 || !parse_long(value, 1, 1 << 20, &p->num[i])) {
					snprintf(p->err, sizeof(p->err), "%s '%s': want a count "
						 "1..%d, once", key, value, 1 << 20);
					return 0;
				}
				return 1;
			}
		snprintf(p->err, sizeof(p->err), "unknown key '%s' in [target] (want name, "
			 "description, cpu, identified_by, stand_in, sockets, nodes, cores, cpus)",
			 key);
		return 0;
	}
	if (!strcmp(sec, "facts")) {
		for (size_t i = 0; i < NFACTS; i++) {
			if (!strcmp(key, facts[i].key)) {
				p->val_line[i] = p->in.line;
				return tset(p, &p->val[i], value);
			}
			snprintf(full, sizeof(full), "%s.source", facts[i].key);
			if (!strcmp(key, full))
				return tset(p, &p->src[i], value);
		}
		snprintf(p->err, sizeof(p->err), "unknown fact '%s' (see predict/target.h)", key);
		return 0;
	}
	snprintf(p->err, sizeof(p->err), "unknown section '[%s]' (want [target], [facts])", sec);
	return 0;
}

/* libinih tells the line of a failing handler only through its return;
 * the reader counts lines itself for the message. */
static int read_ini(const char *path, struct tparse *p)
{
	const char *why;
	int rc;

	/* a regular file only: a FIFO would block its opening, a device read on */
	p->in.f = input_fopen(path, &why);
	if (!p->in.f) {
		snprintf(p->err, sizeof(p->err), "%s", why);
		return -1;
	}
	p->in.line = 0;
	rc = ini_parse_stream(ini_lines_read, &p->in, on_target_value, p);
	if (ferror(p->in.f) && !p->in.bad)
		p->in.bad = "read error";
	fclose(p->in.f);
	p->in.f = NULL;
	if (p->in.bad) {
		snprintf(p->err, sizeof(p->err), "%s", p->in.bad);
		return p->in.line;
	}
	return rc;
}

static void tparse_free(struct tparse *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(p->str); i++)
		free(p->str[i]);
	for (size_t i = 0; i < NFACTS; i++) {
		free(p->val[i]);
		free(p->src[i]);
	}
	for (size_t i = 0; i < p->nshared; i++) {
		free(p->shared[i].name);
		free(p->shared[i].value);
		free(p->shared[i].source);
	}
	free(p->shared);
}

/* sources.ini: beside the profile, else in the shipped directory. */
static const struct tparse *shared_facts(const char *profile_path)
{
	static struct tparse cache[2];
	static char *paths[2];
	char *dup = xstrdup(profile_path);
	char *cand[2] = { xasprintf("%s/sources.ini", dirname(dup)),
			  xasprintf("%s/sources.ini", target_dir()) };
	const struct tparse *found = NULL;

	for (int i = 0; i < 2 && !found; i++) {
		for (int k = 0; k < 2; k++)
			if (paths[k] && !strcmp(paths[k], cand[i]))
				found = &cache[k];
		for (int k = 0; k < 2 && !found; k++) {
			int rc;
			if (paths[k])
				continue;
			memset(&cache[k], 0, sizeof(cache[k]));
			cache[k].is_sources = true;
			rc = read_ini(cand[i], &cache[k]);
			if (rc < 0)
				break;
			if (rc)
				die(EXIT_USAGE, "%s:%d: %s", cand[i], rc,
				    cache[k].err[0] ? cache[k].err : "not KEY = VALUE or "
				    "[section] (or a line over 199 characters)");
			paths[k] = xstrdup(cand[i]);
			found = &cache[k];
		}
	}
	free(cand[0]);
	free(cand[1]);
	free(dup);
	return found;
}

/* Latencies grow outwards from the core; a profile that says otherwise
 * has a typo or a unit mix-up (ns for cycles). */
static void check_order(const struct target *t)
{
	static const struct { size_t in, out; const char *a, *b; } order[] = {
		{ offsetof(struct target, hit_cycles), offsetof(struct target, l2_cycles),
		  "hit_cycles", "l2_cycles" },
		{ offsetof(struct target, l2_cycles), offsetof(struct target, llc_cycles),
		  "l2_cycles", "llc_cycles" },
		{ offsetof(struct target, xfer_ns), offsetof(struct target, xfer_remote_ns),
		  "xfer_ns", "xfer_remote_ns" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		double in = ((const struct tval *)((const char *)t + order[i].in))->v;
		double out = ((const struct tval *)((const char *)t + order[i].out))->v;
		if (isfinite(in) && isfinite(out) && !(in < out || (in <= out && i >= 2)))
			die(EXIT_USAGE, "target %s: %s %g is not below %s %g (latencies grow "
			    "from the core outwards)", t->path, order[i].a, in, order[i].b, out);
	}
}

/* Threads per core must match the topology: the simulator numbers CPUs
 * as Linux does on these Intel machines (every core's first thread, then
 * every core's second), so cpus = cores x smt. */
static void check_smt(const struct target *t)
{
	if (isfinite(t->smt.v) && (double)t->cores * t->smt.v != (double)t->cpus)
		die(EXIT_USAGE, "target %s: %u cores x smt %g is not its %u cpus", t->path,
		    t->cores, t->smt.v, t->cpus);
	if (isfinite(t->smt.v) && t->smt.v > 2)
		die(EXIT_USAGE, "target %s: smt %g: the simulator has at most two threads "
		    "per core", t->path, t->smt.v);
}

static struct target *target_load(const char *path)
{
	struct tparse p = { .path = path };
	struct target *t;
	int rc;

	for (size_t i = 0; i < ARRAY_SIZE(p.num); i++)
		p.num[i] = -1;
	rc = read_ini(path, &p);
	if (rc < 0) {
		struct stat st;
		/* there but not readable as a profile: say why, not "unknown" */
		if (!stat(path, &st))
			die(EXIT_USAGE, "target %s: %s", path, p.err);
		tparse_free(&p);
		return NULL;
	}
	if (rc)
		die(EXIT_USAGE, "target %s:%d: %s", path, rc, p.err[0] ? p.err :
		    "not KEY = VALUE or [section] (or a line over 199 characters)");
	for (size_t i = 0; i < 4; i++)
		if (!p.str[i])
			die(EXIT_USAGE, "target %s: [target] has no '%s'", path, tstr_keys[i]);
	for (size_t i = 0; i < ARRAY_SIZE(tnum_keys); i++)
		if (p.num[i] < 0)
			die(EXIT_USAGE, "target %s: [target] has no '%s'", path, tnum_keys[i]);
	if (p.num[1] > p.num[3] || p.num[0] > p.num[2] || p.num[2] > p.num[3])
		die(EXIT_USAGE, "target %s: want sockets <= cores <= cpus and nodes <= cpus", path);
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(p.str[0]);
	t->description = xstrdup(p.str[1]);
	t->cpu = xstrdup(p.str[2]);
	t->identified_by = xstrdup(p.str[3]);
	t->stand_in = p.str[4] ? xstrdup(p.str[4]) : NULL;
	t->sockets = (unsigned)p.num[0];
	t->nodes = (unsigned)p.num[1];
	t->cores = (unsigned)p.num[2];
	t->cpus = (unsigned)p.num[3];
	t->path = xstrdup(path);
	for (size_t i = 0; i < NFACTS; i++) {
		struct tval *v = (struct tval *)((char *)t + facts[i].off);
		const char *val = p.val[i], *src = p.src[i];

		if (!val)
			die(EXIT_USAGE, "target %s: fact '%s' is missing (a number or '-', with "
			    "%s.source)", path, facts[i].key, facts[i].key);
		if (val[0] == '@') {
			const struct tparse *sh = shared_facts(path);
			const struct shared_fact *f = NULL;
			for (size_t k = 0; sh && k < sh->nshared; k++)
				if (!strcmp(sh->shared[k].name, val + 1))
					f = &sh->shared[k];
			if (!f || !f->value || !f->source)
				die(EXIT_USAGE, "target %s:%d: %s = %s: no [%s] with value and source "
				    "in sources.ini", path, p.val_line[i], facts[i].key, val, val + 1);
			if (src)
				die(EXIT_USAGE, "target %s: %s names a shared figure (%s) and has its "
				    "own source too", path, facts[i].key, val);
			val = f->value;
			src = f->source;
		}
		if (!src || strlen(src) < 8)
			die(EXIT_USAGE, "target %s: fact '%s' has no source (%s.source = where it "
			    "comes from, or why there is none)", path, facts[i].key, facts[i].key);
		if (!strcmp(val, "-"))
			v->v = NAN;
		else if (!parse_double(val, -1e300, 1e300, &v->v))
			die(EXIT_USAGE, "target %s:%d: %s '%s' is not a number or '-'", path,
			    p.val_line[i], facts[i].key, val);
		else if (v->v < facts[i].lo || v->v > facts[i].hi ||
			 (facts[i].integral && v->v != floor(v->v)))
			die(EXIT_USAGE, "target %s:%d: %s '%s' is out of range (want %s%g..%g %s, "
			    "or '-')", path, p.val_line[i], facts[i].key, val,
			    facts[i].integral ? "a whole number " : "", facts[i].lo, facts[i].hi,
			    facts[i].unit);
		v->src = xstrdup(src);
	}
	tparse_free(&p);
	check_order(t);
	check_smt(t);
	return t;
}

static struct target **loaded;
static size_t nloaded;

static const struct target *remember(struct target *t)
{
	loaded = realloc(loaded, (nloaded + 1) * sizeof(*loaded));
	if (!loaded)
		die(1, "out of memory");
	loaded[nloaded++] = t;
	return t;
}

const struct target *target_find(const char *name)
{
	bool is_path = strchr(name, '/') || (strlen(name) > 4 &&
					     !strcmp(name + strlen(name) - 4, ".ini"));
	char *path;
	struct target *t;

	for (size_t i = 0; i < nloaded; i++)
		if (!strcmp(is_path ? loaded[i]->path : loaded[i]->name, name))
			return loaded[i];
	if (!is_path) {
		const struct target **all;
		size_t n = target_all(&all);
		for (size_t i = 0; i < n; i++)
			if (!strcmp(all[i]->name, name))
				return all[i];
		return NULL;
	}
	path = xstrdup(name);
	if (access(path, R_OK)) {
		free(path);
		return NULL;
	}
	t = target_load(path);
	free(path);
	return t ? remember(t) : NULL;
}

static int cmp_target(const void *a, const void *b)
{
	return strcmp((*(const struct target *const *)a)->name,
		      (*(const struct target *const *)b)->name);
}

size_t target_all(const struct target ***out)
{
	static const struct target **all;
	static size_t n;

	if (!all) {
		char *pat = xasprintf("%s/*.ini", target_dir());
		glob_t g;

		all = xcalloc(1, sizeof(*all));
		if (!glob(pat, 0, NULL, &g)) {
			all = realloc(all, (g.gl_pathc + 1) * sizeof(*all));
			if (!all)
				die(1, "out of memory");
			for (size_t i = 0; i < g.gl_pathc; i++) {
				char *base = strrchr(g.gl_pathv[i], '/') + 1;
				struct target *t;
				size_t len = strlen(base) - 4;

				if (!strcmp(base, "sources.ini"))
					continue;
				t = target_load(g.gl_pathv[i]);
				if (strlen(t->name) != len || strncmp(t->name, base, len))
					die(EXIT_USAGE, "target %s: name '%s' is not the file's "
					    "name", g.gl_pathv[i], t->name);
				all[n++] = t;
			}
			globfree(&g);
		}
		free(pat);
		qsort(all, n, sizeof(*all), cmp_target);
	}
	*out = all;
	return n;
}

static void print_tval(FILE *f, const char *name, const char *unit, const struct tval *v)
{
	if (isfinite(v->v))
		fprintf(f, "    %-16s %8.4g %-7s %s\n", name, v->v, unit, v->src ? v->src : "");
	else
		fprintf(f, "    %-16s %8s %-7s %s\n", name, "-", "", v->src ? v->src : "no sourced figure");
}

void target_list(FILE *f)
{
	const struct target **v;
	size_t n = target_all(&v);

	fprintf(f, "%-20s %s\n", "NAME", "DESCRIPTION");
	fprintf(f, "%-20s %s\n", TARGET_HERE,
		"this machine, from the calibration file (the default for a user's own question)");
	for (size_t i = 0; i < n; i++) {
		const struct target *t = v[i];
		fprintf(f, "%-20s %s\n", t->name, t->description);
		fprintf(f, "    cpu: %s (identified by: %s)\n", t->cpu, t->identified_by);
		fprintf(f, "    topology: %u socket(s), %u NUMA node(s), %u cores, %u CPUs\n",
			t->sockets, t->nodes, t->cores, t->cpus);
		if (t->stand_in)
			fprintf(f, "    stand-in: %s\n", t->stand_in);
		for (size_t k = 0; k < NFACTS; k++)
			print_tval(f, facts[k].key, facts[k].unit,
				   (const struct tval *)((const char *)t + facts[k].off));
	}
}
