/*
 * fuzz_parsers - a fuzzing driver for memscale's input parsers: experiment
 * files (exp/expfile.c on libinih), results CSV (core/csv.c), sample
 * files (core/stats.c stats_load), calibration files (predict/calib.c),
 * thread lists / numbers (core/util.c, harness/run_opts.c), target
 * profiles (predict/target.c), kernel profiles (core/knob.c), pahole layouts with their checks
 * (models/layout_btf.c), JSON results and sidecars (core/json.c) and the
 * kernel-shaped work's store (workloads/model/kwork_store.c).
 *
 * Built with AddressSanitizer + UndefinedBehaviorSanitizer (`make fuzz`;
 * `make check` runs it briefly).  A parser may refuse its input the way
 * memscale does, with one line and die(2): the driver's die_hook jumps
 * back (the refused input's allocations are lost: leak checking is off
 * here, LeakSanitizer runs in `make check-asan`).  die() with any other
 * status is an internal error and a finding; a sanitizer report, a signal
 * or a hang past 5 s (SIGALRM) ends the driver, and the input being run
 * is then in OUT/fuzz-current.
 *
 * Inputs: the seed files named on the command line, then mutations of
 * them (bit flips, byte edits, tokens that parsers care about, splices,
 * truncations) from a fixed pseudo-random sequence (--seed), so a run is
 * reproducible.  The first byte of a mutated input never selects the
 * parser: the seed file's name does (kwork, targets/, kernels/, pahole, .json,
 * .ini, calib, .csv, list, other: samples).
 *
 *   fuzz_parsers [--runs N] [--seed S] [--out DIR] SEED_FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/csv.h"
#include "core/stats.h"
#include "core/util.h"
#include "harness/expfile.h"
#include "harness/run_opts.h"
#include "harness/sweep.h"
#include "core/json.h"
#include "core/knob.h"
#include "models/layout.h"
#include "predict/calib.h"
#include "predict/kpath.h"
#include "predict/target.h"
#include "workloads/model/model_workload.h"

enum parser { T_EXPFILE, T_CSV, T_SAMPLES, T_CALIB, T_LIST, T_TARGET, T_PAHOLE,
	       T_JSON, T_KWORK, T_KPROFILE, T_KPATH, T_NR };
static const char *const target_names[T_NR] = {
	"expfile", "csv", "samples", "calib", "list", "target", "pahole", "json",
	"kwork", "kernel", "kpath",
};

struct input {
	enum parser t;
	unsigned char *d;
	size_t n;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static char tmpdir[] = "/tmp/memscale-fuzz.XXXXXX";

static char *write_tmp(const struct input *in, const char *suffix)
{
	static unsigned long seq;
	/* a name of its own each time: target profiles are remembered by path */
	char *path = xasprintf("%s/in%lu%s", tmpdir, seq++, suffix);
	FILE *f = fopen(path, "w");

	if (!f || fwrite(in->d, 1, in->n, f) != in->n || fclose(f))
		die_errno(1, "fuzz: cannot write '%s'", path);
	return path;
}

/* One parser over one input; returns (exit status) 0 when it took it. */
static int run_target(const struct input *in)
{
	char err[512];
	const char *cerr;
	size_t line;
	char *path;

	switch (in->t) {
	case T_EXPFILE: {
		struct experiment *e;
		struct sweep s;
		path = write_tmp(in, ".ini");
		e = exp_load(path); /* dies with 2 on a bad file */
		exp_apply_quick(e);
		sweep_expand(&s, e, 1);
		sweep_free(&s);
		exp_free(e);
		free(path);
		return 0;
	}
	case T_CSV: {
		FILE *f = fmemopen(in->d, in->n ? in->n : 1, "r");
		struct csv_table *t = f ? csv_read(f, &cerr, &line) : NULL;
		if (t)
			csv_free(t);
		if (f)
			fclose(f);
		return 0;
	}
	case T_SAMPLES: {
		struct sample_set set;
		const char *group[] = { "workload", "workers" };
		path = write_tmp(in, ".csv");
		if (!stats_load(path, "ops_per_sec", NULL, group, 2, &set, err, sizeof(err)))
			stats_set_free(&set);
		free(path);
		return 0;
	}
	case T_CALIB: {
		struct calib c;
		FILE *f = fmemopen(in->d, in->n ? in->n : 1, "r");
		if (f && !calib_parse(&c, f, "fuzz", err, sizeof(err)))
			calib_free(&c);
		if (f)
			fclose(f);
		return 0;
	}
	case T_LIST: {
		char *s = strndup((const char *)in->d, in->n);
		long *v = NULL, l;
		double d;
		size_t n = parse_list(s, 1, 100000, &v, &cerr);
		free(v);
		(void)n;
		parse_long(s, -1000000, 1000000, &l);
		parse_double(s, -1e9, 1e9, &d);
		if (strlen(s) < 64) {
			n = parse_workers(s, &v); /* dies with 2 on a bad list */
			free(v);
		}
		free(s);
		return 0;
	}
	case T_KPROFILE: {
		struct knob_profile *v;
		size_t n;
		path = write_tmp(in, ".ini");
		n = knob_profile_load(path, 0, &v); /* dies with 2 on a bad profile */
		knob_profile_free(v, n);
		unlink(path);
		free(path);
		return 0;
	}
	case T_KPATH: {
		struct kpath k;
		path = write_tmp(in, ".ini");
		if (!kpath_load(path, &k, err, sizeof(err)))
			kpath_free(&k);
		unlink(path);
		free(path);
		return 0;
	}
	case T_TARGET: {
		path = write_tmp(in, ".ini");
		target_find(path); /* dies with 2 on a bad profile */
		unlink(path);
		free(path);
		return 0;
	}
	case T_PAHOLE: {
		struct pn_raw r;
		path = write_tmp(in, ".txt");
		if (!pn_raw_from_pahole(path, &r, err, sizeof(err)))
			pn_raw_check(&r, path, err, sizeof(err));
		unlink(path);
		free(path);
		return 0;
	}
	case T_JSON: {
		struct json_doc *d;
		path = write_tmp(in, ".json");
		if ((d = json_read_file(path, err, sizeof(err)))) {
			free(json_doc_get(d, "machine", "cpu_model", NULL));
			json_doc_free(d);
		}
		unlink(path);
		free(path);
		return 0;
	}
	case T_KWORK: {
		struct kwork_cal c;
		char *text = strndup((const char *)in->d, in->n);
		kwork_store_lookup(text, "fuzz", "page_fault2", &c);
		free(text);
		return 0;
	}
	default:
		return 0;
	}
}

