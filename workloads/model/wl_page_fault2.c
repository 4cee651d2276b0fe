/*
 * page_fault2 - will-it-scale tests/page_fault2.c over the memcg model:
 * per worker a 128 MB file on tmpfs /tmp (created once; its pages are
 * charged and cached in set-up), then in a loop: mmap MAP_PRIVATE, write
 * one byte per page, munmap.  Every write is a CoW fault (mm/memory.c
 * do_cow_fault; call traces of LKP's 70a64b7919cb report):
 * do_fault -> folio_prealloc (alloc + __mem_cgroup_charge), copy_page,
 * set_pte_range (folio_add_new_anon_rmap: NR_ANON_MAPPED; folio_add_lru_vma);
 * munmap: folio_remove_rmap_ptes, tlb_flush_mmu -> folios_put_refs under
 * folio_lruvec_lock_irqsave.  This is the benchmark of LKP's 70a64b7919cb
 * report and of fefc6e6631ff's fix, and of Feng Tang's
 * MEMCG_UPDATE_BATCH (published rows: the experiment files).
 *
 * One operation = one page faulted.
 * Op table per operation (R = MWL_WIS_PAGES = 32768, B = lru_batch):
 *   charges 1, uncharges ceil(R/B)/R
 *   LRU adds 1, LRU dels 1
 *   stat updates 4: NR_ANON_MAPPED +1/-1, NR_INACTIVE_ANON +1/-1
 *   events 2 + ceil(R/B)/R: PGFAULT, PGPGIN, PGPGOUT per gather
 *   LRU lock acquisitions 2*ceil(R/B)/R
 *   page work: copy the file page (copy_page) with page_work=copy
 * Kernel entries per operation, where it differs from page_fault1
 * (do_cow_fault, v6.9 mm/memory.c): the new anon folio is allocated
 * without zeroing (folio_prealloc(..., need_zero = false)) and filled
 * by copy_mc_user_highpage from the file folio, which __do_fault ->
 * shmem_fault finds in the page cache: filemap_get_entry's
 * folio_try_get and folio_lock, then after the copy folio_unlock and
 * folio_put - four atomics on the worker's own file folio (each task
 * has its own file: private lines in both modes).  So: one copy, no
 * clear, four private atomics.
 */
#include "workloads/model/model_workload.h"

static void page_fault2_op(struct mwl_worker *ww)
{
	mwl_region_fault(ww, true);
}

MODEL_WORKLOAD(page_fault2, 0,
	       "will-it-scale page_fault2: CoW fault of a tmpfs file page, charge, LRU add; munmap frees (model)",
	       .pages_per_worker = 2 * MWL_WIS_PAGES + 2 * MODEL_MAX_BATCH,
	       .map_pages = MWL_WIS_PAGES, .prefault = mwl_prefault_file,
	       .op = page_fault2_op, .expect = mwl_expect_region);
KERNEL_WORKLOAD(page_fault2, 0,
		"Separate file private mapping page fault (will-it-scale page_fault2, real faults)",
		.op_unit = "page faulted", .flags = KWL_F_SIZED, .dir = KWL_DIR_TMP,
		.prepare = kwl_pf_prepare_file, .loop = kwl_pf2_loop);
WORKLOAD_SPEC(page_fault2, .suite = WL_SUITE_WIS, .test = "page_fault2",
	      .mmtests = "wis-pf",
	      .kentry = { .faults = 1, .syscalls = 2.0 / MWL_WIS_PAGES, .copies = 1,
			  .private_atomics = 4 },
	      .kernel = &page_fault2_kernel);
