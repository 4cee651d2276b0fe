/*
 * memcg_types.h - the memcg model's data, as the kernel lays it out:
 * struct model and its per-worker state, the memcg (struct mcg, the
 * kernel's struct mem_cgroup as bytes), page_counter, the per-CPU stats
 * slots, pglist_data, the zone and its per-CPU page lists, struct page
 * (struct mpage), the shared mm, and the inline accessors of their
 * members at the offsets the layouts resolve (pc_*, mcg_*, pn_*).
 *
 * Types only, no function of any .c: every file of the model includes it
 * (the page allocator, the recorder, the stats designs, MGLRU, the item
 * tables), and the functions sit in the header of the file that defines
 * them (models/memcg.h for memcg.c, models/page_alloc.h, ...), so that
 * includes run one way (scripts/check_layers.sh rule 6).  Workloads
 * include models/memcg.h, which includes this.
 */
#ifndef MEMSCALE_MODELS_MEMCG_TYPES_H
#define MEMSCALE_MODELS_MEMCG_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/util.h"
#include "locks/lock.h"
#include "locks/tracked.h"
#include "models/kwork.h"
#include "models/layout.h"
#include "models/layout_struct.h"

#define MODEL_MAX_NODES 8
#define MODEL_MAX_DEPTH 8
#define MODEL_MAX_CONTAINERS 256

/* LRU lists (enum lru_list) and the node/memcg stat items we model.  The
 * first NR_LRU items are NR_LRU_BASE + lru, as in the kernel. */
enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU
};

enum stat_item {
	NR_LRU_BASE = 0, /* .. NR_LRU_BASE + NR_LRU - 1 */
	NR_ANON_MAPPED = NR_LRU,
	NR_FILE_MAPPED,
	NR_FILE_PAGES,
	NR_SHMEM,
	NR_STAT_ITEMS
};

enum event_item { EV_PGFAULT, EV_PGPGIN, EV_PGPGOUT, EV_PGACTIVATE, EV_PGDEACTIVATE, NR_EVENTS };


/* A stats design (models/stats/stats.h): the `stats` knob's value. */
struct stats_design;

enum lru_lock_variant { LRU_LOCK_PGDAT, LRU_LOCK_LRUVEC };
enum page_work { PAGE_WORK_NONE, PAGE_WORK_TOUCH, PAGE_WORK_COPY, PAGE_WORK_KERNEL };

/* ZONE_NORMAL's index and MAX_NR_ZONES come with the layout (kconfig). */
#define SWAP_CLUSTER_MAX 32
#define PAGE_SIZE_MODEL 4096
/* sizeof(struct page) on x86-64: one 64 B line per page frame
 * (Documentation/mm/vmemmap_dedup.rst: a 2 MB HugeTLB page's 512
 * struct pages fill 8 base pages) */
#define MODEL_STRUCT_PAGE_BYTES 64
/* The nominal node the model's sizes assume: pcp->high (page_alloc.c
 * zone_highsize), a global reclaim walk (MODEL_WALK_PAGES), the struct
 * page array a full node's pages span (predict/sim_memcg.c) */
#define MODEL_NODE_BYTES (64ul << 30)

/* Kernel-style doubly-linked list (the LRU lists are real). */
struct list_head {
	struct list_head *next, *prev;
};

/* Page flags, changed atomically (TestClearPageLRU is the isolation
 * protocol of 6168d0da2b47: whoever clears PG_lru owns the page). */
enum { PG_LRU = 1u << 0, PG_ACTIVE = 1u << 1, PG_SWAPBACKED = 1u << 2 };

struct mcg;

struct mpage {
	struct list_head lru;
	struct mcg *memcg;   /* folio->memcg_data, set at commit_charge */
	unsigned flags;      /* PG_* (atomic) */
	uint16_t nid;
	uint16_t owner;      /* worker whose pool it came from (debug) */
};

