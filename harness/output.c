/*
 * output.c - the harness's results as the reader gets them (output.h):
 * the aligned table, will-it-scale's main.c lines (--format wis), CSV rows
 * on stdout (--format csv) or appended to `run -o FILE` whole or not at
 * all, with FILE.json, the sidecar describing every run whose rows FILE
 * holds; and harness_write_csv() for sweeps, which run points themselves.
 * It only writes what harness.c measured; it never runs anything.
 */
#include "harness/output.h"
#include "core/procstat.h"
#include "core/csv.h"
#include "core/meta.h"
#include "core/outlock.h"
#include "counters/counter.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


void flush_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		die_errno(1, "cannot write standard output");
}

/*
 * --format wis: the lines of will-it-scale's main.c, one block per run, so
 * that its runtest.py (which runs one binary per task count and reads
 * "testcase:" and "average:" lines, splitting each on ':' into exactly
 * two fields) and mmtests' wis-bench parse our output unchanged:
 *
 *   testcase:<description>      (no ':' in the description)
 *   warmup
 *   min:N max:N total:N         one per sample (warm-up included)
 *   measurement                 after the last warm-up sample
 *   min:N max:N total:N         the measured samples
 *   average:N                   mean of the measured "total" values
 *
 * Sample values are per second (will-it-scale's samples are 1 s deltas;
 * ours are scaled by the measured interval, so --sample-ms changes
 * nothing but the resolution).  average is will-it-scale's
 * total / opt_iterations: the integer mean of the printed totals.
 */
void wis_begin(const struct harness_opts *o)
{
	printf("testcase:");
	for (const char *c = o->wl->description; *c; c++)
		putchar(*c == ':' ? ';' : *c == '\n' ? ' ' : *c);
	printf("\nwarmup\n");
	if (!o->warmup)
		printf("measurement\n");
	flush_stdout();
}

static unsigned long long wis_round(double v)
{
	return v > 0 ? (unsigned long long)llround(v) : 0;
}

void wis_sample(const struct harness_opts *o, unsigned s, double mn,
		double mx, double total)
{
	printf("min:%llu max:%llu total:%llu\n", wis_round(mn), wis_round(mx),
	       wis_round(total));
	if (s + 1 == o->warmup)
		printf("measurement\n");
	flush_stdout();
}

unsigned long long wis_average(const struct result *res)
{
	unsigned long long sum = 0;

	for (unsigned i = 0; i < res->nsamples; i++)
		sum += wis_round(res->sample_rate[i]);
	return res->nsamples ? sum / res->nsamples : 0;
}

struct cpu_times cpu_times_now(void)
{
	struct cpu_times t = { 0 };
	struct proc_cpu c;
	const unsigned long long *v = c.v;

	if (proc_stat_cpu(&c) && c.n >= 7) {
		t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7] + v[8] + v[9];
		t.idle = v[3] + v[4];
		t.ok = true;
	}
	return t;
}

double idle_pct(struct cpu_times a, struct cpu_times b)
{
	unsigned long long busy = b.busy - a.busy, idle = b.idle - a.idle;

	if (!a.ok || !b.ok || busy + idle == 0)
		return 0;
	return 100.0 * (double)idle / (double)(busy + idle);
}

static const char *counter_name(const struct harness_opts *o)
{
	return (o->wl->flags & WL_F_USES_COUNTER) && o->counter ? o->counter->name : "";
}

static const char *lock_name(const struct harness_opts *o)
{
	return (o->wl->flags & WL_F_USES_LOCK) && o->lock ? o->lock->name : "";
}

static const char *const fixed_cols[] = {
	"workload", "lock", "counter", "mode", "affinity", "workers", "rep",
	"seconds", "warmup", "sample_ms", "oversubscribed",
};
static const char *const result_cols[] = {
	"ops_per_sec", "per_worker_ops", "fairness_cv", "sample_min",
	"sample_max", "ops_total", "measured_s",
};
static const char *const prov_cols[] = { "host", "commit", "time" };

