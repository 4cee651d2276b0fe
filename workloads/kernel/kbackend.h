/*
 * kbackend.h - the kernel backend: will-it-scale, vm-scalability and AIM9
 * style loops run as real syscalls inside real memory cgroups, through the
 * same harness as the models (`memscale run page_fault2 --backend kernel`
 * runs the workload registered as `kernel:page_fault2`).
 *
 * A workload's kernel twin is a struct kwl, defined with its spec in
 * workloads/model/wl_NAME.c by KERNEL_WORKLOAD(...): its loop (in a
 * kwl_*.c file here, declared below), an optional per-worker preparation
 * (files, mappings) and whether it needs a tmpfs directory.  The page
 * faults one operation is expected to take (checked by the tests against
 * getrusage() and memory.stat) come from the spec's kernel entries
 * (workloads/wlspec.h).  Everything else - memcg hierarchy, placement of
 * workers, tmpfs mount, memory.stat deltas, kernel facts - is shared here.
 */
#ifndef MEMSCALE_KBACKEND_H
#define MEMSCALE_KBACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "harness/workload.h"
#include "workloads/wlspec.h"

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
	const char *base;         /* the spec's name, e.g. "page_fault2" */
	const struct wl_spec *spec; /* expected faults: wl_spec_faults_per_kop */
	const char *op_unit;      /* what one counted operation is */
	enum kwl_dir dir;
	unsigned flags;
	/* In the worker, before the gate: open files, map memory.  Returns 0
	 * or -errno (the worker then reports it and the run fails). */
	int (*prepare)(struct worker *w, struct kb_worker *kw, const char *dir);
	/* The measured loop; use kb_done_pages() to count operations. */
	void (*loop)(struct worker *w, struct kb_worker *kw);
};

/* Defines and registers `kernel:NAME` as NAME_kernel, the kernel twin of
 * the spec NAME_spec in the same file; the rest are struct kwl fields.
 * wlflags_ adds workload flags, e.g. WL_F_PROCESSES_ONLY for a workload
 * that needs its own mm (brk). */
#define KERNEL_WORKLOAD(ident, wlflags_, desc_, ...)                          \
	extern const struct wl_spec ident##_spec;                             \
	static const struct kwl ident##_kernel = {                            \
		.wl = {                                                       \
			.name = "kernel:" #ident, .description = desc_,       \
			.flags = WL_F_KERNEL | (wlflags_),                    \
			.setup = kb_setup, .worker_init = kb_worker_init,     \
			.run = kb_run, .finish = kb_finish,                   \
			.teardown = kb_teardown, .sidecar = kb_sidecar,       \
			.read_knobs = kb_read_knobs,                          \
		},                                                            \
		.base = #ident, .spec = &ident##_spec, __VA_ARGS__            \
	};                                                                    \
	REGISTER(workload, ident##_kernel)

/* The loops and preparations of the kwl_*.c files. */
void kwl_pf1_loop(struct worker *w, struct kb_worker *kw);      /* page_fault1 */
void kwl_pf2_loop(struct worker *w, struct kb_worker *kw);      /* page_fault2 */
void kwl_pf3_loop(struct worker *w, struct kb_worker *kw);      /* page_fault3 */
int kwl_pf_prepare_file(struct worker *w, struct kb_worker *kw, const char *dir);
void kwl_fallocate_loop(struct worker *w, struct kb_worker *kw); /* fallocate1/2 */
int kwl_fallocate_prepare(struct worker *w, struct kb_worker *kw, const char *dir);
void kwl_tlb_flush2_loop(struct worker *w, struct kb_worker *kw);
void kwl_malloc1_loop(struct worker *w, struct kb_worker *kw);
void kwl_lru_shm_loop(struct worker *w, struct kb_worker *kw);
int kwl_lru_shm_prepare(struct worker *w, struct kb_worker *kw, const char *dir);
void kwl_aim9_page_test_loop(struct worker *w, struct kb_worker *kw);
void kwl_aim9_brk_test_loop(struct worker *w, struct kb_worker *kw);

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
