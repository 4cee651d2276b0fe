/*
 * calib_probe.h - the probes behind `memscale model calibrate`: they
 * measure this machine and fill a calibration file (predict/calib.h,
 * which lists every probe).
 */
#ifndef MEMSCALE_CALIB_PROBE_H
#define MEMSCALE_CALIB_PROBE_H

#include <stdbool.h>

#include "models/memcg.h"
#include "predict/calib.h"

struct calib_opts {
	unsigned reps;       /* repetitions per probe (default 7) */
	double scale;        /* iteration count multiplier (1 = default) */
	bool locks;          /* probe every registry lock */
	bool workloads;      /* 1-worker runs of the kernel-model workloads */
	double wl_seconds;   /* measured seconds per workload run */
	bool verbose;        /* progress on stderr */
};

void calib_opts_default(struct calib_opts *o);
/* Runs every probe; fills c (meta header included). */
void calib_measure(struct calib *c, const struct calib_opts *o);
/* One single-thread probe ("fault", "syscall", "page"), the best of
 * `reps` repetitions, in ns per operation; NAN for another name. */
double calib_probe_best(const char *probe, unsigned reps);
#endif
