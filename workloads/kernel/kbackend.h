/*
 * kbackend.h - the kernel backend: will-it-scale, vm-scalability and AIM9
 * style loops run as real syscalls inside real memory cgroups, through the
 * same harness as the models (`memscale run page_fault2 --backend kernel`
 * runs the workload registered as `kernel:page_fault2`).
 *
 * Each kwl_*.c file describes one workload with a struct kwl: its loop,
 * an optional per-worker preparation (files, mappings), whether it needs a
 * tmpfs directory, and the page faults one operation is expected to take
 * (checked by the tests against getrusage() and memory.stat).  Everything
 * else - memcg hierarchy, placement of workers, tmpfs mount, memory.stat
 * deltas, kernel facts - is shared here.
 */
#ifndef MEMSCALE_KBACKEND_H
#define MEMSCALE_KBACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "harness/workload.h"

/* Where a workload's files live. */
enum kwl_dir {
	KWL_DIR_NONE,    /* anonymous memory only */
	KWL_DIR_DEV_SHM, /* /dev/shm, like will-it-scale's fallocate1 */
	KWL_DIR_TMP,     /* "/tmp": a private tmpfs we mount (knob ktmpdir) */
};

enum kwl_flags {
	KWL_F_SIZED = 1u << 1,      /* maps ksize_mb per iteration/worker */
};

/* Per-worker state, in the run arena (so process-mode workers see it). */
struct kb_worker {
	int fd;            /* the worker's file, already unlinked, or -1 */
	char *map;         /* a mapping kept over the run, or NULL */
	size_t size;       /* bytes the workload maps/touches per iteration */
	uint64_t minflt0;  /* getrusage(RUSAGE_THREAD) at the start gate */
	uint64_t minflt;   /* minor faults taken inside the loop */
	uint64_t majflt;
	int err;           /* -errno: joining the memcg, preparing or the loop */
};

struct kwl {
	struct workload wl;       /* first: the registry holds &kwl.wl */
	const char *base;         /* will-it-scale name, e.g. "page_fault2" */
	const char *op_unit;      /* what one counted operation is */
	enum kwl_dir dir;
	unsigned flags;
	double faults_per_op;     /* expected minor faults per operation */
	/* In the worker, before the gate: open files, map memory.  Returns 0
	 * or -errno (the worker then reports it and the run fails). */
	int (*prepare)(struct worker *w, struct kb_worker *kw, const char *dir);
	/* The measured loop; use kb_done_pages() to count operations. */
	void (*loop)(struct worker *w, struct kb_worker *kw);
};

/* Defines and registers `kernel:<base>`; the rest are struct kwl fields.
 * KWL_DEFINE_FLAGS adds workload flags, e.g. WL_F_PROCESSES_ONLY for a
 * workload that needs its own mm (brk). */
#define KWL_DEFINE_FLAGS(ident, base_, wlflags_, desc_, ...)                  \
	const struct kwl ident = {                                            \
		.wl = {                                                       \
			.name = "kernel:" base_, .description = desc_,        \
			.flags = WL_F_KERNEL | (wlflags_),                    \
			.setup = kb_setup, .worker_init = kb_worker_init,     \
			.run = kb_run, .finish = kb_finish,                   \
			.teardown = kb_teardown, .sidecar = kb_sidecar,       \
			.read_knobs = kb_read_knobs,                          \
		},                                                            \
		.base = base_, __VA_ARGS__                                    \
	};                                                                    \
	REGISTER(workload, ident)
#define KWL_DEFINE(ident, base_, desc_, ...)                                  \
	KWL_DEFINE_FLAGS(ident, base_, 0, desc_, __VA_ARGS__)

int kb_setup(struct run *r);
void kb_worker_init(struct worker *w);
void kb_run(struct worker *w);
int kb_finish(struct run *r, struct result *res);
void kb_teardown(struct run *r);
/* The knobs kb_setup() and the run read, creating nothing (a dry run). */
void kb_read_knobs(const struct workload *wl, struct knobset *ks);
struct json;
void kb_sidecar(struct json *j, struct knobset *ks, enum run_mode mode);

/* Bytes the size knob (ksize_mb) asks for: will-it-scale's 128 MB. */
size_t kb_size(struct worker *w);
/* mkstemp in dir, ftruncate to size, unlink; fd or -errno. */
int kb_tmpfile(const char *dir, size_t size);

/* Writes one byte to each page of [p, p + size), counting one op per page
 * and giving up early (returning false) when the run stops. */
bool kb_touch_pages(struct worker *w, char *p, size_t size);

#endif
