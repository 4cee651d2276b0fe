/*
 * lru.c - per-lruvec LRU lists and the per-CPU folio batches (mm/swap.c
 * at 99fbb6bfc16f, v6.9; pgdat->lru_lock before 6168d0da2b47, v5.11).
 *
 * folio_add_lru() puts a page into this worker's lru_add batch of
 * `lru_batch` pages (PAGEVEC_SIZE 15, 31 since 9cecde80aae0); a full batch
 * is drained by folio_batch_move_lru(): take the LRU lock of the first
 * page and relock only when the next page belongs to another lruvec
 * (folio_lruvec_relock_irqsave(), 6168d0da2b47) or, under
 * lru_lock=pgdat, another node.  lru_add_fn() sets PG_lru, links the page
 * into lruvec->lists[lru] and updates the sizes (update_lru_size():
 * __mod_lruvec_state and the plain `+=` of lru_zone_size[zid][lru]).
 *
 * Release (folios_put_refs(), v6.9): pages in the release batch are taken
 * off their LRU under the lock, relocking per lruvec, then uncharged in
 * per-memcg gathers (outside the lock) and freed.
 *
 * Isolation protocol (6168d0da2b47): a page's memcg, hence its lruvec, is
 * stable once its PG_lru bit was cleared by the caller with an atomic
 * test-and-clear; activate, reclaim and release all do that before they
 * move the page, and set it again on putback under the lock.
 *
 * What the recorder sees of the critical section besides the lruvec's
 * own lines (the kernel's lines, read in mm/swap.c at 99fbb6bfc16f, v6.9,
 * as shared/reference/kernel.md 3.3 gives it, and in a later mm/swap.c
 * whose folio_batch_move_lru / lru_add loop is the same; mm/vmscan.c
 * isolate_lru_folios / move_folios_to_lru of v6.x; ASSUMED unchanged at
 * 70a64b7919cb and fefc6e6631ff, which change mm/memcontrol.c and
 * include/linux/memcontrol.h only):
 *   - list_add's old first folio and list_del's two neighbours: their
 *     struct page lines (MODEL_REC_NBR; a neighbour of another section's
 *     run is a line another CPU may have written last);
 *   - the locked bit and refcount operations on the folio's own line
 *     made while the lock is held (RL_FOLIO_ATOMIC): an add's
 *     folio_test_clear_unevictable and folio_set_lru; a release's
 *     folio_ref_sub_and_test, for every folio of the loop but the first
 *     (the lock is taken by the first folio's __page_cache_release and
 *     held to the end); an activation's folio_test_clear_lru (but the
 *     first), folio_set_active, folio_set_lru; reclaim's isolation
 *     folio_try_get and folio_test_clear_lru, its putback folio_set_lru
 *     and folio_put_testzero.
 * Not recorded: spin_lock_irqsave's pushf/cli and the restore's popf (no
 * sourced cycle count), update_lru_size's __mod_zone_page_state of
 * NR_ZONE_LRU_BASE + lru (a per-CPU add and, past the threshold, two
 * atomics: one every ~threshold list operations), MGLRU's neighbours
 * (models/lru_gen.c).
 */
#include "models/memcg.h"
#include "models/internal.h"
#include "models/lru_gen.h"

static inline bool test_clear_lru(struct mpage *pg)
{
	return __atomic_fetch_and(&pg->flags, ~PG_LRU, __ATOMIC_ACQ_REL) & PG_LRU;
}
static inline void set_flag(struct mpage *pg, unsigned f)
{
	__atomic_fetch_or(&pg->flags, f, __ATOMIC_RELEASE);
}
static inline void clear_flag(struct mpage *pg, unsigned f)
{
	__atomic_fetch_and(&pg->flags, ~f, __ATOMIC_RELAXED);
}

/* Access sets of this and of lruvec_add_page/lruvec_del_page and the lock:
 * models/access.c, checked against this code by tests/t_access.c. */
void model_update_lru_size(struct model_worker *mw, char *pn, struct mcg *memcg,
			   unsigned nid, enum lru_list lru, long n)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_update_lru_size, mw, pn, memcg, nid, lru, n);
	model_mod_lruvec_state(mw, memcg, nid, (enum stat_item)(NR_LRU_BASE + lru), n);
	/* mem_cgroup_update_lru_size(): plain, serialised by the LRU lock */
	MODEL_REC(mw->m, pn_zone_size(mw->m, pn, lru), REC_WRITE);
	*pn_zone_size(mw->m, pn, lru) += n;
}

