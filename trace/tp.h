/*
 * tp.h - memscale's tracepoints: the LTTng-UST provider "memscale"
 * (trace/memscale_tp.h) behind MS_TP(), and the two events other layers
 * emit through functions (counter folds, stats flushes).  The bottom of
 * the tracing stack: it depends on core/ only.
 *
 * Built with TRACE=0 (no -DMEMSCALE_TRACE) the tracepoints compile to
 * nothing; lock statistics and result columns still work.
 */
#ifndef MEMSCALE_TP_H_API
#define MEMSCALE_TP_H_API

#include <stdbool.h>
#include <stdint.h>

#include "trace/lock_stat.h"

/* ThreadSanitizer builds (make check-tsan) compile tracing out: TSan does
 * not see lttng-ust's RCU publication of probes (uninstrumented liburcu)
 * and reports every enabled tracepoint as a race, and it refuses the
 * listener threads lttng-ust starts in forked children. */
#if defined(MEMSCALE_TRACE) && defined(__SANITIZE_THREAD__)
#undef MEMSCALE_TRACE
#endif

#ifdef MEMSCALE_TRACE
#include "trace/memscale_tp.h"
/* One load and a predicted-not-taken branch while no session enables it. */
#define MS_TP(name, ...) lttng_ust_tracepoint(memscale, name, __VA_ARGS__)
#define MS_TP_ENABLED(name) lttng_ust_tracepoint_enabled(memscale, name)
#define TRACE_BUILT_IN 1
#else
/* Arguments are type-checked and count as used, but never evaluated. */
static inline void ms_tp_compiled_out(int unused, ...) { (void)unused; }
#define MS_TP(name, ...) do { if (0) ms_tp_compiled_out(0, __VA_ARGS__); } while (0)
#define MS_TP_ENABLED(name) 0
#define TRACE_BUILT_IN 0
#endif

/* --- events for other layers (cheap no-ops while not traced) --- */
void trace_counter_fold(const char *counter, unsigned worker, int64_t delta,
			int64_t total);
void trace_stats_flush(unsigned worker, uint64_t duration_ns,
		       uint64_t nr_updates);

#endif
