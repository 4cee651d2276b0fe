/*
 * calib.c - the key = value calibration file (format, parsing, lookup)
 * and the component costs the predictors take from it; see calib.h.  The
 * probes that measure it are harness/calib_probe.c.
 */
#include "predict/calib.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "locks/lock.h"
#include "models/stats/stats.h"

/* Probes every valid file must carry ("<name>.median_ns"). */
static const char *const required[] = {
	"xfer.store", "xfer.atomic", "xfer.load", "atomic.uncontended",
	"atomic.contended", "hit", "miss", "percpu", "list", "page", "fault",
	"syscall", NULL,
};

void calib_free(struct calib *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].key);
		free(c->e[i].value);
	}
	free(c->e);
	memset(c, 0, sizeof(*c));
}

static struct calib_entry *find(const struct calib *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].key, key))
			return &c->e[i];
	return NULL;
}

/*
 * The keys a calibration file may hold: the ones harness/calib_probe.c
 * and workloads/model/kwork_calib.c write (calib_set() refuses any other,
 * so writer and reader cannot drift apart).  A probe figure is
 * PROBE.FIELD; the probes are the fixed ones below, the stats designs'
 * walk probes (their .probe), lock.LOCK.uncontended/.pair for each lock of
 * the registry and wl.WORKLOAD; kwork.WORKLOAD.FIELD and part.NAME_ns
 * are families of their own, meta.KEY the machine's description.
 */
static const char *const fixed_probes[] = {
	"xfer.store", "xfer.atomic", "xfer.load", "atomic.uncontended",
	"atomic.contended", "hit", "miss", "percpu", "list", "page", "fault",
	"fault.first", "fault.zero", "fault.wp", "fault.cow", "fault.shared",
	"fault.populate", "fault.root", "syscall", "syscall.falloc",
	"syscall.falloc.root", "clear", "unmap", "clock",
};
static const char *const probe_fields[] = {
	"median_ns", "q1_ns", "q3_ns", "min_ns", "max_ns", "steal_pct", "varies", "insn",
};
static const char *const kwork_fields[] = {
	"units", "source", "unit_ns", "kernel_ns", "model0_ns", "model_ns",
};

/* A lower-case identifier (letters, digits, '_'), n bytes of s. */
static bool is_ident(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

static bool in_list(const char *const *v, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i]) == len && !strncmp(v[i], s, len))
			return true;
	return false;
}

static bool probe_known(const char *p, size_t n)
{
	const struct stats_design **d;
	size_t nd = stats_design_all(&d);
	char lock[64];

	if (in_list(fixed_probes, ARRAY_SIZE(fixed_probes), p, n))
		return true;
	for (size_t i = 0; i < nd; i++)
		if (d[i]->probe && strlen(d[i]->probe) == n && !strncmp(d[i]->probe, p, n))
			return true;
	if (n > 3 && !strncmp(p, "wl.", 3))
		return is_ident(p + 3, n - 3);
	if (n > 5 && !strncmp(p, "lock.", 5) && n - 5 < sizeof(lock)) {
		const char *dot = memchr(p + 5, '.', n - 5);
		if (!dot || (strncmp(dot, ".uncontended", 12) && strncmp(dot, ".pair", 5)) ||
		    (size_t)(dot - p) + (dot[1] == 'u' ? 12 : 5) != n)
			return false;
		snprintf(lock, sizeof(lock), "%.*s", (int)(dot - p - 5), p + 5);
		return lock_find(lock) != NULL;
	}
	return false;
}