/*
 * page_counter: the kernel's struct as bytes, its members at the offsets
 * of the version the knob pc_layout names (models/layout_struct.h:
 * before 802f1d522d5f parent and max share usage's line; 408587baee39,
 * v6.1, puts usage alone on its line).  pc_*() give the members.  It is
 * embedded in struct mcg at mem_cgroup's derived offset of `memory`,
 * which before v6.1 is not 64 B aligned (208 in v5.10): the type has no
 * alignment of its own.
 */
struct page_counter {
	unsigned char bytes[PC_MAX_BYTES];
};

/*
 * Kernel-sized stats memory.  The stats arrays have the kernel's item
 * counts, so that an update, a fold and a flush touch the lines they
 * touch in the kernel, and the model's nine stat items and five events
 * sit at their kernel indices (KS(), KE(): models/kitems.h, per kernel
 * version; the arrays keep the v6.8 lengths below for every version):
 *   K_NR_NODE_STAT     NR_VM_NODE_STAT_ITEMS, the figure models/layout.c
 *                      sizes lruvec_stats with (K_LRUVEC_STATS_SIZE);
 *   K_MEMCG_NR_STAT    MEMCG_NR_STAT of v6.8: the node items, then
 *                      MEMCG_SWAP, SOCK, PERCPU_B, VMALLOC, KMEM, ZSWAP_B,
 *                      ZSWAPPED (include/linux/memcontrol.h);
 *   K_NR_MEMCG_EVENTS  ARRAY_SIZE(memcg_vm_event_stat) of v6.8 with ZSWAP
 *                      and THP: PGPGIN, PGPGOUT, PGSCAN_{KSWAPD,DIRECT,
 *                      KHUGEPAGED}, PGSTEAL_{...}, PGFAULT, PGMAJFAULT,
 *                      PGREFILL, PGACTIVATE, PGDEACTIVATE, PGLAZYFREE(D),
 *                      ZSWPIN, ZSWPOUT, ZSWP_WB, THP_FAULT_ALLOC,
 *                      THP_COLLAPSE_ALLOC, THP_SWPOUT(_FALLBACK) (mm/memcontrol.c).
 * With these, struct memcg_vmstats_percpu of 9cee7e8ef3e3 is 1216 bytes,
 * the size its author reported for the fixed layout.
 */
#define K_NR_NODE_STAT 44
#define K_MEMCG_NR_STAT (K_NR_NODE_STAT + 7)
/* struct lruvec_stats where it sits behind a pointer (v6.10 on): state,
 * state_local and state_pending, K_NR_NODE_STAT longs each (1056 B). */
#define K_LRUVEC_STATS_SIZE (3 * K_NR_NODE_STAT * sizeof(long))
#define K_NR_MEMCG_EVENTS 22
/* The kernel positions of our items come from the kernel version's
 * table (models/kitems.h): KS(m, item), KE(m, event). */
struct kitems;
#define KS(m, i) ((m)->items->stat[i])
#define KE(m, e) ((m)->items->event[e])

/* memcg->vmstats (struct memcg_vmstats, v6.8): the shared totals, flushed
 * (rstat) or atomic (v5.10); local and pending arrays as the kernel's. */
struct mcg_vmstats {
	long state[K_MEMCG_NR_STAT];      /* subtree totals */
	long events[K_NR_MEMCG_EVENTS];
	long state_local[K_MEMCG_NR_STAT];
	long events_local[K_NR_MEMCG_EVENTS];
	long state_pending[K_MEMCG_NR_STAT];
	long events_pending[K_NR_MEMCG_EVENTS];
	long stats_updates;               /* atomic64 (8d59d2214c23) */
} cacheline_aligned;

/*
 * memcg_vmstats_percpu (one per memcg per CPU, in that CPU's per-CPU
 * chunk).  The first three fields are 9cee7e8ef3e3's first cache line;
 * 8d59d2214c23 had its counter at the end (stats_updates_tail, used by
 * the rstat_permemcg variant).  v5.10 uses state[]/events[] as its
 * per-CPU batch.  *_prev are the flusher's snapshots (the kernel's
 * state_prev): only the flusher writes them, under LC_STATS_FLUSH.
 */
