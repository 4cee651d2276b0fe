/*
 * cmd_lockstat.c - `memscale lockstat TRACE_DIR`: perf lock report /
 * /proc/lock_stat style table of a trace written by `memscale run --trace`;
 * `memscale lockstat --kernel SIDECAR.json`: the kernel's own lock
 * statistics of a kernel-backend run (perf lock contention, /proc/lock_stat)
 * as rows under the model's lock classes, with a model run's figures for
 * the same classes beside them (--model RESULTS.csv).
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/csv.h"
#include "trace/lock_stat.h"
#include "tracing/lockstat.h"
#include "workloads/kernel/klocks.h"

static int lockstat_main(int argc, char **argv);

const struct subcommand lockstat_cmd = {
	.name = "lockstat",
	.summary = "perf-lock style contention table of a memscale trace",
	.usage = "lockstat TRACE_DIR [options]\n"
		 "\n"
		 "Reads the CTF trace with libbabeltrace2 and prints, per lock class,\n"
		 "acquired, contended, avg wait (= total wait / contended), total,\n"
		 "max and min wait, hold time and handoffs between workers, plus the\n"
		 "number of events the tracer discarded.\n"
		 "\n"
		 "options:\n"
		 "  -f, --format F        table (default) or csv: comma-separated, times\n"
		 "                        in ns (--csv: the same as -f csv)\n"
		 "      --sort KEY        acquired (default), contended, avg_wait,\n"
		 "                        wait_total, wait_max (descending)\n"
		 "  -t, --threads         one row per worker and lock class\n"
		 "      --hist            log2 histograms of waits and holds\n"
		 "\n"
		 "lockstat --kernel SIDECAR.json [--model RESULTS.csv] [-f table|csv]\n"
		 "  the kernel's lock statistics of each run of a kernel-backend result\n"
		 "  (its JSON sidecar: perf lock contention with --set kperf_lock=on,\n"
		 "  /proc/lock_stat where the kernel has CONFIG_LOCK_STAT) as rows under\n"
		 "  the model's lock class each kernel lock stands for; --model adds the\n"
		 "  model's own row per class (contended %, wait avg/max) at the same\n"
		 "  worker count.  Times in ns.\n",
	.main = lockstat_main,
};
REGISTER(subcommand, lockstat_cmd);

/* ---- --kernel: the kernel's rows beside the model's classes ---- */

struct krow {
	const char *cls;     /* model class key, or "-" */
	const char *source;  /* perf, lock_stat, model */
	char name[160];
	double contended, pct, total, max, avg, acq;
};

static double jnum(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void krow_push(struct krow **v, size_t *n, const struct krow *r)
{
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v)
		die(1, "out of memory");
	(*v)[(*n)++] = *r;
}

/* The model's figures of class cls at `workers` in a results CSV (mean
 * over its rows at that count), or false. */
static bool model_row(const struct csv_table *t, const char *cls, long workers,
		      struct krow *r)
{
	char *cp = xasprintf("%s_contended_pct", cls), *ca = xasprintf("%s_wait_avg_ns", cls);
	char *cm = xasprintf("%s_wait_max_ns", cls);
	int cw = csv_col(t, "workers"), ip = csv_col(t, cp), ia = csv_col(t, ca);
	int im = csv_col(t, cm);
	double sp = 0, sa = 0, mx = NAN;
	size_t n = 0;

	free(cp);
	free(ca);
	free(cm);
	if (cw < 0 || ip < 0)
		return false;
	for (size_t i = 0; i < t->nrows; i++) {
		char **row = t->rows[i];
		if (atol(row[cw]) != workers || !*row[ip])
			continue;
		sp += atof(row[ip]);
		sa += ia >= 0 ? atof(row[ia]) : NAN;
		if (im >= 0 && *row[im])
			mx = isnan(mx) ? atof(row[im]) : fmax(mx, atof(row[im]));
		n++;
	}
	if (!n)
		return false;
	*r = (struct krow){ .cls = cls, .source = "model", .contended = NAN,
			    .pct = sp / (double)n, .total = NAN, .max = mx,
			    .avg = sa / (double)n, .acq = NAN };
	snprintf(r->name, sizeof(r->name), "%s", cls);
	return true;
}

static void knum(double v, int w, bool csv, bool last)
{
	if (csv)
		isnan(v) ? printf("%s", "") : printf("%.6g", v);
	else if (isnan(v))
		printf(" %*s", w, "-");
	else
		printf(" %*.6g", w, v);
	if (csv)
		putchar(last ? '\n' : ',');
	else if (last)
		putchar('\n');
}

