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

/* The options and result types: harness/harness_types.h; the output
 * (harness_write_csv, for sweeps): harness/output.h. */
#include "harness/harness_types.h"
#include "harness/output.h"

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
