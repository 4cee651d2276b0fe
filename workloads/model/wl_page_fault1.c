/*
 * page_fault1 - will-it-scale tests/page_fault1.c over the memcg model:
 * mmap 128 MB private anonymous, write one byte per 4 KiB page, munmap.
 * Kernel path (mm/memory.c, mm/swap.c; the call traces of LKP's report on
 * 70a64b7919cb, Message-ID 202405171353.b56b845-oliver.sang@intel.com):
 * do_anonymous_page ->
 * __mem_cgroup_charge -> folio_add_new_anon_rmap -> folio_add_lru; munmap
 * -> zap_pte_range -> tlb_finish_mmu -> folios_put_refs (lruvec lock) ->
 * uncharge_batch.  The mapping is MWL_WIS_PAGES pages (see model_workload.h).
 *
 * One operation = one page faulted (will-it-scale counts per page).
 * Op table per operation (R = MWL_WIS_PAGES = 32768, B = lru_batch):
 *   charges 1 (page_counter hit once per charge_batch by the stock)
 *   uncharges ceil(R/B)/R        (one uncharge_batch per release batch)
 *   LRU adds 1, LRU dels 1
 *   stat updates 4: NR_ANON_MAPPED +1/-1, NR_INACTIVE_ANON +1/-1
 *   events 2 + ceil(R/B)/R: PGFAULT, PGPGIN, PGPGOUT per gather
 *   LRU lock acquisitions 2*ceil(R/B)/R: lru_add drains + release batches
 *   page work: zero the page (clear_page) with page_work=copy
 * Kernel entries per operation: one fault, one page zeroed
 * (alloc_zeroed_user_highpage_movable in v5.x, vma_alloc_zeroed_movable_folio
 * in v6.x), no page copy; the new folio is private, so the fault
 * touches no other line of anyone else's.  Not modelled: the page tables
 * of the region (one zeroed, kmem-charged table per 512 faults).
 */
#include "workloads/model/model_workload.h"

static void page_fault1_op(struct mwl_worker *ww)
{
	mwl_region_fault(ww, false);
}

MODEL_WORKLOAD(page_fault1, 0,
	       "will-it-scale page_fault1: anon fault, charge, LRU add; munmap frees (model)",
	       .pages_per_worker = MWL_WIS_PAGES + 2 * MODEL_MAX_BATCH,
	       .map_pages = MWL_WIS_PAGES, .op = page_fault1_op,
	       .expect = mwl_expect_region);
KERNEL_WORKLOAD(page_fault1, 0,
		"Anonymous memory page fault (will-it-scale page_fault1, real faults)",
		.op_unit = "page faulted", .flags = KWL_F_SIZED, .dir = KWL_DIR_NONE,
		.loop = kwl_pf1_loop);
WORKLOAD_SPEC(page_fault1, .suite = WL_SUITE_WIS, .test = "page_fault1",
	      .mmtests = "wis-pf",
	      .kentry = { .faults = 1, .syscalls = 2.0 / MWL_WIS_PAGES, .clears = 1 },
	      .kernel = &page_fault1_kernel);
