/*
 * model_workload.h - what the will-it-scale / vm-scalability / AIM9
 * workloads over the memcg model (models/memcg.h) share: set-up of the
 * model from the knobs, the measured loop, the kernel operations a
 * benchmark step is made of (anonymous fault, munmap, shmem page in and
 * truncate), per-operation metrics and the invariants at the end.
 *
 * A workload file is a header comment with its op table, one function for
 * one benchmark operation, one for the expected counts, MODEL_WORKLOAD(...),
 * its kernel twin KERNEL_WORKLOAD(...) if it has one, and its spec
 * WORKLOAD_SPEC(...) (workloads/wlspec.h).
 */
#ifndef MEMSCALE_MODEL_WORKLOAD_H
#define MEMSCALE_MODEL_WORKLOAD_H

#include "models/memcg.h"
#include "harness/workload.h"
#include "workloads/kernel/kbackend.h"
#include "workloads/wlspec.h"

struct mwl_worker;

/* Model operations per benchmark operation (the op table). */
struct mwl_counts {
	double charges, uncharges, lru_add, lru_del, lru_move;
	double stat_updates, events, lock_acq;
	/* Measured only (no op table): folds per operation (model_ops). */
	double folds_memcg[NR_STAT_ITEMS + NR_EVENTS], folds_lruvec[NR_STAT_ITEMS];
	double rstat_batches;
};

struct mwl_desc {
	unsigned pages_per_worker; /* page pool */
	unsigned map_pages;        /* pages one worker maps at most */
	bool uses_counter;
	void (*prefault)(struct mwl_worker *ww);      /* optional per-worker set-up */
	void (*op)(struct mwl_worker *ww);            /* one benchmark op */
	/* op table for these parameters; NULL: not deterministic */
	void (*expect)(const struct model_params *p, struct mwl_counts *c);
	/* the workload's spec (workloads/wlspec.h): its suite, the
	 * kernel's entries per operation, its kernel twin */
	const struct wl_spec *spec;
	/* the benchmark's page-cache and anon footprint over the machine's
	 * memory, as its scripts size it (0: small).  Above 1 the kernel
	 * reclaims while it runs: an allocation that finds the worker's
	 * pages (its memory) used up reclaims SWAP_CLUSTER_MAX folios from
	 * its lruvec's file LRU (models/lru.c model_reclaim); otherwise
	 * running out of pages is an internal error. */
	double footprint_per_memory;
};

/* ---- kernel-shaped local work (page_work=kernel), kwork_calib.c ---- */
enum kwork_source { KWORK_SRC_NONE, KWORK_SRC_KERNEL, KWORK_SRC_PROBES, KWORK_SRC_KNOB };
struct kwork_cal {
	enum kwork_source source;
	double kernel_ns;  /* the kernel's cost per operation (or the probes') */
	double model0_ns;  /* the model with frames and PTEs, no residual */
	double model_ns;   /* the model with the residual (check) */
	double unit_ns;    /* one unit inside the workload */
	uint64_t units;    /* residual units per operation */
	/* The calibration file the figures were read from ("none": measured
	 * by this run) and its hash ("run-..." for this run's own figures,
	 * "none" for a kwork given by the knob). */
	char calib_file[512];
	char calib_hash[24];
};
/* Resolves knob kwork for workload wl (see kwork_calib.c).  0, or the exit
 * status after a message. */
int kwork_resolve(const struct workload *wl, const struct mwl_desc *d,
		  struct knobset *ks, struct kwork_cal *out);
const char *kwork_source_name(enum kwork_source s);
/* The machine's store of kernel-shaped work (kwork_store.c): wl's
 * figures from it, or measured by `measure` (called with the store
 * locked) and kept there.  What kwork_store_resolve() did: */
enum kwork_store_rc {
	KWS_UNUSABLE = 0, /* no store here (said why): nothing measured */
	KWS_FOUND,        /* read from the store */
	KWS_KEPT,         /* measured now and kept */
	KWS_MEASURED,     /* measured now, could not be kept (said why) */
	KWS_BAD,          /* the store is unreadable or corrupt (said so) */
	KWS_FAILED,       /* the measurement failed */
};
enum kwork_store_rc kwork_store_resolve(const struct workload *wl,
	int (*measure)(const struct workload *wl, void *arg, struct kwork_cal *c),
	void *arg, struct kwork_cal *out);
/* wl's section of a store's text (path names it in messages): 1 found
 * (out set), 0 not there, -1 after a message (corrupt, or its figures do
 * not match their hash). */
int kwork_store_lookup(const char *text, const char *path, const char *wl,
		       struct kwork_cal *out);
/* The hash a stored workload's figures carry (16 hex digits). */
void kwork_store_hash(const char *wl, const struct kwork_cal *c, char out[17]);
/* Measures the kernel-shaped work of every model workload (kwork=auto,
 * as a run would) and stores it in c as kwork.WORKLOAD.* (model
 * calibrate); returns how many workloads were calibrated. */
struct calib;
unsigned kwork_calibrate_all(struct calib *c, bool verbose);
struct json;
void kwork_json(struct json *j, const struct kwork_cal *c);

struct mwl_worker {
	struct model_worker *mw;
	const struct mwl_desc *d;
	struct run *run;
	struct mpage **map;   /* pages mapped by the current "mmap"/file */
	unsigned nmap, pos;
	volatile uint64_t *pte; /* page_work=kernel: the region's PTEs */
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
	struct kwork_cal kwork;
};

int mwl_setup(struct run *r, const struct mwl_desc *d);
void mwl_worker_init(struct worker *w);
void mwl_run(struct worker *w);
int mwl_finish(struct run *r, struct result *res);
void mwl_sidecar(const struct workload *wl, const struct mwl_desc *d,
		 struct json *j, struct knobset *ks);