bool calib_key_known(const char *key)
{
	size_t n = strlen(key);
	const char *dot;

	if (!strcmp(key, "format") || !strcmp(key, "steal_pct") ||
	    !strcmp(key, "fault.first.inflated"))
		return true;
	if (!strncmp(key, "meta.", 5))
		return is_ident(key + 5, n - 5);
	if (!strncmp(key, "part.", 5) && n > 8 && !strcmp(key + n - 3, "_ns"))
		return is_ident(key + 5, n - 8);
	if (!strncmp(key, "kwork.", 6)) {
		dot = strrchr(key, '.');
		return dot > key + 6 && is_ident(key + 6, (size_t)(dot - key - 6)) &&
		       in_list(kwork_fields, ARRAY_SIZE(kwork_fields), dot + 1, strlen(dot + 1));
	}
	dot = strrchr(key, '.');
	return dot && in_list(probe_fields, ARRAY_SIZE(probe_fields), dot + 1, strlen(dot + 1)) &&
	       probe_known(key, (size_t)(dot - key));
}

void calib_set(struct calib *c, const char *key, const char *value)
{
	struct calib_entry *e = find(c, key);
	double v;

	if (!calib_key_known(key))
		die(1, "internal error: calibration key '%s' is unknown to "
		    "calib_key_known() (predict/calib.c)", key);
	if (!e) {
		if (c->n == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 64;
			c->e = realloc(c->e, c->cap * sizeof(*c->e));
			if (!c->e)
				die(1, "out of memory");
		}
		e = &c->e[c->n++];
		e->key = xstrdup(key);
	} else {
		free(e->value);
	}
	e->value = xstrdup(value);
	e->num = parse_double(value, -INFINITY, INFINITY, &v) ? v : NAN;
}

void calib_set_num(struct calib *c, const char *key, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.6g", v);
	calib_set(c, key, buf);
}

const char *calib_str(const struct calib *c, const char *key)
{
	const struct calib_entry *e = find(c, key);
	return e ? e->value : NULL;
}

double calib_num(const struct calib *c, const char *key)
{
	const struct calib_entry *e = find(c, key);
	return e ? e->num : NAN;
}

double calib_median(const struct calib *c, const char *probe)
{
	char key[128];

	snprintf(key, sizeof(key), "%s.median_ns", probe);
	return calib_num(c, key);
}

/* ---- file ---- */

int calib_write(const struct calib *c, FILE *f)
{
	fprintf(f, "# memscale calibration: key = value; probe times in ns\n"
		   "# (median, quartiles q1/q3, min and max over the repetitions)\n");
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "%s = %s\n", c->e[i].key, c->e[i].value);
	return ferror(f) ? -1 : 0;
}

