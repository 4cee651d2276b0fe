/*
 * page_alloc.c - the page allocator (mm/page_alloc.c) of the model: the
 * order-0 path of every page the workloads fault, read or free:
 * a per-CPU list (struct mpcp: count, high, batch) in front of the
 * node's zone, whose MIGRATE_MOVABLE order-0 free list holds the rest of
 * the node's pages under zone->lock (the lock implementation is the
 * model's lock parameter, as for the LRU lock; class LC_ZONE).
 *   - rmqueue_pcplist() -> __rmqueue_pcplist(): the pcp list's first
 *     page; an empty list refills under zone->lock (rmqueue_bulk(): per
 *     page __rmqueue() -> __rmqueue_smallest(): the free_area[0] list
 *     head, the page's struct page (del_page_from_free_list, the
 *     neighbour it unlinks from is the next one taken, hot), nr_free,
 *     then list_add_tail onto the pcp list; one __mod_zone_page_state
 *     (NR_FREE_PAGES) per refill, also under the lock).
 *   - free_unref_page() -> free_unref_page_commit(): onto the pcp list;
 *     at pcp->high, free_pcppages_bulk() of a batch: the pages leave the
 *     pcp list before spin_lock(&zone->lock) (v5.10, v5.11; prefetching
 *     their buddies), then per page under the lock __free_one_page():
 *     __mod_zone_freepage_state (NR_FREE_PAGES, per page), page_is_buddy()
 *     reads the buddy's struct page, set_buddy_order writes the page's
 *     (both lines this CPU just touched: RL_PAGE_HOT), buddy_merge_likely()
 *     reads the order-1 buddy's (pfn & ~1) ^ 2, add_to_free_list the head
 *     and nr_free.  That last struct page line depends on the memory:
 *     with free memory (no reclaim) the pages a CPU frees came to it as
 *     runs split from one free block (expand()), so the order-1 buddy
 *     was freed in the same batch (RL_PAGE_HOT; ASSUMPTION: runs of at
 *     least 4 pages); on a node that reclaim keeps full
 *     (m->reclaim_walk) it is any page of the node, last touched by
 *     whichever CPU used it (RL_PAGE_FAR, predict/sim_memcg.c).
 * Not modelled: buddy merging and splitting (every page stays order 0:
 * a free buddy's del_page_from_free_list and the higher orders' lines),
 * the v6.x free path's pcp unlink under the lock and its buddy read
 * without the prefetch (gone since Mel Gorman's "mm/page_alloc: Do not
 * prefetch buddies during bulk free", 2022), v6.7's decay of an
 * auto-tuned pcp->high (decay_pcp_high, per vmstat interval) and its
 * ZONE_BELOW_HIGH / reclaim cases, pcp->lock (v6.0+, per CPU, uncontended), the
 * watermark checks (but that an empty zone is not locked) and
 * zone_statistics().  The pcp list work outside the
 * zone lock records nothing: its cost is in the measured fault_ns.
 */
#include "models/internal.h"
#include "models/page_alloc.h"
#include "models/stats/stats.h"

#include <string.h>

_Static_assert(offsetof(struct mzone, lock) == 1152,
	       "zone->lock after free_area[MAX_ORDER] and flags, as in v5.10's struct zone");

/* zone_highsize() @ v5.14 .. v6.9 for a nominal 64 GB node (the node
 * size model_setup's vmstat threshold assumes): min_free_kbytes =
 * int_sqrt(16 * lowmem kB) over all nodes (init_per_zone_wmark_min; its
 * 65536 / 262144 kB caps are not reached at <= 2 nodes), the zone's
 * share of it as min, low = min + max(min / 4, managed * 10 / 10000)
 * (__setup_per_zone_wmarks, watermark_scale_factor 10), over the CPUs
 * of the node, at least batch << 2. */
static unsigned zone_highsize(const struct model *m, unsigned high_fraction)
{
	unsigned batch = m->p.pcp_batch, nodes = m->p.nodes ? m->p.nodes : 1;
	unsigned cpus = m->online_cpus / nodes;
	unsigned long managed = MODEL_NODE_BYTES / PAGE_SIZE_MODEL, min, total, high;
	unsigned long kb = (unsigned long)nodes * (MODEL_NODE_BYTES >> 10), r = 1;

	if (high_fraction) {
		total = managed / high_fraction;
	} else {
		while ((r + 1) * (r + 1) <= 16 * kb)
			r++;
		min = r / (PAGE_SIZE_MODEL / 1024) / nodes;
		total = min + (min / 4 > managed * 10 / 10000 ? min / 4 : managed * 10 / 10000);
	}
	high = total / (cpus ? cpus : 1);
	return high > (unsigned long)batch << 2 ? (unsigned)high : batch << 2;
}

