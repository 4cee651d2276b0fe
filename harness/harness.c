/*
 * harness.c - the measurement harness (see harness.h); what it measured
 * is written by output.c.
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
#include "counters/counter.h"
#include "harness/output.h"
#include "harness/runstat.h"
#include "models/memcg.h"
#include "trace/lock_stat.h"
#include "tracing/session.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

volatile int harness_interrupted;

/*
 * SIGINT/SIGTERM: the first one asks the run to stop (the sampler sees the
 * flag, raises the stop word, finished results are kept) and arms a 1 s
 * watchdog; a run that has not ended by then (a worker stuck in an
 * operation, a slow teardown) or a second signal ends the process at once.
 * Every finished result is already on disk (output.c's emit_csv_file
 * fsyncs each row), and what a killed run leaves behind (cgroups, tmpfs
 * mounts, LTTng sessions) is swept by the next run.
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

static void result_summarise(struct result *res, uint64_t *first, uint64_t *last,
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
	/* processes mode: the watchdog (see watchdog_main) */
	pthread_t watchdog;
	bool have_watchdog;
	int gate_passed;           /* set by the main thread (atomic) */
	int *wstatus;              /* each worker's wait status, set when reaped */
	uint64_t stop_ns;          /* when the stop flag was raised, 0 before */
	int dead;                  /* first worker that died early, -1 none */
	int dead_status;           /* its wait status (siginfo code/status) */
	int dead_code;
	bool stopped_others;       /* the watchdog killed the rest */
};

/*
 * Processes mode: a worker killed from outside (SIGKILL, the OOM killer)
 * may hold a lock the others spin on for ever, or die before the start
 * gate, where the parent would wait for it for ever.  The watchdog thread
 * owns the workers: it alone reaps them (waitid, woken by a pidfd per
 * worker where the kernel has them, else every 20 ms), so no exit can be
 * collected by anyone before it has been judged - whenever it happens,
 * stopped and killed included.  A worker that ends before the stop flag,
 * or ends abnormally, is dead: before the gate the run cannot start (the
 * others are killed and the process ends with one line); during the run
 * the sampler goes on to the deadline, and 1 s after the stop flag the
 * others still running are killed (SIGKILL: a spinning waiter never looks
 * at the stop flag).  The run then ends with status 1, naming the dead
 * worker.  The watchdog returns once every worker is reaped.
 */
#define WATCHDOG_POLL_MS 20
#define WATCHDOG_GRACE_NS 1000000000ull

static void kill_others(struct run_ctx *c)
{
	for (unsigned i = 0; i < c->r.nworkers; i++)
		if ((int)i != c->dead && c->pids[i] > 0 && c->wstatus[i] < 0)
			kill(c->pids[i], SIGKILL);
}

/* Reaps every worker that has ended; the number still running. */
static unsigned reap_ended(struct run_ctx *c, int *pidfd)
{
	unsigned running = 0;

	for (unsigned i = 0; i < c->r.nworkers; i++) {
		siginfo_t si = { 0 };

		if (c->wstatus[i] >= 0)
			continue;
		if (waitid(P_PID, (id_t)c->pids[i], &si, WEXITED | WNOHANG)) {
			if (errno != ECHILD) {
				running++;
				continue;
			}
			/* gone without us (SIGCHLD ignored): an end not seen */
			si = (siginfo_t){ .si_code = CLD_EXITED, .si_status = 255 };
		} else if (si.si_pid == 0) {
			running++;
			continue;
		}
		if (pidfd[i] >= 0)
			close(pidfd[i]);
		pidfd[i] = -1;
		c->wstatus[i] = si.si_code == CLD_EXITED ? si.si_status & 0xff
							 : 0x100 | (si.si_status & 0xff);
		/* Ended: fine only after the stop flag (read after the exit
		 * was seen: a worker ends after it saw the flag), with
		 * status 0. */
		if (__atomic_load_n(&c->ctl->stop, __ATOMIC_ACQUIRE) &&
		    si.si_code == CLD_EXITED && si.si_status == 0)
			continue;
		if (c->dead < 0) {
			c->dead_code = si.si_code;
			c->dead_status = si.si_status;
			__atomic_store_n(&c->dead, (int)i, __ATOMIC_RELEASE);
		}
	}
	return running;
}

