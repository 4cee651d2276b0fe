/*
 * workload.h - the contract between the harness and a workload.
 *
 * Like will-it-scale's testcase(): a workload is a short file with a
 * description and a loop body.  The harness owns everything else: shared
 * memory, pinning, the start gate, warm-up, sampling, repetitions, output.
 *
 *   setup(run)        allocate all shared and per-worker state from
 *                     run->arena (it is shared between processes), read
 *                     knobs.  Return 0, or print an error and return
 *                     EXIT_USAGE for bad parameters.
 *   worker_init(w)    optional; runs in the worker (pinned) before the gate.
 *   run(w)            the measured loop: WORKER_LOOP(w) { one operation }.
 *   finish(run, res)  optional; after all workers stopped: check invariants
 *                     (return non-zero on a violation) and add metrics.
 *   teardown(run)     optional.
 *
 * Register with REGISTER(workload, <name>_workload).
 */
#ifndef MEMSCALE_WORKLOAD_H
#define MEMSCALE_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/knob.h"
#include "core/registry.h"
#include "core/util.h"
#include "core/worker.h"
#include "locks/lock.h"

struct counter_ops;
struct lock_stat;
struct json;
struct run;
struct result;

enum run_mode { MODE_THREADS, MODE_PROCESSES };

enum workload_flags {
	WL_F_USES_LOCK = 1u << 0,    /* honours --lock */
	WL_F_USES_COUNTER = 1u << 1, /* honours --counter */
	/* --lock is taken only inside the counter (e.g. percpu_counter's
	 * fold lock): it matters only for counters with COUNTER_F_USES_LOCK */
	WL_F_LOCK_VIA_COUNTER = 1u << 2,
	WL_F_MODEL = 1u << 3,          /* runs over the memcg model (workloads/model) */
	WL_F_KERNEL = 1u << 4,         /* real syscalls in real memcgs (workloads/kernel) */
	WL_F_PROCESSES_ONLY = 1u << 5, /* refuses --mode threads */
};

struct workload {
	const char *name;
	const char *description;
	unsigned flags;
	/* Lock classes (1u << enum lock_class_id) the workload may acquire
	 * through tracked locks: each gets its result columns in every row of
	 * every run, used or not, so all rows of a workload share one header
	 * (harness/runstat.c).  0: no lock-class columns. */
	unsigned lock_classes;
	int (*setup)(struct run *r);
	void (*worker_init)(struct worker *w);
	void (*run)(struct worker *w);
	int (*finish)(struct run *r, struct result *res);
	void (*teardown)(struct run *r);
	/* optional; adds workload facts (e.g. a "kernel" object) to the
	 * JSON sidecar, which is written before the first run */
	void (*sidecar)(struct json *j, struct knobset *knobs, enum run_mode mode);
	/* optional: reads every knob setup() would read, creating nothing;
	 * a dry run's knob check of a workload whose set-up it does not
	 * probe (the kernel backend's creates memory cgroups) */
	void (*read_knobs)(const struct workload *wl, struct knobset *knobs);
	/* optional, NULL-terminated: the result metrics the default run table
	 * shows first (it fits in 100 columns; every metric is in the CSV) */
	const char *const *table_metrics;
};

REGISTRY_BOUNDS(workload);

const struct workload *workload_find(const char *name);
size_t workload_all(const struct workload ***out);

/* Everything a workload sees about the run it is part of. */
struct run {
	const struct workload *wl;
	struct knobset *knobs;
	struct arena *arena;
	const struct lock_ops *lock;       /* --lock (default qspinlock) */
	const struct counter_ops *counter; /* --counter (default percpu_batch) */
	unsigned nworkers;
	enum run_mode mode;
	unsigned rep;
	struct worker *workers; /* nworkers slots in the arena */
	void *shared;           /* the workload's shared state */
	double seconds;         /* measured duration */
};

/* Extra result columns a workload reports from finish(). */
void result_metric(struct result *res, const char *name, double value);

#endif