static char *header_line(struct sink *s, const struct result *res)
{
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < ARRAY_SIZE(fixed_cols); i++)
		csv_field(f, fixed_cols[i], 0);
	for (size_t i = 0; i < s->nknobs; i++)
		csv_field(f, s->knobs[i]->name, 0);
	for (size_t i = 0; i < ARRAY_SIZE(result_cols); i++)
		csv_field(f, result_cols[i], 0);
	for (unsigned i = 0; i < res->nmetrics; i++)
		csv_field(f, res->metrics[i].name, 0);
	for (size_t i = 0; i < ARRAY_SIZE(prov_cols); i++)
		csv_field(f, prov_cols[i], i + 1 == ARRAY_SIZE(prov_cols));
	fclose(f);
	return buf;
}

/* One run's sidecar object (machine, build, command, settings), as text. */
static char *sidecar_text(const struct harness_opts *o, const char *csv_path)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json j;

	json_begin(&j, f);
	json_str(&j, "tool", "memscale");
	json_str(&j, "time", meta_now_iso());
	json_str(&j, "command", o->cmdline ? o->cmdline : "");
	json_str(&j, "results", csv_path);
	meta_json(&j);
	json_obj_open(&j, "run");
	json_str(&j, "workload", o->wl->name);
	json_str(&j, "lock", lock_name(o));
	json_str(&j, "counter", counter_name(o));
	json_str(&j, "mode", o->mode == MODE_THREADS ? "threads" : "processes");
	json_str(&j, "affinity", affinity_name(o->aff));
	json_str(&j, "sched", o->sched_fifo ? "fifo" : "other");
	json_num(&j, "seconds", o->seconds);
	json_int(&j, "warmup_samples", o->warmup);
	json_int(&j, "sample_ms", o->sample_ms);
	json_int(&j, "reps", o->reps);
	json_arr_open(&j, "workers");
	for (size_t i = 0; i < o->nthreads; i++)
		json_int(&j, NULL, o->threads[i]);
	json_arr_close(&j);
	json_obj_close(&j);
	/* The kernel profile and the knobs set on top of it (--set, the
	 * experiment file); the CSV carries every knob's effective value. */
	{
		const struct knob **all;
		size_t nk = knob_all(&all);
		const struct knob_profile *kp = knobset_profile(o->knobs);

		json_str(&j, "kernel", kp ? kp->name : "none");
		json_obj_open(&j, "knobs_set");
		for (size_t i = 0; i < nk; i++)
			if (knobset_value(o->knobs, all[i]) && strcmp(all[i]->name, "kernel"))
				json_str(&j, all[i]->name, knobset_value(o->knobs, all[i]));
		json_obj_close(&j);
		/* The knobs the profile set (and --set did not override): the
		 * profile's, recorded as such. */
		json_obj_open(&j, "knobs_from_kernel");
		for (size_t i = 0; kp && kp->sets[i].knob; i++) {
			const struct knob *k = knob_find(kp->sets[i].knob);
			if (k && !knobset_value(o->knobs, k))
				json_str(&j, kp->sets[i].knob, kp->sets[i].value);
		}
		json_obj_close(&j);
	}
	if (o->wl->sidecar)
		o->wl->sidecar(&j, o->knobs, o->mode);
	if (json_end(&j) || fclose(f))
		die(1, "out of memory");
	return text;
}

/*
 * `run -o FILE`: FILE.json beside it describes every run whose rows FILE
 * holds (json_sidecar_runs).  It is written only once a row of this run
 * is in FILE (a run refused for other columns leaves it as it was), then
 * after every row, whole or not at all (atomic_write_file: never through
 * a symbolic link).  What it replaces must be a memscale sidecar.
 */
static void sidecar_prepare(struct sink *s, const char *csv_path)
{
	struct stat st;
	char err[256], *text;

	s->side_path = meta_sidecar_path(csv_path);
	if (lstat(s->side_path, &st)) {
		if (errno != ENOENT)
			die_errno(EXIT_USAGE, "run: cannot check sidecar '%s'", s->side_path);
		return;
	}
	if (S_ISLNK(st.st_mode))
		die(EXIT_USAGE, "run: sidecar '%s' is a symbolic link; refusing to "
		    "write through it (remove it or choose another --out)", s->side_path);
	if (!S_ISREG(st.st_mode))
		die(EXIT_USAGE, "run: sidecar '%s' is not a regular file", s->side_path);
	text = read_text_file(s->side_path);
	if (!text)
		die_errno(EXIT_USAGE, "run: cannot read sidecar '%s'", s->side_path);
	{
		/* Only a memscale sidecar may be replaced (not another run's CSV
		 * that happens to end in .json, nor anyone else's file). */
		char *probe = json_sidecar_runs("{}", text, 0, 0, err, sizeof(err));
		if (!probe || !strstr(text, "\"tool\": \"memscale\""))
			die(EXIT_USAGE, "run: '%s' exists and is not a memscale sidecar; "
			    "refusing to overwrite it (choose another --out)", s->side_path);
		free(probe);
	}
	s->side_prev = text;
}

