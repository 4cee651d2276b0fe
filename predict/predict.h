/*
 * predict.h - extrapolation of the seed A/B experiments to many-core
 * machines with the simulator (sim_memcg.h), side by side with the
 * published changes.
 *
 * Each experiment has a small table of A/B pairs: a workload, the knob
 * settings shared by both sides, the knob that differs, and the published
 * changes with their machine sizes and citations (commit messages and
 * LKP reports, cited in predict.c).  The published numbers are used ONLY for display and
 * for the error columns; nothing is fitted to them: every cost comes from
 * the calibration probes.
 */
#ifndef MEMSCALE_PREDICT_H
#define MEMSCALE_PREDICT_H

#include <stddef.h>
#include <stdio.h>

#include "predict/calib.h"

struct published {
	unsigned cpus;    /* machine size (0: not stated) */
	double lo, hi;    /* % change; lo == hi for one number */
	const char *note; /* machine and citation */
};

#define PREDICT_MAX_PUB 4

struct seed_pair {
	const char *workload;
	const char *common;  /* "key=value,..." for both sides */
	const char *a, *b;   /* the differing settings */
	struct published pub[PREDICT_MAX_PUB];
};

struct experiment_def {
	const char *name;
	const char *summary;
	const struct seed_pair *pairs;
	size_t npairs;
};

const struct experiment_def *predict_find(const char *name);
/* NULL-terminated list of names, for messages. */
const char *predict_names(void);

struct predict_opts {
	long *cpus;
	size_t ncpus;
	uint64_t iters;       /* simulated iterations per configuration */
	unsigned line_size;   /* 0: print both 64 and 128 */
	enum sim_lock_kind lock_kind;
	double walk_miss;     /* NAN: the calibration default (assumption) */
	double remote_factor; /* NAN: 1 (nothing to calibrate on one node) */
};

/* NUMA nodes assumed for a machine of `cpus` CPUs (the seed machines:
 * up to 56 CPUs one node, up to 112 two, beyond that four). */
unsigned predict_nodes(unsigned cpus);

/* Prints the table; returns 0, or EXIT_USAGE on a bad table entry. */
int predict_run(const struct experiment_def *e, const struct calib *c,
		const struct predict_opts *o, FILE *out);

/* Applies "k=v,k=v" through the knob registry (exit 2 on bad input). */
void predict_apply_knobs(struct knobset *ks, const char *list);

#endif
