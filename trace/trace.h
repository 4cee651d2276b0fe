/*
 * trace.h - the tracing layer: LTTng-UST tracepoints (provider "memscale",
 * trace/memscale_tp.h), the harness hooks that turn per-worker lock
 * statistics into trace aggregates and result columns, session control
 * for `memscale run --trace`, and the babeltrace2 reader behind
 * `memscale lockstat`.
 *
 * Built with TRACE=0 (no -DMEMSCALE_TRACE) the tracepoints compile to
 * nothing, the statistics and result columns still work, and asking for a
 * trace session exits 2.
 */
#ifndef MEMSCALE_TRACE_H
#define MEMSCALE_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "../locks/tracked.h"

/* ThreadSanitizer builds (make check-tsan) compile tracing out: TSan does
 * not see lttng-ust's RCU publication of probes (uninstrumented liburcu)
 * and reports every enabled tracepoint as a race, and it refuses the
 * listener threads lttng-ust starts in forked children. */
#if defined(MEMSCALE_TRACE) && defined(__SANITIZE_THREAD__)
#undef MEMSCALE_TRACE
#endif

#ifdef MEMSCALE_TRACE
#include "memscale_tp.h"
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

struct run;
struct result;

/* --- events for other layers (cheap no-ops while not traced) --- */
void trace_counter_fold(const char *counter, unsigned worker, int64_t delta,
			int64_t total);
void trace_stats_flush(unsigned worker, uint64_t duration_ns,
		       uint64_t nr_updates);

/* --- harness hooks (trace/runstat.c) --- */
enum run_phase { PHASE_WARMUP, PHASE_MEASUREMENT, PHASE_STOP };
/* Before the workload's setup: gives every worker zeroed, initialised
 * LC_NR lock stats in the arena (w->lock_stats) unless knob lockstat=off. */
void runstat_setup(struct run *r);
/* For a workload that keeps its own per-worker struct lock_stat[LC_NR]
 * (in the arena): call from setup() for each worker.  Initialises the
 * set with this run's settings (hold sampling, handoff table, worker id,
 * class ids for the trace) and makes the harness report it. */
struct worker;
void runstat_adopt(struct worker *w, struct lock_stat *set);
void runstat_phase(struct run *r, enum run_phase ph);
/* At a sample boundary (workers running): emit lock_agg records. */
void runstat_sample(struct run *r, unsigned sample);
/* After the workers stopped: final aggregates and the contention columns
 * <class>_contended_pct, <class>_wait_avg_ns, <class>_wait_max_ns. */
void runstat_finish(struct run *r, struct result *res);
/* Identifies (workload, lock, counter, mode, workers, knob values). */
uint64_t runstat_config_id(const struct run *r);

/* --- session control (trace/session.c) --- */
struct trace_session;
/* Checks the tracer is usable and DIR writable (exit 2 with one line if
 * not), creates and starts a session writing to dir (NULL: beside `out`,
 * or results/trace-TIME).  only_self: record this process only. */
struct trace_session *trace_session_start(const char *dir, const char *out,
					  bool only_self);
/* Stops, destroys, reports events and discarded events on stderr.
 * Returns 0, or 1 if the session could not be stopped cleanly. */
int trace_session_stop(struct trace_session *s);
/* Process mode: add forked workers to the session's vpid tracker (no-op
 * without a session).  Call before the workers pass the start gate. */
void trace_track_workers(const pid_t *pids, unsigned n);

#endif
