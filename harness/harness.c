/*
 * harness.c - the measurement harness (see harness.h).
 *
 * Discipline, in order: fresh shared arena per run; workers pin themselves
 * (hwloc placement) and initialise their own state, then wait at a
 * process-shared barrier together with the sampler; the sampler timestamps
 * every sample with CLOCK_MONOTONIC (no assumed 1 s), discards the warm-up
 * samples, then raises the stop flag; the workload checks invariants after
 * every worker has returned.
 */
#include "harness/harness.h"
#include "core/procstat.h"
#include "core/csv.h"
#include "core/meta.h"
#include "core/outlock.h"
#include "counters/counter.h"
#include "harness/runstat.h"
#include "trace/lock_stat.h"
#include "tracing/session.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

volatile int harness_interrupted;

/*
 * SIGINT/SIGTERM: the first one asks the run to stop (the sampler sees the
 * flag, raises the stop word, finished results are kept) and arms a 1 s
 * watchdog; a run that has not ended by then (a worker stuck in an
 * operation, a slow teardown) or a second signal ends the process at once.
 * Every finished result is already on disk (emit_csv fsyncs each row), and
 * what a killed run leaves behind (cgroups, tmpfs mounts, LTTng sessions)
 * is swept by the next run.
 */
static void on_watchdog(int sig)
{
	static const char msg[] = "memscale: interrupted; the run did not stop "
				  "within 1 s, exiting now\n";
	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to do in a handler */
	}
	_exit(130);
}

static void on_signal(int sig)
{
	(void)sig;
	if (harness_interrupted)
		on_watchdog(sig);
	harness_interrupted = 1;
	alarm(1);
}

void harness_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction wd = { .sa_handler = on_watchdog };
	sigemptyset(&sa.sa_mask);
	sigemptyset(&wd.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGALRM, &wd, NULL);
}

DEFINE_REGISTRY_LOOKUP(workload, struct workload, workload_all, workload_find)

void harness_defaults(struct harness_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->reps = 1;
	o->seconds = 3;
	o->warmup = 1;
	o->sample_ms = 1000;
	o->mode = MODE_THREADS;
	o->aff = AFF_CORES;
	o->format = FMT_TABLE;
	o->arena_size = (size_t)8 << 30; /* address space only (NORESERVE) */
}

bool harness_oversubscribed(const struct harness_opts *o, unsigned nworkers)
{
	return nworkers > topo_get()->pus;
}

bool harness_spins(const struct harness_opts *o)
{
	if (!(o->wl->flags & WL_F_USES_LOCK) || !o->lock ||
	    !(o->lock->flags & LOCK_F_SPINS))
		return false;
	if (o->wl->flags & WL_F_LOCK_VIA_COUNTER)
		return o->counter && (o->counter->flags & COUNTER_F_USES_LOCK);
	return true;
}

bool harness_refuses(const struct harness_opts *o, unsigned nworkers)
{
	return harness_spins(o) && harness_oversubscribed(o, nworkers) &&
	       !o->oversubscribe;
}

/* Shared control block: its own lines, in the arena. */
struct control {
	int stop;
	char pad_[PAD_SIZE - sizeof(int)];
	pthread_barrier_t gate;
} cacheline_aligned;

/* What a worker records about its own scheduling, in the arena (a forked
 * worker writes it, the parent reads it after waitpid). */
struct worker_sched {
	long nivcsw, nvcsw;  /* context switches from the gate to the end */
	int sched_err;       /* errno of sched_setscheduler, 0 */
	char pad_[PAD_SIZE - 2 * sizeof(long) - sizeof(int)];
} cacheline_aligned;

struct worker_arg {
	struct worker *w;
	const struct workload *wl;
	pthread_barrier_t *gate;
	struct worker_sched *ws;
	bool fifo;
	int pin_err;
};