struct mcg_pcpu {
	unsigned stats_updates;
	struct mcg_pcpu *parent;
	struct mcg_vmstats *vmstats;
	long state[K_MEMCG_NR_STAT];
	long events[K_NR_MEMCG_EVENTS];
	long state_prev[K_MEMCG_NR_STAT];
	long events_prev[K_NR_MEMCG_EVENTS];
	unsigned long nr_page_events;
	unsigned long targets[2];         /* MEM_CGROUP_NTARGETS */
	unsigned stats_updates_tail;      /* 8d59d2214c23's position */
} cacheline_aligned;

/* lruvec_stats_percpu (one per mem_cgroup_per_node per CPU). */
struct lruvec_pcpu {
	long state[K_NR_NODE_STAT];
	long state_prev[K_NR_NODE_STAT];
} cacheline_aligned;

/* cgroup_rstat_cpu: this memcg's place in the CPU's updated tree. */
struct rstat_cpu {
	struct mcg *updated_next;         /* NULL: not on the updated list */
} cacheline_aligned;

/*
 * struct mem_cgroup: its first MCG_KBYTES bytes are the kernel's struct
 * as bytes, and the members the charge and stats paths touch sit in them
 * at the offsets of the version the knob mc_layout names
 * (models/layout_struct.h struct mc_offsets; "isolated" gives each a line
 * of its own):
 *   css.parent       the parent memcg (css is first in struct mem_cgroup,
 *                    so a css pointer is a memcg pointer): mcg_parent();
 *   memory, swap     page_counters (mcg_memory(), mcg_swap());
 *   vmstats          memcg->vmstats (struct memcg_vmstats *);
 *   vmstats_percpu   the per-CPU pointer, a "percpu" address: CPU 0's
 *                    copy; mcg_statc() adds the CPU's offset, as
 *                    per_cpu_ptr() does.
 * So what shares a 64 B line (or a 128 B pair) with memory.usage is what
 * shared it in that kernel.  The rest (the model's bookkeeping and
 * nodeinfo[], at the end of the kernel's struct) follows the kernel part
 * and is never recorded.
 */
struct mcg {
	unsigned char k[MCG_KBYTES];
	/* the model's struct memcg_vmstats where the mc_layout has v5's
	 * inline arrays in the pointer's place (mc_offsets.stats_inline) */
	struct mcg_vmstats *vmstats_obj;
	struct rstat_cpu *rstat_cpu;      /* css.cgroup->rstat_cpu */
	unsigned id, level;
	unsigned first_child, nr_children; /* children are contiguous ids */
	char *nodeinfo[MODEL_MAX_NODES];  /* mem_cgroup_per_node blocks */
} cacheline_aligned;

/* pglist_data: lru_lock on its own lines (ZONE_PADDING(_pad1_)), the
 * node's vm_stat[] atomics after ZONE_PADDING(_pad2_), as in v5.10. */
struct mnode {
	char lru_lock[PAD_SIZE];
	unsigned nid;
	long vm_stat[NR_STAT_ITEMS] __attribute__((aligned(PAD_SIZE)));
} cacheline_aligned;

/*
 * The page allocator's order-0 path (models/page_alloc.c):
 * struct zone (ZONE_NORMAL, one per node) reduced to what rmqueue_bulk()
 * and free_pcppages_bulk() touch, at the kernel's offsets
 * (include/linux/mmzone.h @ v5.10, the same in v6.7 and v6.9): after
 * ZONE_PADDING(_pad1_) free_area[MAX_ORDER], each MIGRATE_TYPES list
 * heads and nr_free (6 types with CONFIG_CMA and CONFIG_MEMORY_ISOLATION:
 * 104 bytes, MIGRATE_MOVABLE's head on the first line, nr_free on the
 * second), then flags and the lock (11 x 104 + 8 = 1152: a line of its
 * own), and vm_stat[] after ZONE_PADDING(_pad3_).
 */