static const char *const tokens[] = {
	"=", ",", "[", "]", "\n", "#", ";", " ", "-", ":", "%", "0x10", "010",
	"1e400", "-5", "nan", "99999999999999999999", "\"", "\"\"", ",,",
	"[experiment]\n", "[variant a]\n", "[axis]\n", "[quick]\n",
	"[published]\n", "workloads = lock\n", "cs = ", "ns", "\r\n", "\t",
	"workers", "ops_per_sec", "format = memscale-calib 4\n",
};

static void mutate(struct input *in, const struct input *other)
{
	unsigned k = 1 + (unsigned)(next() % 4);

	while (k--) {
		size_t pos = in->n ? (size_t)(next() % (in->n + 1)) : 0;
		switch (next() % 6) {
		case 0: /* bit flip */
			if (in->n)
				in->d[pos % in->n] ^= (unsigned char)(1u << (next() % 8));
			break;
		case 1: /* random byte */
			if (in->n)
				in->d[pos % in->n] = (unsigned char)next();
			break;
		case 2: { /* insert a token */
			const char *t = tokens[next() % ARRAY_SIZE(tokens)];
			size_t tl = strlen(t);
			in->d = realloc(in->d, in->n + tl + 1);
			memmove(in->d + pos + tl, in->d + pos, in->n - pos);
			memcpy(in->d + pos, t, tl);
			in->n += tl;
			break;
		}
		case 3: { /* delete a run */
			size_t len = (size_t)(next() % 16);
			if (pos + len > in->n)
				len = in->n - pos;
			memmove(in->d + pos, in->d + pos + len, in->n - pos - len);
			in->n -= len;
			break;
		}
		case 4: { /* splice a piece of another input */
			size_t from, len;
			if (!other->n)
				break;
			from = (size_t)(next() % other->n);
			len = (size_t)(next() % 256);
			if (from + len > other->n)
				len = other->n - from;
			in->d = realloc(in->d, in->n + len + 1);
			memmove(in->d + pos + len, in->d + pos, in->n - pos);
			memcpy(in->d + pos, other->d + from, len);
			in->n += len;
			break;
		}
		case 5: /* truncate */
			in->n = pos;
			break;
		}
	}
}

static enum parser target_of(const char *path)
{
	size_t n = strlen(path);

	if (strstr(path, "kwork"))
		return T_KWORK;
	if (strstr(path, "kpath"))
		return T_KPATH;
	if (strstr(path, "targets/"))
		return T_TARGET;
	if (strstr(path, "kernels/"))
		return T_KPROFILE;
	if (strstr(path, "pahole"))
		return T_PAHOLE;
	if (n > 5 && !strcmp(path + n - 5, ".json"))
		return T_JSON;
	if (n > 4 && !strcmp(path + n - 4, ".ini"))
		return T_EXPFILE;
	if (strstr(path, "calib"))
		return T_CALIB;
	if (n > 4 && !strcmp(path + n - 4, ".csv"))
		return (next() & 1) ? T_CSV : T_SAMPLES;
	if (strstr(path, "list"))
		return T_LIST;
	return T_SAMPLES;
}