static void worker_body(struct worker_arg *a)
{
	struct rusage r0, r1;

	/* Pin before touching any state so first-touch places it locally. */
	a->pin_err = topo_pin_self(a->w->pu);
	if (a->fifo) {
		/* A kernel spinlock holder cannot be preempted (IRQs or
		 * preemption off); SCHED_FIFO keeps other tasks from taking
		 * a worker's CPU while it holds a modelled spinlock. */
		struct sched_param sp = { .sched_priority = 1 };
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			a->ws->sched_err = errno;
	}
	if (a->wl->worker_init)
		a->wl->worker_init(a->w);
	pthread_barrier_wait(a->gate);
	getrusage(RUSAGE_THREAD, &r0);
	a->wl->run(a->w);
	getrusage(RUSAGE_THREAD, &r1);
	a->ws->nivcsw = r1.ru_nivcsw - r0.ru_nivcsw;
	a->ws->nvcsw = r1.ru_nvcsw - r0.ru_nvcsw;
}

static void *worker_thread(void *p)
{
	worker_body(p);
	return NULL;
}

int harness_sched_fifo_check(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	int old = sched_getscheduler(0), e = 0;
	struct sched_param oldp;

	sched_getparam(0, &oldp);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		e = errno;
	else
		sched_setscheduler(0, old, &oldp);
	return e;
}

void result_metric(struct result *res, const char *name, double value)
{
	for (unsigned i = 0; i < res->nmetrics; i++)
		if (!strcmp(res->metrics[i].name, name)) {
			res->metrics[i].value = value;
			return;
		}
	if (res->nmetrics == RESULT_MAX_METRICS)
		die(1, "internal error: too many result metrics");
	snprintf(res->metrics[res->nmetrics].name, sizeof(res->metrics[0].name),
		 "%s", name);
	res->metrics[res->nmetrics++].value = value;
}

double result_get(const struct result *res, const char *metric, double dflt)
{
	for (unsigned i = 0; i < res->nmetrics; i++)
		if (!strcmp(res->metrics[i].name, metric))
			return res->metrics[i].value;
	return dflt;
}

void result_free(struct result *res)
{
	free(res->sample_rate);
	free(res->worker_rate);
	res->sample_rate = res->worker_rate = NULL;
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000ull),
			       .tv_nsec = (long)(t_ns % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (harness_interrupted)
			return;
}

static void snapshot(const struct run *r, uint64_t *out)
{
	for (unsigned i = 0; i < r->nworkers; i++)
		out[i] = __atomic_load_n(&r->workers[i].ops, __ATOMIC_RELAXED);
}

static void summarise(struct result *res, uint64_t *first, uint64_t *last,
		      unsigned n)
{
	double sum = 0, sq = 0, mean;

	res->ops_total = 0;
	res->worker_rate = xcalloc(n, sizeof(double));
	for (unsigned i = 0; i < n; i++) {
		uint64_t d = last[i] - first[i];
		res->ops_total += d;
		res->worker_rate[i] = (double)d / res->measured_s;
		sum += res->worker_rate[i];
	}
	res->ops_per_sec = (double)res->ops_total / res->measured_s;
	mean = sum / n;
	res->per_worker_ops = mean;
	for (unsigned i = 0; i < n; i++)
		sq += (res->worker_rate[i] - mean) * (res->worker_rate[i] - mean);
	res->fairness_cv = (n > 1 && mean > 0) ? sqrt(sq / (n - 1)) / mean : 0;
	res->sample_min = INFINITY;
	res->sample_max = 0;
	for (unsigned s = 0; s < res->nsamples; s++) {
		res->sample_min = fmin(res->sample_min, res->sample_rate[s]);
		res->sample_max = fmax(res->sample_max, res->sample_rate[s]);
	}
	if (!res->nsamples)
		res->sample_min = 0;
}

static void wis_begin(const struct harness_opts *o);
static void wis_sample(const struct harness_opts *o, unsigned s, double mn,
		       double mx, double total);

/* Machine-wide steal and total CPU time from /proc/stat's "cpu" line,
 * in USER_HZ ticks; false where unreadable. */
static bool read_steal(uint64_t *steal, uint64_t *total)
{
	struct proc_cpu c;

	if (!proc_stat_cpu(&c) || c.n < 8)
		return false;
	*steal = c.v[PROC_CPU_STEAL];
	*total = proc_cpu_total(&c);
	return true;
}

