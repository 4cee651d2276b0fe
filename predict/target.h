/*
 * target.h - target-machine profiles: the machine a prediction is made
 * for, and what comes from where.
 *
 * A profile describes a machine's topology (sockets, NUMA nodes, cores,
 * SMT) and its hardware costs (same-socket and cross-socket cache-line
 * transfer, local and remote DRAM miss, uncontended atomic, L1, L2 and
 * LLC hit, cache sizes and LLC inclusion, clock, adjacent-line prefetch
 * pairing).  Every value carries its source: vendor
 * documentation or a published measurement; never a published A/B
 * result of the seeds.  A profile is data: one INI file per machine,
 * predict/targets/NAME.ini (read with libinih; format below), or any
 * file given by path wherever a target name is taken (--target FILE), so
 * a user describes their own machine without recompiling; `memscale list
 * targets` prints the profiles of predict/targets/ with their sources.
 *
 *   [target]
 *   name = NAME              # = the file's base name for predict/targets/
 *   description = the machine, and which published rows ran on it
 *   cpu = CPU model, or "not stated"
 *   identified_by = where the machine is named
 *   stand_in = why another CPU's figures stand in   # optional
 *   sockets = 2
 *   nodes = 2
 *   cores = 52               # physical cores, all sockets
 *   cpus = 104               # hardware threads
 *   [facts]                  # every fact, each with its source:
 *   ghz = 2.1                # a number, or '-' when none was found
 *   ghz.source = where the figure comes from (or why there is none)
 *   xfer_ns = @c2c_clx_local # or a figure shared through sources.ini
 *   smt = 2                  # threads per core (cores x smt = cpus)
 *   smt_gain = @smt_gain_linux # two busy threads: 1 + g times one
 *
 * Each fact has a range (a value outside it is refused: one line, exit
 * 2), and the latencies must grow outwards (hit < l2 < llc cycles,
 * xfer_ns <= xfer_remote_ns) where both are given.  Every fact is read by
 * the prediction (tests/target_keys.t fails on one that moves nothing).
 * The facts are those of struct target below; a long value continues on
 * indented lines.  sources.ini ([NAME] value = ..., source = ...) holds
 * the figures several profiles share, written once.
 *
 * The costs a prediction uses are composed by target_costs(): the
 * calibration of the machine at hand supplies what does not depend on
 * the hardware (the local work of an operation, in cycles), the profile
 * supplies the hardware costs; each parameter is recorded with its
 * origin (measured here, from the profile, from the model, not measured,
 * or set on the command line) and printed by target_print_params().
 */
#ifndef MEMSCALE_TARGET_H
#define MEMSCALE_TARGET_H

#include <stdbool.h>
#include <stdio.h>

#include "predict/calib.h"
#include "predict/sim_memcg.h"

/* One sourced value; v is NAN when the profile has no sourced figure. */
struct tval {
	double v;
	const char *src;
};

struct target {
	const char *name;
	const char *description;    /* the machine, and which rows ran on it */
	const char *cpu;            /* CPU model, or "not stated" */
	const char *identified_by;  /* where the machine is named */
	unsigned sockets, nodes, cores, cpus; /* cores: physical; cpus: threads */
	struct tval ghz;            /* clock the local work is scaled to */
	struct tval xfer_ns;        /* one-way line transfer, same socket */
	struct tval xfer_remote_ns; /* one-way line transfer, cross socket */
	struct tval dram_ns;        /* load that misses every cache, local node */
	struct tval atomic_cycles;  /* uncontended locked RMW */
	struct tval hit_cycles;     /* L1 load-to-use */
	struct tval pair_bytes;     /* 128: adjacent-line (spatial) prefetch pairs lines */
	struct tval pair_rfo;       /* 1: the pair line of an ownership (RFO) fill is
				     * prefetched for ownership too; 0: as a shared copy */
	struct tval inval_step_cycles; /* a write's extra cycles per shared copy past the
					* first it invalidates (0: sent in parallel, flat) */
	struct tval l2_kib;         /* L2 per core */
	struct tval llc_mib;        /* last-level cache per socket */
	struct tval l2_cycles;      /* L2 hit load-to-use, core cycles */
	struct tval llc_cycles;     /* LLC hit load-to-use (line unshared), core cycles */
	struct tval llc_victim;     /* 1: non-inclusive LLC filled by L2 victims
				     * (its capacity adds to L2's); 0: inclusive */
	struct tval smt;            /* hardware threads per core */
	struct tval smt_gain;       /* g: two busy threads on one core deliver
				     * 1 + g times one thread's throughput */
	/* A user-kernel round trip (getppid), core cycles: with no mitigation,
	 * the extra of page-table isolation (0: the CPU is not Meltdown
	 * affected) and of IBRS written on entry and exit (0: the kernel's
	 * spectre_v2=auto never picks it on this CPU).  The kernel profile's
	 * mitigations knob says which the kernel enables (models/knobs.c). */
	struct tval entry_cycles, pti_cycles, ibrs_entry_cycles;
	const char *stand_in;       /* NULL, or why another CPU's figures stand in */
	const char *path;           /* the file it was read from */
};