/* pcp->high (v6.7: high_min) under the knob's rule */
static unsigned pcp_high_of(const struct model *m)
{
	if (m->p.pcp_high == PCP_HIGH_6X)
		return 6 * m->p.pcp_batch; /* pageset_set_batch() @ v5.10 */
	return zone_highsize(m, 0);
}

/* pcp->high_max: zone_highsize(zone, batch, cpu_online,
 * MIN_PERCPU_PAGELIST_HIGH_FRACTION = 8) @ v6.7, at most MODEL_PCP_MAX;
 * high_min for the fixed rules. */
unsigned model_pcp_high_max(const struct model *m)
{
	unsigned h = m->p.pcp_high == PCP_HIGH_AUTO ? zone_highsize(m, 8) : pcp_high_of(m);

	if (h > MODEL_PCP_MAX)
		h = MODEL_PCP_MAX;
	return h > pcp_high_of(m) ? h : pcp_high_of(m);
}

void model_pcp_set_high(struct model *m)
{
	MODEL_REC_ENTRY_VOID(m, model_pcp_set_high, m);
	m->pcp_high = pcp_high_of(m);
	m->pcp_high_max = model_pcp_high_max(m);
	for (unsigned w = 0; w < m->nworkers; w++) {
		struct mpcp *pcp = &m->workers[w]->pcp;

		pcp->high = pcp->high_min = m->pcp_high;
		pcp->high_max = m->pcp_high_max;
		pcp->batch = m->p.pcp_batch;
	}
}