static void lruvec_add_page(struct model_worker *mw, char *pn, struct mpage *pg)
{
	enum lru_list lru = page_lru(pg);

	struct list_head *head = pn_list(mw->m, pn, lru);

	if (model_lru_gen_add(mw, pn, pg)) /* MGLRU: models/lru_gen.c */
		return;
	model_update_lru_size(mw, pn, pg->memcg, pg->nid, lru, 1);
	/* list_add writes head->next (and the old first page's prev, ours);
	 * head->prev only when the list was empty */
	MODEL_REC(mw->m, &head->next, REC_WRITE);
	if (head->next == head)
		MODEL_REC(mw->m, &head->prev, REC_WRITE);
	/* the old first folio's lru.prev (include/linux/list.h __list_add:
	 * next->prev = new): its struct page line, last written by the
	 * section that put it there (models/record.h model_rec_nbr) */
	MODEL_REC_NBR(mw->m, pn, pg, head->next == head ? NULL : page_of(head->next), NBR_ADD);
	MODEL_REC_LOCAL(mw->m, RL_LIST);
	list_add(&pg->lru, head);
}

static void lruvec_del_page(struct model_worker *mw, char *pn, struct mpage *pg)
{
	enum lru_list lru = page_lru(pg);
	struct list_head *head = pn_list(mw->m, pn, lru);

	if (model_lru_gen_del(mw, pn, pg, false)) /* MGLRU: models/lru_gen.c */
		return;
	/* list_del writes head->next when the page is first, head->prev
	 * when it is last */
	if (pg->lru.prev == head)
		MODEL_REC(mw->m, &head->next, REC_WRITE);
	if (pg->lru.next == head)
		MODEL_REC(mw->m, &head->prev, REC_WRITE);
	/* __list_del: next->prev = prev, prev->next = next: both neighbours'
	 * struct page lines, unless a neighbour is the head */
	MODEL_REC_NBR(mw->m, pn, pg, pg->lru.prev == head ? NULL : page_of(pg->lru.prev),
		      NBR_DEL_PREV);
	MODEL_REC_NBR(mw->m, pn, pg, pg->lru.next == head ? NULL : page_of(pg->lru.next),
		      NBR_DEL_NEXT);
	MODEL_REC_LOCAL(mw->m, RL_LIST);
	list_del(&pg->lru);
	model_update_lru_size(mw, pn, pg->memcg, pg->nid, lru, -1);
}

/* Relock helper: returns the lock now held for `pg`. */
static struct lru_lock_ref relock(struct model_worker *mw, struct lru_lock_ref held,
				  struct mpage *pg)
{
	struct lru_lock_ref want = lru_lock_of(mw->m, pg->memcg, pg->nid);

	if (held.lock == want.lock)
		return held;
	if (held.lock)
		lru_unlock(mw, held);
	lru_lock(mw, want);
	return want;
}

enum move_fn { MOVE_ADD, MOVE_ACTIVATE };

/* folio_batch_move_lru() */
static void batch_move_lru(struct model_worker *mw, struct fbatch *fb, enum move_fn fn)
{
	struct lru_lock_ref held = { 0 };

	for (unsigned i = 0; i < fb->nr; i++) {
		struct mpage *pg = fb->pages[i];
		char *pn;

		/* folio_test_clear_lru (the lock of the previous folio is still
		 * held: the loop unlocks only at the end) */
		if (fn != MOVE_ADD && held.lock)
			MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC);
		if (fn != MOVE_ADD && !test_clear_lru(pg))
			continue;
		held = relock(mw, held, pg);
		pn = pg->memcg->nodeinfo[pg->nid];
		if (fn == MOVE_ADD) {
			/* lru_add_fn: folio_test_clear_unevictable (a locked
			 * btr, include/linux/page-flags.h TESTCLEARFLAG) */
			MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC);
			lruvec_add_page(mw, pn, pg);
			mw->ops.lru_add++;
		} else if (!(__atomic_load_n(&pg->flags, __ATOMIC_RELAXED) & PG_ACTIVE)) {
			/* folio_activate_fn() */
			lruvec_del_page(mw, pn, pg);
			MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC); /* folio_set_active */
			set_flag(pg, PG_ACTIVE);
			lruvec_add_page(mw, pn, pg);
			model_count_event(mw, pg->memcg, EV_PGACTIVATE, 1);
			mw->ops.lru_move++;
		}
		MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC); /* folio_set_lru */
		set_flag(pg, PG_LRU);
	}
	if (held.lock)
		lru_unlock(mw, held);
	fb->nr = 0;
}

static bool fbatch_add(struct model_worker *mw, struct fbatch *fb, struct mpage *pg)
{
	MODEL_REC_LOCAL(mw->m, RL_PERCPU); /* folio_batch_add */
	fb->pages[fb->nr++] = pg;
	return fb->nr < mw->m->p.lru_batch;
}