/* The tracked locks of the memcg model: the LRU lock (per node or per
 * lruvec, knob lru_lock), the stats flush lock and the page allocator's
 * zone->lock (one per node). */
#define MODEL_LOCK_CLASSES                                                    \
	((1u << LC_PGDAT_LRU) | (1u << LC_LRUVEC_LRU) | (1u << LC_STATS_FLUSH) | \
	 (1u << LC_ZONE))

#define MODEL_WORKLOAD(ident, flags_, desc_, ...)                            \
	extern const struct wl_spec ident##_spec;                             \
	static const struct mwl_desc ident##_desc = {                         \
		.spec = &ident##_spec, __VA_ARGS__                            \
	};                                                                    \
	static int ident##_setup(struct run *r)                               \
	{                                                                     \
		return mwl_setup(r, &ident##_desc);                           \
	}                                                                     \
	const struct workload ident##_workload;                               \
	static void ident##_sidecar(struct json *j, struct knobset *ks,       \
				    enum run_mode mode)                       \
	{                                                                     \
		mwl_sidecar(&ident##_workload, &ident##_desc, j, ks);         \
	}                                                                     \
	const struct workload ident##_workload = {                            \
		.name = #ident, .description = desc_,                         \
		.flags = WL_F_USES_LOCK | WL_F_MODEL | (flags_),            \
		.setup = ident##_setup,                                       \
		.worker_init = mwl_worker_init,                               \
		.lock_classes = MODEL_LOCK_CLASSES,                           \
		.run = mwl_run, .finish = mwl_finish,                         \
		.sidecar = ident##_sidecar,                                   \
	};                                                                    \
	REGISTER(workload, ident##_workload)

/* ---- kernel operations the benchmarks are made of ---- */
/* do_anonymous_page / CoW fault: PGFAULT, alloc, charge (PGPGIN),
 * page work, NR_ANON_MAPPED +1, folio_add_lru; the page joins ww->map. */
void mwl_fault_anon(struct mwl_worker *ww, bool copy);
/* munmap/zap of every mapped anon page: lru_add_drain, NR_ANON_MAPPED -1
 * each, folios_put_refs (LRU del under the lock, uncharge gathers). */
void mwl_unmap_anon(struct mwl_worker *ww);
/* The same as munmap: inside the shared mm's write section, downgraded
 * (models/mmlock.h; nothing more in processes mode). */
void mwl_munmap_anon(struct mwl_worker *ww);
/* page_work=kernel: clear PTE i of the region at munmap/zap. */
void mwl_zap_pte(struct mwl_worker *ww, unsigned i);
/* A page for the worker (alloc_pages), reclaiming as the description
 * says (footprint_per_memory); NULL only when the run stops meanwhile. */
struct mpage *mwl_page_alloc(struct mwl_worker *ww);
/* shmem_alloc_and_add_folio: alloc, charge (PGPGIN), NR_FILE_PAGES and
 * NR_SHMEM +1, folio_add_lru; the page joins ww->map. */
struct mpage *mwl_shmem_add(struct mwl_worker *ww);
/* shmem_undo_range over ww->map: lru_add_drain, NR_FILE_PAGES/NR_SHMEM -1
 * each, __folio_batch_release. */
void mwl_shmem_truncate(struct mwl_worker *ww);

/*
 * Regions as the benchmarks size them, so that every per-CPU delta, batch
 * and flush trigger crosses its threshold as often per operation as in
 * the kernel (a ±1 stat item folds 2*floor(R/(B+1)) times per region of
 * R pages at batch B; with 256 pages it never folded at B = 512):
 *   will-it-scale page_fault1/2/3: mmap(128 MB) = 32768 pages per task
 *     (tests/page_fault{1,2,3}.c, MEMSIZE 128 MB);
 *   will-it-scale fallocate1/2: 1 MB file = 256 pages, 8 KB per call
 *     (tests/fallocate1.c: BUFLEN 1 MB / 128);
 *   vm-scalability case-lru-shm: shm_size/nr_task/2 bytes per task (half
 *     of RAM over the tasks, e.g. 430 MB per task at 224 tasks and 192 GB);
 *     scaled to 128 MB per task: the folds per operation of a ±1 item,
 *     2*floor(F/(B+1))/F, then differ from the 430 MB file's by less than
 *     (B+1)/F = 1.6 % at B = 512 and 0.1 % at B = 32.
 */
#define MWL_WIS_PAGES 32768
#define MWL_FALLOC_PAGES 256
#define MWL_SHM_PAGES 32768
/* page_fault1/2: fault one anon page into the region of d->map_pages
 * pages; munmap when full. */
void mwl_region_fault(struct mwl_worker *ww, bool copy);
/* page_fault2/3 set-up: the tmpfs file of d->map_pages pages, cached. */
void mwl_prefault_file(struct mwl_worker *ww);
/* Op table of mwl_region_fault (per page, MWL_WIS_PAGES region). */
void mwl_expect_region(const struct model_params *p, struct mwl_counts *c);

/* fallocate1/2: fallocate(8 KB) = two shmem pages; ftruncate(0) at 1 MB
 * (MWL_FALLOC_PAGES pages), and its op table. */
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
/* The recorder (model_record.c): parameters the next mwl_setup() on this
 * thread takes instead of reading the knobs; NULL otherwise (one per
 * thread: recordings run on several at once). */
extern __thread const struct model_params *mwl_params_override;
/* For tests: corrupt the model of the next mwl_drive() before its check. */
extern int mwl_test_corruption; /* -1: none, else enum model_corruption */

#endif