static sigjmp_buf on_die;
static const char *current_path;

static void jump_back(int status)
{
	siglongjmp(on_die, status ? status : 256);
}

/* Runs one input; true if the parser took it or refused it with die(2). */
static bool try_input(const struct input *in)
{
	FILE *f = fopen(current_path, "w");
	int st;

	if (f) {
		fwrite(in->d, 1, in->n, f);
		fclose(f);
	}
	/* the descriptors open before the input: libraries' own (LTTng-UST
	 * keeps its session daemon socket and counter shared memory open) */
	bool was_open[256];
	for (int fd = 3; fd < 256; fd++)
		was_open[fd] = fcntl(fd, F_GETFD) != -1;
	alarm(5);
	if (!(st = sigsetjmp(on_die, 0))) {
		st = run_target(in);
	} else {
		/* a refusing parser may have left its file open: close what
		 * it opened, and nothing else (closing LTTng-UST's descriptors
		 * made its counter teardown abort once a session daemon ran) */
		for (int fd = 3; fd < 256; fd++)
			if (!was_open[fd])
				close(fd);
	}
	alarm(0);
	return st == 0 || st == 2;
}

static pid_t parent;

/* atexit: the parent only (a child that dies must not remove the files). */
static void cleanup(void)
{
	char *cmd;

	if (getpid() != parent)
		return;
	cmd = xasprintf("%s/in.ini", tmpdir);
	unlink(cmd);
	free(cmd);
	cmd = xasprintf("%s/in.csv", tmpdir);
	unlink(cmd);
	free(cmd);
	rmdir(tmpdir);
}

int main(int argc, char **argv)
{
	long runs = 2000, seed = 1;
	const char *out = ".";
	struct input *seeds = NULL;
	size_t nseeds = 0, found = 0;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (i + 1 >= argc)
			die(2, "fuzz: %s wants a value", argv[i]);
		if (!strcmp(argv[i], "--runs") && parse_long(argv[i + 1], 0, 1L << 40, &runs))
			continue;
		if (!strcmp(argv[i], "--seed") && parse_long(argv[i + 1], 1, 1L << 62, &seed))
			continue;
		if (!strcmp(argv[i], "--out")) {
			out = argv[i + 1];
			continue;
		}
		die(2, "fuzz: bad option '%s %s' (want --runs N, --seed S, --out DIR)",
		    argv[i], argv[i + 1]);
	}
	if (i >= argc)
		die(2, "fuzz: usage: fuzz_parsers [--runs N] [--seed S] [--out DIR] SEED_FILE...");
	rng ^= (uint64_t)seed * 0x2545f4914f6cdd1dull;
	if (!mkdtemp(tmpdir))
		die_errno(1, "fuzz: mkdtemp");
	parent = getpid();
	atexit(cleanup);
	current_path = xasprintf("%s/fuzz-current", out);
	die_hook = jump_back;
	if (!getenv("FUZZ_VERBOSE"))
		if (!freopen("/dev/null", "w", stderr))
			return 1;
	for (; i < argc; i++) {
		char *text = read_text_file(argv[i]);
		if (!text)
			die_errno(2, "fuzz: cannot read seed '%s'", argv[i]);
		seeds = realloc(seeds, (nseeds + 1) * sizeof(*seeds));
		seeds[nseeds] = (struct input){ target_of(argv[i]), (unsigned char *)text,
						strlen(text) };
		nseeds++;
	}
	/* Seeds as they are, each also through every other parser. */
	for (size_t s = 0; s < nseeds; s++)
		for (int t = 0; t < T_NR; t++) {
			struct input in = seeds[s];
			in.t = (enum parser)t;
			if (!try_input(&in)) {
				printf("fuzz: seed %zu via %s fails\n", s, target_names[t]);
				found++;
			}
		}
	for (long r = 0; r < runs && found < 5; r++) {
		const struct input *base = &seeds[next() % nseeds];
		struct input in = { base->t, xmalloc(base->n + 1), base->n };

		memcpy(in.d, base->d, base->n);
		mutate(&in, &seeds[next() % nseeds]);
		if (!try_input(&in)) {
			char *path = xasprintf("%s/fuzz-crash-%s-%ld", out,
					       target_names[in.t], r);
			FILE *f = fopen(path, "w");
			if (f) {
				fwrite(in.d, 1, in.n, f);
				fclose(f);
			}
			printf("fuzz: run %ld: %s parser failed on %s (rerun: "
			       "FUZZ_VERBOSE=1)\n", r, target_names[in.t], path);
			free(path);
			found++;
		}
		free(in.d);
	}
	unlink(current_path);
	printf("fuzz: %ld mutated inputs over %zu seeds (seed %ld): %zu failures\n",
	       runs, nseeds, seed, found);
	for (size_t s = 0; s < nseeds; s++)
		free(seeds[s].d);
	free(seeds);
	return found ? 1 : 0;
}
