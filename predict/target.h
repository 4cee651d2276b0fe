/*
 * target.h - target-machine profiles: the machine a prediction is made
 * for, and what comes from where.
 *
 * A profile describes a machine's topology (sockets, NUMA nodes, cores,
 * SMT) and its hardware costs (same-socket and cross-socket cache-line
 * transfer, DRAM miss, uncontended atomic, L1 hit, clock, adjacent-line
 * prefetch pairing).  Every value carries its source: vendor
 * documentation or a published measurement; never a published A/B
 * result of the seeds.  One file per profile under predict/targets/,
 * registered with REGISTER(target, NAME); `memscale list targets` prints
 * them with their sources.
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
	struct tval pair_bytes;     /* 128: adjacent-line prefetch pairs lines */
	const char *stand_in;       /* NULL, or why another CPU's figures stand in */
};

/* The name of the profile built from the calibration file. */
#define TARGET_HERE "here"

const struct target *target_find(const char *name);
/* Name-sorted registry (cached, not to be freed); returns the count. */
size_t target_all(const struct target ***out);
/* "this machine": topology from the calibration file's meta.* keys (hwloc
 * at calibration time), costs measured there. */
void target_here(struct target *t, const struct calib *c);
/* Prints every profile with its sources (`memscale list targets`). */
void target_list(FILE *f);

enum param_origin {
	ORIGIN_MEASURED,     /* measured here (calibration file) */
	ORIGIN_SCALED,       /* measured here, scaled by the clock ratio */
	ORIGIN_PROFILE,      /* target profile, with its source */
	ORIGIN_MODEL,        /* follows from the model's definition */
	ORIGIN_NOT_MEASURED, /* no figure: left out of the program */
	ORIGIN_CLI,          /* set on the command line */
};

#define TARGET_MAX_PARAMS 24

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

/* Composes the costs for target t from calibration c. */
void target_costs(const struct target *t, const struct calib *c,
		  const struct target_overrides *ov, struct target_costs *out);
void target_print_params(const struct target *t, const struct target_costs *tc,
			 FILE *f);
const char *param_origin_name(enum param_origin o);

#endif
