/*
 * cmd_export.c - `memscale export mmtests DIR SOURCE...`: results as the
 * log tree mmtests' compare-kernels.sh reads (mmtests 827b444a, 2019, the
 * version of stats.h's formats), so a kernel developer's own mmtests
 * compares memscale's runs:
 *
 *   DIR/RUN/tests-activity        "T run-mmtests: Start", "T run-mmtests:
 *                                 begin BENCH" per benchmark, "T run-mmtests:
 *                                 Iteration 0 end" (shellpacks/common.sh:
 *                                 run_results orders runs by T,
 *                                 run_report_name lists the benchmarks)
 *   DIR/RUN/iter-R/BENCH/logs/workloads, models
 *                                 comma-separated, as wis-bench writes them
 *   DIR/RUN/iter-R/BENCH/logs/wis-WL-MODEL-N.log
 *                                 "min:A max:B total:OPS" per sample, warm-up
 *                                 lines already deleted (wis-bench's sed)
 *
 * compare-mmtests.pl -b BENCH reads every iter-*\/BENCH/logs through
 * ExtractWiscommon, which opens wis-WL-MODEL-N.log for every workload x
 * model x thread count and takes "total:" as a sample of operation
 * "WL-MODEL-N".  A RUN is a variant (with the values of an experiment's
 * other axes, "base-depth1"); a repetition R is mmtests' iteration R, one
 * sample (its ops_per_sec).  min and max are the per-worker mean (memscale
 * does not keep per-task extremes); mmtests reads only total.  BENCH is
 * the mmtests benchmark of the workload's will-it-scale family (drivers/
 * driver-wis-*.sh: page_fault* wis-pf, fallocate* wis-fallocate, malloc1
 * wis-malloc, tlb_flush2 wis-mmap); kernel:W is written as kernel_W.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/csv.h"
#include "harness/expfile.h"

static int export_main(int argc, char **argv);

const struct subcommand export_cmd = {
	.name = "export",
	.summary = "write results as mmtests' log tree (compare-kernels.sh reads it)",
	.usage = "export mmtests DIR SOURCE...\n"
		 "\n"
		 "SOURCE is a sweep directory (results.csv, experiment.ini) or a\n"
		 "results CSV.  Every variant (with the values of the experiment's\n"
		 "other axes) becomes an mmtests run DIR/RUN, in the order given, base\n"
		 "first; each repetition an iteration iter-R.  The will-it-scale\n"
		 "workloads are written as mmtests' wis benchmarks (wis-pf,\n"
		 "wis-fallocate, wis-malloc, wis-mmap); others are left out with a\n"
		 "note.  Then, in DIR: compare-kernels.sh (mmtests 2019).  DIR/RUN\n"
		 "must not exist.\n",
	.main = export_main,
};
REGISTER(subcommand, export_cmd);

/* mmtests' benchmark for a will-it-scale workload, or NULL. */
static const char *wis_bench(const char *w)
{
	static const struct { const char *wl, *bench; } map[] = {
		{ "page_fault1", "wis-pf" }, { "page_fault2", "wis-pf" },
		{ "page_fault3", "wis-pf" }, { "fallocate1", "wis-fallocate" },
		{ "fallocate2", "wis-fallocate" }, { "malloc1", "wis-malloc" },
		{ "tlb_flush2", "wis-mmap" },
	};

	if (!strncmp(w, "kernel:", 7))
		w += 7;
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(w, map[i].wl))
			return map[i].bench;
	return NULL;
}

/* One result row as exported. */
struct xrow {
	char *run, *wl, *model, *bench;
	long workers, rep;
	double ops, per_worker;
};

struct xset {
	struct xrow *rows;
	size_t n;
	char **runs; /* in order of first appearance */
	size_t nruns;
};

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

