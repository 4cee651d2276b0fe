/*
 * run_opts.c - the one parser of the options every command that runs
 * workloads shares (run_opts.h), and the defaults they share: run and
 * every sweep point go through run_opts_finish(), so a model workload
 * runs with the same knobs whichever command started it.
 */
#include "harness/run_opts.h"
#include "counters/counter.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More workers than this per PU is surely a typo, not an experiment. */
#define MAX_WORKERS_PER_PU 64
#define MAX_WORKERS 16384

void run_opts_init(struct run_opts *ro, int argc, char **argv)
{
	size_t len = 16;

	memset(ro, 0, sizeof(*ro));
	/* Record the command line before getopt permutes argv. */
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	ro->cmdline = xcalloc(len, 1);
	strcpy(ro->cmdline, "memscale");
	for (int i = 0; i < argc; i++) {
		strcat(ro->cmdline, " ");
		strcat(ro->cmdline, argv[i]);
	}
}

bool run_opts_parse(struct run_opts *ro, struct harness_opts *o, int c,
		    const char *arg)
{
	long v;
	double d;

	if (!o->knobs)
		o->knobs = knobset_new();
	switch (c) {
	case 'l':
		ro->lock = arg;
		return true;
	case 'c':
		ro->counter = arg;
		return true;
	case 't':
		ro->threads = arg;
		return true;
	case 's':
		if (!parse_double(arg, 1e-3, 1e6, &d))
			die(EXIT_USAGE, "bad --seconds '%s' (want a positive number of seconds)", arg);
		o->seconds = d;
		return true;
	case 'w':
		if (!parse_long(arg, 0, 10000, &v))
			die(EXIT_USAGE, "bad --warmup '%s' (want 0..10000 samples)", arg);
		o->warmup = (unsigned)v;
		return true;
	case 'S':
		if (!parse_long(arg, 1, 3600000, &v))
			die(EXIT_USAGE, "bad --sample-ms '%s' (want 1..3600000)", arg);
		o->sample_ms = (unsigned)v;
		return true;
	case 'r':
		if (!parse_long(arg, 1, 100000, &v))
			die(EXIT_USAGE, "bad --reps '%s' (want 1..100000)", arg);
		o->reps = (unsigned)v;
		return true;
	case 'm':
		if (!strcmp(arg, "threads"))
			o->mode = MODE_THREADS;
		else if (!strcmp(arg, "processes"))
			o->mode = MODE_PROCESSES;
		else
			die(EXIT_USAGE, "bad --mode '%s' (allowed: threads|processes)", arg);
		return true;
	case 'a':
		if (affinity_parse(arg, &o->aff))
			die(EXIT_USAGE, "bad --affinity '%s' (allowed: cores|pus|none)", arg);
		return true;
	case 'k':
		knobset_set_arg(o->knobs, arg);
		return true;
	case 'K': {
		char *kv = xasprintf("kernel=%s", arg);
		knobset_set_arg(o->knobs, kv);
		free(kv);
		return true;
	}
	case 'O':
		o->oversubscribe = true;
		return true;
	case 'B':
		if (strcmp(arg, "model") && strcmp(arg, "kernel"))
			die(EXIT_USAGE, "bad --backend '%s' (allowed: model|kernel)", arg);
		ro->kernel_backend = !strcmp(arg, "kernel");
		return true;
	case 'N':
		knobset_set_arg(o->knobs, "kmemcg=off");
		return true;
	case RUN_OPT_CALIB: {
		char *kv;
		check_input_file("--calib", arg, "a file from 'memscale model calibrate'");
		kv = xasprintf("calib_file=%s", arg);
		knobset_set_arg(o->knobs, kv);
		free(kv);
		return true;
	}
	case RUN_OPT_SCHED: {
		int e;
		if (strcmp(arg, "fifo") && strcmp(arg, "other"))
			die(EXIT_USAGE, "bad --sched '%s' (allowed: other|fifo)", arg);
		o->sched_fifo = !strcmp(arg, "fifo");
		if (o->sched_fifo && (e = harness_sched_fifo_check()))
			die(EXIT_USAGE, "--sched fifo: SCHED_FIFO is not permitted here (%s); "
			    "it needs root, CAP_SYS_NICE or an RLIMIT_RTPRIO above 0",
			    strerror(e));
		return true;
	}
	}
	return false;
}

long workers_max(void)
{
	long max = (long)topo_get()->pus * MAX_WORKERS_PER_PU;

	return max > MAX_WORKERS ? MAX_WORKERS : max;
}