#define MODEL_MIGRATE_TYPES 6
#define MODEL_MIGRATE_MOVABLE 1
#define MODEL_MAX_ORDER 11
struct mfree_area {
	struct list_head free_list[MODEL_MIGRATE_TYPES];
	unsigned long nr_free;
};
struct mzone {
	struct mfree_area free_area[MODEL_MAX_ORDER];
	unsigned long flags;
	char lock[PAD_SIZE] __attribute__((aligned(64))); /* zone->lock */
	long vm_stat_free __attribute__((aligned(PAD_SIZE))); /* vm_stat[NR_FREE_PAGES] */
	unsigned nid;
	unsigned long managed;            /* pages given to the zone at set-up */
} cacheline_aligned;

/* The most pages a worker's pcp list may hold (pcp_high=auto's
 * high_max is capped there: each worker's pool holds that many pages
 * beyond its workload's own when there are several).  The kernel's high_max at 224 CPUs is
 * 9362 pages per node of a nominal 64 GB node and 224 / nodes CPUs
 * (below the cap up to 3 nodes); at this machine's 2 CPUs it is
 * 1048576, which the cap keeps out of the measured runs' memory. */
#define MODEL_PCP_MAX 32768u

/* struct per_cpu_pages of one CPU for its node's zone (the
 * MIGRATE_MOVABLE list only: the model's pages are all movable). */
struct mpcp {
	unsigned count, high, batch;
	unsigned high_min, high_max;      /* pcp_high=auto (v6.7): high moves between */
	unsigned free_count, alloc_factor; /* pcp_scale=v6.7 */
	struct list_head list;
};

/* A per-CPU folio_batch / pagevec. */
#define MODEL_MAX_BATCH 31
struct fbatch {
	unsigned nr;
	struct mpage *pages[MODEL_MAX_BATCH];
};

/* Per-worker op counters (what the workloads report per operation). */
struct model_ops {
	uint64_t charges;       /* mem_cgroup_charge() calls (pages) */
	uint64_t pc_charges;    /* page_counter_try_charge() (stock misses) */
	uint64_t uncharges;     /* page_counter_uncharge() via uncharge gathers */
	uint64_t pages_uncharged;
	uint64_t lru_add, lru_del, lru_move;
	uint64_t stat_updates;  /* __mod_memcg_lruvec_state() calls */
	uint64_t events;        /* __count_memcg_events() calls */
	uint64_t flushes;
	uint64_t reclaimed;
	/* Folds of a per-CPU delta into shared totals, per item: v5.10's
	 * atomic_long_add over the memcg and its ancestors (memcg part and
	 * lruvec part counted apart), and for the rstat paths the per-CPU
	 * stats_updates crossing MEMCG_CHARGE_BATCH at the leaf. */
	uint64_t folds_memcg[NR_STAT_ITEMS + NR_EVENTS]; /* events after stats */
	uint64_t folds_lruvec[NR_STAT_ITEMS];
	uint64_t rstat_batches;
};

struct model;

/* Per-worker model state ("this CPU"), PAD_SIZE aligned in the arena. */
struct model_worker {
	struct model *m;
	unsigned id, nid;
	struct mcg *memcg;                /* the container it runs in */
	/* memcg_stock_pcp */
	struct mcg *stock_cached;
	unsigned stock_nr;
	unsigned tick;
	/* cpu_fbatches */
	struct fbatch lru_add, activate, release;
	/* the page allocator's per-cpu list for this worker's node */
	struct mpcp pcp;
	long zone_diff;                   /* vm_zone_stat_diff[NR_FREE_PAGES] */
	/* global per-cpu stats_updates (rstat_global variants) */
	unsigned stats_updates;
	void **lock_ctx;                  /* one per LRU lock, the flush lock,
					   * one per zone lock */
	struct lock_stat lock_stats[LC_NR];
	struct model_ops ops;
	/* exact shadow counts per memcg, never batched: the invariant's truth */
	long (*exact_state)[NR_STAT_ITEMS];
	long (*exact_events)[NR_EVENTS];
	long *charged, *uncharged;        /* pages, per memcg */
	long (*node_diff)[NR_STAT_ITEMS]; /* per node: vm_node_stat_diff */
	char *page_buf;                   /* PAGE_SIZE_MODEL * 2 for page_work */
	struct kwork kw;                  /* page_work=kernel: kernel footprint */
	bool lru_gen_in_fault;            /* current->in_lru_fault (models/lru_gen.h) */
	unsigned walk_pos;                /* pages freed so far in this global
					   * reclaim walk (model_page_free_reclaimed) */
	struct list_head walk_spill;      /* its pages past pcp->high, until a batch */
	unsigned walk_nspill;
} cacheline_aligned;