static unsigned clampu(unsigned v, unsigned lo, unsigned hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void zone_lock(struct model_worker *mw, struct mzone *z)
{
	struct model *m = mw->m;

	tracked_lock(m->lock, z->lock, mw->lock_ctx[m->nlru_locks + 1 + z->nid],
		     &mw->lock_stats[LC_ZONE]);
	if (MODEL_REC_ON(m))
		model_rec_lock(m, z->lock);
}

static void zone_unlock(struct model_worker *mw, struct mzone *z)
{
	struct model *m = mw->m;

	if (MODEL_REC_ON(m))
		model_rec_unlock(m);
	tracked_unlock(m->lock, z->lock, mw->lock_ctx[m->nlru_locks + 1 + z->nid],
		       &mw->lock_stats[LC_ZONE]);
}

/* __mod_zone_page_state(zone, NR_FREE_PAGES, delta): this CPU's diff,
 * folded into the zone's and the global atomic past the threshold
 * (mm/vmstat.c; the zone threshold is the node's, both
 * calculate_normal_threshold()). */
static void mod_zone_free(struct model_worker *mw, struct mzone *z, long delta)
{
	struct model *m = mw->m;
	long x = mw->zone_diff + delta;

	MODEL_REC_LOCAL(m, RL_PERCPU);
	if (stats_labs(x) > m->node_threshold) {
		MODEL_REC(m, &z->vm_stat_free, REC_RMW);
		__atomic_add_fetch(&z->vm_stat_free, x, __ATOMIC_RELAXED);
		MODEL_REC(m, &m->vm_zone_stat_free, REC_RMW);
		__atomic_add_fetch(&m->vm_zone_stat_free, x, __ATOMIC_RELAXED);
		x = 0;
	}
	mw->zone_diff = x;
}

/* rmqueue_bulk(): up to n pages from the zone onto the pcp list. */
static unsigned rmqueue_bulk(struct model_worker *mw, struct mzone *z, unsigned n)
{
	struct model *m = mw->m;
	struct mfree_area *area = &z->free_area[0];
	struct list_head *head = &area->free_list[MODEL_MIGRATE_MOVABLE];
	unsigned i;

	(void)m; /* the hooks' only user in the hand-off build */
	zone_lock(mw, z);
	for (i = 0; i < n; i++) {
		struct mpage *pg;

		MODEL_REC(m, head, REC_READ); /* get_page_from_free_area */
		if (list_empty(head))
			break;
		pg = page_of(head->next);
		/* del_page_from_free_list: the head, the page, nr_free */
		MODEL_REC(m, head, REC_WRITE);
		MODEL_REC_LOCAL(m, RL_PAGE_LINE);
		list_del(&pg->lru);
		MODEL_REC(m, &area->nr_free, REC_WRITE);
		/* relaxed: the watermark check reads it without the lock */
		__atomic_store_n(&area->nr_free, area->nr_free - 1, __ATOMIC_RELAXED);
		list_add_between(&pg->lru, mw->pcp.list.prev, &mw->pcp.list); /* list_add_tail */
		MODEL_REC_LOCAL(m, RL_LIST);
		MODEL_REC_LOCAL(m, RL_LIST);
		MODEL_REC_LOCAL(m, RL_BUDDY_PAGE);
	}
	mod_zone_free(mw, z, -(long)i);
	zone_unlock(mw, z);
	return i;
}

/* free_pcppages_bulk(): n pages from the pcp list's tail back to the
 * zone (the unlink before the lock, as v5.10). */
static void free_pcppages_bulk(struct model_worker *mw, struct mzone *z, unsigned n)
{
	struct model *m = mw->m;
	struct mfree_area *area = &z->free_area[0];
	struct list_head *head = &area->free_list[MODEL_MIGRATE_MOVABLE], batch;

	(void)m;
	if (n > mw->pcp.count)
		n = mw->pcp.count;
	list_init(&batch);
	for (unsigned i = 0; i < n; i++) {
		struct mpage *pg = page_of(mw->pcp.list.prev); /* list_last_entry */

		list_del(&pg->lru);
		list_add_between(&pg->lru, batch.prev, &batch);
	}
	mw->pcp.count -= n;
	zone_lock(mw, z);
	while (!list_empty(&batch)) {
		struct mpage *pg = page_of(batch.next);

		list_del(&pg->lru);
		/* __free_one_page() at order 0 */
		mod_zone_free(mw, z, 1);          /* __mod_zone_freepage_state */
		/* page_is_buddy() reads the buddy (prefetch_buddy()'d before
		 * the lock), set_buddy_order() writes the page (unlinked from
		 * the pcp list before the lock): both lines at hand */
		MODEL_REC_LOCAL(m, RL_PAGE_HOT);
		MODEL_REC_LOCAL(m, RL_PAGE_HOT);
		/* buddy_merge_likely(): page_is_buddy() of the order-1
		 * buddy (two pages on) picks head or tail */
		MODEL_REC_LOCAL(m, m->reclaim_walk ? RL_PAGE_FAR : RL_PAGE_HOT);
		MODEL_REC(m, head, REC_WRITE);    /* add_to_free_list */
		list_add(&pg->lru, head);
		MODEL_REC(m, &area->nr_free, REC_WRITE);
		__atomic_store_n(&area->nr_free, area->nr_free + 1, __ATOMIC_RELAXED);
		MODEL_REC_LOCAL(m, RL_LIST);
		MODEL_REC_LOCAL(m, RL_BUDDY_PAGE);
	}
	zone_unlock(mw, z);
}

struct mpage *model_page_alloc(struct model_worker *mw)
{
	MODEL_REC_ENTRY(mw->m, model_page_alloc, mw);
	struct model *m = mw->m;
	struct mpcp *pcp = &mw->pcp;
	struct mpage *pg;

	if (list_empty(&pcp->list)) {
		unsigned n = pcp->batch;

		if (m->p.pcp_high == PCP_HIGH_AUTO) {
			/* nr_pcp_alloc() @ v6.7: "If we had larger pcp->high,
			 * we could avoid to allocate from zone" */
			unsigned grow = pcp->batch << (m->p.pcp_scale == PCP_SCALE_V6_7
						       ? pcp->alloc_factor : 0);

			pcp->high = clampu(pcp->high, pcp->high_min, pcp->high_max);
			if (pcp->high_min != pcp->high_max)
				pcp->high = pcp->high + grow < pcp->high_max ? pcp->high + grow
									     : pcp->high_max;
		}
		if (m->p.pcp_scale == PCP_SCALE_V6_7) {
			/* nr_pcp_alloc() @ v6.7 (order 0) */
			int max_nr = (int)pcp->high - (int)pcp->count - (int)pcp->batch;

			if (max_nr < (int)pcp->batch)
				max_nr = (int)pcp->batch;
			n = pcp->batch << pcp->alloc_factor;
			if ((int)n <= max_nr && pcp->alloc_factor < 5)
				pcp->alloc_factor++; /* CONFIG_PCP_BATCH_SCALE_MAX */
			if ((int)n > max_nr)
				n = (unsigned)max_nr;
		}
		/* get_page_from_freelist()'s watermark check keeps an empty
		 * zone's lock untaken (its read of NR_FREE_PAGES is not
		 * recorded: nor is it for a zone with pages) */
		if (!__atomic_load_n(&m->zones[mw->nid].free_area[0].nr_free, __ATOMIC_RELAXED))
			return NULL;
		pcp->count += rmqueue_bulk(mw, &m->zones[mw->nid], n);
		if (list_empty(&pcp->list))
			return NULL;
	}
	if (m->p.pcp_scale == PCP_SCALE_V6_7)
		pcp->free_count >>= 1; /* rmqueue_pcplist() @ v6.7 */
	pg = page_of(pcp->list.next);
	list_del(&pg->lru);
	pcp->count--;
	pg->lru.next = pg->lru.prev = NULL;
	return pg;
}

void model_page_free(struct model_worker *mw, struct mpage *pg)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_page_free, mw, pg);
	struct model *m = mw->m;
	struct mpcp *pcp = &mw->pcp;
	unsigned n = pcp->batch, high;

	__atomic_store_n(&pg->flags, 0, __ATOMIC_RELAXED);
	pg->memcg = NULL;
	pg->nid = (uint16_t)mw->nid;
	list_add(&pg->lru, &pcp->list);
	pcp->count++;
	if (m->p.pcp_scale == PCP_SCALE_V6_7) {
		/* free_unref_page_commit() @ v6.7 */
		pcp->alloc_factor >>= 1;
		if (pcp->free_count < pcp->batch << 5)
			pcp->free_count++;
	}
	high = pcp->high;
	if (m->p.pcp_high == PCP_HIGH_AUTO) {
		/* nr_pcp_high() @ v6.7: the drain uses this high; a list
		 * at it asks for room for the frees in a row */
		high = pcp->high = clampu(pcp->high, pcp->high_min, pcp->high_max);
		if (pcp->high_min != pcp->high_max && pcp->count >= high &&
		    pcp->high < pcp->free_count + pcp->batch)
			pcp->high = clampu(pcp->free_count + pcp->batch, pcp->high_min,
					   pcp->high_max);
	}
	if (pcp->count < high)
		return;
	if (m->p.pcp_scale == PCP_SCALE_V6_7) {
		/* nr_pcp_free() @ v6.7: clamp(free_count, batch, high - batch) */
		n = pcp->free_count;
		if (n > high - pcp->batch)
			n = high - pcp->batch;
		if (n < pcp->batch)
			n = pcp->batch;
	}
	free_pcppages_bulk(mw, &m->zones[mw->nid], n);
}

