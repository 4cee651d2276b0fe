/*
 * internal.h - helpers shared by the model's .c files: the LRU lock of a
 * (memcg, node), the parent walk as the recorder sees it, list
 * primitives and relaxed "per-CPU" accesses (the fields of a
 * mem_cgroup_per_node block are models/memcg_types.h's pn_*()).  Inline
 * only: the functions are declared by the header of the file that
 * defines them.  Not for workloads: they use memcg.h.
 */
#ifndef MEMSCALE_MODELS_INTERNAL_H
#define MEMSCALE_MODELS_INTERNAL_H

#include "models/memcg_types.h"
#include "models/record.h"

/* ---- list.h ---- */
static inline void list_init(struct list_head *h) { h->next = h->prev = h; }
static inline bool list_empty(const struct list_head *h) { return h->next == h; }
static inline void list_add_between(struct list_head *n, struct list_head *p,
				    struct list_head *nx)
{
	nx->prev = n;
	n->next = nx;
	n->prev = p;
	p->next = n;
}
static inline void list_add(struct list_head *n, struct list_head *h)
{
	list_add_between(n, h, h->next);
}
static inline void list_del(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = e->prev = NULL;
}
#define page_of(l) ((struct mpage *)((char *)(l) - offsetof(struct mpage, lru)))

/* ---- "per-CPU" slots: single writer, read by the flusher ----
 * Relaxed atomics compile to plain moves on x86 (like __this_cpu_add on
 * the owning CPU) but keep the concurrent flusher's reads defined. */
static inline void pcpu_add(long *p, long v)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
}
static inline long pcpu_read(const long *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

static inline enum lru_list page_lru(const struct mpage *pg)
{
	unsigned f = __atomic_load_n(&pg->flags, __ATOMIC_RELAXED);
	return (f & PG_SWAPBACKED ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE) +
	       (f & PG_ACTIVE ? 1 : 0);
}

/* The LRU lock a page of (memcg, nid) is under, its class and the index
 * of the worker's context for it. */
struct lru_lock_ref {
	void *lock;
	unsigned idx;
	enum lock_class_id cls;
};

static inline struct lru_lock_ref lru_lock_of(const struct model *m,
					      struct mcg *memcg, unsigned nid)
{
	if (m->p.lru_lock == LRU_LOCK_PGDAT)
		return (struct lru_lock_ref){ m->nodes[nid].lru_lock, nid, LC_PGDAT_LRU };
	return (struct lru_lock_ref){ PN_AT(m, memcg->nodeinfo[nid], PN_LRU_LOCK),
				      m->p.nodes + memcg->id * m->p.nodes + nid,
				      LC_LRUVEC_LRU };
}

static inline void lru_lock(struct model_worker *mw, struct lru_lock_ref r)
{
	tracked_lock(mw->m->lock, r.lock, mw->lock_ctx[r.idx], &mw->lock_stats[r.cls]);
	if (MODEL_REC_ON(mw->m))
		model_rec_lock(mw->m, r.lock);
}
static inline void lru_unlock(struct model_worker *mw, struct lru_lock_ref r)
{
	if (MODEL_REC_ON(mw->m))
		model_rec_unlock(mw->m);
	tracked_unlock(mw->m->lock, r.lock, mw->lock_ctx[r.idx], &mw->lock_stats[r.cls]);
}

/* parent_mem_cgroup() with the read it does: css.parent (v5.17+), or
 * memory.parent through mem_cgroup_from_counter() (v5.x: mc_layout's
 * parent_via_counter).  Inline: each build of a caller records as its
 * file does (models/record.h). */
static inline struct mcg *model_parent_mem_cgroup(const struct model *m, struct mcg *memcg)
{
	if (m->mc.parent_via_counter) {
		struct page_counter *p = *pc_parent(m, mcg_memory(m, memcg));

		MODEL_REC(m, pc_parent(m, mcg_memory(m, memcg)), REC_READ);
		return p ? mcg_of_memory(m, p) : NULL;
	}
	MODEL_REC(m, mcg_parent_p(m, memcg), REC_READ);
	return mcg_parent(m, memcg);
}

static inline bool memcg_in_subtree(const struct model *m, const struct mcg *d,
				    const struct mcg *root)
{
	for (; d; d = mcg_parent(m, d))
		if (d == root)
			return true;
	return false;
}

#endif