/* 0, or -1 with errno set when the sidecar could not be written. */
static int sidecar_update(struct sink *s, const struct harness_opts *o)
{
	char err[256], *doc, *text;
	int rc;

	meta_env_end(); /* the environment up to this row */
	doc = sidecar_text(o, o->out);
	text = json_sidecar_runs(doc, s->side_prev, (long long)s->first_row,
				 (long long)s->rows, err, sizeof(err));
	if (!text)
		die(1, "run: sidecar '%s': %s", s->side_path, err);
	rc = atomic_write_file(s->side_path, text, strlen(text));
	free(text);
	free(doc);
	return rc;
}

/* The header and one row to f; the header only when s->header_done is
 * false (a new file or stdout). */
static void emit_csv(struct sink *s, const struct harness_opts *o,
		     const struct result *res, FILE *f)
{
	if (!s->header_done) {
		char *want = header_line(s, res);
		fputs(want, f);
		free(want);
		s->header_done = true;
	}
	csv_field(f, o->wl->name, 0);
	csv_field(f, lock_name(o), 0);
	csv_field(f, counter_name(o), 0);
	csv_field(f, o->mode == MODE_THREADS ? "threads" : "processes", 0);
	csv_field(f, affinity_name(o->aff), 0);
	csv_fieldf(f, 0, "%u", res->workers);
	csv_fieldf(f, 0, "%u", res->rep);
	csv_fieldf(f, 0, "%g", o->seconds);
	csv_fieldf(f, 0, "%u", o->warmup);
	csv_fieldf(f, 0, "%u", o->sample_ms);
	csv_fieldf(f, 0, "%d", res->oversubscribed);
	for (size_t i = 0; i < s->nknobs; i++)
		csv_field(f, knob_str(o->knobs, s->knobs[i]), 0);
	csv_num(f, res->ops_per_sec, 0);
	csv_num(f, res->per_worker_ops, 0);
	csv_num(f, res->fairness_cv, 0);
	csv_num(f, res->sample_min, 0);
	csv_num(f, res->sample_max, 0);
	csv_fieldf(f, 0, "%llu", (unsigned long long)res->ops_total);
	csv_fieldf(f, 0, "%.6f", res->measured_s);
	for (unsigned i = 0; i < res->nmetrics; i++)
		csv_num(f, res->metrics[i].value, 0);
	csv_field(f, meta_hostname(), 0);
	csv_field(f, meta_git_commit(), 0);
	csv_field(f, meta_now_iso(), 1);
}

/* The first line of the file open at fd (NULL if none), and its number of
 * data rows (lines after the header). */
static char *csv_file_header(int fd, size_t *rows)
{
	FILE *f;
	char *line = NULL, *first = NULL;
	size_t cap = 0, n = 0;
	int dfd = dup(fd);

	*rows = 0;
	if (dfd < 0 || !(f = fdopen(dfd, "r"))) {
		if (dfd >= 0)
			close(dfd);
		return NULL;
	}
	rewind(f);
	while (getline(&line, &cap, f) >= 0) {
		if (n++ == 0) {
			first = line;
			line = NULL;
			cap = 0;
		}
	}
	fclose(f);
	free(line);
	*rows = n ? n - 1 : 0;
	return first;
}

/*
 * One row into `run -o FILE`, whole or not at all: header (for a new
 * file) and row are built in memory and written with one O_APPEND write,
 * then fsynced; a short or failed write or fsync cuts the file back to
 * where it was (no half row for later appends to land on) and ends the
 * run with status 1.  The sidecar follows the row.
 */