/* The rows of one SOURCE; axes: the experiment's other axis keys. */
static void load_source(struct xset *s, const char *src, size_t *skipped)
{
	struct stat st;
	char *csvp, *ini = NULL, *label;
	struct experiment *e = NULL;
	struct csv_table *t;
	const char *err;
	size_t line;
	int cwl, cmode, cw, crep, cops, cpw, cvar;

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
	{
		char *copy = xstrdup(csvp), *b = basename(copy);
		size_t n = strlen(b);
		if (n > 4 && !strcmp(b + n - 4, ".csv"))
			b[n - 4] = '\0';
		label = xstrdup(S_ISDIR(st.st_mode) ? basename(strcpy(copy, src)) : b);
		free(copy);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		char **row = t->rows[r];
		const char *bench = wis_bench(row[cwl]);
		struct xrow x = { 0 };
		char *run, *wl;
		FILE *f;
		size_t len;

		if (!bench) {
			(*skipped)++;
			continue;
		}
		f = open_memstream(&run, &len);
		fputs(cvar >= 0 && *row[cvar] ? row[cvar] : label, f);
		for (size_t a = 0; e && a < e->naxes; a++) {
			int c = csv_col(t, e->axes[a].key);
			if (c >= 0 && e->axes[a].nvalues > 1)
				fprintf(f, "-%s%s", e->axes[a].key, row[c]);
		}
		fclose(f);
		/* mmtests splits run, file and operation names at '-' and
		 * globs them: names keep to [A-Za-z0-9._-] */
		for (char *p = run; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789._-", *p))
				*p = '_';
		wl = xstrdup(row[cwl]);
		for (char *p = wl; *p; p++)
			if (*p == ':' || *p == '-')
				*p = '_';
		if (strcmp(row[cmode], "processes") && strcmp(row[cmode], "threads"))
			die(EXIT_USAGE, "export: %s: row %zu: mode '%s' (want processes or "
			    "threads)", csvp, r + 2, row[cmode]);
		x.run = run;
		x.wl = wl;
		x.model = xstrdup(row[cmode]);
		x.bench = xstrdup(bench);
		x.workers = row_long(csvp, r, "workers", row[cw]);
		x.rep = crep >= 0 ? row_long(csvp, r, "rep", row[crep]) : 0;
		x.ops = row_num(csvp, r, "ops_per_sec", row[cops]);
		x.per_worker = cpw >= 0 && *row[cpw] ? row_num(csvp, r, "per_worker_ops", row[cpw]) :
			       x.ops / (double)(x.workers ? x.workers : 1);
		s->rows = realloc(s->rows, (s->n + 1) * sizeof(*s->rows));
		if (!s->rows)
			die(1, "out of memory");
		s->rows[s->n++] = x;
		add_unique(&s->runs, &s->nruns, run);
	}
	csv_free(t);
	exp_free(e);
	free(csvp);
	free(ini);
	free(label);
}

static void write_close(FILE *f, const char *path)
{
	if (!f)
		die_errno(1, "export: cannot create '%s'", path);
	if (ferror(f) | fclose(f))
		die_errno(1, "export: writing '%s'", path);
}

/* DIR/NAME holding one line, as wis-bench's "echo $WIS_WORKLOADS". */
static void write_list(const char *dir, const char *name, const char *line)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = file_create_new(path);

	if (f)
		fprintf(f, "%s\n", line);
	write_close(f, path);
	free(path);
}

static void export_mkdir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die_errno(1, "export: cannot create '%s'", path);
}

/* "a,b,c" of the distinct values of one field over a run's rows of bench. */
static char *joined(const struct xset *s, const char *run, const char *bench, int field,
		    char ***vals, size_t *n)
{
	char *buf;
	size_t len;
	FILE *f;

	*vals = NULL;
	*n = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct xrow *x = &s->rows[i];
		char num[32];
		if (strcmp(x->run, run) || strcmp(x->bench, bench))
			continue;
		snprintf(num, sizeof(num), "%ld", x->workers);
		add_unique(vals, n, field == 0 ? x->wl : field == 1 ? x->model : num);
	}
	f = open_memstream(&buf, &len);
	for (size_t i = 0; i < *n; i++)
		fprintf(f, "%s%s", i ? "," : "", (*vals)[i]);
	fclose(f);
	return buf;
}

