/*
 * wlspec.h - the one definition of a benchmark workload (will-it-scale,
 * vm-scalability, AIM9): its name, the suite and the suite's name of the
 * test, its mmtests benchmark, the kernel's entries per operation (faults,
 * syscalls, page copies and clears), the model operation (struct
 * mwl_desc, workloads/model/model_workload.h) and the kernel loop (struct
 * kwl, workloads/kernel/kbackend.h).
 *
 * Each workloads/model/wl_NAME.c holds one: its model operation and
 * MODEL_WORKLOAD(...), its kernel twin KERNEL_WORKLOAD(...) (the loop
 * itself in workloads/kernel/kwl_*.c), and WORKLOAD_SPEC(...), which
 * registers the spec (REGISTER(wl_spec, ...)).  Everything else reads
 * it: the kernel backend's expected faults per operation
 * (wl_spec_faults_per_kop), the export maps (cli/cmd_export.c,
 * cli/export_lkp.c) and the compare's LKP names (workload_suite).
 */
#ifndef MEMSCALE_WLSPEC_H
#define MEMSCALE_WLSPEC_H

#include "harness/workload.h"

/* The benchmark suite a workload comes from. */
enum wl_suite {
	WL_SUITE_WIS = 1, /* antonblanchard/will-it-scale */
	WL_SUITE_VMSCAL,  /* vm-scalability (case-lru-*) */
	WL_SUITE_AIM9,    /* AIM9 (aim7/creat-clo.c) */
};

/* The kernel's entries per operation (for kwork=probes and the simulator's
 * program, models/record.h): page faults, syscalls and page copies the
 * real benchmark operation takes. */
struct mwl_kentry {
	double faults, syscalls, copies;
	/* clears: pages the kernel path zeroes (clear_page: the zeroed anon
	 * folio of do_anonymous_page, a new shmem folio, a page-table page);
	 * copies are whole-page copies, a separate cost: CoW's copy_page,
	 * a 4 KiB read()'s copy of the page cache folio to user space.
	 * private_atomics: atomics on memory of this CPU alone that no model
	 * path makes (page_fault2's page-cache lookup of its own file folio:
	 * folio_try_get, folio_lock, folio_unlock, folio_put). */
	double clears, private_atomics;
};

struct mwl_desc;
struct kwl;

struct wl_spec {
	const char *name;      /* the model workload; kernel:NAME its twin */
	enum wl_suite suite;
	const char *test;      /* the suite's name: "page_fault2", "lru-shm", "page_test" */
	const char *mmtests;   /* mmtests' benchmark (drivers/driver-wis-*.sh); NULL: none */
	struct mwl_kentry kentry;
	/* operations of the kernel twin per model operation (AIM9's counts
	 * brk calls, the model page_test calls); 0 means 1 */
	double kops_per_op;
	/* What the benchmark's own timer leaves out of an operation, which a
	 * prediction for a target profile does not record
	 * (model_params.bench_window); NULL: it times the whole operation */
	const char *untimed;
	const struct mwl_desc *model; /* the model operation */
	const struct kwl *kernel;     /* the kernel loop; NULL: none */
};

REGISTRY_BOUNDS(wl_spec);

/* Defines and registers NAME_spec; the model part (MODEL_WORKLOAD(NAME,
 * ...)) comes first in the file, and the kernel part, if any, too:
 *   WORKLOAD_SPEC(page_fault2, .suite = WL_SUITE_WIS, .test = "page_fault2",
 *                 .mmtests = "wis-pf", .kentry = { .faults = 1, ... },
 *                 .kernel = &page_fault2_kernel); */
#define WORKLOAD_SPEC(ident, ...)                                             \
	const struct wl_spec ident##_spec = {                                 \
		.name = #ident, .model = &ident##_desc, __VA_ARGS__           \
	};                                                                    \
	REGISTER(wl_spec, ident##_spec)

/* Every spec, sorted by name (cached), and one by name: "NAME" or
 * "kernel:NAME"; NULL when NAME has none (lock, counter). */
size_t wl_spec_all(const struct wl_spec ***out);
const struct wl_spec *wl_spec_find(const char *name);
/* The suite's name as LKP spells it ("will-it-scale", "vm-scalability",
 * "aim9"), or NULL for a workload of no suite. */
const char *wl_suite_name(enum wl_suite s);
/* The suite of workload `name` (as wl_spec_find reads it), or NULL. */
const char *workload_suite(const char *name);
/* Minor faults one operation of the kernel twin takes: kentry.faults
 * over kops_per_op. */
double wl_spec_faults_per_kop(const struct wl_spec *s);

#endif