/* Everything one harness run holds between spawning and reaping. */
struct run_ctx {
	const struct harness_opts *o;
	struct run r;
	struct control *ctl;
	struct worker_sched *ws;
	struct worker_arg *args;
	pthread_t *tids;
	pid_t *pids;
	uint64_t *first, *prev; /* op counts: window start, last sample */
	uint64_t steal0, total0;
	bool have_steal;
};

/* Arena, control block, workload set-up, then the workers (threads or
 * forked processes), all waiting at the gate.  0 or the set-up status. */
static int run_spawn(struct run_ctx *c, unsigned nworkers, unsigned rep)
{
	const struct harness_opts *o = c->o;
	const struct workload *wl = o->wl;
	struct run *r = &c->r;
	pthread_barrierattr_t battr;
	int status;

	*r = (struct run){
		.wl = wl, .knobs = o->knobs, .lock = o->lock,
		.counter = o->counter, .nworkers = nworkers, .mode = o->mode,
		.rep = rep, .seconds = o->seconds,
	};
	r->arena = arena_create(o->arena_size);
	c->ctl = arena_alloc(r->arena, sizeof(*c->ctl), PAD_SIZE);
	c->ws = arena_alloc(r->arena, nworkers * sizeof(*c->ws), PAD_SIZE);
	r->workers = arena_alloc(r->arena, nworkers * sizeof(struct worker), PAD_SIZE);
	pthread_barrierattr_init(&battr);
	pthread_barrierattr_setpshared(&battr, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&c->ctl->gate, &battr, nworkers + 1);
	pthread_barrierattr_destroy(&battr);
	for (unsigned i = 0; i < nworkers; i++) {
		struct worker *w = &r->workers[i];
		w->id = i;
		w->pu = topo_pu_for(o->aff, i);
		w->run = r;
		w->stop = &c->ctl->stop;
	}
	runstat_setup(r);
	status = wl->setup(r);
	if (status) {
		pthread_barrier_destroy(&c->ctl->gate);
		arena_destroy(r->arena);
		return status;
	}

	c->args = xcalloc(nworkers, sizeof(*c->args));
	for (unsigned i = 0; i < nworkers; i++)
		c->args[i] = (struct worker_arg){ &r->workers[i], wl, &c->ctl->gate,
						  &c->ws[i], o->sched_fifo, 0 };
	if (o->mode == MODE_THREADS) {
		c->tids = xcalloc(nworkers, sizeof(*c->tids));
		for (unsigned i = 0; i < nworkers; i++)
			if ((errno = pthread_create(&c->tids[i], NULL, worker_thread,
						    &c->args[i])))
				die_errno(1, "cannot create worker thread %u", i);
	} else {
		pid_t parent = getpid();
		fflush(NULL);
		c->pids = xcalloc(nworkers, sizeof(*c->pids));
		for (unsigned i = 0; i < nworkers; i++) {
			c->pids[i] = fork();
			if (c->pids[i] < 0)
				die_errno(1, "cannot fork worker %u", i);
			if (c->pids[i] == 0) {
				/* Die with the parent rather than spin forever. */
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				if (getppid() != parent)
					_exit(1);
				signal(SIGINT, SIG_IGN);
				worker_body(&c->args[i]);
				_exit(0);
			}
		}
		trace_track_workers(c->pids, nworkers);
	}
	return 0;
}

/* Opens the gate and samples: timestamps every interval, discards the
 * warm-up samples, then raises the stop flag. */
