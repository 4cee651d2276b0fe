/*
 * memscale_tp.h - the LTTng-UST tracepoint provider "memscale"
 * (lttng-ust 2.13 LTTNG_UST_TRACEPOINT_EVENT API; see lttng-ust(3)).
 *
 * Included only through trace/tp.h when built with TRACE=1; trace/tp.c
 * instantiates the probes.  Event and field meanings: docs/tracing.md.
 *
 * Per-event records exist only for the contended path of tracked locks
 * (contention_begin/end, lock_release of a contended hold), counter folds
 * and stats flushes; the uncontended fast path is summarised by lock_agg,
 * one per worker and lock class at each sample boundary and at run end.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER memscale

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "trace/memscale_tp.h"

#if !defined(MEMSCALE_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define MEMSCALE_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

#include "trace/lock_stat.h"

/* Lock classes as a CTF enumeration: one byte per event, names in the
 * metadata.  Labels must equal lock_class_names[] (tests check it);
 * "unclassified": stats that never went through lock_stats_init(). */
LTTNG_UST_TRACEPOINT_ENUM(memscale, lock_class,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("pgdat->lru_lock", LC_PGDAT_LRU)
		lttng_ust_field_enum_value("lruvec->lru_lock", LC_LRUVEC_LRU)
		lttng_ust_field_enum_value("page_counter", LC_PAGE_COUNTER)
		lttng_ust_field_enum_value("stats_flush", LC_STATS_FLUSH)
		lttng_ust_field_enum_value("percpu_counter->lock", LC_COUNTER_FOLD)
		lttng_ust_field_enum_value("bench", LC_BENCH)
		lttng_ust_field_enum_value("zone->lock", LC_ZONE)
		lttng_ust_field_enum_value("unclassified", LC_UNCLASSIFIED)
	)
)

/* A tracked lock's trylock failed; the worker starts waiting. */
LTTNG_UST_TRACEPOINT_EVENT(memscale, contention_begin,
	LTTNG_UST_TP_ARGS(int, cls, const void *, lock, uint32_t, worker),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(memscale, lock_class, uint8_t, cls, cls)
		lttng_ust_field_integer_hex(uint64_t, lock, (uintptr_t)lock)
		lttng_ust_field_integer(uint32_t, worker, worker)
	)
)

/* The waiting worker got the lock after wait_ns (its own clock reads). */
LTTNG_UST_TRACEPOINT_EVENT(memscale, contention_end,
	LTTNG_UST_TP_ARGS(int, cls, const void *, lock, uint32_t, worker,
			  uint64_t, wait_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(memscale, lock_class, uint8_t, cls, cls)
		lttng_ust_field_integer_hex(uint64_t, lock, (uintptr_t)lock)
		lttng_ust_field_integer(uint32_t, worker, worker)
		lttng_ust_field_integer(uint64_t, wait_ns, wait_ns)
	)
)

/* Release of a hold that began with contention_end; hold_ns is its length. */
LTTNG_UST_TRACEPOINT_EVENT(memscale, lock_release,
	LTTNG_UST_TP_ARGS(int, cls, const void *, lock, uint32_t, worker,
			  uint64_t, hold_ns),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(memscale, lock_class, uint8_t, cls, cls)
		lttng_ust_field_integer_hex(uint64_t, lock, (uintptr_t)lock)
		lttng_ust_field_integer(uint32_t, worker, worker)
		lttng_ust_field_integer(uint64_t, hold_ns, hold_ns)
	)
)

/* Cumulative per-worker, per-class statistics since the run began (the
 * last one of a run is final; counts are never deltas, so a lost record
 * costs resolution, not totals). */
LTTNG_UST_TRACEPOINT_EVENT(memscale, lock_agg,
	LTTNG_UST_TP_ARGS(uint64_t, config, uint32_t, rep, uint32_t, sample,
			  int, cls, uint32_t, worker, const struct lock_stat *, st),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(uint64_t, config, config)
		lttng_ust_field_integer(uint32_t, rep, rep)
		lttng_ust_field_integer(uint32_t, sample, sample)
		lttng_ust_field_enum(memscale, lock_class, uint8_t, cls, cls)
		lttng_ust_field_integer(uint32_t, worker, worker)
		lttng_ust_field_integer(uint64_t, acquired, st->acquired)
		lttng_ust_field_integer(uint64_t, contended, st->contended)
		lttng_ust_field_integer(uint64_t, wait_ns, st->wait_ns)
		lttng_ust_field_integer(uint64_t, wait_min_ns, st->wait_min_ns)
		lttng_ust_field_integer(uint64_t, wait_max_ns, st->wait_max_ns)
		lttng_ust_field_integer(uint64_t, hold_n, st->hold_n)
		lttng_ust_field_integer(uint64_t, hold_ns, st->hold_ns)
		lttng_ust_field_integer(uint64_t, hold_max_ns, st->hold_max_ns)
		lttng_ust_field_integer(uint64_t, handoffs, st->handoffs)
		lttng_ust_field_array(uint64_t, wait_hist, st->wait_hist, LS_HIST)
		lttng_ust_field_array(uint64_t, hold_hist, st->hold_hist, LS_HIST)
	)
)

/* A per-CPU/per-worker counter delta folded into the shared total. */
LTTNG_UST_TRACEPOINT_EVENT(memscale, counter_fold,
	LTTNG_UST_TP_ARGS(const char *, counter, uint32_t, worker,
			  int64_t, delta, int64_t, total),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(counter, counter)
		lttng_ust_field_integer(uint32_t, worker, worker)
		lttng_ust_field_integer(int64_t, delta, delta)
		lttng_ust_field_integer(int64_t, total, total)
	)
)

/* One stats flush (rstat-style): how long, how many updates it folded. */
LTTNG_UST_TRACEPOINT_EVENT(memscale, stats_flush,
	LTTNG_UST_TP_ARGS(uint32_t, worker, uint64_t, duration_ns,
			  uint64_t, nr_updates),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint32_t, worker, worker)
		lttng_ust_field_integer(uint64_t, duration_ns, duration_ns)
		lttng_ust_field_integer(uint64_t, nr_updates, nr_updates)
	)
)

/* Harness phase changes: warmup, measurement, stop. */
LTTNG_UST_TRACEPOINT_EVENT(memscale, run_phase,
	LTTNG_UST_TP_ARGS(const char *, phase, uint64_t, config,
			  const char *, workload, const char *, lock,
			  uint32_t, workers, uint32_t, rep),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(phase, phase)
		lttng_ust_field_integer_hex(uint64_t, config, config)
		lttng_ust_field_string(workload, workload)
		lttng_ust_field_string(lock, lock)
		lttng_ust_field_integer(uint32_t, workers, workers)
		lttng_ust_field_integer(uint32_t, rep, rep)
	)
)

#endif /* MEMSCALE_TP_H */

#include <lttng/tracepoint-event.h>