void model_lru_add(struct model_worker *mw, struct mpage *pg)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_lru_add, mw, pg);
	model_lru_gen_on_add(mw, pg);
	if (!fbatch_add(mw, &mw->lru_add, pg))
		batch_move_lru(mw, &mw->lru_add, MOVE_ADD);
}

void model_lru_add_drain(struct model_worker *mw)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_lru_add_drain, mw);
	if (mw->lru_add.nr)
		batch_move_lru(mw, &mw->lru_add, MOVE_ADD);
	if (mw->activate.nr)
		batch_move_lru(mw, &mw->activate, MOVE_ACTIVATE);
}

void model_activate(struct model_worker *mw, struct mpage *pg)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_activate, mw, pg);
	unsigned f = __atomic_load_n(&pg->flags, __ATOMIC_ACQUIRE);

	if (mw->m->p.lru_gen) /* folio_mark_accessed -> folio_inc_refs: flags only */
		return;
	if (f & PG_ACTIVE)
		return;
	if (f & PG_LRU) {
		if (!fbatch_add(mw, &mw->activate, pg))
			batch_move_lru(mw, &mw->activate, MOVE_ACTIVATE);
		return;
	}
	/* __lru_cache_activate_folio(): still in our lru_add batch, so it
	 * will go straight onto the active list when the batch drains. */
	for (unsigned i = 0; i < mw->lru_add.nr; i++)
		if (mw->lru_add.pages[i] == pg) {
			set_flag(pg, PG_ACTIVE);
			return;
		}
}

void model_release(struct model_worker *mw, struct mpage *pg)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_release, mw, pg);
	if (!fbatch_add(mw, &mw->release, pg))
		model_release_drain(mw);
}

void model_release_drain(struct model_worker *mw)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_release_drain, mw);
	struct fbatch *fb = &mw->release;
	struct lru_lock_ref held = { 0 };

	if (!fb->nr)
		return;
	for (unsigned i = 0; i < fb->nr; i++) {
		struct mpage *pg = fb->pages[i];

		/* folios_put_refs: folio_ref_sub_and_test (a locked xadd on
		 * the folio's _refcount), under the lock the previous folio
		 * took (held across the loop); __page_cache_release's
		 * folio_test_lru and __folio_clear_lru_flags are plain */
		if (held.lock)
			MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC);
		if (!(__atomic_load_n(&pg->flags, __ATOMIC_ACQUIRE) & PG_LRU))
			continue;
		held = relock(mw, held, pg);
		if (!test_clear_lru(pg))
			continue; /* cannot happen: our pages are not shared */
		lruvec_del_page(mw, pg->memcg->nodeinfo[pg->nid], pg);
		mw->ops.lru_del++;
	}
	if (held.lock)
		lru_unlock(mw, held);
	model_uncharge_pages(mw, fb->pages, fb->nr);
	for (unsigned i = 0; i < fb->nr; i++)
		model_page_free(mw, fb->pages[i]);
	fb->nr = 0;
}

/*
 * Reclaim of mw's own lruvec, shrink_lruvec() reduced to its LRU lock
 * traffic, in the shape of shrink_active_list() and
 * shrink_inactive_list() of mm/vmscan.c (v6.6..v6.9; v5.10 and v5.11
 * take pgdat->lru_lock or lruvec->lru_lock the same way):
 *   shrink_active_list, when the inactive list is shorter than the batch
 *   wanted (inactive_is_low): one hold isolates up to nr folios from the
 *   active tail (isolate_lru_folios); outside it they lose PG_active
 *   (folio_referenced finds them unreferenced: a streaming read); a
 *   second hold puts them on the inactive list (move_folios_to_lru) and
 *   counts PGDEACTIVATE, once for the batch (__count_memcg_events).
 *   shrink_inactive_list: one hold isolates up to nr = SWAP_CLUSTER_MAX
 *   (32) folios from the inactive tail, skipping folios someone else
 *   isolated; outside it shrink_folio_list takes the clean page-cache
 *   folios out of the page cache (NR_FILE_PAGES), then they are
 *   uncharged in gathers and freed (inside shrink_folio_list); a second
 *   hold runs
 *   move_folios_to_lru for the folios not reclaimed (none here: every
 *   one is clean and unmapped) and the NR_ISOLATED and PGSTEAL counts.
 * The stats are flushed first if the threshold says so, as
 * shrink_node() does through mem_cgroup_flush_stats().
 * Not modelled: the PGSCAN/PGSTEAL memcg events and NR_ISOLATED_* node
 * items (no such items in the model), lru_note_cost (nothing written
 * back or rotated).  Global reclaim's walk over the other memcgs'
 * lruvecs: model_reclaim below (recorded as the walk's, one lruvec
 * standing for each).
 */