static void run_sample(struct run_ctx *c, struct result *res)
{
	const struct harness_opts *o = c->o;
	struct run *r = &c->r;
	unsigned nworkers = r->nworkers;
	unsigned nmeasured = (unsigned)ceil(o->seconds * 1000.0 / o->sample_ms);
	unsigned total = o->warmup + nmeasured;
	uint64_t interval = (uint64_t)o->sample_ms * 1000000ull;
	uint64_t *cur = xcalloc(nworkers, sizeof(*cur)), t0, tprev;

	c->prev = xcalloc(nworkers, sizeof(*c->prev));
	c->first = xcalloc(nworkers, sizeof(*c->first));
	res->sample_rate = xcalloc(nmeasured + 1, sizeof(double));
	pthread_barrier_wait(&c->ctl->gate);
	c->have_steal = read_steal(&c->steal0, &c->total0);
	t0 = tprev = now_ns();
	snapshot(r, c->prev);
	memcpy(c->first, c->prev, nworkers * sizeof(*c->first)); /* warmup == 0 */
	runstat_phase(r, o->warmup ? PHASE_WARMUP : PHASE_MEASUREMENT);
	if (o->format == FMT_WIS)
		wis_begin(o);
	for (unsigned s = 0; s < total && !harness_interrupted; s++) {
		uint64_t t, deadline, mn = UINT64_MAX, mx = 0, sum = 0;
		double dt;

		/* A sampler woken late must not take back-to-back samples
		 * (near-empty windows): every sample spans >= one interval. */
		deadline = t0 + (s + 1) * interval;
		if (deadline < tprev + interval)
			deadline = tprev + interval;
		sleep_until(deadline);
		t = now_ns();
		snapshot(r, cur);
		runstat_sample(r, s);
		if (s + 1 == o->warmup)
			runstat_phase(r, PHASE_MEASUREMENT);
		dt = (double)(t - tprev) / 1e9;
		for (unsigned i = 0; i < nworkers; i++) {
			uint64_t d = cur[i] - c->prev[i];
			mn = d < mn ? d : mn;
			mx = d > mx ? d : mx;
			sum += d;
		}
		if (o->format == FMT_WIS)
			wis_sample(o, s, (double)mn / dt, (double)mx / dt, (double)sum / dt);
		/* The measured window starts where the warm-up ends. */
		if (s + 1 == o->warmup)
			memcpy(c->first, cur, nworkers * sizeof(*c->first));
		if (s >= o->warmup) {
			res->sample_rate[res->nsamples++] = (double)sum / dt;
			res->measured_s += dt;
		}
		memcpy(c->prev, cur, nworkers * sizeof(*c->prev));
		tprev = t;
	}
	/* Release: pairs with the relaxed loads in worker_should_stop(); the
	 * workers' results are published to us by join/waitpid below. */
	__atomic_store_n(&c->ctl->stop, 1, __ATOMIC_RELEASE);
	free(cur);
}

/* Bucket of a log2 lock-stat histogram from which a wait or hold is at
 * least 2^20 ns (1.05 ms): no modelled critical section comes near it, so
 * the holder (or a spinning waiter) was off its CPU - descheduled, which
 * a kernel spinlock holder (IRQs or preemption off) never is. */
#define DESCHED_BUCKET 21

/* Preemption facts of the run: involuntary context switches per worker,
 * the machine's steal time, and lock waits and holds long enough to have
 * spanned a descheduling.  The hold count is a lower bound: contended
 * holds are always timed, uncontended ones one in lockstat_hold_every. */
static void run_sched_metrics(struct run_ctx *c, struct result *res)
{
	struct run *r = &c->r;
	uint64_t steal1, total1, waits = 0, holds = 0;
	long ivtot = 0, ivmax = 0;

	for (unsigned i = 0; i < r->nworkers; i++) {
		ivtot += c->ws[i].nivcsw;
		if (c->ws[i].nivcsw > ivmax)
			ivmax = c->ws[i].nivcsw;
		if (r->workers[i].lock_stats)
			for (unsigned k = 0; k < LC_NR; k++)
				for (unsigned b = DESCHED_BUCKET; b < LS_HIST; b++) {
					waits += r->workers[i].lock_stats[k].wait_hist[b];
					holds += r->workers[i].lock_stats[k].hold_hist[b];
				}
	}
	result_metric(res, "ivcsw_total", (double)ivtot);
	result_metric(res, "ivcsw_max_worker", (double)ivmax);
	if (c->have_steal && read_steal(&steal1, &total1) && total1 > c->total0)
		result_metric(res, "steal_pct", 100.0 * (double)(steal1 - c->steal0) /
						(double)(total1 - c->total0));
	else
		result_metric(res, "steal_pct", NAN);
	result_metric(res, "desched_holds", (double)holds);
	result_metric(res, "desched_waits", (double)waits);
	/* 1: a worker was descheduled while holding (or waiting for) a
	 * modelled spinlock; the row's lock figures carry scheduler time */
	result_metric(res, "desched_flag", holds + waits > 0);
}

/* Stops and collects the workers, lets the workload check and report,
 * tears down.  Returns the run's status. */
