/*
 * runstat.h - the harness's lock statistics hooks: per-worker lock_stat
 * sets in the arena, lock_agg trace records at sample boundaries, and the
 * per-class contention columns of every result row.
 */
#ifndef MEMSCALE_RUNSTAT_H
#define MEMSCALE_RUNSTAT_H

#include <stdint.h>

#include "trace/lock_stat.h"

struct run;
struct result;
struct worker;

enum run_phase { PHASE_WARMUP, PHASE_MEASUREMENT, PHASE_STOP };
/* Before the workload's setup: gives every worker zeroed, initialised
 * LC_NR lock stats in the arena (w->lock_stats) unless knob lockstat=off. */
void runstat_setup(struct run *r);
/* For a workload that keeps its own per-worker struct lock_stat[LC_NR]
 * (in the arena): call from setup() for each worker.  Initialises the
 * set with this run's settings (hold sampling, handoff table, worker id,
 * class ids for the trace) and makes the harness report it. */
void runstat_adopt(struct worker *w, struct lock_stat *set);
void runstat_phase(struct run *r, enum run_phase ph);
/* At a sample boundary (workers running): emit lock_agg records. */
void runstat_sample(struct run *r, unsigned sample);
/* After the workers stopped: final aggregates and the contention columns
 * <class>_contended_pct, <class>_wait_avg_ns, <class>_wait_max_ns. */
void runstat_finish(struct run *r, struct result *res);
/* Identifies (workload, lock, counter, mode, workers, knob values). */
uint64_t runstat_config_id(const struct run *r);

#endif
