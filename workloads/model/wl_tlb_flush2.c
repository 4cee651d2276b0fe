/*
 * tlb_flush2 - will-it-scale tests/tlb_flush2.c over the memcg model:
 * mmap 1 MB anonymous; per page: write it, madvise(MADV_DONTNEED) it,
 * read it back (assert *p == 0, a fault on the zero page); munmap.
 * Kernel path (LKP 8d59d2214c23 report, experiments/permemcg_flush.ini): every madvise runs
 * zap_page_range_single: lru_add_drain (folio_batch_move_lru takes the
 * lruvec lock for a batch of ONE page) and tlb_finish_mmu ->
 * release_pages (the lock again) + uncharge; pgfault ~ 2x pgalloc.
 *
 * One operation = one page (write + madvise + read).
 * Op table per operation:
 *   charges 1, uncharges 1
 *   LRU adds 1, LRU dels 1
 *   stat updates 4: NR_ANON_MAPPED +1/-1, NR_INACTIVE_ANON +1/-1
 *   events 4: PGFAULT (write), PGPGIN, PGPGOUT, PGFAULT (zero-page read)
 *   LRU lock acquisitions 2 (drain of one page, release of one page)
 */
#include "workloads/model/model_workload.h"
#include "models/mmlock.h"

static void tlb_flush2_op(struct mwl_worker *ww)
{
	mwl_fault_anon(ww, false);
	model_mm_read_enter(ww->mw); /* madvise(MADV_DONTNEED): mmap_read_lock */
	mwl_unmap_anon(ww);          /* of that page */
	model_mm_read_exit(ww->mw);
	model_mm_fault_enter(ww->mw, false); /* the read: a zero-page fault */
	model_count_event(ww->mw, ww->mw->memcg, EV_PGFAULT, 1);
	model_mm_fault_exit(ww->mw, false);
}

static void tlb_flush2_expect(const struct model_params *p, struct mwl_counts *c)
{
	*c = (struct mwl_counts){ .charges = 1, .uncharges = 1, .lru_add = 1,
				  .lru_del = 1, .stat_updates = 4, .events = 4,
				  .lock_acq = 2 };
}

MODEL_WORKLOAD(tlb_flush2, 0,
	       "will-it-scale tlb_flush2: write, MADV_DONTNEED, re-read each page (model)",
	       .pages_per_worker = 4 + 2 * MODEL_MAX_BATCH, .map_pages = 1,
	       .op = tlb_flush2_op, .expect = tlb_flush2_expect);
KERNEL_WORKLOAD(tlb_flush2, 0,
		"TLB flush of anonymous memory private mapping (will-it-scale tlb_flush2, real madvise)",
		.op_unit = "page written and zapped", .dir = KWL_DIR_NONE,
		.loop = kwl_tlb_flush2_loop);
WORKLOAD_SPEC(tlb_flush2, .suite = WL_SUITE_WIS, .test = "tlb_flush2",
	      .mmtests = "wis-mmap",
	      .kentry = { .faults = 2, .syscalls = 1 + 2.0 / 256, .clears = 1 },
	      .kernel = &tlb_flush2_kernel);