static int run_reap(struct run_ctx *c, struct result *res)
{
	const struct harness_opts *o = c->o;
	const struct workload *wl = o->wl;
	struct run *r = &c->r;
	unsigned nworkers = r->nworkers;
	int status = 0;

	if (o->mode == MODE_THREADS) {
		for (unsigned i = 0; i < nworkers; i++)
			pthread_join(c->tids[i], NULL);
	} else {
		for (unsigned i = 0; i < nworkers; i++) {
			int ws;
			while (waitpid(c->pids[i], &ws, 0) < 0 && errno == EINTR)
				;
			if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
				warnx_("worker process %u ended abnormally (status %d)", i, ws);
				status = 1;
			}
		}
	}
	runstat_phase(r, PHASE_STOP);
	for (unsigned i = 0; i < nworkers; i++) {
		if (c->args[i].pin_err && o->mode == MODE_THREADS)
			warnx_("warning: worker %u could not be pinned to PU %d",
			       i, r->workers[i].pu);
		if (c->ws[i].sched_err && !status) {
			warnx_("worker %u: SCHED_FIFO refused: %s", i,
			       strerror(c->ws[i].sched_err));
			status = EXIT_USAGE;
		}
	}

	if (harness_interrupted) {
		status = 130;
	} else if (!status) {
		if (res->measured_s <= 0)
			res->measured_s = 1e-9;
		summarise(res, c->first, c->prev, nworkers);
		runstat_finish(r, res);
		run_sched_metrics(c, res);
		if (wl->finish)
			status = wl->finish(r, res);
	}
	if (wl->teardown)
		wl->teardown(r);
	pthread_barrier_destroy(&c->ctl->gate);
	arena_destroy(r->arena);
	free(c->prev);
	free(c->first);
	free(c->args);
	free(c->tids);
	free(c->pids);
	return status;
}

int harness_run_one(const struct harness_opts *o, unsigned nworkers,
		    unsigned rep, struct result *res)
{
	struct run_ctx c = { .o = o };
	int status;

	memset(res, 0, sizeof(*res));
	res->workers = nworkers;
	res->rep = rep;
	res->oversubscribed = harness_oversubscribed(o, nworkers);
	if ((status = run_spawn(&c, nworkers, rep)))
		return status;
	run_sample(&c, res);
	return run_reap(&c, res);
}

/* ---- output ---- */

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
static void wis_begin(const struct harness_opts *o)
{
	printf("testcase:");
	for (const char *c = o->wl->description; *c; c++)
		putchar(*c == ':' ? ';' : *c == '\n' ? ' ' : *c);
	printf("\nwarmup\n");
	if (!o->warmup)
		printf("measurement\n");
	fflush(stdout);
}

static unsigned long long wis_round(double v)
{
	return v > 0 ? (unsigned long long)llround(v) : 0;
}

static void wis_sample(const struct harness_opts *o, unsigned s, double mn,
		       double mx, double total)
{
	printf("min:%llu max:%llu total:%llu\n", wis_round(mn), wis_round(mx),
	       wis_round(total));
	if (s + 1 == o->warmup)
		printf("measurement\n");
	fflush(stdout);
}

/* will-it-scale's "average": the integer mean of the printed totals. */
static unsigned long long wis_average(const struct result *res)
{
	unsigned long long sum = 0;

	for (unsigned i = 0; i < res->nsamples; i++)
		sum += wis_round(res->sample_rate[i]);
	return res->nsamples ? sum / res->nsamples : 0;
}

/* /proc/stat's aggregate "cpu" line: busy and idle jiffies as runtest.py's
 * linux_stat counts them (idle = idle + iowait; busy = user, nice,
 * system, irq, softirq, steal, guest, guest_nice). */
struct cpu_times { unsigned long long busy, idle; bool ok; };

static struct cpu_times cpu_times_now(void)
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

static double idle_pct(struct cpu_times a, struct cpu_times b)
{
	unsigned long long busy = b.busy - a.busy, idle = b.idle - a.idle;

	if (!a.ok || !b.ok || busy + idle == 0)
		return 0;
	return 100.0 * (double)idle / (double)(busy + idle);
}

