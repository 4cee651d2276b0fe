/*
 * lock_stat.h - the vocabulary of lock tracing: lock classes and the
 * per-worker, per-class statistics record (struct lock_stat) that the
 * tracked lock path (locks/tracked.h) fills, the tracepoints
 * (trace/memscale_tp.h) emit and the harness reports.
 *
 * It sits at the bottom with the tracepoints, so that tracepoints, locks,
 * counters and models can all name these types without depending on each
 * other.  Layout and field meaning follow /proc/lock_stat
 * (Documentation/locking/lockstat.rst).
 */
#ifndef MEMSCALE_LOCK_STAT_H
#define MEMSCALE_LOCK_STAT_H

#include <stdint.h>

#include "core/util.h"

enum lock_class_id {
	LC_PGDAT_LRU,     /* pgdat->lru_lock (pre-v5.11: one per node) */
	LC_LRUVEC_LRU,    /* lruvec->lru_lock (v5.11+: per memcg per node) */
	LC_PAGE_COUNTER,  /* page_counter / charge path serialisation */
	LC_STATS_FLUSH,   /* stats flush (cgroup_rstat_lock) */
	LC_COUNTER_FOLD,  /* percpu_counter fbc->lock */
	LC_BENCH,         /* lock microbenchmark */
	LC_ZONE,          /* zone->lock: the page allocator's buddy lists, one per zone */
	LC_NR
};

extern const char *const lock_class_names[LC_NR];
/* CSV-safe spelling of the class names: "lruvec_lru_lock" etc. */
extern const char *const lock_class_keys[LC_NR];

/* Trace label of stats nobody initialised (cls/worker unknown). */
#define LC_UNCLASSIFIED 255
#define LS_WORKER_UNKNOWN UINT32_MAX

/* log2 histogram buckets: bucket b holds [2^(b-1), 2^b) ns, 0 holds 0. */
#define LS_HIST 32

/* One slot per hashed lock instance remembering its last owner (worker+1),
 * on its own line so unrelated locks do not bounce each other's slot. */
#define LS_OWNER_SLOTS 64
struct lock_owner_slot {
	uint32_t owner;
	char pad_[PAD_SIZE - sizeof(uint32_t)];
};

struct lock_stat {
	uint64_t acquired;
	uint64_t contended;
	uint64_t wait_ns;     /* summed over contended acquisitions */
	uint64_t wait_max_ns;
	uint64_t wait_min_ns; /* 0 until the first contended acquisition (a
			       * 0 ns wait is stored as 1) */
	uint64_t hold_ns;     /* summed over sampled holds (hold_n of them) */
	uint64_t t_acquired;  /* scratch: when the current timed hold began;
			       * non-zero sends the unlock to the slow path */
	uint64_t pend_wait_ns; /* scratch: wait of the current hold, traced
				* (contention_end) after its unlock */
	uint64_t hold_n;      /* holds timed into hold_ns / hold_hist */
	uint64_t hold_max_ns;
	uint64_t handoffs;    /* acquisitions whose previous owner was another worker */
	uint64_t wait_hist[LS_HIST];
	uint64_t hold_hist[LS_HIST];
	/* configuration, written once by lock_stats_init() */
	uint64_t hold_mask;   /* time the hold when (acquired & mask) == 0 */
	struct lock_owner_slot *owners; /* NULL: no handoff counting */
	uint32_t worker;
	uint8_t cls;          /* enum lock_class_id: index in the worker's set */
	uint8_t inited;       /* set by lock_stats_init(): cls and worker valid */
	uint8_t hold_on;      /* hold sampling enabled */
	uint8_t hold_sampled; /* scratch: the current timed hold counts in stats */
	uint8_t hold_contended; /* scratch: the current hold followed a wait,
				 * trace its lock_release after the unlock */
	uint8_t pend_end;     /* scratch: contention_end pending (pend_wait_ns) */
};

/*
 * Counters have one writer (their worker) and are read by the sampler
 * while the worker runs: relaxed atomic load+store (a plain mov on x86, no
 * locked instruction) keeps those reads defined; lock_stat_snapshot() is
 * the reading side.  Fields are not mutually consistent in a snapshot.
 */
static inline void ls_add(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v,
			 __ATOMIC_RELAXED);
}

static inline void ls_set(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Returns &set[c], or NULL when the worker has no stats (set == NULL). */
static inline struct lock_stat *lock_stat_of(struct lock_stat *set,
					     enum lock_class_id c)
{
	return set ? &set[c] : NULL;
}

/* Bucket of a duration in the log2 histograms. */
static inline unsigned lock_hist_bucket(uint64_t ns)
{
	unsigned b = ns ? 64 - (unsigned)__builtin_clzll(ns) : 0;
	return b < LS_HIST ? b : LS_HIST - 1;
}

/* Copy of a live stat (counters, configuration, no scratch). */
void lock_stat_snapshot(struct lock_stat *out, const struct lock_stat *st);

/*
 * Prepare one worker's LC_NR stats: hold_every = 0 disables hold timing,
 * otherwise it is rounded up to a power of two; owners (shared by all
 * workers, LS_OWNER_SLOTS slots, may be NULL) enables handoff counting.
 */
void lock_stats_init(struct lock_stat *set, unsigned worker,
		     unsigned hold_every, struct lock_owner_slot *owners);
/* Sum `n` per-worker sets (each LC_NR long) into out[LC_NR]. */
void lock_stats_sum(struct lock_stat *out, struct lock_stat *const *sets,
		    unsigned n);
#endif
