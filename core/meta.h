/*
 * meta.h - provenance recorded with every result: machine (CPU model,
 * packages/cores/PUs/NUMA from hwloc, kernel), compiler and flags, git
 * commit, time, and as LKP keeps it: the kernel configuration options
 * that matter (from /proc/config.gz or /boot/config-RELEASE when
 * readable), and at the start and end of a run the CPU frequency
 * governor, turbo/boost, THP mode, ASLR, load average and steal.
 */
#ifndef MEMSCALE_META_H
#define MEMSCALE_META_H

#include "core/json.h"

const char *meta_git_commit(void);
const char *meta_hostname(void);
const char *meta_kernel(void);
const char *meta_compiler(void);
const char *meta_cflags(void);
/* ISO-8601 UTC time of the call, in a static buffer. */
const char *meta_now_iso(void);
/* The JSON sidecar beside a results CSV: X.csv -> X.json (else X.json
 * appended).  Heap string. */
char *meta_sidecar_path(const char *csv_path);
/*
 * The one machine description (hostname, CPU model, packages, cores, PUs,
 * NUMA nodes, online CPUs, kernel) and build description (compiler,
 * flags, git commit).  Every output writes these lists: the JSON
 * sidecar's "machine" and "build" objects (meta_json) and a calibration
 * file's meta.KEY lines (harness/calib_probe.c).  A new fact is one line
 * in core/meta.c.
 */
struct meta_fact {
	const char *key;  /* e.g. "cpu_model" */
	const char *text; /* the value, or NULL when it is the number num */
	long num;
};
#define META_FACTS_MAX 16
/* Fill f (META_FACTS_MAX entries); return the count. */
size_t meta_machine(struct meta_fact *f);
size_t meta_build(struct meta_fact *f);
/* Writes the "machine", "build", "kernel_config" and "environment"
 * objects into an open JSON object. */
void meta_json(struct json *j);
/* The environment at the start (taken once, at the latest by the first
 * meta_json) and at the end of the run; a sidecar written after
 * meta_env_end() holds both, and the steal percentage between them. */
void meta_env_start(void);
void meta_env_end(void);

#endif
