/*
 * bench_trace - throughput cost of the tracing layer at nproc workers,
 * after lttng-ust's tests/benchmark method (same work with and without a
 * session, compare):
 *
 *   notrace   bin/notrace/memscale (TRACE=0 build: no tracepoints at all)
 *   built-in  bin/memscale, no session (tracepoints present, disabled)
 *   session   bin/memscale --trace (memscale:* enabled, per-UID buffers)
 *   aggregates --trace with MEMSCALE_TRACE_EVENTS=lock_agg,run_phase only
 *
 * on page_fault2 (the memcg model) and on `lock` with cs=50.  Runs are
 * interleaved and repeated; each configuration's median ops/s is printed,
 * and its change of means against notrace with the 95 % Welch interval of
 * that change.  Targets: built-in <= 1 %, session <= 5 % below notrace;
 * the verdict is "met" or "MISSED" only when the whole interval is on one
 * side of the target, else "inconclusive"; an interval that excludes zero
 * is a perturbation (above: tracing changed the regime), never "met".  Every run
 * of a model workload compared shares one calibration of its kernel-shaped
 * work (the machine's, kept once: kwork_store.c); a run under another is
 * left out and counted.  The change of the best runs
 * (best-of-N: on a shared machine a run can only be slowed down) is
 * printed beside it.  Prints the figures; does not
 * fail on them (timings on a shared machine are noisy).
 *
 * Then, in process, the per-call figures behind those percentages: a
 * tracked (statistics) vs plain uncontended pthread_mutex lock/unlock, and
 * one memscale tracepoint with no session and inside a session
 * (lttng-ust tests/benchmark's "overhead per event").
 *
 * Environment: BENCH_TRACE_SECONDS (default 1), BENCH_TRACE_REPS (5).
 */
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "core/csv.h"
#include "core/stats.h"
#include "core/util.h"
#include "core/topo.h"
#include "locks/tracked.h"
#include "trace/tp.h"
#include "tracing/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_REPS 15

/* Runs argv, returns ops_per_sec from its CSV on stdout (-1 on failure)
 * and its calib_hash ("" where the workload has none) into hash[24].
 * The CSV goes through core/csv's parser: empty fields count. */
static double run_ops(char *const argv[], char hash[24])
{
	int fd[2], ws;
	pid_t pid;
	FILE *f;
	struct csv_table *t;
	const char *err;
	size_t line;
	double v = -1;
	int col;

	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	t = csv_read(f, &err, &line);
	fclose(f);
	hash[0] = '\0';
	if (t && t->nrows >= 1 && (col = csv_col(t, "ops_per_sec")) >= 0)
		v = strtod(t->rows[0][col], NULL);
	if (t && t->nrows >= 1 && (col = csv_col(t, "calib_hash")) >= 0)
		snprintf(hash, 24, "%s", t->rows[0][col]);
	if (t)
		csv_free(t);
	if (waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws))
		return -1;
	return v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Change of the mean of b over a in % of mean(a), with the 95 % Welch
 * confidence interval of the difference (in the same unit). */
static void change_interval(const double *a, int na, const double *b, int nb,
			    double *chg, double *lo, double *hi)
{
	double ma = stats_amean(a, (size_t)na), mb = stats_amean(b, (size_t)nb);
	double va = stats_stddev(a, (size_t)na), vb = stats_stddev(b, (size_t)nb);
	double sa = va * va / na, sb = vb * vb / nb, se = sqrt(sa + sb);
	double df = (sa + sb) * (sa + sb) /
		    (sa * sa / (na - 1) + sb * sb / (nb - 1) + 1e-300);
	double t = gsl_cdf_tdist_Pinv(0.975, df > 1 ? df : 1);

	*chg = 100.0 * (mb - ma) / ma;
	*lo = 100.0 * (mb - ma - t * se) / ma;
	*hi = 100.0 * (mb - ma + t * se) / ma;
}

/* The verdict of a change interval [lo, hi] (%) against a target cost
 * (a negative %): "met" only where the interval spans zero and stays above
 * the target.  An interval that excludes zero is a perturbation, never
 * "met": wholly above zero, tracing changed what was measured (the
 * contention regime); wholly below, a measurable cost, "MISSED" where it
 * is beyond the target for certain. */
