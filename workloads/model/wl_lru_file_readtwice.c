/*
 * lru_file_readtwice - vm-scalability case-lru-file-readtwice over the
 * memcg model: per task a sparse file larger than memory read by two dd
 * processes (vm-scalability's case-lru-file-readtwice script; Daniel
 * Jordan's case for the per-memcg
 * lru_lock, +62% with 6168d0da2b47's series, seed 003).  The first reader
 * misses: page cache alloc, charge (PGPGIN), NR_FILE_PAGES, folio_add_lru
 * on the inactive file list; the second reader, RING pages behind, hits
 * the cached page: folio_mark_accessed -> folio_activate (activate batch,
 * inactive -> active under the LRU lock, PGACTIVATE).  The files add up
 * to ROTATE_BYTES = min(2^42, MemAvailable << 8) (vm-scalability's
 * hw_vars), 256 times memory (footprint_per_memory), so reclaim never
 * stops.  Memory is a pool of pages per worker: when it is empty the
 * worker reclaims from its memcg's lruvec (mwl_page_alloc ->
 * model_reclaim: deactivate from the active tail, isolate 32 from the
 * inactive tail, uncharge, free, each a pair of lock holds), which is
 * where the lock is hot (shrink_active_list / shrink_inactive_list /
 * activate).  No container sets memory.max, so the reclaim is global
 * (models/memcg.h model_page_free_reclaimed): it walks every container's
 * lruvec and frees through the reclaimer's pcp list and zone->lock, and
 * the recorder keeps each reclaim call apart for the simulator's kswapd
 * (one per node, predict/sim_memcg.h MEMCG_KSWAPD_SHARE), the reader's
 * direct reclaim doing what kswapd does not.
 *
 * One operation = one page read by each dd (8 KiB of dd output).
 * Op table per operation, steady state (not exact: reclaim batches depend
 * on timing; the tests check only the invariants):
 *   charges 1, uncharges ~1/32 (SWAP_CLUSTER_MAX pages per gather)
 *   LRU adds 1, LRU dels ~1, LRU moves ~2 (activate, deactivate)
 *   stat updates ~6: NR_FILE_PAGES +1/-1, NR_INACTIVE_FILE +1/-1,
 *     activate -INACTIVE +ACTIVE, deactivate -ACTIVE +INACTIVE (when it runs)
 *   events ~3: PGPGIN, PGACTIVATE, PGDEACTIVATE, PGPGOUT per gather
 *   LRU lock acquisitions ~1/B + 1/B + 2/32 (add drain, activate drain,
 *     reclaim's isolate and putback) + 2/32 when the active list is
 *     deactivated
 */
#include "workloads/model/model_workload.h"

#define RING 64
#define POOL 1024

/* Set-up, single-threaded: the arena is not for the measured loop. */
static void readtwice_init(struct mwl_worker *ww)
{
	ww->ring = arena_alloc(ww->run->arena, RING * sizeof(*ww->ring), 8);
	ww->ring_len = RING;
}

static void readtwice_op(struct mwl_worker *ww)
{
	struct model_worker *mw = ww->mw;
	struct mpage *pg, *old;

	/* first dd: miss, read into a new page cache page */
	pg = mwl_page_alloc(ww);
	if (!pg)
		return;
	if (!model_charge(mw, pg, mw->memcg))
		die(1, "internal error: charge failed without a limit");
	model_mod_lruvec_state(mw, mw->memcg, mw->nid, NR_FILE_PAGES, 1);
	model_lru_add(mw, pg);
	model_page_work(mw, true);
	/* second dd, RING pages behind: hit, activate */
	old = ww->ring[ww->ring_pos];
	ww->ring[ww->ring_pos] = pg;
	ww->ring_pos = (ww->ring_pos + 1) % RING;
	if (old) {
		model_activate(mw, old);
		model_page_work(mw, true);
	}
}

MODEL_WORKLOAD(lru_file_readtwice, 0,
	       "vm-scalability lru-file-readtwice: two readers per file, activate on the 2nd read, reclaim (model)",
	       .pages_per_worker = POOL, .map_pages = 1, .prefault = readtwice_init,
	       .op = readtwice_op,
	       .footprint_per_memory = 256 /* ROTATE_BYTES = MemAvailable << 8 */);
WORKLOAD_SPEC(lru_file_readtwice, .suite = WL_SUITE_VMSCAL, .test = "lru-file-readtwice",
	      /* per operation: each dd's read(4 KiB) and write to /dev/null
	       * (4 syscalls); the first reader's hole folio zeroed
	       * (iomap_readahead); each read copies the page to dd's buffer
	       * (v5.10/v5.11 mm/filemap.c generic_file_buffered_read ->
	       * copy_page_to_iter, filemap_read -> copy_folio_to_iter from
	       * v5.16: 4 KiB, priced as a page copy) */
	      .kentry = { .syscalls = 4, .clears = 1, .copies = 2 });
