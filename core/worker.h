/*
 * worker.h - one measured worker as every layer sees it: its published
 * operation count, its stop flag and the measured loop WORKER_LOOP().
 * The harness (harness/harness.h) creates, pins, gates and samples
 * workers; a workload or a lock's specialised benchmark loop only runs
 * WORKER_LOOP(w) { one operation }.
 */
#ifndef MEMSCALE_WORKER_H
#define MEMSCALE_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include "core/util.h"

struct run;
struct lock_stat;

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

#endif