size_t parse_workers(const char *s, long **out)
{
	unsigned pus = topo_get()->pus;
	long max = workers_max();
	const char *err;
	size_t n;

	if (s && *s && s[strlen(s) - 1] == '%') {
		double pct;
		char *num = strndup(s, strlen(s) - 1);
		int ok = parse_double(num, 1e-9, 100.0 * MAX_WORKERS_PER_PU, &pct);
		free(num);
		if (!ok)
			die(EXIT_USAGE, "bad --threads '%s' (want a percentage of CPUs "
			    "such as 50%%)", s);
		*out = xmalloc(sizeof(long));
		**out = lround(pct / 100.0 * pus);
		if (**out < 1)
			**out = 1;
		return 1;
	}
	n = parse_list(s, 1, max, out, &err);
	if (!n)
		die(EXIT_USAGE, "bad --threads '%s': %s (want counts 1..%ld such as "
		    "1,2,4 or 1-8, or a percentage such as 50%%)", s ? s : "", err, max);
	return n;
}

/* Knobs a model workload runs with unless --set or the experiment file
 * gives them: the kernel's per-operation work (models/kwork.h), calibrated
 * once per machine (the calibration file's kwork.*), as the seed
 * experiments measure it; run_opts.h's RUN_DEFAULT_KNOBS_HELP names them. */
static const struct { const char *knob, *value; } run_default_knobs[] = {
	{ "page_work", "kernel" },
};

static void apply_run_defaults(struct harness_opts *o)
{
	char err[256];

	if (!o->wl || !(o->wl->flags & WL_F_MODEL))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(run_default_knobs); i++)
		if (!knobset_is_set(o->knobs, run_default_knobs[i].knob) &&
		    !knobset_set(o->knobs, run_default_knobs[i].knob,
				 run_default_knobs[i].value, err, sizeof(err)))
			die(1, "internal error: run default: %s", err);
}

void run_opts_finish(struct run_opts *ro, struct harness_opts *o)
{
	if (!o->knobs)
		o->knobs = knobset_new();
	if (ro->threads) {
		o->nthreads = parse_workers(ro->threads, &o->threads);
	} else {
		unsigned pus = topo_get()->pus;
		o->nthreads = pus;
		o->threads = xmalloc(pus * sizeof(long));
		for (unsigned i = 0; i < pus; i++)
			o->threads[i] = i + 1;
	}
	o->lock = lock_find(ro->lock ? ro->lock : "qspinlock");
	if (!o->lock && !ro->lock)
		o->lock = lock_find("pthread_mutex");
	if (!o->lock)
		die(EXIT_USAGE, "unknown lock '%s' (see 'memscale list locks')", ro->lock);
	o->counter = counter_find(ro->counter ? ro->counter : "percpu_batch");
	if (!o->counter && ro->counter)
		die(EXIT_USAGE, "unknown counter '%s' (see 'memscale list counters')",
		    ro->counter);
	/* Commands that pick the workload themselves (sweep) get the backend
	 * here; run already resolved it with run_opts_workload(). */
	if (o->wl && ro->kernel_backend)
		o->wl = run_opts_workload(ro, "--backend kernel", o->wl->name);
	apply_run_defaults(o);
	if (o->wl && ro->lock && !(o->wl->flags & WL_F_USES_LOCK))
		warnx_("note: workload '%s' does not use --lock", o->wl->name);
	o->cmdline = ro->cmdline;
	/* what the user set, for the refusal of a knob the path does not
	 * read (harness_knobs_read) */
	knobset_seal(o->knobs);
}

void run_opts_free(struct run_opts *ro, struct harness_opts *o)
{
	free(o->threads);
	free(ro->cmdline);
	o->cmdline = NULL;
	knobset_free(o->knobs);
	o->threads = NULL;
	o->knobs = NULL;
}

const struct workload *run_opts_workload(const struct run_opts *ro,
					 const char *cmd, const char *name)
{
	const struct workload *wl;

	if (ro->kernel_backend && strncmp(name, "kernel:", 7)) {
		char *kname = xasprintf("kernel:%s", name);
		wl = workload_find(kname);
		free(kname);
		if (!wl)
			die(EXIT_USAGE, "%s: workload '%s' has no kernel backend (the "
			    "kernel:* ones in 'memscale list workloads' do)", cmd, name);
		return wl;
	}
	wl = workload_find(name);
	if (!wl)
		die(EXIT_USAGE, "%s: unknown workload '%s' (see 'memscale list workloads')",
		    cmd, name);
	return wl;
}
