/*
 * harness.h - the one measurement harness.
 *
 * For every worker count in the list and every repetition it: maps a
 * fresh shared arena, lets the workload set up, starts the workers
 * (threads or forked processes) pinned by hwloc placement, holds them
 * behind a start gate, takes per-interval samples of the per-worker
 * counters, discards the warm-up samples, stops the workers, lets the
 * workload check its invariants, and emits one result row.
 */
#ifndef MEMSCALE_HARNESS_H
#define MEMSCALE_HARNESS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/topo.h"
#include "harness/workload.h"

/* table: aligned columns; wis: will-it-scale's main.c lines; wis_csv:
 * will-it-scale runtest.py's CSV (both modes per worker count); csv: one
 * result row per run. */
enum out_format { FMT_TABLE, FMT_WIS, FMT_WIS_CSV, FMT_CSV };

struct harness_opts {
	const struct workload *wl;
	const struct lock_ops *lock;
	const struct counter_ops *counter;
	struct knobset *knobs;
	long *threads;
	size_t nthreads;
	unsigned reps;
	double seconds;      /* measured seconds */
	unsigned warmup;     /* warm-up samples discarded */
	unsigned sample_ms;  /* sample interval */
	enum run_mode mode;
	enum affinity aff;
	bool oversubscribe;
	const char *out;     /* CSV path (JSON sidecar beside it) or NULL */
	enum out_format format;
	const char *cmdline; /* recorded in the sidecar */
	size_t arena_size;
	bool sched_fifo;     /* --sched fifo: workers under SCHED_FIFO */
	bool wis_verbose;    /* FMT_WIS: each worker's count per sample (-v) */
	/* A sweep point on a lock or counter axis: the code path is what the
	 * axis varies, so a setting of the experiment that this point's lock
	 * or counter does not read (threshold under counter=atomic) is not
	 * refused; --dry-run names it. */
	bool path_axis;
};

#define RESULT_MAX_METRICS 48

struct result {
	unsigned workers, rep;
	bool oversubscribed;
	unsigned nsamples;      /* measured samples */
	double *sample_rate;    /* per measured sample: total ops/s */
	double *worker_rate;    /* per worker: ops/s over the measured window */
	uint64_t ops_total;     /* ops in the measured window */
	double measured_s;
	double ops_per_sec, per_worker_ops, fairness_cv, sample_min, sample_max;
	unsigned nmetrics;
	struct { char name[48]; double value; } metrics[RESULT_MAX_METRICS];
};

void harness_defaults(struct harness_opts *o);
/* Runs the whole matrix; returns a process exit status. */
int harness_main(struct harness_opts *o);
/* One run; fills res (caller frees with result_free).  Returns 0, or an
 * exit status (1: invariant violated / worker died, 2: bad parameters,
 * 130: interrupted). */
int harness_run_one(const struct harness_opts *o, unsigned nworkers,
		    unsigned rep, struct result *res);
void result_free(struct result *res);
/* 0, or EXIT_USAGE after one line naming the first knob set explicitly
 * that the run's code path (workload, backend, counter) has not read;
 * called once the workload has set up. */
int harness_knobs_read(const struct harness_opts *o);
/* The same for a knob another component owns (another workload's, the
 * kernel backend's for a run that is not one), before the set-up. */
int harness_knobs_foreign(const struct harness_opts *o);
/* For a dry run: sets the workload up (nworkers, nothing started) and
 * tears it down again, so the knobs its path reads are marked (a model
 * workload's knobs are read as its set-up reads them, without calibrating
 * anything; a kernel-backend workload's, whose set-up creates cgroups, by
 * its read_knobs()); returns the set-up status or harness_knobs_read()'s,
 * or -1 for a kernel-backend workload without read_knobs(). */
int harness_probe_knobs(const struct harness_opts *o, unsigned nworkers);
double result_get(const struct result *res, const char *metric, double dflt);

/* Writes the CSV header and one result row to f (at offset 0), as
 * harness_main does; used by sweeps, which run points one by one. */
void harness_write_csv(FILE *f, const struct harness_opts *o,
		       const struct result *res);

/* True if the run would have more workers than allowed CPUs. */
bool harness_oversubscribed(const struct harness_opts *o, unsigned nworkers);
/* True if workers of this run busy-wait on the --lock. */
bool harness_spins(const struct harness_opts *o);
/* True if `nworkers` would spin on more workers than CPUs without
 * --oversubscribe: such a point must be refused. */
bool harness_refuses(const struct harness_opts *o, unsigned nworkers);

/* 0 when this process may run tasks under SCHED_FIFO, else the errno
 * (EPERM without CAP_SYS_NICE or RLIMIT_RTPRIO). */
int harness_sched_fifo_check(void);

/* Set by SIGINT/SIGTERM handlers installed by harness_main / sweeps. */
extern volatile int harness_interrupted;
void harness_install_signals(void);

#endif