static void shrink_active_list(struct model_worker *mw, char *pn, struct lru_lock_ref lk,
			       enum lru_list active, unsigned nr)
{
	struct list_head *act = pn_list(mw->m, pn, active);
	struct mpage *iso[SWAP_CLUSTER_MAX];
	unsigned n = 0;

	lru_lock(mw, lk);
	for (struct list_head *pos = act->prev; pos != act && n < nr;) {
		struct mpage *pg = page_of(pos);
		pos = pos->prev;
		/* isolate_lru_folios: folio_try_get, folio_test_clear_lru */
		MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC);
		MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC);
		if (!test_clear_lru(pg))
			continue;
		MODEL_REC_LOCAL(mw->m, RL_LIST_ISOLATE);
		lruvec_del_page(mw, pn, pg);
		iso[n++] = pg;
	}
	lru_unlock(mw, lk);
	if (!n)
		return;
	for (unsigned i = 0; i < n; i++)
		clear_flag(iso[i], PG_ACTIVE);
	lru_lock(mw, lk);
	for (unsigned i = 0; i < n; i++) {
		/* move_folios_to_lru: folio_set_lru, folio_put_testzero */
		MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC);
		MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC);
		lruvec_add_page(mw, pn, iso[i]);
		set_flag(iso[i], PG_LRU);
		mw->ops.lru_move++;
	}
	model_count_event(mw, mw->memcg, EV_PGDEACTIVATE, (long)n);
	lru_unlock(mw, lk);
}

static unsigned reclaim_lruvec(struct model_worker *mw, enum lru_list base, unsigned nr)
{
	struct model *m = mw->m;
	struct mcg *memcg = mw->memcg;
	char *pn = memcg->nodeinfo[mw->nid];
	struct list_head *inact = pn_list(m, pn, base);
	struct lru_lock_ref lk = lru_lock_of(m, memcg, mw->nid);
	struct mpage *iso[SWAP_CLUSTER_MAX];
	unsigned n = 0, scanned = 0;

	if (m->p.lru_gen) /* MGLRU eviction: models/lru_gen.c */
		return model_lru_gen_reclaim(mw, base == LRU_INACTIVE_FILE, nr);
	if (nr > SWAP_CLUSTER_MAX)
		nr = SWAP_CLUSTER_MAX;
	model_flush_if_needed(mw, memcg);
	if (*pn_zone_size(m, pn, base) < (long)nr)
		shrink_active_list(mw, pn, lk, base + 1, nr);
	lru_lock(mw, lk);
	for (struct list_head *pos = inact->prev; pos != inact && n < nr &&
	     scanned < 2 * nr; scanned++) {
		struct mpage *pg = page_of(pos);
		pos = pos->prev;
		MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC); /* folio_try_get */
		MODEL_REC_LOCAL(mw->m, RL_FOLIO_ATOMIC); /* folio_test_clear_lru */
		if (!test_clear_lru(pg))
			continue;
		MODEL_REC_LOCAL(mw->m, RL_LIST_ISOLATE);
		lruvec_del_page(mw, pn, pg);
		mw->ops.lru_del++;
		iso[n++] = pg;
	}
	lru_unlock(mw, lk);
	if (!n)
		return 0;
	/* shrink_folio_list: __remove_mapping, then the freed batch is
	 * uncharged (mem_cgroup_uncharge_folios) and freed */
	model_reclaim_free(mw, iso, n);
	/* move_folios_to_lru of what was not reclaimed (nothing) */
	lru_lock(mw, lk);
	lru_unlock(mw, lk);
	return n;
}

/* Global reclaim (m->reclaim_walk): the lruvec reclaimed is the walk's
 * current memcg's, not the reclaimer's (shrink_node_memcgs(), see
 * model_page_free_reclaimed).  All containers run the same workload, so
 * the recording's one lruvec stands for each of them; the recorder marks
 * the accesses as the walk's (models/record.h, rec->walk) and the
 * simulator spreads them over every container's instance.  The call is
 * recorded apart (rec->actor: what kswapd may do instead of the worker). */
unsigned model_reclaim(struct model_worker *mw, enum lru_list base, unsigned nr)
{
	MODEL_REC_ENTRY(mw->m, model_reclaim, mw, base, nr);
	struct model *m = mw->m;
	struct model_rec *rec;
	unsigned n;
	bool walk;

	if (!(MODEL_REC_ON(m) && m->reclaim_walk))
		return reclaim_lruvec(mw, base, nr);
	/* the reclaim call's own recording (rec->actor), when there is one */
	rec = m->rec;
	if (rec->actor && !rec->paused) {
		m->rec = rec->actor;
		m->rec->ops++;
		model_rec_op(m->rec);
	}
	walk = m->rec->walk;
	m->rec->walk = true;
	n = reclaim_lruvec(mw, base, nr);
	m->rec->walk = walk;
	m->rec = rec;
	return n;
}
