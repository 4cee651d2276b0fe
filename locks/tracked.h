/*
 * tracked.h - lock acquisition through a lock class, with per-worker
 * statistics (the data behind perf-lock / lock_stat style reports).
 *
 * Kernel models never call ops->lock directly: they call tracked_lock()
 * with the class the lock belongs to ("pgdat->lru_lock",
 * "lruvec->lru_lock", ...) and the calling worker's per-class stats.
 * The uncontended fast path costs one trylock (the same atomic the lock's
 * own fast path would do) and two increments; only a contended
 * acquisition reads the clock.  Passing st == NULL skips all accounting.
 *
 * Owned by the tracing layer (trace/): that is where per-event records and
 * periodic aggregates are emitted from these numbers.
 */
#ifndef MEMSCALE_TRACKED_H
#define MEMSCALE_TRACKED_H

#include <stdint.h>

#include "../core/util.h"
#include "lock.h"

enum lock_class_id {
	LC_PGDAT_LRU,     /* pgdat->lru_lock (pre-v5.11: one per node) */
	LC_LRUVEC_LRU,    /* lruvec->lru_lock (v5.11+: per memcg per node) */
	LC_PAGE_COUNTER,  /* page_counter / charge path serialisation */
	LC_STATS_FLUSH,   /* stats flush (cgroup_rstat_lock) */
	LC_COUNTER_FOLD,  /* percpu_counter fbc->lock */
	LC_BENCH,         /* lock microbenchmark */
	LC_NR
};

extern const char *const lock_class_names[LC_NR];

struct lock_stat {
	uint64_t acquired;
	uint64_t contended;
	uint64_t wait_ns;     /* summed over contended acquisitions */
	uint64_t wait_max_ns;
	uint64_t wait_min_ns; /* 0 until the first contended acquisition */
	uint64_t hold_ns;     /* only when hold timing is enabled */
	uint64_t t_acquired;  /* scratch: when the current hold began */
};

static inline void tracked_lock(const struct lock_ops *ops, void *lock,
				void *ctx, struct lock_stat *st)
{
	uint64_t t0, w;

	if (!st) {
		ops->lock(lock, ctx);
		return;
	}
	st->acquired++;
	if (likely(ops->trylock) && likely(ops->trylock(lock, ctx)))
		return;
	if (!ops->trylock) {
		ops->lock(lock, ctx);
		return;
	}
	t0 = now_ns();
	ops->lock(lock, ctx);
	w = now_ns() - t0;
	st->contended++;
	st->wait_ns += w;
	if (w > st->wait_max_ns)
		st->wait_max_ns = w;
	if (!st->wait_min_ns || w < st->wait_min_ns)
		st->wait_min_ns = w;
}

static inline void tracked_unlock(const struct lock_ops *ops, void *lock,
				  void *ctx, struct lock_stat *st)
{
	(void)st;
	ops->unlock(lock, ctx);
}

#endif