static const char *verdict(double lo, double hi, double target)
{
	if (lo > 0)
		return "PERTURBED (faster with tracing: it changed the regime measured)";
	if (hi < target)
		return "MISSED";
	if (hi < 0)
		return lo >= target ? "PERTURBED (a measurable cost, within the target)"
				    : "PERTURBED (a measurable cost, perhaps beyond the target)";
	return lo >= target ? "met" : "inconclusive (interval spans the target)";
}

static void bench(const char *wl, const char *knob, unsigned workers,
		  const char *secs, int reps)
{
	char tdir[] = "/tmp/memscale-bench-trace-XXXXXX";
	char nw[16], *trace_arg, hash[24], calib[24] = "";
	unsigned mixed = 0;
	double r[4][MAX_REPS];
	int n[4] = { 0 };
	bool have_notrace = access("bin/notrace/memscale", X_OK) == 0;
	const char *names[4] = { "notrace (TRACE=0)", "built-in, no session",
				 "session, all events", "session, aggregates" };

	snprintf(nw, sizeof(nw), "%u", workers);
	if (!mkdtemp(tdir))
		die_errno(1, "mkdtemp");
	for (int rep = 0; rep < reps; rep++) {
		for (int k = 0; k < 4; k++) {
			char *argv[20];
			int a = 0;
			double v;

			if (k == 0 && !have_notrace)
				continue;
			argv[a++] = k == 0 ? "bin/notrace/memscale" : "bin/memscale";
			argv[a++] = "run";
			argv[a++] = (char *)wl;
			argv[a++] = "-t";
			argv[a++] = nw;
			argv[a++] = "-s";
			argv[a++] = (char *)secs;
			argv[a++] = "--sample-ms";
			argv[a++] = "250";
			argv[a++] = "--format";
			argv[a++] = "csv";
			if (knob) {
				argv[a++] = "--set";
				argv[a++] = (char *)knob;
			}
			trace_arg = NULL;
			if (k >= 2) {
				trace_arg = xasprintf("--trace=%s/r%d-%d", tdir, rep, k);
				argv[a++] = trace_arg;
			}
			argv[a] = NULL;
			if (k == 3)
				setenv("MEMSCALE_TRACE_EVENTS",
				       "memscale:lock_agg,memscale:run_phase", 1);
			v = run_ops(argv, hash);
			unsetenv("MEMSCALE_TRACE_EVENTS");
			free(trace_arg);
			/* Only runs under one calibration compare: the first
			 * run's kernel-shaped work (kept once per machine,
			 * kwork_store.c) is every other run's. */
			if (v > 0 && !calib[0])
				snprintf(calib, sizeof(calib), "%s", hash);
			if (v > 0 && strcmp(hash, calib))
				mixed++;
			else if (v > 0)
				r[k][n[k]++] = v;
		}
	}
	printf("%s%s%s, %u workers, %s s x %d interleaved reps (median ops/s; change of "
	       "means with its 95%% Welch interval)%s%s:\n", wl, knob ? " " : "",
	       knob ? knob : "", workers, secs, reps, calib[0] ? ", calibration " : "",
	       calib);
	if (mixed)
		printf("  %u runs left out: another calibration than the first run's\n",
		       mixed);
	{
		int b = n[0] ? 0 : 1;
		double base = n[b] ? stats_amean(r[b], (size_t)n[b]) : 0;

		for (int k = 0; k < 4; k++) {
			double target = k == 1 ? -1.0 : -5.0, lo, hi, chg;
			if (!n[k]) {
				printf("  %-22s %s\n", names[k], k == 0 ?
				       "skipped (make bin/notrace/memscale)" : "failed");
				continue;
			}
			printf("  %-22s %14.0f", names[k], median(r[k], n[k]));
			if (k > b && base > 0 && n[k] > 1 && n[b] > 1) {
				double best = stats_max(r[k], (size_t)n[k]),
				       best_base = stats_max(r[b], (size_t)n[b]);

				change_interval(r[b], n[b], r[k], n[k], &chg, &lo, &hi);
				printf("   %+6.2f %% [%+.2f, %+.2f] vs %s, target >= %.0f %%: %s;"
				       " best-of-%d %+.2f %%",
				       chg, lo, hi, b == 0 ? "notrace" : "built-in", target,
				       verdict(lo, hi, target), n[k],
				       100.0 * (best - best_base) / best_base);
			}
			printf("\n");
		}
	}
	{
		char *cmd = xasprintf("rm -rf '%s'", tdir);
		if (system(cmd))
			warnx_("could not remove %s", tdir);
		free(cmd);
	}
	fflush(stdout);
}

