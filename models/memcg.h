/*
 * memcg.h - a userspace model of the Linux memory cgroup hot paths:
 * the memcg hierarchy, hierarchical page_counter charging with the
 * per-CPU charge stock, per-lruvec LRU lists under pgdat->lru_lock or
 * lruvec->lru_lock, the mem_cgroup_per_node field layouts of v6.9,
 * v6.10 and the fix, and the stats update paths (one design per file in
 * models/stats/).
 *
 * "CPU" is a worker: every per-CPU object (charge stock, folio batches,
 * memcg_vmstats_percpu, lruvec_stats_percpu, cgroup_rstat_cpu) is a
 * per-worker slot on its own cache lines; the stats ones live in one
 * per-CPU chunk per worker, apart from the memcg, and are reached through
 * per_cpu_ptr-style offsets (MODEL_PCPU).  Every byte the workers touch
 * comes from run->arena, so the model works unchanged when the workers
 * are forked processes.
 *
 * Sources: the kernel files and commits cited in the .c files (see
 * docs/kernel-facts.md); each stats design names the commit it follows
 * (`memscale list stats`).
 *
 * Use: model_setup() from a workload's setup(), model_worker() for the
 * per-worker state, the primitives below from the measured loop, and
 * model_finish() from finish() (final flush, invariants, metrics).
 *
 * The model's data (struct model, struct mcg, ...) and the accessors of
 * their members are models/memcg_types.h; this header declares the
 * functions of memcg.c and of the files it calls the model through
 * (models/lru.c, check.c, knobs.c; the page allocator's in
 * models/page_alloc.h, included here).  The files below memcg.c (the
 * page allocator, the recorder, the stats designs, the item tables)
 * include memcg_types.h, never this.
 */
#ifndef MEMSCALE_MODELS_MEMCG_H
#define MEMSCALE_MODELS_MEMCG_H

#include "core/arena.h"
#include "core/knob.h"
#include "models/memcg_types.h"
#include "models/page_alloc.h"

extern const char *const stat_item_names[NR_STAT_ITEMS];
extern const char *const event_item_names[NR_EVENTS];

/* ---- knobs (REGISTER'ed in models/knobs.c) ---- */
extern const struct knob knob_kernel, knob_kconfig, knob_layout_file,
	knob_layout, knob_stats, knob_stats_batch,
	knob_charge_batch, knob_lru_batch, knob_lru_lock, knob_containers,
	knob_depth, knob_nodes, knob_flush_ms, knob_page_work,
	knob_pcp_batch, knob_pcp_high, knob_pcp_scale, knob_mitigations,
	knob_kpath;

/* Reads every model knob.  Returns 0 or EXIT_USAGE (message printed). */
int model_params_from_knobs(struct model_params *p, struct knobset *ks);
void model_params_default(struct model_params *p);
/* Whether the code path p selects reads model knob `name`; path gets the
 * path's name ("stats=rstat_permemcg").  A stats design declares the knobs
 * it reads (its `reads` list, models/stats/stats.h). */
bool model_knob_is_read(const struct model_params *p, const char *name,
			char *path, size_t len);
/* A model knob set explicitly in ks (--set, an experiment variant or axis;
 * not a kernel profile's preset) that p's path does not read: one line on
 * stderr naming the knob and the path, EXIT_USAGE; else 0. */
int model_knobs_check_read(const struct model_params *p, const struct knobset *ks);
/* calculate_normal_threshold() (mm/vmstat.c) for a nominal 64 GB node at
 * `cpus` online CPUs: min(125, 2 * fls(cpus) * (1 + fls(64 GB / 128 MB))). */
static inline long model_node_threshold(unsigned cpus)
{
	long t = 2 * (long)(32 - __builtin_clz(cpus)) * (1 + 10);

	return t > 125 ? 125 : t;
}
/* The layout the parameters name, for a lock of lock_size bytes: 0, or -1
 * with the reason in why (a BTF or pahole file that cannot be read).
 * Inline: the setup, the knob checks and MGLRU's check all ask it, and
 * none of their files may call another's (scripts/check_layers.sh). */
static inline int model_resolve_layout(struct pn_layout *l, const struct model_params *p,
				       size_t lock_size, char *why, size_t len)
{
	if (p->layout == LAYOUT_BTF || p->layout == LAYOUT_PAHOLE)
		return pn_layout_from_file(l, p->layout, p->layout_file, lock_size,
					   why, len);
	pn_layout_resolve(l, p->layout, p->kconfig, lock_size);
	return 0;
}

/* Builds the whole model in `a` for nworkers workers, each with a pool of
 * pages_per_worker pages. */
struct model *model_setup(struct arena *a, const struct model_params *p,
			  const struct lock_ops *lock, unsigned nworkers,
			  unsigned pages_per_worker);
/* Per-class lock statistics of one worker (array of LC_NR, indexed by
 * enum lock_class_id); written only by that worker. */
const struct lock_stat *model_worker_lock_stats(const struct model_worker *mw);