struct sink {
	FILE *csv;
	bool header_done;
	const struct knob **knobs;
	size_t nknobs;
};

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

static void write_sidecar(const struct harness_opts *o, const char *csv_path)
{
	char *path = meta_sidecar_path(csv_path);
	FILE *f;
	struct json j;

	f = fopen(path, "w");
	if (!f)
		die_errno(EXIT_USAGE, "cannot write '%s'", path);
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
	}
	if (o->wl->sidecar)
		o->wl->sidecar(&j, o->knobs, o->mode);
	json_end(&j);
	if (fclose(f))
		die_errno(1, "cannot write '%s'", path);
	free(path);
}

static void emit_csv(struct sink *s, const struct harness_opts *o,
		     const struct result *res)
{
	FILE *f = s->csv;

	if (!s->header_done) {
		char *want = header_line(s, res);
		long pos = ftell(f);
		if (pos > 0) {
			/* Appending: the existing header must match. */
			char *have = NULL;
			size_t cap = 0;
			FILE *rf = fopen(o->out, "r");
			if (!rf || getline(&have, &cap, rf) < 0 || strcmp(have, want))
				die(EXIT_USAGE, "'%s' already holds results with other "
				    "columns; use another --out file", o->out);
			fclose(rf);
			free(have);
		} else {
			fputs(want, f);
		}
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
	/* Each finished row reaches the file before the next run starts. */
	fflush(f);
	fsync(fileno(f));
}

/* Table column of a metric: as wide as its whole name (never cut: three
 * columns must not all read "lruvec_lru_loc"), at least 14. */
static int metric_width(const struct result *res, unsigned i)
{
	int w = (int)strlen(res->metrics[i].name);
	return w > 14 ? w : 14;
}

static void print_table_header(const struct harness_opts *o, const struct result *res)
{
	printf("# %s", o->wl->name);
	if (*lock_name(o))
		printf("  lock=%s", lock_name(o));
	if (*counter_name(o))
		printf("  counter=%s", counter_name(o));
	printf("  mode=%s  affinity=%s  %gs x %u reps\n",
	       o->mode == MODE_THREADS ? "threads" : "processes",
	       affinity_name(o->aff), o->seconds, o->reps);
	printf("%7s %4s %14s %14s %8s %14s %14s", "workers", "rep", "ops/s",
	       "per-worker", "cv", "sample-min", "sample-max");
	for (unsigned i = 0; i < res->nmetrics; i++)
		printf(" %*s", metric_width(res, i), res->metrics[i].name);
	printf("\n");
}

static void print_table_row(const struct result *res)
{
	printf("%7u %4u %14.0f %14.0f %8.4f %14.0f %14.0f", res->workers,
	       res->rep, res->ops_per_sec, res->per_worker_ops, res->fairness_cv,
	       res->sample_min, res->sample_max);
	for (unsigned i = 0; i < res->nmetrics; i++) {
		if (isnan(res->metrics[i].value))
			printf(" %*s", metric_width(res, i), "-");
		else
			printf(" %*.6g", metric_width(res, i), res->metrics[i].value);
	}
	printf("%s\n", res->oversubscribed ? "  [oversubscribed]" : "");
	fflush(stdout);
}

/* For callers that run points themselves (sweeps): the header and one row,
 * exactly as harness_main writes them. */
void harness_write_csv(FILE *f, const struct harness_opts *o,
		       const struct result *res)
{
	struct sink s = { .csv = f };

	s.nknobs = knobset_used(o->knobs, &s.knobs);
	emit_csv(&s, o, res);
	free(s.knobs);
}

/* One run of the matrix with its outputs (table row, wis average, CSV
 * row); returns the run's status. */
static int run_and_emit(struct harness_opts *o, struct sink *s, size_t t,
			unsigned rep, struct result *res)
{
	int status = harness_run_one(o, (unsigned)o->threads[t], rep, res);

	if (status)
		return status;
	if (!s->knobs)
		s->nknobs = knobset_used(o->knobs, &s->knobs);
	if (o->format == FMT_TABLE) {
		if (t == 0 && rep == 0)
			print_table_header(o, res);
		print_table_row(res);
	}
	if (o->format == FMT_WIS) {
		printf("average:%llu\n", wis_average(res));
		fflush(stdout);
	}
	if (s->csv)
		emit_csv(s, o, res);
	return 0;
}

/*
 * --format wis-csv: runtest.py's table.  For every worker count it runs
 * the workload in process mode, then in thread mode (as runtest.py runs
 * X_processes and X_threads), each preceded and followed by a /proc/stat
 * reading for the idle percentage, and prints
 *   tasks,processes,processes_idle,threads,threads_idle,linear
 * starting with runtest.py's "0,0,100,0,100,0".  Values are the wis
 * averages (mean over --reps of each rep's average); linear is the larger
 * of the two at 1 task, times tasks, so the list must contain 1.
 */
static int wis_csv_main(struct harness_opts *o, struct sink *s)
{
	static const enum run_mode modes[2] = { MODE_PROCESSES, MODE_THREADS };
	double linear = -1;
	int status = 0;

	if (o->threads[0] != 1)
		die(EXIT_USAGE, "--format wis-csv: the worker list must start at 1 "
		    "(runtest.py's linear column is the 1-task result times tasks)");
	printf("tasks,processes,processes_idle,threads,threads_idle,linear\n");
	printf("0,0,100,0,100,0\n");
	for (size_t t = 0; t < o->nthreads && !status; t++) {
		double avg[2], idle[2];

		for (int m = 0; m < 2 && !status; m++) {
			struct cpu_times before, after;
			double sum = 0;

			o->mode = modes[m];
			before = cpu_times_now();
			for (unsigned rep = 0; rep < o->reps && !status; rep++) {
				struct result res;

				status = run_and_emit(o, s, t, rep, &res);
				if (!status)
					sum += (double)wis_average(&res);
				result_free(&res);
			}
			after = cpu_times_now();
			avg[m] = sum / o->reps;
			idle[m] = idle_pct(before, after);
			/* A mode the workload refuses (AIM9's brk in threads) is
			 * runtest.py's run without an average line: -1. */
			if (status == EXIT_USAGE) {
				avg[m] = -1;
				status = 0;
			}
		}
		if (status)
			break;
		if (avg[0] < 0 && avg[1] < 0)
			return EXIT_USAGE;
		if (t == 0)
			linear = fmax(avg[0], avg[1]);
		printf("%ld,%.0f,%0.2f,%.0f,%0.2f,%.0f\n", o->threads[t], avg[0], idle[0],
		       avg[1], idle[1], linear * (double)o->threads[t]);
		fflush(stdout);
	}
	return status;
}

int harness_main(struct harness_opts *o)
{
	struct sink s = { 0 };
	int status = 0;

	for (size_t i = 0; i < o->nthreads; i++)
		if (harness_refuses(o, (unsigned)o->threads[i]))
			die(EXIT_USAGE, "%ld workers spinning on lock '%s' with only %u "
			    "CPUs measures the scheduler, not the lock; pass "
			    "--oversubscribe to run it anyway (results are labelled)",
			    o->threads[i], o->lock->name, topo_get()->pus);
	if (o->out) {
		check_output_file("run", o->out);
		s.csv = fopen(o->out, "a");
		if (!s.csv)
			die_errno(EXIT_USAGE, "cannot open '%s' for writing", o->out);
		/* One writer per CSV: a second run into it is refused. */
		out_lock_fd(fileno(s.csv), o->out, false, "run");
		write_sidecar(o, o->out);
	}
	if (o->format == FMT_CSV && !s.csv)
		s.csv = stdout; /* --format csv without --out */

	harness_install_signals();
	if (o->format == FMT_WIS_CSV) {
		status = wis_csv_main(o, &s);
	} else {
		for (size_t t = 0; t < o->nthreads && !status; t++) {
			for (unsigned rep = 0; rep < o->reps && !status; rep++) {
				struct result res;

				status = run_and_emit(o, &s, t, rep, &res);
				result_free(&res);
			}
		}
	}
	if (s.csv && s.csv != stdout)
		fclose(s.csv);
	if (o->out) {
		/* the sidecar again, now with the environment at the end */
		meta_env_end();
		write_sidecar(o, o->out);
	}
	free(s.knobs);
	if (status == 130)
		warnx_("interrupted; finished results were kept");
	return status;
}
