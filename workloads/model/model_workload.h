/*
 * model_workload.h - what the will-it-scale / vm-scalability / AIM9
 * workloads over the memcg model (models/memcg.h) share: set-up of the
 * model from the knobs, the measured loop, the kernel operations a
 * benchmark step is made of (anonymous fault, munmap, shmem page in and
 * truncate), per-operation metrics and the invariants at the end.
 *
 * A workload file is a header comment with its op table, one function for
 * one benchmark operation, one for the expected counts, and
 * MODEL_WORKLOAD(...).
 */
#ifndef MEMSCALE_MODEL_WORKLOAD_H
#define MEMSCALE_MODEL_WORKLOAD_H

#include "models/memcg.h"
#include "harness/workload.h"

struct mwl_worker;

/* Model operations per benchmark operation (the op table). */
struct mwl_counts {
	double charges, uncharges, lru_add, lru_del, lru_move;
	double stat_updates, events, lock_acq;
};

struct mwl_desc {
	unsigned pages_per_worker; /* page pool */
	unsigned map_pages;        /* pages one worker maps at most */
	bool uses_counter;
	void (*prefault)(struct mwl_worker *ww);      /* optional per-worker set-up */
	void (*op)(struct mwl_worker *ww);            /* one benchmark op */
	/* op table for these parameters; NULL: not deterministic */
	void (*expect)(const struct model_params *p, struct mwl_counts *c);
};

struct mwl_worker {
	struct model_worker *mw;
	const struct mwl_desc *d;
	struct run *run;
	struct mpage **map;   /* pages mapped by the current "mmap"/file */
	unsigned nmap, pos;
	struct mpage **file;  /* page_fault2/3: the cached tmpfs file */
	unsigned nfile;
	struct mpage **ring;  /* lru_file_readtwice: pages the 2nd reader will hit */
	unsigned ring_len, ring_pos;
	void *counter_ctx;    /* aim9_brk_test: vm_committed_as slot */
	uint64_t iters;
};

struct mwl_shared {
	const struct mwl_desc *d;
	struct model *m;
	void *counter;
};

int mwl_setup(struct run *r, const struct mwl_desc *d);
/* The per-class lock statistics (array of LC_NR, indexed by enum
 * lock_class_id) of a worker of a model workload, for the tracing layer;
 * NULL for workers of other workloads.  Written only by that worker;
 * read them after it stopped. */
const struct lock_stat *model_lock_stats(const struct worker *w);
void mwl_run(struct worker *w);
int mwl_finish(struct run *r, struct result *res);

/* The tracked locks of the memcg model: the LRU lock (per node or per
 * lruvec, knob lru_lock) and the stats flush lock. */
#define MODEL_LOCK_CLASSES                                                    \
	((1u << LC_PGDAT_LRU) | (1u << LC_LRUVEC_LRU) | (1u << LC_STATS_FLUSH))

#define MODEL_WORKLOAD(ident, flags_, desc_, ...)                                   \
	static const struct mwl_desc ident##_desc = { __VA_ARGS__ };          \
	static int ident##_setup(struct run *r)                               \
	{                                                                     \
		return mwl_setup(r, &ident##_desc);                           \
	}                                                                     \
	const struct workload ident##_workload = {                            \
		.name = #ident, .description = desc_,                         \
		.flags = WL_F_USES_LOCK | WL_F_MODEL | (flags_),            \
		.setup = ident##_setup,                                       \
		.lock_classes = MODEL_LOCK_CLASSES,                           \
		.run = mwl_run, .finish = mwl_finish,                         \
	};                                                                    \
	REGISTER(workload, ident##_workload)

/* ---- kernel operations the benchmarks are made of ---- */
/* do_anonymous_page / CoW fault: PGFAULT, alloc, charge (PGPGIN),
 * page work, NR_ANON_MAPPED +1, folio_add_lru; the page joins ww->map. */
void mwl_fault_anon(struct mwl_worker *ww, bool copy);
/* munmap/zap of every mapped anon page: lru_add_drain, NR_ANON_MAPPED -1
 * each, folios_put_refs (LRU del under the lock, uncharge gathers). */
void mwl_unmap_anon(struct mwl_worker *ww);
/* shmem_alloc_and_add_folio: alloc, charge (PGPGIN), NR_FILE_PAGES and
 * NR_SHMEM +1, folio_add_lru; the page joins ww->map. */
struct mpage *mwl_shmem_add(struct mwl_worker *ww);
/* shmem_undo_range over ww->map: lru_add_drain, NR_FILE_PAGES/NR_SHMEM -1
 * each, __folio_batch_release. */
void mwl_shmem_truncate(struct mwl_worker *ww);

/* will-it-scale's 128 MB mapping, scaled to MWL_REGION pages so a worker's
 * page pool stays small; only the per-page costs matter, and munmap
 * amortises over 256 pages instead of 32768 (the batch drains per page
 * are the same). */
#define MWL_REGION 256
/* page_fault1/2: fault one anon page into the region; munmap when full. */
void mwl_region_fault(struct mwl_worker *ww, bool copy);
/* page_fault2/3 set-up: the tmpfs file of MWL_REGION pages, cached. */
void mwl_prefault_file(struct mwl_worker *ww);
/* Op table of mwl_region_fault (per page). */
void mwl_expect_region(const struct model_params *p, struct mwl_counts *c);

/* fallocate1/2: fallocate(8 KB) = two shmem pages; ftruncate(0) at 1 MB
 * (MWL_REGION pages), and its op table. */
void mwl_fallocate_op(struct mwl_worker *ww);
void mwl_expect_fallocate(const struct model_params *p, struct mwl_counts *c);

static inline unsigned div_up(unsigned a, unsigned b) { return (a + b - 1) / b; }

/* ---- tests ---- */
/* Runs `iters` operations of a model workload on one worker, without
 * threads or timing, then the invariants.  Fills *per_op with the model
 * operations per benchmark operation (before the final drain) and *want
 * with the workload's op table (zeroes when it has none).  Returns the
 * finish() status; 2 for bad knobs. */
int mwl_drive(const struct workload *wl, struct knobset *ks,
	      const struct lock_ops *lock, unsigned nworkers, uint64_t iters,
	      struct mwl_counts *per_op, struct mwl_counts *want, bool *has_table);
/* For tests: corrupt the model of the next mwl_drive() before its check. */
extern int mwl_test_corruption; /* -1: none, else enum model_corruption */

#endif