static void *watchdog_main(void *p)
{
	struct run_ctx *c = p;
	unsigned n = c->r.nworkers;
	int *pidfd = xcalloc(n, sizeof(*pidfd));
	struct pollfd *pf = xcalloc(n, sizeof(*pf));

	for (unsigned i = 0; i < n; i++)
		pidfd[i] = (int)syscall(SYS_pidfd_open, c->pids[i], 0);
	while (reap_ended(c, pidfd)) {
		uint64_t stop_ns = __atomic_load_n(&c->stop_ns, __ATOMIC_ACQUIRE);
		nfds_t np = 0;

		if (c->dead >= 0 && !c->stopped_others) {
			if (!__atomic_load_n(&c->gate_passed, __ATOMIC_ACQUIRE)) {
				kill_others(c);
				die(1, "worker process %d (pid %d) died before the start "
				    "(%s %d); the run was stopped", c->dead,
				    (int)c->pids[c->dead], c->dead_code == CLD_EXITED ?
				    "exit status" : "signal", c->dead_status);
			}
			if (stop_ns && now_ns() > stop_ns + WATCHDOG_GRACE_NS) {
				c->stopped_others = true;
				kill_others(c);
			}
		}
		/* wake at the next exit (a pidfd turns readable), or in 20 ms
		 * for the stop flag, the grace period and kernels without pidfds */
		for (unsigned i = 0; i < n; i++)
			if (pidfd[i] >= 0)
				pf[np++] = (struct pollfd){ .fd = pidfd[i], .events = POLLIN };
		if (poll(np ? pf : NULL, np, WATCHDOG_POLL_MS) < 0 && errno != EINTR)
			nanosleep(&(struct timespec){ 0, WATCHDOG_POLL_MS * 1000000L }, NULL);
	}
	free(pf);
	free(pidfd);
	return NULL;
}


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
	status = harness_knobs_foreign(o);
	if (!status)
		status = wl->setup(r);
	/* Set up, every knob its code path reads has been read: one set but
	 * never read would be recorded without having shaped the run. */
	if (!status && (status = harness_knobs_read(o)) && wl->teardown)
		wl->teardown(r);
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
		c->dead = -1;
		c->wstatus = xcalloc(nworkers, sizeof(*c->wstatus));
		for (unsigned i = 0; i < nworkers; i++)
			c->wstatus[i] = -1;
		if ((errno = pthread_create(&c->watchdog, NULL, watchdog_main, c)))
			die_errno(1, "cannot start the worker watchdog");
		c->have_watchdog = true;
	}
	return 0;
}

/* The code path of a run, as the refusal of an unread knob names it. */
static void run_path(const struct harness_opts *o, char *buf, size_t len)
{
	const struct workload *wl = o->wl;
	int n = snprintf(buf, len, "workload %s (%s)", wl->name,
			 wl->flags & WL_F_MODEL ? "memcg model" :
			 wl->flags & WL_F_KERNEL ? "kernel backend" : "microbenchmark");

	if (n > 0 && (size_t)n < len && (wl->flags & WL_F_USES_COUNTER) && o->counter)
		snprintf(buf + n, len - (size_t)n, " with counter %s", o->counter->name);
}

/* A knob another component owns: a workload's knob ("lock workload")
 * given to another workload, a kernel-backend knob to a run that is not
 * one.  Refused before the set-up, which may take long (a calibration). */
static const struct knob *foreign_knob(const struct harness_opts *o)
{
	const struct knob *k = knobset_unread(o->knobs);
	const struct knob **all;
	size_t n = k ? knob_all(&all) : 0, wl_len = strlen(o->wl->name);

	for (size_t i = 0; i < n; i++) {
		const char *own = all[i]->owner ? all[i]->owner : "";
		size_t len = strlen(own);

		if (!knobset_value(o->knobs, all[i]) || all[i]->type == KNOB_PROFILE)
			continue;
		if (len > 9 && !strcmp(own + len - 9, " workload") &&
		    (len - 9 != wl_len || strncmp(own, o->wl->name, wl_len)))
			return all[i];
		if (!strcmp(own, "kernel backend") && !(o->wl->flags & WL_F_KERNEL))
			return all[i];
	}
	return NULL;
}

int harness_knobs_foreign(const struct harness_opts *o)
{
	const struct knob *k = foreign_knob(o);
	char path[160];

	if (!k)
		return 0;
	run_path(o, path, sizeof(path));
	fprintf(stderr, "memscale: knob '%s' is set (%s) but the code path %s does "
		"not read it (a %s knob)\n", k->name, knobset_value(o->knobs, k), path,
		k->owner);
	return EXIT_USAGE;
}

int harness_knobs_read(const struct harness_opts *o)
{
	const struct knob *k = knobset_unread(o->knobs);
	char path[160];

	if (!k || (o->path_axis && k->owner && (!strcmp(k->owner, "counter") ||
						 !strcmp(k->owner, "lock"))))
		return 0;
	run_path(o, path, sizeof(path));
	fprintf(stderr, "memscale: knob '%s' is set (%s) but the code path %s does "
		"not read it\n", k->name, knobset_value(o->knobs, k), path);
	return EXIT_USAGE;
}

