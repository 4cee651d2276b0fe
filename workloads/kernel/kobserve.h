/*
 * kobserve.h - what the kernel itself counted during a kernel-backend run:
 * deltas of /proc/vmstat and of the leaves' memory.stat, of /proc/lock_stat
 * where the kernel has CONFIG_LOCK_STAT, and (knob kperf_lock=on, where
 * perf is installed and permitted) a `perf lock record` of the run read
 * back with `perf lock contention`, beside memscale's own lockstat.  Each
 * run's record goes into the JSON sidecar (object "kernel_observability").
 */
#ifndef MEMSCALE_KOBSERVE_H
#define MEMSCALE_KOBSERVE_H

#include <stdint.h>

#include "core/json.h"
#include "core/knob.h"
#include "workloads/kernel/cgroup.h"

/* Before the workers start: snapshots, and perf when asked for. */
void kobs_begin(struct knobset *ks, const struct cg_stat *memstat_before);
/* Reads the knobs kobs_begin() reads, starting nothing (a dry run). */
void kobs_read_knobs(struct knobset *ks);
/* After they stopped: deltas of this run (memstat_after NULL without
 * memcgs), kept for the sidecar. */
void kobs_end(unsigned workers, unsigned rep, uint64_t ops,
	      const struct cg_stat *memstat_after);
/* Every finished run's record, as "kernel_observability": [...]. */
void kobs_sidecar(struct json *j);

/* Parsing, for tests: "name value" lines (/proc/vmstat); /proc/lock_stat
 * class lines.  Return the number of entries read, -1 if unreadable. */
struct kobs_kv { char *name; double v[3]; };
int kobs_read_vmstat(const char *path, struct kobs_kv **out);
int kobs_read_lock_stat(const char *path, struct kobs_kv **out);
void kobs_kv_free(struct kobs_kv *kv, int n);

#endif
