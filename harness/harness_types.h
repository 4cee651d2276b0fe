/*
 * harness_types.h - what a harness run is given and what it gives back:
 * struct harness_opts and struct result.  harness.c runs with them,
 * output.c writes them and runstat.c adds its columns to a result; none
 * of the three needs another's functions for the types.
 */
#ifndef MEMSCALE_HARNESS_TYPES_H
#define MEMSCALE_HARNESS_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