void model_page_free_reclaimed(struct model_worker *mw, struct mpage *pg)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_page_free_reclaimed, mw, pg);
	struct model *m = mw->m;
	struct mpcp *pcp = &mw->pcp;
	unsigned pos = mw->walk_pos;

	if (!m->reclaim_walk) {
		model_page_free(mw, pg);
		return;
	}
	mw->walk_pos = (unsigned)((pos + 1) % MODEL_WALK_PAGES);
	if (pos < pcp->high) {
		model_page_free(mw, pg);
		return;
	}
	/* Past pcp->high in the walk the list is full: each pcp->batch pages
	 * freed meet count >= high in free_unref_page_commit() and leave in
	 * one free_pcppages_bulk().  They wait on a list of their own (the
	 * full list's tail, which the reader's allocations in between do not
	 * reach in the kernel either), then go to the pcp tail and out. */
	if (!mw->walk_spill.next)
		list_init(&mw->walk_spill);
	__atomic_store_n(&pg->flags, 0, __ATOMIC_RELAXED);
	pg->memcg = NULL;
	pg->nid = (uint16_t)mw->nid;
	list_add(&pg->lru, &mw->walk_spill);
	if (++mw->walk_nspill < pcp->batch)
		return;
	while (!list_empty(&mw->walk_spill)) {
		struct mpage *q = page_of(mw->walk_spill.next);

		list_del(&q->lru);
		list_add_between(&q->lru, pcp->list.prev, &pcp->list); /* the tail */
		pcp->count++;
	}
	free_pcppages_bulk(mw, &m->zones[mw->nid], mw->walk_nspill);
	mw->walk_nspill = 0;
}

void model_page_work(struct model_worker *mw, bool copy)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_page_work, mw, copy);
	volatile char *dst = mw->page_buf;

	switch (mw->m->p.page_work) {
	case PAGE_WORK_NONE:
		break;
	case PAGE_WORK_TOUCH:
		dst[0]++; /* the benchmark's one-byte write */
		break;
	case PAGE_WORK_COPY:
		if (copy)
			memcpy(mw->page_buf, mw->page_buf + PAGE_SIZE_MODEL, PAGE_SIZE_MODEL);
		else
			memset(mw->page_buf, 0, PAGE_SIZE_MODEL);
		compiler_barrier();
		break;
	case PAGE_WORK_KERNEL:
		break; /* model_page_fill() and the workload's PTE work */
	}
}

void model_page_fill(struct model_worker *mw, struct mpage *pg,
		     const struct mpage *src)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_page_fill, mw, pg, src);
	char *dst = model_page_frame(mw->m, pg);

	if (!dst)
		return;
	if (src)
		memcpy(dst, model_page_frame(mw->m, src), PAGE_SIZE_MODEL); /* copy_page */
	else
		memset(dst, 0, PAGE_SIZE_MODEL); /* clear_page */
	compiler_barrier();
}
