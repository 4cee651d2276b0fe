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

#include "../core/arena.h"
#include "../core/knob.h"
#include "../core/registry.h"
#include "../core/util.h"
#include "../locks/lock.h"

struct counter_ops;
struct lock_stat;
struct json;
struct run;
struct result;

enum run_mode { MODE_THREADS, MODE_PROCESSES };

/*
 * Per-worker slot, PAD_SIZE aligned in the arena.  `ops` is written only
 * by its worker and read by the sampler, so it sits alone on its lines.
 */
struct worker {
	uint64_t ops; /* completed operations (single writer) */
	char pad_[PAD_SIZE - sizeof(uint64_t)];
	unsigned id;
	int pu;              /* PU it is pinned to, -1 when unpinned */
	struct run *run;
	const volatile int *stop;
	void *priv;          /* the workload's per-worker state */
	/* LC_NR lock-class stats (locks/tracked.h) the harness allocates and
	 * reports; NULL with --set lockstat=off.  Use lock_stat_of(). */
	struct lock_stat *lock_stats;
} cacheline_aligned;

static inline bool worker_should_stop(const struct worker *w)
{
	/* Relaxed: the flag is only a hint to leave the loop; the sampler
	 * never depends on ordering with the worker's other stores. */
	return __atomic_load_n(w->stop, __ATOMIC_RELAXED);
}

static inline void worker_done_op(struct worker *w)
{
	/* Single writer: a relaxed load+store, no locked instruction. */
	__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
}

static inline void worker_done_ops(struct worker *w, uint64_t n)
{
	__atomic_store_n(&w->ops, w->ops + n, __ATOMIC_RELAXED);
}

/*
 * The measured loop: WORKER_LOOP(w) { one operation }.  The operation
 * count is kept in a register and published to w->ops (for the sampler)
 * every WORKER_PUBLISH operations, where the stop flag is also checked:
 * a store per operation would have to drain before the next locked
 * instruction of a lock under test, and the harness would then cost
 * whatever that drain costs.  The loop leaves only right after a publish,
 * so the final count is exact; the sampler sees counts at most
 * WORKER_PUBLISH - 1 operations old.  A `break` in the body would skip
 * the last publish: leave through the stop flag instead.
 */
#define WORKER_PUBLISH 16

static inline bool worker_loop_check(struct worker *w, uint64_t base,
				     uint64_t n)
{
	if (likely(n % WORKER_PUBLISH))
		return true;
	__atomic_store_n(&w->ops, base + n, __ATOMIC_RELAXED);
	return !worker_should_stop(w);
}

#define WORKER_LOOP(w)                                                        \
	for (uint64_t ms_base_ = (w)->ops, ms_n_ = 0;                         \
	     worker_loop_check((w), ms_base_, ms_n_); ms_n_++)

enum workload_flags {
	WL_F_USES_LOCK = 1u << 0,    /* honours --lock */
	WL_F_USES_COUNTER = 1u << 1, /* honours --counter */
	/* --lock is taken only inside the counter (e.g. percpu_counter's
	 * fold lock): it matters only for counters with COUNTER_F_USES_LOCK */
	WL_F_LOCK_VIA_COUNTER = 1u << 2,
};

struct workload {
	const char *name;
	const char *description;
	unsigned flags;
	int (*setup)(struct run *r);
	void (*worker_init)(struct worker *w);
	void (*run)(struct worker *w);
	int (*finish)(struct run *r, struct result *res);
	void (*teardown)(struct run *r);
	/* optional; adds workload facts (e.g. a "kernel" object) to the
	 * JSON sidecar, which is written before the first run */
	void (*sidecar)(struct json *j, struct knobset *knobs, enum run_mode mode);
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