#define NCALLS 2000000

static double ns_per_call_tp(void)
{
	uint64_t t0 = now_ns();

	for (uint32_t i = 0; i < NCALLS; i++)
		MS_TP(lock_release, LC_BENCH, (void *)&t0, i, i);
	return (double)(now_ns() - t0) / NCALLS;
}

static void micro(void)
{
	const struct lock_ops *m = lock_find("pthread_mutex");
	struct arena *a = arena_create(16 << 20);
	struct lock_stat *set = arena_alloc_padded(a, LC_NR * sizeof(*set));
	struct lock_owner_slot *own = arena_alloc(a, LS_OWNER_SLOTS * sizeof(*own),
						  PAD_SIZE);
	void *l = lock_new(m, a, 1);
	double plain, tracked, off, on = -1;
	uint64_t t0;

	lock_stats_init(set, 0, 64, own);
	t0 = now_ns();
	for (int i = 0; i < NCALLS; i++) {
		m->lock(l, NULL);
		m->unlock(l, NULL);
	}
	plain = (double)(now_ns() - t0) / NCALLS;
	t0 = now_ns();
	for (int i = 0; i < NCALLS; i++) {
		tracked_lock(m, l, NULL, &set[LC_BENCH]);
		tracked_unlock(m, l, NULL, &set[LC_BENCH]);
	}
	tracked = (double)(now_ns() - t0) / NCALLS;
	printf("per call, 1 thread, uncontended pthread_mutex lock+unlock:\n");
	printf("  plain %.1f ns, tracked (stats, hold 1/64, handoffs) %.1f ns: "
	       "%+.1f ns\n", plain, tracked, tracked - plain);
	off = ns_per_call_tp();
	if (TRACE_BUILT_IN && system("command -v lttng >/dev/null 2>&1") == 0) {
		char tdir[] = "/tmp/memscale-bench-tp-XXXXXX";
		if (mkdtemp(tdir)) {
			char *d = xasprintf("%s/t", tdir), *cmd;
			struct trace_session *s = trace_session_start(d, NULL, true);
			on = ns_per_call_tp();
			trace_session_stop(s);
			cmd = xasprintf("rm -rf '%s'", tdir);
			if (system(cmd))
				warnx_("could not remove %s", tdir);
			free(cmd);
			free(d);
		}
	}
	printf("one memscale:lock_release tracepoint (%d calls):\n", NCALLS);
	printf("  no session %.2f ns/call", off);
	if (on >= 0)
		printf(", session active %.1f ns/event (%.1f ns more)", on, on - off);
	printf("%s\n", TRACE_BUILT_IN ? "" : " (TRACE=0: compiled out)");
	arena_destroy(a);
}

int main(void)
{
	const char *secs = getenv("BENCH_TRACE_SECONDS");
	const char *e = getenv("BENCH_TRACE_REPS");
	long reps = 5;
	unsigned nproc = topo_get()->pus;

	if (!secs || !*secs)
		secs = "1";
	if (e && !parse_long(e, 1, MAX_REPS, &reps))
		die(EXIT_USAGE, "bad BENCH_TRACE_REPS '%s' (want 1..%d)", e, MAX_REPS);
	if (access("bin/memscale", X_OK))
		die(1, "bench_trace: run from the repository root after 'make'");
	bench("page_fault2", NULL, nproc, secs, (int)reps);
	bench("lock", "cs=50", nproc, secs, (int)reps);
	micro();
	return 0;
}