static void free_vals(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* One run: tests-activity, then per benchmark and repetition the logs. */
static void write_run(const struct xset *s, const char *dir, size_t k, time_t t0)
{
	const char *run = s->runs[k];
	char *rdir = xasprintf("%s/%s", dir, run), *path;
	char **benches = NULL;
	size_t nb = 0;
	FILE *act;

	if (mkdir(rdir, 0755))
		die_errno(EXIT_USAGE, "export: cannot create run directory '%s' (it must "
			  "not exist)", rdir);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->rows[i].run, run))
			add_unique(&benches, &nb, s->rows[i].bench);
	path = xasprintf("%s/tests-activity", rdir);
	act = file_create_new(path);
	if (act) {
		fprintf(act, "%lld run-mmtests: Start\n", (long long)t0);
		for (size_t b = 0; b < nb; b++)
			fprintf(act, "%lld run-mmtests: begin %s\n%lld run-mmtests: end %s\n",
				(long long)t0, benches[b], (long long)t0, benches[b]);
		fprintf(act, "%lld run-mmtests: Iteration 0 end\n", (long long)t0);
	}
	write_close(act, path);
	free(path);
	for (size_t b = 0; b < nb; b++) {
		char **wls, **models, **thr;
		size_t nwl, nm, nt;
		char *jw = joined(s, run, benches[b], 0, &wls, &nwl);
		char *jm = joined(s, run, benches[b], 1, &models, &nm);
		char *jt = joined(s, run, benches[b], 2, &thr, &nt);
		long maxrep = 0;

		for (size_t i = 0; i < s->n; i++)
			if (!strcmp(s->rows[i].run, run) && !strcmp(s->rows[i].bench, benches[b]) &&
			    s->rows[i].rep > maxrep)
				maxrep = s->rows[i].rep;
		for (long rep = 0; rep <= maxrep; rep++) {
			char *it = xasprintf("%s/iter-%ld", rdir, rep);
			char *bd = xasprintf("%s/%s", it, benches[b]);
			char *logs = xasprintf("%s/logs", bd);
			FILE *f;

			export_mkdir(it);
			export_mkdir(bd);
			export_mkdir(logs);
			write_list(logs, "workloads", jw);
			write_list(logs, "models", jm);
			/* ExtractWiscommon opens every workload x model x thread
			 * file: each must exist, in every iteration */
			for (size_t w = 0; w < nwl; w++)
				for (size_t m = 0; m < nm; m++)
					for (size_t n = 0; n < nt; n++) {
						size_t nsamples = 0;
						path = xasprintf("%s/wis-%s-%s-%s.log", logs, wls[w],
								 models[m], thr[n]);
						f = file_create_new(path);
						for (size_t i = 0; f && i < s->n; i++) {
							const struct xrow *x = &s->rows[i];
							char num[32];
							snprintf(num, sizeof(num), "%ld", x->workers);
							if (strcmp(x->run, run) || strcmp(x->wl, wls[w]) ||
							    strcmp(x->model, models[m]) ||
							    strcmp(num, thr[n]) || x->rep != rep)
								continue;
							fprintf(f, "min:%.0f max:%.0f total:%.0f\n",
								x->per_worker, x->per_worker, x->ops);
							nsamples++;
						}
						write_close(f, path);
						if (!nsamples)
							die(EXIT_USAGE, "export: run %s has no %s %s result "
							    "at %s workers in repetition %ld (mmtests opens "
							    "every workload x model x thread file)", run,
							    wls[w], models[m], thr[n], rep);
						free(path);
					}
			free(it);
			free(bd);
			free(logs);
		}
		free(jw);
		free(jm);
		free(jt);
		free_vals(wls, nwl);
		free_vals(models, nm);
		free_vals(thr, nt);
	}
	free_vals(benches, nb);
	free(rdir);
}

static int export_main(int argc, char **argv)
{
	struct xset s = { 0 };
	size_t skipped = 0;
	time_t t0 = time(NULL);

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_usage(&export_cmd, stdout);
			return 0;
		} else if (argv[i][0] == '-') {
			cli_bad_option(&export_cmd, argv[i]);
		}
	if (argc < 2 || strcmp(argv[1], "mmtests"))
		die(EXIT_USAGE, "export: want 'export mmtests DIR SOURCE...' (the one "
		    "format: mmtests)");
	if (argc < 4)
		die(EXIT_USAGE, "export mmtests: want DIR and at least one SOURCE");
	for (int i = 3; i < argc; i++)
		load_source(&s, argv[i], &skipped);
	if (!s.n)
		die(EXIT_USAGE, "export mmtests: no will-it-scale workload results in the "
		    "sources (mmtests' wis benchmarks: page_fault*, fallocate*, malloc1, "
		    "tlb_flush2)");
	export_mkdir(argv[2]);
	/* run_results orders the runs by their Start time: base first */
	for (size_t k = 0; k < s.nruns; k++)
		write_run(&s, argv[2], k, t0 + (time_t)k);
	if (skipped)
		warnx_("export mmtests: note: %zu rows of workloads without a mmtests "
		       "wis benchmark left out", skipped);
	printf("%s: %zu runs (%s", argv[2], s.nruns, s.runs[0]);
	for (size_t k = 1; k < s.nruns; k++)
		printf(",%s", s.runs[k]);
	printf("); in it: compare-kernels.sh --baseline %s\n", s.runs[0]);
	for (size_t i = 0; i < s.n; i++) {
		free(s.rows[i].run);
		free(s.rows[i].wl);
		free(s.rows[i].model);
		free(s.rows[i].bench);
	}
	free(s.rows);
	free_vals(s.runs, s.nruns);
	return fflush(stdout) ? 1 : 0;
}