static void emit_csv_file(struct sink *s, const struct harness_opts *o,
			  const struct result *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct stat st;

	if (!s->header_done && s->size > 0) {
		/* Appending: the existing header must match. */
		char *want = header_line(s, res), *have;
		size_t rows;

		have = csv_file_header(s->fd, &rows);
		if (!have || strcmp(have, want))
			die(EXIT_USAGE, "'%s' already holds results with other "
			    "columns; use another --out file", o->out);
		free(have);
		free(want);
		s->header_done = true;
	}
	emit_csv(s, o, res, m);
	if (fclose(m))
		die(1, "out of memory");
	if (fstat(s->fd, &st))
		die_errno(1, "cannot write '%s'", o->out);
	s->rows++;
	if (write_all(s->fd, buf, len) || fsync(s->fd) || sidecar_update(s, o)) {
		int e = errno;
		/* Cutting back needs no space: the file is as before the row. */
		if (ftruncate(s->fd, st.st_size) == 0)
			fsync(s->fd);
		if (s->created && st.st_size == 0)
			unlink(o->out);
		errno = e;
		die_errno(1, "cannot write '%s' or its sidecar (this row was not "
			  "kept, the %zu before it were)", o->out, s->rows - 1);
	}
	free(buf);
	s->size = (off_t)st.st_size + (off_t)len;
}

/* Table column of a metric: as wide as its whole name (never cut: three
 * columns must not all read "lruvec_lru_loc"), at least 9. */
static int metric_width(const struct result *res, unsigned i)
{
	int w = (int)strlen(res->metrics[i].name);
	return w > 9 ? w : 9;
}

/*
 * The default table fits in TABLE_WIDTH columns: the fixed columns, then
 * the metrics a reader looks at first while they fit (lock classes'
 * contention, their average wait, descheduling, steal), in that order,
 * after the workload's own (struct workload .table_metrics);
 * every column is in --format csv and -o FILE.  A lock class the
 * configuration does not have (NaN in the first row) is skipped.  The
 * header's choice is kept for the rows of the table (one table at a time).
 */
#define TABLE_WIDTH 100
#define TABLE_FIXED 46  /* "%7s %4s %12s %12s %7s" */
#define TABLE_MARK 11   /* "  [oversub]" */

static bool metric_rank_matches(const char *name, int rank)
{
	size_t n = strlen(name);
	static const char *const suffix[] = { "_contended_pct", "_wait_avg_ns" };

	if (rank < 2)
		return n > strlen(suffix[rank]) &&
		       !strcmp(name + n - strlen(suffix[rank]), suffix[rank]);
	return !strcmp(name, rank == 2 ? "desched_flag" : "steal_pct");
}

static void table_metrics(const struct workload *wl, const struct result *res,
			  bool *shown, unsigned *nhidden)
{
	int width = TABLE_FIXED + TABLE_MARK;

	for (unsigned i = 0; i < res->nmetrics; i++)
		shown[i] = false;
	/* the workload's own first (its .table_metrics), then the ranks */
	for (const char *const *m = wl->table_metrics; m && *m; m++)
		for (unsigned i = 0; i < res->nmetrics; i++)
			if (!shown[i] && !strcmp(res->metrics[i].name, *m) &&
			    width + 1 + metric_width(res, i) <= TABLE_WIDTH) {
				shown[i] = true;
				width += 1 + metric_width(res, i);
			}
	for (int rank = 0; rank < 4; rank++)
		for (unsigned i = 0; i < res->nmetrics; i++)
			if (!shown[i] && metric_rank_matches(res->metrics[i].name, rank) &&
			    !isnan(res->metrics[i].value) &&
			    width + 1 + metric_width(res, i) <= TABLE_WIDTH) {
				shown[i] = true;
				width += 1 + metric_width(res, i);
			}
	*nhidden = 0;
	for (unsigned i = 0; i < res->nmetrics; i++)
		*nhidden += !shown[i];
}

static struct {
	bool *shown;
	unsigned n;
} table_cols;