int calib_parse(struct calib *c, FILE *f, const char *name, char *err,
		size_t errlen)
{
	char *line = NULL;
	size_t lineno = 0, cap = 0;
	ssize_t got;
	bool format_seen = false;

	memset(c, 0, sizeof(*c));
	while ((got = getline(&line, &cap, f)) >= 0) {
		char *s, *eq, *key, *val;
		double v;

		lineno++;
		if ((size_t)got != strlen(line)) {
			snprintf(err, errlen, "%s: line %zu: not a text file (a NUL byte)",
				 name, lineno);
			goto bad;
		}
		if (got > 1023) {
			snprintf(err, errlen, "%s: line %zu: line too long (over 1023 "
				 "characters)", name, lineno);
			goto bad;
		}
		if (!strchr(line, '\n')) {
			/* the writer ends every line: a file cut short may have cut
			 * a number (162.791 read as 162) */
			snprintf(err, errlen, "%s: line %zu: cut short (no newline at the "
				 "end of the file)", name, lineno);
			goto bad;
		}
		s = str_trim(line);
		if (!*s || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(err, errlen, "%s: line %zu: corrupt line '%.40s' (want key = value)",
				 name, lineno, s);
			goto bad;
		}
		*eq = '\0';
		key = str_trim(s);
		val = str_trim(eq + 1);
		if (!*key || !*val) {
			snprintf(err, errlen, "%s: line %zu: empty %s", name, lineno,
				 *key ? "value" : "key");
			goto bad;
		}
		if (!calib_key_known(key)) {
			snprintf(err, errlen, "%s: line %zu: unknown key '%s'", name, lineno, key);
			goto bad;
		}
		if (find(c, key)) {
			snprintf(err, errlen, "%s: line %zu: duplicate key '%s'", name, lineno, key);
			goto bad;
		}
		if (!strcmp(key, "format")) {
			long ver;
			size_t nl = strlen(CALIB_FORMAT_NAME);
			if (!strncmp(val, CALIB_FORMAT_NAME " ", nl + 1) &&
			    parse_long(val + nl + 1, 0, 1000000, &ver) && ver != CALIB_VERSION) {
				snprintf(err, errlen, "%s: format version %ld is %s "
					 "(this memscale reads version %d; run 'memscale model "
					 "calibrate' again)", name, ver,
					 ver < CALIB_VERSION ? "too old" : "newer than this memscale",
					 CALIB_VERSION);
				goto bad;
			}
			if (strcmp(val, CALIB_FORMAT)) {
				snprintf(err, errlen, "%s: line %zu: unknown format '%s' (want '%s')",
					 name, lineno, val, CALIB_FORMAT);
				goto bad;
			}
			format_seen = true;
		} else if (strncmp(key, "meta.", 5)) {
			/* Every non-meta key is a probe figure. */
			if (!parse_double(val, 0, 1e12, &v) || !isfinite(v)) {
				snprintf(err, errlen, "%s: line %zu: bad value '%s' for '%s' "
					 "(want a finite number >= 0)", name, lineno, val, key);
				goto bad;
			}
		}
		calib_set(c, key, val);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", name);
		goto bad;
	}
	if (!format_seen) {
		snprintf(err, errlen, "%s: missing 'format = %s' (not a calibration file?)",
			 name, CALIB_FORMAT);
		goto bad;
	}
	for (size_t i = 0; required[i]; i++) {
		if (isnan(calib_median(c, required[i]))) {
			snprintf(err, errlen, "%s: missing field '%s.median_ns'", name,
				 required[i]);
			goto bad;
		}
	}
	free(line);
	return 0;
bad:
	free(line);
	calib_free(c);
	return -1;
}

int calib_load(struct calib *c, const char *path, char *err, size_t errlen)
{
	const char *why;
	FILE *f = input_fopen(path, &why);
	int rc;

	if (!f) {
		snprintf(err, errlen, "'%s' %s", path, why);
		memset(c, 0, sizeof(*c));
		return -1;
	}
	rc = calib_parse(c, f, path, err, errlen);
	fclose(f);
	return rc;
}

void calib_load_or_die(struct calib *c, const char *path)
{
	char err[512];

	check_input_file("calibration", path, "a file from 'memscale model calibrate'");
	if (calib_load(c, path, err, sizeof(err)))
		die(EXIT_USAGE, "calibration %s", err);
}

const char *calib_state_dir(void)
{
	static char dir[4096];
	const char *env = getenv("MEMSCALE_STATE_DIR"), *xdg = getenv("XDG_STATE_HOME"),
		   *home = getenv("HOME");

	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if (geteuid() == 0 || !home || !*home)
		snprintf(dir, sizeof(dir), "/var/lib/memscale");
	else if (xdg && *xdg == '/')
		snprintf(dir, sizeof(dir), "%s/memscale", xdg);
	else
		snprintf(dir, sizeof(dir), "%s/.local/state/memscale", home);
	return dir;
}

const char *calib_machine_path(void)
{
	static char path[4096 + 16];
	const char *env = getenv("MEMSCALE_CALIB");

	if (env && *env)
		snprintf(path, sizeof(path), "%s", env);
	else
		snprintf(path, sizeof(path), "%s/calib.txt", calib_state_dir());
	return path;
}

#define FNV64_BASIS 0xcbf29ce484222325ull
#define FNV64_PRIME 0x100000001b3ull

