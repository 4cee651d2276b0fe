/*
 * calib.h - calibration probes and the calibration file.
 *
 * Probes (each repeated `reps` times; the file keeps median, quartiles,
 * min and max so the spread is visible):
 *   xfer.store     one-way cache-line hand-off: two pinned threads take
 *                  turns writing a flag (ping-pong round trip / 2)
 *   xfer.atomic    the same with the turn taken by an atomic add
 *   xfer.load      a load of a line the other core keeps writing
 *   atomic.uncontended / atomic.contended   fetch-add on a private line /
 *                  on one line hammered by both cores (ns per op)
 *   hit, miss      dependent loads within 4 KiB / across 64 MiB
 *   percpu         per-CPU add with threshold fold (lib/percpu_counter.c shape)
 *   list           list_add + list_del
 *   page           copy of one 4 KiB page
 *   fault          one first-touch fault of an anonymous page (median of
 *                  individually timed touches of a region mapped before
 *                  the clock starts; this machine's kernel, one thread)
 *   unmap          munmap of that region, per page
 *   <probe>.steal_pct  CPU time stolen by the hypervisor while the probe
 *                  ran (only when non-zero); steal_pct for the whole
 *                  calibration (the machine's meta.hypervisor and
 *                  meta.cpu_mhz come from core/meta.c)
 *   syscall        getppid() round trip
 *   walk.permemcg / walk.cached   one ancestor level of the per-memcg
 *                  flush threshold's walk per stat update (8d59d2214c23 /
 *                  9cee7e8ef3e3), depth 5 minus depth 1 over 4 levels, the
 *                  cache state left by the kernel footprint walk between
 *                  updates (harness/calib_probe.c); optional
 *   lock.NAME.uncontended / lock.NAME.pair   every registry lock: lock +
 *                  unlock alone, and per acquisition with two pinned
 *                  threads strictly alternating (hand-off plus one flag
 *                  transfer)
 *   wl.NAME        per-op cost of a kernel-model workload, one worker
 *                  through harness_run_one (when the workload exists)
 *
 * File: "key = value" lines, '#' comments; a header of machine metadata
 * (meta.KEY: the machine and build description of core/meta.h, the same
 * facts a result's JSON sidecar holds, plus meta.time and meta.reps);
 * "format = memscale-calib 1" first.  Every probe value is a
 * non-negative finite number in ns.  Loading checks the format line and
 * the required probes and rejects any malformed line.
 */
#ifndef MEMSCALE_CALIB_H
#define MEMSCALE_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "predict/sim_memcg.h"

#define CALIB_FORMAT "memscale-calib 1"

struct calib_entry {
	char *key;
	char *value; /* as written */
	double num;  /* parsed number (NAN for meta text) */
};

struct calib {
	struct calib_entry *e;
	size_t n, cap;
};

int calib_write(const struct calib *c, FILE *f);

/* Returns 0, or -1 with a one-line message in err. */
int calib_load(struct calib *c, const char *path, char *err, size_t errlen);
int calib_parse(struct calib *c, FILE *f, const char *name, char *err,
		size_t errlen);
/* calib_load or die(EXIT_USAGE, ...). */
void calib_load_or_die(struct calib *c, const char *path);
void calib_free(struct calib *c);

void calib_set(struct calib *c, const char *key, const char *value);
void calib_set_num(struct calib *c, const char *key, double v);
const char *calib_str(const struct calib *c, const char *key);
/* NAN when absent. */
double calib_num(const struct calib *c, const char *key);
/* "<probe>.median_ns" (NAN when absent). */
double calib_median(const struct calib *c, const char *probe);

#endif