struct model_params {
	enum pn_layout_id layout;
	struct kconfig kconfig;           /* declared layouts */
	char layout_file[256];            /* layout=btf|pahole */
	const struct stats_design *stats; /* registered in models/stats/ */
	enum lru_lock_variant lru_lock;
	enum page_work page_work;
	unsigned stats_batch, charge_batch, lru_batch;
	unsigned pcp_batch;               /* zone_batchsize() */
	enum pcp_high_rule { PCP_HIGH_6X, PCP_HIGH_WMARK, PCP_HIGH_AUTO } pcp_high;
	enum pcp_scale_rule { PCP_SCALE_OFF, PCP_SCALE_V6_7 } pcp_scale;
	/* The x86 entry mitigations the kernel selects by default (knob
	 * mitigations): which of the target's entry costs a system call or
	 * fault pays (predict/target.c prices them, the model runs no
	 * entry code). */
	enum mitigations_era { MITIGATIONS_V4_15, MITIGATIONS_V5_19, MITIGATIONS_NR } mitigations;
	/* Which counted kernel's LRU-section instructions stand for this
	 * kernel's (knob kpath; predict/kpath.h prices them, the model
	 * runs no kernel code). */
	enum kpath_era { KPATH_V5_10, KPATH_V6_12, KPATH_V5_10_LOCK_STAT, KPATH_NR } kpath;
	unsigned containers, depth, nodes;
	unsigned flush_ms;
	unsigned pc_layout;               /* index in knob_pc_layout.values */
	unsigned mc_layout;               /* index in knob_mc_layout.values */
	bool lru_gen;                     /* MGLRU enabled at run time (models/lru_gen.h) */
	bool mm_shared;                   /* threads mode: one mm (models/mmlock.h) */
	/* Record only what the benchmark's own timer covers (a prediction
	 * for a target profile, predict/predict.c), not the whole loop that
	 * memscale's runs measure: a workload whose benchmark leaves part
	 * of its work untimed pauses the recorder there (wl_lru_shm.c). */
	bool bench_window;
};

struct model_rec;
struct model_mm;

struct model {
	struct model_params p;
	struct model_rec *rec;            /* access recorder (models/record.h) or NULL */
	struct model_mm *mm;              /* the workers' shared mm (models/mmlock.h,
					   * threads mode); NULL: each its own */
	const struct lock_ops *lock;
	unsigned nworkers, nmemcg;
	long node_threshold;              /* per-CPU vmstat threshold */
	struct pn_layout lay;             /* resolved offsets */
	struct pc_offsets pc;             /* page_counter members (pc_layout) */
	struct mc_offsets mc;             /* mem_cgroup members (mc_layout) */
	/* the readers' totals are v5's atomics inside struct mem_cgroup
	 * (a design with totals_in_memcg on an mc_layout with the arrays):
	 * mcg_stat_total() */
	bool totals_in_memcg;
	const struct kitems *items;       /* the kernel version's item indices */
	struct mcg *memcgs;               /* [nmemcg], root = 0 */
	struct mcg **leaves;              /* [containers] */
	struct mnode *nodes;              /* [nodes] */
	struct mzone *zones;              /* [nodes]: ZONE_NORMAL of each */
	unsigned pcp_high;                /* pcp->high (high_min) at online_cpus (knob pcp_high) */
	unsigned pcp_high_max;            /* pcp->high_max, at most MODEL_PCP_MAX */
	void *flush_lock;
	unsigned nlru_locks;              /* lock contexts index: lock id */
	struct model_worker **workers;
	long *pcpu_off;                   /* per worker: its per-CPU chunk's offset */
	void *pcpu_chunk0;
	size_t pcpu_size, pcpu_used;
	int *rstat_lock;                  /* per-CPU cgroup_rstat_cpu_lock */
	unsigned online_cpus;             /* num_online_cpus() of this machine */
	/* Global reclaim's memcg walk (model_page_free_reclaimed): set by
	 * the recorder for a workload whose footprint exceeds memory when
	 * the machine runs more than one container; false: each reclaimer
	 * frees into its own pcp list alone, as before. */
	bool reclaim_walk;
	struct mpage *pages;
	unsigned npages;
	char *frames;                     /* page_work=kernel: a 4 KiB frame per page */
	/* global flush threshold (rstat_global*): its own line */
	long stats_flush_threshold cacheline_aligned;
	int flush_ongoing cacheline_aligned;
	uint64_t next_flush_ns cacheline_aligned;
	/* stats_flush_work's data word (rstat_queue_work, aa48e47e3906):
	 * queue_work()'s test_and_set_bit of WORK_STRUCT_PENDING */
	unsigned long stats_flush_work cacheline_aligned;
	/* vm_zone_stat[NR_FREE_PAGES] (mm/vmstat.c): global */
	long vm_zone_stat_free cacheline_aligned;
};