/* The name of the profile built from the calibration file. */
#define TARGET_HERE "here"

/* The directory of the shipped profiles: $MEMSCALE_TARGETS, else beside
 * the binary (bin/../predict/targets), else ./predict/targets. */
const char *target_dir(void);
/* A profile by name (predict/targets/NAME.ini) or by path (an argument
 * with a '/' or ending in .ini); NULL when there is no such profile.  A
 * file that exists but is malformed is refused: one line, exit 2.
 * Loaded once, kept for the process. */
const struct target *target_find(const char *name);
/* The profiles of target_dir(), name-sorted (cached, not to be freed);
 * returns the count. */
size_t target_all(const struct target ***out);
/* "this machine": topology from the calibration file's meta.* keys (hwloc
 * at calibration time), costs measured there. */
void target_here(struct target *t, const struct calib *c);
/*
 * The work reference: the calibration whose probes price every target
 * profile's local kernel work (fault path, page allocator, clearing,
 * list and per-CPU operations, walk steps), in cycles at its clock run
 * at the target's; predict/work/reference.txt says where it was taken.
 * $MEMSCALE_WORK names another directory holding a reference.txt.  A
 * target's prediction thus never reads the machine at hand: its
 * calibration prices target "here" only.  Loaded once; a missing or
 * malformed file is refused (one line, exit 2).
 */
const char *target_work_path(void);
const struct calib *target_work_reference(void);
/* The calibration target t's work comes from: `here` for target "here",
 * the work reference for every profile. */
const struct calib *target_work(const struct target *t, const struct calib *here);
/* The machine at hand against the work reference, probe by probe in
 * cycles at each one's clock: one comment block for `model validate`. */
void target_work_crosscheck(const struct calib *here, FILE *f);
/* Prints every profile with its sources (`memscale list targets`). */
void target_list(FILE *f);

enum param_origin {
	ORIGIN_MEASURED,     /* measured here (calibration file) */
	ORIGIN_SCALED,       /* work reference, scaled by the clock ratio */
	ORIGIN_REFERENCE,    /* work reference, as measured (a latency) */
	ORIGIN_PROFILE,      /* target profile, with its source */
	ORIGIN_MODEL,        /* follows from the model's definition */
	ORIGIN_NOT_MEASURED, /* no figure: left out of the program */
	ORIGIN_CLI,          /* set on the command line */
};

#define TARGET_MAX_PARAMS 64

struct param_note {
	const char *name;
	double value;
	const char *unit;
	enum param_origin origin;
	char src[400];
};

/* What a prediction runs with. */
struct target_costs {
	struct memcg_costs c;
	unsigned nodes;     /* NUMA nodes of the target */
	unsigned line_size; /* coherence unit the programs use (64 or 128) */
	struct param_note p[TARGET_MAX_PARAMS];
	size_t np;
	char warnings[512]; /* probes that varied wildly, VM, steal */
};

/* Overrides from the command line; NAN / 0 when not given. */
struct target_overrides {
	double walk_miss;
	double remote_factor;
	unsigned line_size;
};

/* Composes the costs for target t; c is target_work(t, the machine's
 * calibration): its probes price the local work. */
void target_costs(const struct target *t, const struct calib *c,
		  const struct target_overrides *ov, struct target_costs *out);
void target_print_params(const struct target *t, const struct target_costs *tc,
			 FILE *f);
const char *param_origin_name(enum param_origin o);
/* This machine's costs (target "here" composed from calibration c). */
void calib_costs(const struct calib *c, struct memcg_costs *out);

#endif