int harness_probe_knobs(const struct harness_opts *o, unsigned nworkers)
{
	const struct workload *wl = o->wl;
	struct run r = {
		.wl = wl, .knobs = o->knobs, .lock = o->lock, .counter = o->counter,
		.nworkers = nworkers, .mode = o->mode, .seconds = o->seconds,
	};
	int status;

	if (wl->flags & WL_F_KERNEL && !wl->read_knobs)
		return harness_knobs_foreign(o) ? EXIT_USAGE : -1;
	r.arena = arena_create(o->arena_size);
	r.workers = arena_alloc(r.arena, nworkers * sizeof(struct worker), PAD_SIZE);
	for (unsigned i = 0; i < nworkers; i++) {
		r.workers[i].id = i;
		r.workers[i].pu = -1;
		r.workers[i].run = &r;
	}
	runstat_setup(&r);
	if ((status = harness_knobs_foreign(o))) {
		/* refused: another component's knob */
	} else if (wl->flags & WL_F_KERNEL) {
		/* its set-up creates memory cgroups: read its knobs only */
		wl->read_knobs(wl, o->knobs);
		status = harness_knobs_read(o);
	} else if (wl->flags & WL_F_MODEL) {
		/* The model workloads' set-up would calibrate the kernel-shaped
		 * work (it runs the kernel backend): read the knobs as it does,
		 * the model's (by its path) and, with page_work=kernel, those of
		 * the kernel-shaped work. */
		struct model_params p;

		status = model_params_from_knobs(&p, o->knobs);
		if (!status)
			status = model_knobs_check_read(&p, o->knobs);
		if (!status && p.page_work == PAGE_WORK_KERNEL)
			for (const char *const *n = (const char *const[]){ "kwork", "calib_file",
					"calib_hash", NULL }; *n; n++)
				if (knob_find(*n))
					knob_str(o->knobs, knob_find(*n));
		if (!status)
			status = harness_knobs_read(o);
	} else {
		status = wl->setup(&r);
		if (!status) {
			status = harness_knobs_read(o);
			if (wl->teardown)
				wl->teardown(&r);
		}
	}
	arena_destroy(r.arena);
	return status;
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
	__atomic_store_n(&c->gate_passed, 1, __ATOMIC_RELEASE);
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
			/* will-it-scale -v: "%4d -> %llu" per task, before the
			 * min/max/total line, per second as they are */
			if (o->format == FMT_WIS && o->wis_verbose)
				printf("%4u -> %llu\n", i, (unsigned long long)llround((double)d / dt));
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
	__atomic_store_n(&c->stop_ns, now_ns(), __ATOMIC_RELEASE);
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
		/* the watchdog reaps every worker (see watchdog_main) and
		 * returns when none is left; a worker that ended abnormally is
		 * its dead one */
		pthread_join(c->watchdog, NULL);
		if (c->dead >= 0) {
			char how[64];
			if (c->dead_code == CLD_EXITED)
				snprintf(how, sizeof(how), "exit status %d", c->dead_status);
			else
				snprintf(how, sizeof(how), "signal %d, %s", c->dead_status,
					 strsignal(c->dead_status));
			warnx_("worker process %d (pid %d) died during the run (%s); "
			       "the run ended at its deadline%s and its result is "
			       "discarded", c->dead, (int)c->pids[c->dead], how,
			       c->stopped_others ? ", the other workers were killed" : "");
			status = 1;
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
		result_summarise(res, c->first, c->prev, nworkers);
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
	free(c->wstatus);
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

/* One run of the matrix with its outputs (table row, wis average, CSV
 * row); returns the run's status. */
static int run_and_emit(struct harness_opts *o, struct sink *s, size_t t,
			unsigned rep, struct result *res)
{
	int status = harness_run_one(o, (unsigned)o->threads[t], rep, res);

	if (status)
		return status;
	sink_emit(s, o, t, rep, res);
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
		flush_stdout();
	}
	return status;
}

int harness_main(struct harness_opts *o)
{
	struct sink s = { .fd = -1 };
	int status = 0;

	for (size_t i = 0; i < o->nthreads; i++)
		if (harness_refuses(o, (unsigned)o->threads[i]))
			die(EXIT_USAGE, "%ld workers spinning on lock '%s' with only %u "
			    "CPUs measures the scheduler, not the lock; pass "
			    "--oversubscribe to run it anyway (results are labelled)",
			    o->threads[i], o->lock->name, topo_get()->pus);
	sink_open(&s, o);
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
	sink_close(&s, o);
	if (status == 130)
		warnx_("interrupted; finished results were kept");
	return status;
}
