/*
 * malloc1 - will-it-scale tests/malloc1.c over the memcg model:
 * malloc(128 MB) + free.  128 MB is above glibc's mmap threshold, so one
 * iteration is an mmap, the fault on the chunk header page (charge, LRU
 * add, NR_ANON_MAPPED) and a munmap that drains the LRU batch and frees
 * that page (our reading of tests/malloc1.c and glibc's malloc, whose
 * mmap threshold is at most 32 MB on 64-bit).
 * What sets it apart from aim9_page_test (a brk heap that keeps its VMA
 * and page tables): the fresh mapping has no page table, so the fault
 * first allocates one (mm/memory.c __pte_alloc -> pte_alloc_one with
 * GFP_PGTABLE_USER = GFP_KERNEL | __GFP_ZERO | __GFP_ACCOUNT,
 * include/asm-generic/pgalloc.h, v5.10..v6.9): a zeroed page, kmem-charged
 * through the stock (models/memcg.c model_kmem_charge_page), and munmap's
 * free_pgtables frees it again (its uncharge refills the stock); and
 * the LRU batches hold one page when munmap drains them, so each lock
 * hold moves one folio.  Per operation the kernel zeroes two pages (the
 * header page and the page table).  Feng Tang's page_counter
 * relayout measured malloc1 (Message-ID
 * 1611040814-33449-1-git-send-email-feng.tang@intel.com);
 * MEMCG_UPDATE_BATCH (experiments/stats_batch.ini; Message-ID
 * 1609252514-27795-2-git-send-email-feng.tang@intel.com).
 * Not modelled: the kmem charge of the VMA slab object (obj_stock bytes),
 * an upper-level page table the mapping may also need, and the
 * NR_PAGETABLE / MEMCG_KMEM stat updates.
 *
 * One operation = one malloc/free pair.
 * Op table per operation (user folios; the page table's kmem charge is
 * not a charge here):
 *   charges 1, uncharges 1
 *   LRU adds 1, LRU dels 1
 *   stat updates 4: NR_ANON_MAPPED +1/-1, NR_INACTIVE_ANON +1/-1
 *   events 3: PGFAULT, PGPGIN, PGPGOUT
 *   LRU lock acquisitions 2 (munmap's lru_add_drain, release)
 */
#include "workloads/model/model_workload.h"
#include "models/mmlock.h"

static void malloc1_op(struct mwl_worker *ww)
{
	struct model_worker *mw = ww->mw;

	model_mm_mmap(mw);
	/* __pte_alloc: the page table of the new mapping */
	if (!model_kmem_charge_page(mw, mw->memcg))
		die(1, "internal error: kmem charge failed without a limit");
	mwl_fault_anon(ww, false);
	model_mm_munmap_enter(mw);
	mwl_unmap_anon(ww);
	model_kmem_uncharge_page(mw, mw->memcg); /* free_pgtables */
	model_mm_munmap_exit(mw);
}

static void malloc1_expect(const struct model_params *p, struct mwl_counts *c)
{
	*c = (struct mwl_counts){ .charges = 1, .uncharges = 1, .lru_add = 1,
				  .lru_del = 1, .stat_updates = 4, .events = 3,
				  .lock_acq = 2 };
}

MODEL_WORKLOAD(malloc1, 0,
	       "will-it-scale malloc1: malloc(128 MB) = mmap, one page faulted, munmap (model)",
	       .pages_per_worker = 4 + 2 * MODEL_MAX_BATCH, .map_pages = 1,
	       .op = malloc1_op, .expect = malloc1_expect);
KERNEL_WORKLOAD(malloc1, 0,
		"malloc/free of 128MB (will-it-scale malloc1, real mmap/munmap)",
		.op_unit = "malloc+free pair", .dir = KWL_DIR_NONE, .flags = KWL_F_SIZED,
		.loop = kwl_malloc1_loop);
WORKLOAD_SPEC(malloc1, .suite = WL_SUITE_WIS, .test = "malloc1",
	      .mmtests = "wis-malloc",
	      .kentry = { .faults = 1, .syscalls = 2, .clears = 2 },
	      .kernel = &malloc1_kernel);