/* The members of a page_counter at the model's pc_layout offsets. */
static inline long *pc_usage(const struct model *m, struct page_counter *c)
{
	return (long *)(void *)(c->bytes + m->pc.usage);
}
static inline long *pc_max(const struct model *m, struct page_counter *c)
{
	return (long *)(void *)(c->bytes + m->pc.max);
}
static inline long *pc_watermark(const struct model *m, struct page_counter *c)
{
	return (long *)(void *)(c->bytes + m->pc.watermark);
}
static inline long *pc_failcnt(const struct model *m, struct page_counter *c)
{
	return (long *)(void *)(c->bytes + m->pc.failcnt);
}
static inline struct page_counter **pc_parent(const struct model *m, struct page_counter *c)
{
	return (struct page_counter **)(void *)(c->bytes + m->pc.parent);
}
static inline long *pc_field(const struct model *m, struct page_counter *c, size_t off)
{
	(void)m;
	return (long *)(void *)(c->bytes + off);
}

/* The members of a memcg at the model's mc_layout offsets. */
static inline struct mcg **mcg_parent_p(const struct model *m, struct mcg *c)
{
	return (struct mcg **)(void *)(c->k + m->mc.css_parent);
}
static inline struct mcg *mcg_parent(const struct model *m, const struct mcg *c)
{
	return *(struct mcg *const *)(const void *)(c->k + m->mc.css_parent);
}
static inline struct page_counter *mcg_memory(const struct model *m, struct mcg *c)
{
	return (struct page_counter *)(void *)(c->k + m->mc.memory);
}
static inline struct page_counter *mcg_swap(const struct model *m, struct mcg *c)
{
	return (struct page_counter *)(void *)(c->k + m->mc.swap);
}
static inline struct mcg_vmstats **mcg_vmstats_p(const struct model *m, struct mcg *c)
{
	if (m->mc.stats_inline)
		return &c->vmstats_obj;
	return (struct mcg_vmstats **)(void *)(c->k + m->mc.vmstats);
}
static inline struct mcg_vmstats *mcg_vmstats(const struct model *m, const struct mcg *c)
{
	if (m->mc.stats_inline)
		return c->vmstats_obj;
	return *(struct mcg_vmstats *const *)(const void *)(c->k + m->mc.vmstats);
}
/* The subtree total of stat item slot `ks` (kernel index, KS()) and of
 * event slot `ke` (KE()) that readers see: v5.x's memcg->vmstats[] and
 * vmevents[] atomics at their offsets in struct mem_cgroup, so what
 * shares their lines and 128 B pairs is what shared them in that kernel;
 * otherwise struct memcg_vmstats's state[] and events[]. */