static void kprint(const struct krow *r, size_t n, bool csv, long workers, long rep)
{
	if (!csv && n)
		printf("%-20s %-9s %-36s %10s %9s %14s %12s %12s %12s\n", "class", "source",
		       "name", "contended", "cont_pct", "wait_total_ns", "wait_max_ns",
		       "wait_avg_ns", "acquired");
	/* the model's classes in their order, then the locks of no class */
	for (int c = 0; c <= LC_NR; c++) {
		const char *cls = c < LC_NR ? lock_class_keys[c] : "-";
		for (size_t i = 0; i < n; i++) {
			if (strcmp(r[i].cls, cls))
				continue;
			if (csv) {
				printf("%ld,%ld,", workers, rep);
				csv_field(stdout, r[i].cls, 0);
				csv_field(stdout, r[i].source, 0);
				csv_field(stdout, r[i].name, 0);
			} else {
				printf("%-20s %-9s %-36.36s", r[i].cls, r[i].source, r[i].name);
			}
			knum(r[i].contended, 10, csv, false);
			knum(r[i].pct, 9, csv, false);
			knum(r[i].total, 14, csv, false);
			knum(r[i].max, 12, csv, false);
			knum(r[i].avg, 12, csv, false);
			knum(r[i].acq, 12, csv, true);
		}
	}
}

/* The per-run kernel records of a sidecar as `run` writes it (core/json.c
 * json_sidecar_runs, workloads/kernel/kbackend.c kb_sidecar): each
 * invocation's entry of "runs" (a CSV appended to has several) holds
 * "kernel": {..., "kernel_observability": [one record per run]}; a sidecar
 * without "runs" has the one invocation's "kernel" at the top.  Returns a
 * new array of the records, every invocation's in order; NULL with *why
 * set when there is no kernel object or no record. */
static json_t *kernel_records(json_t *root, const char **why)
{
	json_t *inv = json_object_get(root, "runs"), *all = json_array(), *one, *kobs;
	json_t *single[1] = { root };
	size_t n = json_is_array(inv) ? json_array_size(inv) : 1, i;
	bool have_kernel = false;

	for (i = 0; i < n; i++) {
		one = json_is_array(inv) ? json_array_get(inv, i) : single[0];
		one = json_object_get(one, "kernel");
		if (!json_is_object(one))
			continue;
		have_kernel = true;
		kobs = json_object_get(one, "kernel_observability");
		if (json_is_array(kobs))
			json_array_extend(all, kobs);
	}
	if (json_array_size(all))
		return all;
	json_decref(all);
	*why = have_kernel ? "its \"kernel\" object has no kernel_observability "
			     "records (no run finished)" :
			     "no \"kernel\" object (a model or microbenchmark "
			     "run's sidecar?)";
	return NULL;
}

static int kernel_main(const char *sidecar, const char *model, bool csv)
{
	json_error_t e;
	json_t *root = json_load_file(sidecar, 0, &e), *runs;
	struct csv_table *mt = NULL;
	const char *err, *why = "";
	size_t line, idx;
	json_t *run;

	if (!root)
		die(EXIT_USAGE, "lockstat: %s: line %d: %s", sidecar, e.line, e.text);
	runs = json_is_object(root) ? kernel_records(root, &why) : NULL;
	if (!runs)
		die(EXIT_USAGE, "lockstat: %s has no kernel lock records: %s (want "
		    "the JSON sidecar of a --backend kernel run)", sidecar,
		    json_is_object(root) ? why : "not a JSON object");
	if (model) {
		check_input_file("lockstat", model, "a results CSV of a model run");
		mt = csv_read_file(model, &err, &line);
		if (!mt)
			die(EXIT_USAGE, "lockstat: %s: line %zu: %s", model, line, err);
	}
	if (csv)
		printf("workers,rep,class,source,name,contended,contended_pct,"
		       "wait_total_ns,wait_max_ns,wait_avg_ns,acquisitions\n");
	json_array_foreach(runs, idx, run) {
		long workers = (long)jnum(run, "workers"), rep = (long)jnum(run, "rep");
		json_t *ls = json_object_get(run, "lock_stat_delta"), *o;
		const char *perf = json_string_value(json_object_get(run, "perf_lock_contention"));
		struct krow *rows = NULL, r;
		struct klock_row *pr;
		size_t n = 0, k;
		int np;

		np = perf ? klock_parse_perf(perf, &pr) : -1;
		/* a perf note ("not captured: ...") is said once, not tabled */
		if (!csv)
			printf("%s# run: workers=%ld rep=%ld%s%s\n", idx ? "\n" : "", workers, rep,
			       perf && np < 0 ? "; perf " : "", perf && np < 0 ? perf : "");
		for (int i = 0; i < np; i++) {
			const char *mc = klock_model_class(pr[i].name);
			r = (struct krow){ .cls = mc ? mc : "-", .source = "perf",
					   .contended = pr[i].contended, .pct = NAN,
					   .total = pr[i].wait_total_ns, .max = pr[i].wait_max_ns,
					   .avg = pr[i].wait_avg_ns, .acq = NAN };
			snprintf(r.name, sizeof(r.name), "%s", pr[i].name);
			krow_push(&rows, &n, &r);
		}
		if (np >= 0)
			free(pr);
		json_array_foreach(ls, k, o) {
			const char *name = json_string_value(json_object_get(o, "class"));
			const char *mc = name ? klock_model_class(name) : NULL;
			double c = jnum(o, "contentions"), a = jnum(o, "acquisitions");
			r = (struct krow){ .cls = mc ? mc : "-", .source = "lock_stat",
					   .contended = c, .pct = a > 0 ? 100 * c / a : NAN,
					   .total = jnum(o, "waittime_total_us") * 1e3, .max = NAN,
					   .avg = c > 0 ? jnum(o, "waittime_total_us") * 1e3 / c : NAN,
					   .acq = a };
			snprintf(r.name, sizeof(r.name), "%s", name ? name : "?");
			krow_push(&rows, &n, &r);
		}
		for (int c = 0; mt && c < LC_NR; c++)
			if (model_row(mt, lock_class_keys[c], workers, &r))
				krow_push(&rows, &n, &r);
		if (!n && !csv && np == 0)
			printf("(perf lock contention saw no contended kernel lock in "
			       "this run)\n");
		else if (!n && !csv)
			printf("(no kernel lock statistics in this run: --set kperf_lock=on "
			       "for perf, CONFIG_LOCK_STAT for /proc/lock_stat)\n");
		kprint(rows, n, csv, workers, rep);
		free(rows);
	}
	csv_free(mt);
	json_decref(runs);
	json_decref(root);
	return fflush(stdout) ? 1 : 0;
}

