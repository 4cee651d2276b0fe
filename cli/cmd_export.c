/*
 * cmd_export.c - `memscale export FORMAT DIR SOURCE...`: results as the
 * files another project's own tools read.
 *
 * mmtests: the log tree of run-mmtests.sh, as mmtests' compare-kernels.sh
 * reads it today (checked against gormanm/mmtests 638401e07e70, 2026):
 *
 *   DIR/RUN/mmtests-activity      every iteration's activity lines, then
 *                                 "T run-mmtests: End", "T status :: 0"
 *   DIR/RUN/iter-R/tests-activity "T run-mmtests: Start", "Iteration R+1
 *                                 start", "test start :: BENCH T" and
 *                                 "test end :: BENCH T 0" per benchmark,
 *                                 "Iteration R+1 end" (shellpacks/
 *                                 common.sh: run_results orders the runs by
 *                                 the Start time, run_report_name lists the
 *                                 benchmarks of the "test start" lines)
 *   DIR/RUN/iter-R/tests-timestamp, tests-sysstate
 *                                 run-mmtests.sh's teststate_log lines:
 *                                 "start :: T", "test begin :: BENCH T",
 *                                 "test end :: BENCH T 0", "time ::
 *                                 BENCH nan user nan system E elapsed"
 *                                 (E: the rows' measured seconds; CPU
 *                                 times are not measured), "finish :: T"
 *                                 (memscale keeps no /proc snapshots:
 *                                 mmtests' vmstat tables read 0)
 *   DIR/RUN/iter-R/BENCH/logs/workloads, models
 *                                 comma-separated, as wis-bench writes them
 *   DIR/RUN/iter-R/BENCH/logs/benchlog-WL_MODEL-N
 *                                 "min:A max:B total:OPS" per sample, the
 *                                 warm-up lines already deleted (wis-bench)
 *
 * compare-mmtests.pl -b BENCH parses every iter-*\/BENCH/logs with
 * shellpack_src/src/wis/parse-results (line-parse-results 'total:' ops 3):
 * operation "ops-WL_MODEL-N", one sample per "total:" line.  A RUN is a
 * variant (with the values of an experiment's other axes, "base-depth1");
 * a repetition R is mmtests' iteration R, one sample (its ops_per_sec).
 * min and max are the per-worker mean (memscale does not keep per-task
 * extremes); mmtests reads only total.  BENCH is the mmtests benchmark of
 * the workload's will-it-scale family (drivers/driver-wis-*.sh:
 * page_fault* wis-pf, fallocate* wis-fallocate, malloc1 wis-malloc,
 * tlb_flush2 wis-mmap), its spec's .mmtests (workloads/model/wl_*.c);
 * kernel:W is written as kernel_W.
 *
 * lkp: export_lkp.c.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/export.h"
#include "core/csv.h"
#include "harness/expfile.h"
#include "workloads/wlspec.h"

static int export_main(int argc, char **argv);

const struct subcommand export_cmd = {
	.name = "export",
	.summary = "write results as mmtests' log tree or an LKP result root",
	.usage = "export mmtests|lkp DIR SOURCE...\n"
		 "\n"
		 "SOURCE is a sweep directory (results.csv, experiment.ini) or a\n"
		 "results CSV.  Every variant (with the values of the experiment's\n"
		 "other axes) becomes a run, in the order given, base first.\n"
		 "\n"
		 "mmtests: run DIR/RUN, each repetition an iteration iter-R, as\n"
		 "run-mmtests.sh leaves them; the will-it-scale workloads as mmtests'\n"
		 "wis benchmarks (wis-pf, wis-fallocate, wis-malloc, wis-mmap).  Then,\n"
		 "in DIR: compare-kernels.sh.  DIR/RUN must not exist.\n"
		 "\n"
		 "lkp: an LKP result root, DIR/TESTCASE/PARAMS/HOST/memscale/\n"
		 "unknown/unknown/RUN/R/stats.json per repetition R (kernel config\n"
		 "and compiler unknown) and matrix.json beside them, with LKP's stat\n"
		 "names (will-it-scale.per_process_ops,\n"
		 "aim9.page_test.ops_per_sec, ...).  Then: LKP_LOCAL_RUN=1 lkp-tests'\n"
		 "sbin/compare -f STAT DIR/... (RESULT_ROOT_DIR /lkp/result).  A job\n"
		 "directory R must not exist.\n"
		 "\n"
		 "Other workloads are left out with a note.\n",
	.main = export_main,
};
REGISTER(subcommand, export_cmd);

/* mmtests' benchmark for a will-it-scale workload (its spec's, workloads/
 * wlspec.h), or NULL. */