static inline long *mcg_stat_total(const struct model *m, const struct mcg *c, unsigned ks)
{
	/* readers pass a const memcg; the bytes themselves are writable
	 * (the fold writes them through the same accessor) */
	if (m->totals_in_memcg)
		return (long *)(uintptr_t)(c->k + m->mc.vmstats) + ks;
	return &mcg_vmstats(m, c)->state[ks];
}
static inline long *mcg_event_total(const struct model *m, const struct mcg *c, unsigned ke)
{
	if (m->totals_in_memcg)
		return (long *)(uintptr_t)(c->k + m->mc.vmevents) + ke;
	return &mcg_vmstats(m, c)->events[ke];
}
static inline struct mcg_pcpu **mcg_vmstats_percpu_p(const struct model *m, struct mcg *c)
{
	return (struct mcg_pcpu **)(void *)(c->k + m->mc.vmstats_percpu);
}
/* The memcg whose `memory` page_counter c is (mem_cgroup_from_counter). */
static inline struct mcg *mcg_of_memory(const struct model *m, struct page_counter *c)
{
	return (struct mcg *)(void *)((char *)c - m->mc.memory);
}

/* per_cpu_ptr(): a per-CPU object of worker w ("CPU" w) */
#define MODEL_PCPU(m, ptr, w) \
	((__typeof__(ptr))((char *)(ptr) + (m)->pcpu_off[w]))
#define mcg_statc(m, memcg, w) \
	MODEL_PCPU(m, *(struct mcg_pcpu *const *)(const void *)((memcg)->k + (m)->mc.vmstats_percpu), w)

static inline struct model_worker *model_worker(struct model *m, unsigned i)
{
	return m->workers[i];
}

/* ---- mem_cgroup_per_node fields via the layout's offsets ---- */
#define PN_AT(m, pn, f) ((void *)((pn) + (m)->lay.off[f]))

static inline struct mcg *pn_memcg(const struct model *m, char *pn)
{
	return *(struct mcg **)PN_AT(m, pn, PN_MEMCG);
}
static inline struct lruvec_pcpu *pn_stats_percpu(const struct model *m, char *pn)
{
	return *(struct lruvec_pcpu **)PN_AT(m, pn, PN_STATS_PERCPU);
}
/* lrugen.max_seq and min_seq[]: [0] max, [1 + type] min */
static inline unsigned long *pn_lrugen_seq(const struct model *m, char *pn)
{
	return (unsigned long *)PN_AT(m, pn, PN_LRUGEN_SEQ);
}
static inline struct mnode *pn_pgdat(const struct model *m, char *pn)
{
	return *(struct mnode **)PN_AT(m, pn, PN_PGDAT);
}
/* lruvec_stats->state[]: embedded in v6.9, behind a pointer after. */
static inline long *pn_lruvec_stats(const struct model *m, char *pn)
{
	if (m->lay.stats_embedded)
		return (long *)PN_AT(m, pn, PN_LRUVEC_STATS);
	return *(long **)PN_AT(m, pn, PN_LRUVEC_STATS);
}
static inline struct list_head *pn_list(const struct model *m, char *pn,
					enum lru_list lru)
{
	return (struct list_head *)PN_AT(m, pn, PN_LISTS) + lru;
}
static inline long *pn_zone_size(const struct model *m, char *pn,
				 enum lru_list lru)
{
	return (long *)PN_AT(m, pn, PN_LRU_ZONE_SIZE) + m->lay.zone_normal * NR_LRU + lru;
}

/* The shared mm (models/mmlock.h, threads mode): struct mm_struct
 * reduced to three lines (offsets are the model's: the
 * kernel's depend on the configuration; ASSUMPTION: each on its own
 * line, no other hot mm field beside them). */
struct model_mm {
	/* mmap_lock (struct rw_semaphore): count, then owner */
	long count;
	long owner;
	/* the VMA tree's root (mm_mt since v6.1, mm_rb before): read by
	 * the fault's VMA lookup, rewritten by every mmap and munmap */
	long tree __attribute__((aligned(64)));
	/* mm_lock_seq (CONFIG_PER_VMA_LOCK, v6.4+): read twice by
	 * vma_start_read, written by mmap_write_unlock */
	long lock_seq __attribute__((aligned(64)));
} __attribute__((aligned(64)));

/* MIN_NR_GENS of include/linux/mmzone.h (MGLRU: models/lru_gen.h) */
#define MIN_NR_GENS 2

#endif