void calib_hash_bytes(const void *p, size_t n, char out[17])
{
	const unsigned char *b = p;
	uint64_t h = FNV64_BASIS;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * FNV64_PRIME;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

int calib_file_hash(const char *path, char out[17])
{
	const char *why;
	FILE *f = input_fopen(path, &why);
	uint64_t h = FNV64_BASIS; /* FNV-1a 64, as calib_hash_bytes */
	int ch;

	if (!f)
		return -1;
	while ((ch = getc(f)) != EOF)
		h = (h ^ (uint64_t)(unsigned char)ch) * FNV64_PRIME;
	if (ferror(f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

double calib_best(const struct calib *c, const char *probe)
{
	char key[128];
	double v;

	snprintf(key, sizeof(key), "%s.min_ns", probe);
	v = calib_num(c, key);
	return isnan(v) ? calib_median(c, probe) : v;
}

/* A probe that ran with at least this share of CPU time stolen is
 * flagged in its parameter line. */
#define STEAL_FLAG_PCT 1.0

/* The probes timed in blocks (harness/calib_probe_int.h's TIME_BLOCKS). */
static bool is_loop_probe(const char *probe)
{
	static const char *const loop[] = { "atomic.uncontended", "hit", "miss", "percpu",
					    "list", "page", "clear", NULL };

	for (size_t i = 0; loop[i]; i++)
		if (!strcmp(loop[i], probe))
			return true;
	return false;
}

const char *calib_probe_basis(const struct calib *c, const char *probe, char *buf,
			      size_t len)
{
	const char *hv = calib_str(c, "meta.hypervisor");
	double first = calib_best(c, "fault.first"), v = calib_best(c, probe);
	char insn[64] = "";
	char key[128];
	double n;

	snprintf(key, sizeof(key), "%s.insn", probe);
	n = calib_num(c, key);
	if (isfinite(n))
		snprintf(insn, sizeof(insn), "; %.0f instructions per operation", n);
	buf[0] = '\0';
	if (!strcmp(probe, "fault")) {
		if (isnan(first)) {
			snprintf(buf, len, "steady-state re-fault%s", insn);
			return buf;
		}
		snprintf(buf, len, "steady-state re-fault (touch, MADV_DONTNEED, touch again: "
			 "guest memory already backed; each repetition the median touch)%s; first touch %.0f ns = %.1fx%s", insn,
			 first, v > 0 ? first / v : NAN,
			 isfinite(calib_num(c, "fault.first.inflated"))
			 ? (hv && !strcmp(hv, "yes")
			    ? ", flagged hypervisor-inflated (host backing of guest memory), not used"
			    : ", flagged inflated (first touch far slower than re-fault), not used")
			 : ", not used (benchmarks re-fault freed pages)");
	} else if (!strcmp(probe, "syscall")) {
		snprintf(buf, len, "getppid round trip (entry/exit only), each repetition the "
			 "fastest of %d short blocks of calls%s", CALIB_PROBE_BLOCKS, insn);
	} else if (is_loop_probe(probe)) {
		snprintf(buf, len, "each repetition the fastest of %d short blocks (a block "
			 "another task or the hypervisor interrupted is left out)%s",
			 CALIB_PROBE_BLOCKS, insn);
	} else if (isfinite(n)) {
		snprintf(buf, len, "%s", insn + 2);
	}
	/* Steal while the probe ran (record() writes it where non-zero):
	 * the hypervisor ran other guests on this CPU; the figure is still
	 * the probe's fastest block or median operation, which leaves most
	 * of it out, and is used, but the reader is told. */
	snprintf(key, sizeof(key), "%s.steal_pct", probe);
	n = calib_num(c, key);
	if (isfinite(n) && n >= STEAL_FLAG_PCT && strlen(buf) < len)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 "%sflagged: %.1f%% of CPU time stolen by the hypervisor while it ran "
			 "(used: %s)", *buf ? "; " : "", n,
			 !strcmp(probe, "fault") ? "the median touch leaves the stolen slices out"
						 : "the fastest block leaves the stolen slices out");
	return buf;
}