static void print_table_header(const struct harness_opts *o, const struct result *res)
{
	unsigned hidden;

	free(table_cols.shown);
	table_cols.shown = xcalloc(res->nmetrics + 1, sizeof(bool));
	table_cols.n = res->nmetrics;
	table_metrics(o->wl, res, table_cols.shown, &hidden);
	printf("# %s", o->wl->name);
	if (*lock_name(o))
		printf("  lock=%s", lock_name(o));
	if (*counter_name(o))
		printf("  counter=%s", counter_name(o));
	printf("  mode=%s  affinity=%s  %gs x %u reps\n",
	       o->mode == MODE_THREADS ? "threads" : "processes",
	       affinity_name(o->aff), o->seconds, o->reps);
	if (hidden)
		printf("# sample min/max and %u more columns: --format csv or -o FILE.csv\n",
		       hidden);
	printf("%7s %4s %12s %12s %7s", "workers", "rep", "ops/s", "per-worker", "cv");
	for (unsigned i = 0; i < res->nmetrics; i++)
		if (table_cols.shown[i])
			printf(" %*s", metric_width(res, i), res->metrics[i].name);
	printf("\n");
}

static void print_table_row(const struct result *res)
{
	printf("%7u %4u %12.0f %12.0f %7.4f", res->workers, res->rep, res->ops_per_sec,
	       res->per_worker_ops, res->fairness_cv);
	for (unsigned i = 0; i < res->nmetrics; i++) {
		if (i >= table_cols.n || !table_cols.shown[i])
			continue;
		if (isnan(res->metrics[i].value))
			printf(" %*s", metric_width(res, i), "-");
		else
			printf(" %*.6g", metric_width(res, i), res->metrics[i].value);
	}
	printf("%s\n", res->oversubscribed ? "  [oversub]" : "");
	flush_stdout();
}

/* For callers that run points themselves (sweeps): the header and one row,
 * exactly as harness_main writes them. */
void harness_write_csv(FILE *f, const struct harness_opts *o,
		       const struct result *res)
{
	struct sink s = { .csv = f, .fd = -1 };

	s.nknobs = knobset_used(o->knobs, &s.knobs);
	emit_csv(&s, o, res, f);
	free(s.knobs);
}

void sink_open(struct sink *s, const struct harness_opts *o)
{
	if (o->out) {
		struct stat st;
		size_t n = strlen(o->out);
		const char *why;

		check_output_file("run", o->out);
		/* FILE.json is the sidecar of FILE: a CSV of that name would be
		 * another run's sidecar (and its sidecar FILE.json.json). */
		if (n >= 5 && !strcmp(o->out + n - 5, ".json"))
			die(EXIT_USAGE, "run: output '%s' ends in .json, the suffix of "
			    "result sidecars; name the results FILE.csv", o->out);
		sidecar_prepare(s, o->out); /* refused before anything is made */
		s->fd = file_append_open(o->out, O_RDWR | O_CREAT, &s->created, &why);
		if (s->fd < 0)
			die(EXIT_USAGE, "run: output '%s' %s", o->out, why);
		/* One writer per CSV: a second run, or a merge, into it is
		 * refused (the lock file beside it, as merge takes it). */
		out_lock_file(o->out, "run");
		if (fstat(s->fd, &st))
			die_errno(EXIT_USAGE, "cannot open '%s' for writing", o->out);
		s->size = st.st_size;
		if (s->size > 0) {
			char *h = csv_file_header(s->fd, &s->first_row);
			free(h);
		}
	}
	if (o->format == FMT_CSV && s->fd < 0)
		s->csv = stdout; /* --format csv without --out */
}

void sink_emit(struct sink *s, const struct harness_opts *o, size_t t,
	       unsigned rep, const struct result *res)
{
	if (!s->knobs)
		s->nknobs = knobset_used(o->knobs, &s->knobs);
	if (o->format == FMT_TABLE) {
		if (t == 0 && rep == 0)
			print_table_header(o, res);
		print_table_row(res);
	}
	if (o->format == FMT_WIS) {
		printf("average:%llu\n", wis_average(res));
		flush_stdout();
	}
	if (s->fd >= 0)
		emit_csv_file(s, o, res);
	else if (s->csv) {
		emit_csv(s, o, res, s->csv);
		if (fflush(s->csv))
			die_errno(1, "cannot write standard output");
	}
}

void sink_close(struct sink *s, const struct harness_opts *o)
{
	if (s->fd >= 0 && close(s->fd))
		die_errno(1, "cannot write '%s'", o->out);
	free(s->side_path);
	free(s->side_prev);
	free(s->knobs);
}