/* --sort KEY */
static enum lockstat_sort parse_sort_key(const char *arg)
{
	static const char *const keys[] = {
		[LS_SORT_ACQUIRED] = "acquired", [LS_SORT_CONTENDED] = "contended",
		[LS_SORT_AVG_WAIT] = "avg_wait", [LS_SORT_WAIT_TOTAL] = "wait_total",
		[LS_SORT_WAIT_MAX] = "wait_max",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(arg, keys[i]))
			return (enum lockstat_sort)i;
	die(EXIT_USAGE, "lockstat: bad --sort '%s' (allowed: "
	    "acquired|contended|avg_wait|wait_total|wait_max)", arg);
}

static int lockstat_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "sort", required_argument, NULL, 's' },
		{ "threads", no_argument, NULL, 't' },
		{ "hist", no_argument, NULL, 'H' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "model", required_argument, NULL, 'M' },
		{ 0 },
	};
	enum lockstat_sort key = LS_SORT_ACQUIRED;
	struct lockstat_report rep;
	bool csv = false, per_worker = false, hist = false;
	const char *kernel = NULL, *model = NULL;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "tf:", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			csv = true;
			break;
		case 'f':
			if (strcmp(optarg, "table") && strcmp(optarg, "csv"))
				die(EXIT_USAGE, "lockstat: bad --format '%s' (allowed: "
				    "table|csv)", optarg);
			csv = !strcmp(optarg, "csv");
			break;
		case 't':
			per_worker = true;
			break;
		case 'H':
			hist = true;
			break;
		case 'K':
			kernel = optarg;
			break;
		case 'M':
			model = optarg;
			break;
		case 's':
			key = parse_sort_key(optarg);
			break;
		default:
			cli_bad_getopt(&lockstat_cmd, argv, "tf:");
		}
	}
	if (kernel) {
		if (optind < argc)
			die(EXIT_USAGE, "lockstat: unexpected argument '%s' with --kernel",
			    argv[optind]);
		check_input_file("lockstat", kernel, "the JSON sidecar of a kernel-backend run");
		return kernel_main(kernel, model, csv);
	}
	if (model)
		die(EXIT_USAGE, "lockstat: --model goes with --kernel SIDECAR.json");
	if (optind >= argc)
		die(EXIT_USAGE, "lockstat: missing TRACE_DIR");
	if (optind + 1 < argc)
		die(EXIT_USAGE, "lockstat: unexpected argument '%s'", argv[optind + 1]);
	{
		struct stat st;
		if (stat(argv[optind], &st))
			die_errno(EXIT_USAGE, "lockstat: cannot read trace directory '%s'",
				  argv[optind]);
		if (!S_ISDIR(st.st_mode))
			die(EXIT_USAGE, "lockstat: '%s' is not a directory (want the "
			    "trace directory of 'memscale run --trace')", argv[optind]);
	}
	if (lockstat_read(argv[optind], per_worker, &rep))
		return EXIT_USAGE;
	lockstat_sort(&rep, key);
	lockstat_print(stdout, &rep, per_worker, csv);
	if (hist)
		lockstat_print_hist(stdout, &rep);
	lockstat_free(&rep);
	return 0;
}