static const char *wis_bench(const char *w)
{
	const struct wl_spec *s = wl_spec_find(w);

	return s ? s->mmtests : NULL;
}

static void add_unique(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v)
		die(1, "out of memory");
	(*v)[(*n)++] = xstrdup(s);
}

static int need_col(const struct csv_table *t, const char *path, const char *name)
{
	int c = csv_col(t, name);

	if (c < 0)
		die(EXIT_USAGE, "export: %s: no column '%s'", path, name);
	return c;
}

static long row_long(const char *path, size_t r, const char *col, const char *v)
{
	long x;

	if (!parse_long(v, 0, 1L << 30, &x))
		die(EXIT_USAGE, "export: %s: row %zu: %s '%s' is not a count", path, r + 2,
		    col, v);
	return x;
}

static double row_num(const char *path, size_t r, const char *col, const char *v)
{
	double x;

	if (!parse_double(v, 0, 1e300, &x))
		die(EXIT_USAGE, "export: %s: row %zu: %s '%s' is not a non-negative "
		    "number", path, r + 2, col, v);
	return x;
}

/* s as a file name: mmtests and LKP split names at '-' and '/' and glob
 * them, so names keep to [A-Za-z0-9._-] (the rest as '_'). */
static char *safe_name(const char *s)
{
	char *n = xstrdup(*s ? s : "unknown");

	for (char *p = n; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", *p))
			*p = '_';
	if (n[0] == '.')
		n[0] = '_';
	return n;
}

/* The label of a SOURCE: a directory's name, a CSV's without ".csv". */
static char *source_label(const char *src, int isdir)
{
	char *copy = xstrdup(src), *b = basename(copy), *l;
	size_t n = strlen(b);

	if (!isdir && n > 4 && !strcmp(b + n - 4, ".csv"))
		b[n - 4] = '\0';
	l = xstrdup(b);
	free(copy);
	return l;
}

/* The rows of one SOURCE; runs are named by variant and other axes. */
static void load_source(struct xset *s, const char *src)
{
	struct stat st;
	char *csvp, *ini = NULL, *label;
	struct experiment *e = NULL;
	struct csv_table *t;
	const char *err;
	size_t line;
	int cwl, cmode, cw, crep, cops, cpw, cvar, chost, cms, csec;

	if (stat(src, &st))
		die_errno(EXIT_USAGE, "export: cannot read '%s'", src);
	if (S_ISDIR(st.st_mode)) {
		csvp = xasprintf("%s/results.csv", src);
		ini = xasprintf("%s/experiment.ini", src);
		if (access(ini, R_OK) == 0)
			e = exp_load(ini);
	} else {
		csvp = xstrdup(src);
	}
	check_input_file("export", csvp, "a results CSV or a sweep directory");
	t = csv_read_file(csvp, &err, &line);
	if (!t)
		die(EXIT_USAGE, "export: %s: line %zu: %s", csvp, line, err);
	cwl = need_col(t, csvp, "workload");
	cmode = need_col(t, csvp, "mode");
	cw = need_col(t, csvp, "workers");
	cops = need_col(t, csvp, "ops_per_sec");
	crep = csv_col(t, "rep");
	cpw = csv_col(t, "per_worker_ops");
	cvar = csv_col(t, "variant");
	chost = csv_col(t, "host");
	cms = csv_col(t, "measured_s");
	csec = csv_col(t, "seconds");
	label = source_label(src, S_ISDIR(st.st_mode));
	for (size_t r = 0; r < t->nrows; r++) {
		char **row = t->rows[r];
		struct xrow x = { 0 };
		char *run;
		FILE *f;
		size_t len;

		f = open_memstream(&run, &len);
		fputs(cvar >= 0 && *row[cvar] ? row[cvar] : label, f);
		for (size_t a = 0; e && a < e->naxes; a++) {
			int c = csv_col(t, e->axes[a].key);
			if (c >= 0 && e->axes[a].nvalues > 1)
				fprintf(f, "-%s%s", e->axes[a].key, row[c]);
		}
		if (fclose(f))
			die(1, "out of memory");
		if (strcmp(row[cmode], "processes") && strcmp(row[cmode], "threads"))
			die(EXIT_USAGE, "export: %s: row %zu: mode '%s' (want processes or "
			    "threads)", csvp, r + 2, row[cmode]);
		x.run = safe_name(run);
		free(run);
		x.workload = xstrdup(row[cwl]);
		x.wl = safe_name(row[cwl]);
		for (char *p = x.wl; *p; p++)
			if (*p == '-')
				*p = '_';
		x.model = xstrdup(row[cmode]);
		x.host = safe_name(chost >= 0 ? row[chost] : "");
		x.workers = row_long(csvp, r, "workers", row[cw]);
		x.rep = crep >= 0 ? row_long(csvp, r, "rep", row[crep]) : 0;
		x.ops = row_num(csvp, r, "ops_per_sec", row[cops]);
		x.per_worker = cpw >= 0 && *row[cpw] ? row_num(csvp, r, "per_worker_ops", row[cpw]) :
			       x.ops / (double)(x.workers ? x.workers : 1);
		x.seconds = cms >= 0 && *row[cms] ? row_num(csvp, r, "measured_s", row[cms]) :
			    csec >= 0 && *row[csec] ? row_num(csvp, r, "seconds", row[csec]) : 0;
		s->rows = realloc(s->rows, (s->n + 1) * sizeof(*s->rows));
		if (!s->rows)
			die(1, "out of memory");
		s->rows[s->n++] = x;
		add_unique(&s->runs, &s->nruns, x.run);
	}
	csv_free(t);
	exp_free(e);
	free(csvp);
	free(ini);
	free(label);
}

/* A heap string built by fprintf-style calls on a memstream. */
struct sbuf {
	char *buf;
	size_t len;
	FILE *f;
};

static void sb_open(struct sbuf *b)
{
	b->f = open_memstream(&b->buf, &b->len);
	if (!b->f)
		die(1, "out of memory");
}

static void sb_flush(struct sbuf *b, const char *path)
{
	if (fclose(b->f))
		die(1, "out of memory");
	export_write(path, b->buf);
	free(b->buf);
}

/* Is row x of run `run`, a wis benchmark's, in iteration rep (-1: any)? */
static const char *in_run(const struct xrow *x, const char *run, long rep)
{
	if (strcmp(x->run, run) || (rep >= 0 && x->rep != rep))
		return NULL;
	return wis_bench(x->workload);
}

/* "a,b,c": the distinct workloads (field 0) or models (1) of a run's
 * rows of bench in iteration rep. */
static char *joined(const struct xset *s, const char *run, const char *bench, long rep,
		    int field)
{
	char **vals = NULL;
	size_t n = 0;
	struct sbuf b;

	for (size_t i = 0; i < s->n; i++) {
		const char *bn = in_run(&s->rows[i], run, rep);
		if (bn && !strcmp(bn, bench))
			add_unique(&vals, &n, field == 0 ? s->rows[i].wl : s->rows[i].model);
	}
	sb_open(&b);
	for (size_t i = 0; i < n; i++) {
		fprintf(b.f, "%s%s", i ? "," : "", vals[i]);
		free(vals[i]);
	}
	fputc('\n', b.f);
	free(vals);
	if (fclose(b.f))
		die(1, "out of memory");
	return b.buf;
}

static void free_vals(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* One iteration's BENCH/logs: workloads, models, benchlog-WL_MODEL-N. */
static void write_logs(const struct xset *s, const char *it, const char *run,
		       const char *bench, long rep)
{
	char *bd = xasprintf("%s/%s", it, bench), *logs = xasprintf("%s/logs", bd);
	char *path, *text;

	export_mkdir(bd);
	export_mkdir(logs);
	text = joined(s, run, bench, rep, 0);
	path = xasprintf("%s/workloads", logs);
	export_write(path, text);
	free(path);
	free(text);
	text = joined(s, run, bench, rep, 1);
	path = xasprintf("%s/models", logs);
	export_write(path, text);
	free(path);
	free(text);
	/* one file per workload, model and worker count, one line per row */
	for (size_t i = 0; i < s->n; i++) {
		const struct xrow *x = &s->rows[i];
		const char *bn = in_run(x, run, rep);
		struct sbuf b;
		bool first = true;

		if (!bn || strcmp(bn, bench))
			continue;
		for (size_t j = 0; j < i && first; j++) {
			const struct xrow *y = &s->rows[j];
			if (in_run(y, run, rep) && !strcmp(y->wl, x->wl) &&
			    !strcmp(y->model, x->model) && y->workers == x->workers)
				first = false;
		}
		if (!first)
			continue;
		sb_open(&b);
		for (size_t j = i; j < s->n; j++) {
			const struct xrow *y = &s->rows[j];
			if (in_run(y, run, rep) && !strcmp(y->wl, x->wl) &&
			    !strcmp(y->model, x->model) && y->workers == x->workers)
				fprintf(b.f, "min:%.0f max:%.0f total:%.0f\n", y->per_worker,
					y->per_worker, y->ops);
		}
		path = xasprintf("%s/benchlog-%s_%s-%ld", logs, x->wl, x->model, x->workers);
		sb_flush(&b, path);
		free(path);
	}
	free(bd);
	free(logs);
}

/* One run: its activity, and per iteration the state files and logs.
 * Iteration R of run k starts at t, stamps strictly increasing; returns
 * the time after the run's last stamp. */
static time_t write_run(const struct xset *s, const char *dir, size_t k, time_t t)
{
	const char *run = s->runs[k];
	char *rdir = xasprintf("%s/%s", dir, run), *path;
	char **benches = NULL;
	size_t nb = 0;
	long maxrep = 0;
	struct sbuf all;

	if (mkdir(rdir, 0755))
		die_errno(EXIT_USAGE, "export: cannot create run directory '%s' (it must "
			  "not exist)", rdir);
	for (size_t i = 0; i < s->n; i++) {
		const char *bn = in_run(&s->rows[i], run, -1);
		if (!bn)
			continue;
		add_unique(&benches, &nb, bn);
		if (s->rows[i].rep > maxrep)
			maxrep = s->rows[i].rep;
	}
	sb_open(&all);
	for (long rep = 0; rep <= maxrep; rep++) {
		char *it = xasprintf("%s/iter-%ld", rdir, rep);
		struct sbuf act, ts;
		long long t0 = (long long)t, t1;

		export_mkdir(it);
		sb_open(&act);
		sb_open(&ts);
		fprintf(act.f, "%lld run-mmtests: Start\n%lld run-mmtests: Iteration %ld start\n",
			t0, t0, rep + 1);
		fprintf(ts.f, "start :: %lld\n", t0);
		for (size_t b = 0; b < nb; b++) {
			double secs = 0;
			for (size_t i = 0; i < s->n; i++) {
				const char *bn = in_run(&s->rows[i], run, rep);
				if (bn && !strcmp(bn, benches[b]))
					secs += s->rows[i].seconds;
			}
			t1 = t0 + (long long)(secs + 0.5);
			fprintf(act.f, "%lld run-mmtests: test start :: %s %lld\n"
				"%lld run-mmtests: test end :: %s %lld 0\n",
				t0, benches[b], t0, t1, benches[b], t1);
			/* /usr/bin/time's line: memscale measures the wall
			 * time, not the CPU times (NaN, as mmtests prints) */
			fprintf(ts.f, "test begin :: %s %lld\ntest end :: %s %lld 0\n"
				"time :: %s nan user nan system %.2f elapsed\n",
				benches[b], t0, benches[b], t1, benches[b], secs);
			t0 = t1;
			write_logs(s, it, run, benches[b], rep);
		}
		fprintf(act.f, "%lld run-mmtests: Iteration %ld end\n", t0, rep + 1);
		fprintf(ts.f, "finish :: %lld\n", t0);
		if (rep == maxrep)
			fprintf(act.f, "%lld run-mmtests: End\n", t0);
		fflush(act.f);
		fputs(act.buf, all.f);
		path = xasprintf("%s/tests-activity", it);
		sb_flush(&act, path);
		free(path);
		/* teststate_log writes the same lines to both */
		fflush(ts.f);
		path = xasprintf("%s/tests-sysstate", it);
		export_write(path, ts.buf);
		free(path);
		path = xasprintf("%s/tests-timestamp", it);
		sb_flush(&ts, path);
		free(path);
		free(it);
		t = (time_t)t0 + 1;
	}
	fprintf(all.f, "%lld status :: 0\n", (long long)t);
	path = xasprintf("%s/mmtests-activity", rdir);
	sb_flush(&all, path);
	free(path);
	free_vals(benches, nb);
	free(rdir);
	return t + 1;
}

static size_t export_mmtests(const struct xset *s, const char *dir, size_t *skipped)
{
	size_t nruns = 0;
	time_t t = time(NULL);

	for (size_t i = 0; i < s->n; i++)
		if (!wis_bench(s->rows[i].workload))
			(*skipped)++;
	if (*skipped == s->n)
		die(EXIT_USAGE, "export mmtests: no will-it-scale workload results in the "
		    "sources (mmtests' wis benchmarks: page_fault*, fallocate*, malloc1, "
		    "tlb_flush2)");
	export_mkdir(dir);
	/* run_results orders the runs by their Start time: base first */
	for (size_t k = 0; k < s->nruns; k++) {
		bool any = false;
		for (size_t i = 0; i < s->n && !any; i++)
			any = in_run(&s->rows[i], s->runs[k], -1) != NULL;
		if (!any)
			continue;
		t = write_run(s, dir, k, t);
		nruns++;
	}
	return nruns;
}

static int export_main(int argc, char **argv)
{
	struct xset s = { 0 };
	size_t skipped = 0, n;
	const char *base = NULL;
	bool lkp;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_usage(&export_cmd, stdout);
			return 0;
		} else if (argv[i][0] == '-') {
			cli_bad_option(&export_cmd, argv[i]);
		}
	if (argc < 2 || (strcmp(argv[1], "mmtests") && strcmp(argv[1], "lkp")))
		die(EXIT_USAGE, "export: unknown format '%s' (want 'export mmtests|lkp DIR "
		    "SOURCE...')", argc < 2 ? "" : argv[1]);
	lkp = !strcmp(argv[1], "lkp");
	if (argc < 4)
		die(EXIT_USAGE, "export %s: want DIR and at least one SOURCE", argv[1]);
	for (int i = 3; i < argc; i++)
		load_source(&s, argv[i]);
	n = lkp ? export_lkp(&s, argv[2], &skipped) : export_mmtests(&s, argv[2], &skipped);
	if (skipped)
		warnx_("export %s: note: %zu rows of workloads %s left out", argv[1], skipped,
		       lkp ? "LKP does not run (will-it-scale, aim9, vm-scalability)" :
			     "without a mmtests wis benchmark");
	if (lkp)
		printf("%s: %zu LKP jobs of runs (", argv[2], n);
	else
		printf("%s: %zu runs (", argv[2], n);
	/* the runs written: those with a row of a workload the format has */
	for (size_t k = 0, nw = 0; k < s.nruns; k++)
		for (size_t i = 0; i < s.n; i++)
			if (!strcmp(s.rows[i].run, s.runs[k]) &&
			    (lkp ? export_lkp_has(s.rows[i].workload) :
				   wis_bench(s.rows[i].workload) != NULL)) {
				printf("%s%s", nw++ ? "," : "", s.runs[k]);
				if (!base)
					base = s.runs[k];
				break;
			}
	if (lkp)
		printf("); read: LKP_LOCAL_RUN=1 lkp-tests/sbin/compare -f STAT "
		       "RESULT_ROOTS (under /lkp/result)\n");
	else
		printf("); in it: compare-kernels.sh --baseline %s\n", base);
	for (size_t i = 0; i < s.n; i++) {
		free(s.rows[i].run);
		free(s.rows[i].workload);
		free(s.rows[i].wl);
		free(s.rows[i].model);
		free(s.rows[i].host);
	}
	free(s.rows);
	free_vals(s.runs, s.nruns);
	return fflush(stdout) ? 1 : 0;
}