/* ---- hot-path primitives ---- */
/* try_charge + commit_charge (PGPGIN).  false: over the limit. */
bool model_charge(struct model_worker *mw, struct mpage *pg, struct mcg *memcg);
/* A page-table page's kmem charge and its uncharge (memcg.c). */
bool model_kmem_charge_page(struct model_worker *mw, struct mcg *memcg);
void model_kmem_uncharge_page(struct model_worker *mw, struct mcg *memcg);
void model_mod_lruvec_state(struct model_worker *mw, struct mcg *memcg,
			    unsigned nid, enum stat_item idx, long val);
void model_count_event(struct model_worker *mw, struct mcg *memcg,
		       enum event_item ev, long n);
/* folio_add_lru: into the lru_add batch; drained under the LRU lock. */
void model_lru_add(struct model_worker *mw, struct mpage *pg);
void model_lru_add_drain(struct model_worker *mw);
/* folio_activate (via the activate batch; needs PG_lru to be taken). */
void model_activate(struct model_worker *mw, struct mpage *pg);
/* folios_put_refs: into the release batch; when full, LRU removal under
 * the lock (relocking per lruvec) and uncharge gathers per memcg. */
void model_release(struct model_worker *mw, struct mpage *pg);
void model_release_drain(struct model_worker *mw);
/* Memcg reclaim from mw's lruvec: isolate up to nr inactive pages (and
 * deactivate active ones when the inactive list runs short), uncharge
 * and free them into mw's pool.  Returns the pages freed. */
unsigned model_reclaim(struct model_worker *mw, enum lru_list base, unsigned nr);
/* page_work=kernel: map worker w's frames into the calling process (a
 * forked worker's first touches would otherwise be page faults). */
void model_worker_populate(struct model *m, unsigned w);
/* Periodic flusher tick: call once per loop iteration. */
void model_tick(struct model_worker *mw);
/* Reader-side flush (mem_cgroup_flush_stats): flushes if the variant's
 * threshold says so. */
void model_flush_if_needed(struct model_worker *mw, struct mcg *memcg);
/* Unconditional flush of the whole tree (by worker mw's context). */
void model_flush(struct model_worker *mw);
/* Unconditional flush of memcg's subtree (7d7ef0a4686a's reader side). */
void model_flush_subtree(struct model_worker *mw, struct mcg *memcg);

/* ---- end of run ---- */
/* Drains every batch and stock, flushes, then checks the invariants.
 * Returns 0, or 1 after printing what broke. */
int model_check(struct model *m, char *msg, size_t msglen);
/* Drains the batches and stocks of every worker (workers stopped). */
void model_quiesce(struct model *m);

enum model_corruption {
	CORRUPT_LRU_LIST,   /* unlink a page from an LRU list behind accounting */
	CORRUPT_USAGE,      /* bump a page_counter's usage */
	CORRUPT_STATS,      /* bump a flushed stat */
	CORRUPT_LRU_CYCLE,  /* an LRU page's next points at itself */
	CORRUPT_LRU_WILD,   /* an LRU page's next points outside the model */
	CORRUPT_NR
};
/* For tests: break one invariant on purpose.  Returns false if there was
 * nothing to corrupt (e.g. no page on any LRU). */
bool model_corrupt(struct model *m, enum model_corruption c);

/* Totals over workers. */
void model_sum_ops(const struct model *m, struct model_ops *out);
void model_sum_lock_stats(const struct model *m, struct lock_stat out[LC_NR]);
/* Flushed value of stat idx of memcg (subtree total). */
long model_memcg_stat(const struct model *m, const struct mcg *memcg,
		      enum stat_item idx);
long model_memcg_event(const struct model *m, const struct mcg *memcg,
		       enum event_item ev);

/* ---- for the model's own files (models/lru.c, models/lru_gen.c,
 * models/check.c, the stats designs) ---- */
/* Uncharge a list of pages gathered per memcg (uncharge_batch). */
void model_uncharge_pages(struct model_worker *mw, struct mpage **pages,
			  unsigned n);
void model_drain_stock(struct model_worker *mw);
/* Reclaim's tail outside the lock: NR_FILE_PAGES, uncharge, free. */
void model_reclaim_free(struct model_worker *mw, struct mpage **iso, unsigned n);
/* update_lru_size() (models/lru.c). */
void model_update_lru_size(struct model_worker *mw, char *pn, struct mcg *memcg,
			   unsigned nid, enum lru_list lru, long n);
/* Fold every worker's residual deltas (v5.10) or flush (rstat); workers
 * must be stopped for v5.10. */
void model_final_flush(struct model *m);
/* The rstat update of __mod_memcg_lruvec_state()'s memcg part (the
 * default mod_state of a stats design, models/stats/stats.h): per-CPU
 * adds, cgroup_rstat_updated(), then the design's `updated`.  For a
 * design that counts on top of it. */
void stats_rstat_mod_state(struct model_worker *mw, struct mcg *memcg, unsigned nid,
			   enum stat_item idx, long val);

#endif
