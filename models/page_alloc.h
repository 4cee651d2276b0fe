/*
 * page_alloc.h - the model's page allocator (models/page_alloc.c): the
 * order-0 path of mm/page_alloc.c over one zone per node, its per-CPU
 * page lists and their pcp->high, and the page contents work
 * (page_work).  Workloads reach it through models/memcg.h, which
 * includes this; the model's set-up (memcg.c) sizes the zones by
 * model_pcp_high_max().
 */
#ifndef MEMSCALE_MODELS_PAGE_ALLOC_H
#define MEMSCALE_MODELS_PAGE_ALLOC_H

#include "models/memcg_types.h"

/* The page allocator's order-0 path: rmqueue_pcplist() (an empty pcp
 * list refills under zone->lock, rmqueue_bulk) and free_unref_page()
 * (past pcp->high a batch goes back under zone->lock,
 * free_pcppages_bulk).  NULL: the node's zone is empty. */
struct mpage *model_page_alloc(struct model_worker *mw);
void model_page_free(struct model_worker *mw, struct mpage *pg);
/*
 * A page freed by global reclaim (m->reclaim_walk; else model_page_free).
 * Without memory.max the reclaim is global (try_to_free_pages() or
 * kswapd: sc->target_mem_cgroup NULL), and shrink_node_memcgs() walks
 * every memcg of the node (mem_cgroup_iter(target_memcg, NULL, NULL) ..
 * mem_cgroup_iter(target_memcg, memcg, NULL), v5.10 and v5.11
 * mm/vmscan.c), each shrink_lruvec() scanning lru_size >> priority
 * (get_scan_count(); a global direct reclaim at DEF_PRIORITY = 12 does not
 * cut the proportional scan short: shrink_lruvec()'s scan_adjusted).  One
 * walk therefore frees about the node's LRU >> 12 pages: MODEL_WALK_PAGES,
 * for the nominal 64 GB node (ASSUMPTION: the page cache fills the node,
 * so its file LRU is the node's pages).  They all go onto the reclaiming
 * CPU's pcp list (free_unref_page_list), which holds pcp->high: the
 * first pcp->high pages of a walk stay there, every later one leaves in
 * a free_pcppages_bulk() of pcp->batch under zone->lock, and the readers
 * get them back through rmqueue_bulk().
 */
#define MODEL_WALK_PAGES ((MODEL_NODE_BYTES / PAGE_SIZE_MODEL) >> 12)
void model_page_free_reclaimed(struct model_worker *mw, struct mpage *pg);
/* pcp->high of every worker at m->online_cpus CPUs (knob pcp_high);
 * model_setup and the recorder (models/record.h) set it. */
void model_pcp_set_high(struct model *m);
/* Emulated page contents work (page_work knob touch or copy). */
void model_page_work(struct model_worker *mw, bool copy);
/* page_work=kernel: the page frame of pg (NULL otherwise); clear_page of
 * a new page, or copy_page from src (CoW); then the benchmark's write. */
static inline char *model_page_frame(const struct model *m, const struct mpage *pg)
{
	return m->frames ? m->frames + (size_t)(pg - m->pages) * PAGE_SIZE_MODEL : NULL;
}
void model_page_fill(struct model_worker *mw, struct mpage *pg,
		     const struct mpage *src);
/* pcp->high_max: zone_highsize() at v6.7's high fraction 8, at most
 * MODEL_PCP_MAX; high_min for the fixed rules (model_setup sizes the
 * zones' slack by it). */
unsigned model_pcp_high_max(const struct model *m);

#endif
