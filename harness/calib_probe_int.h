/*
 * calib_probe_int.h - what the calibration probe files share
 * (calib_probe.c runs the probes, calib_probe_rec.c records them;
 * calib_probe_mem.c and calib_probe_kernel.c hold the families).  Not
 * for other callers: they use calib_probe.h.
 */
#ifndef MEMSCALE_CALIB_PROBE_INT_H
#define MEMSCALE_CALIB_PROBE_INT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

struct calib;
struct calib_opts;

/* A probe whose slowest repetition is more than this times its fastest is
 * flagged (<probe>.varies = the ratio); a first touch more than
 * FIRST_TOUCH_BOUND times the steady-state re-fault is flagged inflated. */
#define VARIES_BOUND 2.0
#define FIRST_TOUCH_BOUND 2.0

struct pair_line {
	volatile uint64_t word;
	char pad[PAD_SIZE - sizeof(uint64_t)];
} cacheline_aligned;

/* Single-thread micro-sequences; each returns ns per operation. */

/*
 * The loop probes (atomic.uncontended, hit, miss, percpu, list, page,
 * clear, syscall) time their n operations in PROBE_BLOCKS short blocks (a few
 * microseconds to about a millisecond each, far shorter than a time
 * slice) and a repetition is its fastest block's ns per operation: on a
 * shared machine a block can only be slowed down (a preemption, the
 * hypervisor's steal, a busy sibling), and the fastest of many short
 * blocks leaves that out, where one timed loop (format 2) paid every
 * slice the other tasks took in it (page varied 28x, percpu 35x over
 * repetitions under a parallel build).  The walk probe has used the same
 * rule since it was written (walk_block); predict then takes the least
 * disturbed repetition (calib_best).  The index i runs on across blocks,
 * so the bodies see the same sequence as one loop.  The clock read per
 * block costs under 1% of the shortest block here.
 */
#define PROBE_BLOCKS CALIB_PROBE_BLOCKS

#define TIME_BLOCKS(n, i, body)                                              \
	({                                                                   \
		uint64_t per_ = (n) / PROBE_BLOCKS ? (n) / PROBE_BLOCKS : 1;  \
		uint64_t i = 0;                                              \
		double best_ = INFINITY;                                     \
		for (unsigned b_ = 0; b_ < PROBE_BLOCKS; b_++) {             \
			uint64_t end_ = i + per_, t0_ = now_ns();             \
			for (; i < end_; i++) {                              \
				body;                                        \
			}                                                    \
			best_ = fmin(best_, (double)(now_ns() - t0_) / (double)per_); \
		}                                                            \
		best_;                                                       \
	})


enum fault_kind {
	FAULT_FIRST, FAULT_ANON, FAULT_ZERO, FAULT_WP, FAULT_COW, FAULT_SHARED,
	FAULT_POPULATE,
};

#define FAULT_PAGES 1024

/* ---- calib_probe_rec.c: recording ---- */

/* The CPU's total and steal jiffies so far (/proc/stat); false where
 * unreadable. */
bool calib_cpu_jiffies(double *total, double *steal);
/* The steal in % of CPU time since the last call (NAN the first time). */
double calib_steal_since_last(void);

/* A probe's repetitions v[0..n) and the steal (percent of CPU time)
 * while they ran; calib_record takes the steal since the last probe. */
void calib_record_steal(struct calib *c, const char *probe, double *v, size_t n,
			bool verbose, double steal);
void calib_record(struct calib *c, const char *probe, double *v, size_t n,
		  bool verbose);
/* n scaled by --scale, at least 1. */
uint64_t calib_probe_scaled(const struct calib_opts *o, uint64_t n);

/* ---- calib_probe_mem.c ---- */

void calib_probe_pairs(struct calib *c, const struct calib_opts *o,
		       struct pair_line *line);
void calib_probe_locks(struct calib *c, const struct calib_opts *o,
		       struct pair_line *line);
/* Single-thread loops, ns per operation (TIME_BLOCKS). */
double calib_time_atomic(uint64_t n, struct pair_line *l);
double calib_time_chase(uint64_t n, size_t bytes);
double calib_time_percpu(uint64_t n, struct pair_line *shared);
double calib_time_list(uint64_t n);
double calib_time_page_copy(uint64_t n);

/* ---- calib_probe_kernel.c ---- */

bool calib_insn_open(void);
void calib_insn_start(void);
double calib_insn_stop(void);
/* How instructions are counted here (meta.instructions). */
const char *calib_insn_how(void);
double calib_clock_pair_ns(void);
double calib_time_faults(enum fault_kind k, size_t pages, double clock_ns, double *insn);
void calib_probe_faults(struct calib *c, const struct calib_opts *o);
void calib_derive_parts(struct calib *c);
double calib_time_syscall_blocks(uint64_t n);
double calib_time_syscall(uint64_t n);

#endif
