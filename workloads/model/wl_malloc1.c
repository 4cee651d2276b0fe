/*
 * malloc1 - will-it-scale tests/malloc1.c over the memcg model:
 * malloc(128 MB) + free.  128 MB is above glibc's mmap threshold, so one
 * iteration is an mmap, the fault on the chunk header page (charge, LRU
 * add, NR_ANON_MAPPED) and a munmap that drains the LRU batch and frees
 * that page (our reading of tests/malloc1.c and glibc's malloc, whose
 * mmap threshold is at most 32 MB on 64-bit).  Feng Tang's page_counter
 * relayout measured malloc1 (Message-ID
 * 1611040814-33449-1-git-send-email-feng.tang@intel.com);
 * MEMCG_UPDATE_BATCH (experiments/stats_batch.ini; Message-ID
 * 1609252514-27795-2-git-send-email-feng.tang@intel.com).
 * Not modelled: the kmem charge of the VMA slab object.
 *
 * One operation = one malloc/free pair.
 * Op table per operation:
 *   charges 1, uncharges 1
 *   LRU adds 1, LRU dels 1
 *   stat updates 4: NR_ANON_MAPPED +1/-1, NR_INACTIVE_ANON +1/-1
 *   events 3: PGFAULT, PGPGIN, PGPGOUT
 *   LRU lock acquisitions 2 (munmap's lru_add_drain, release)
 */
#include "workloads/model/model_workload.h"

static void malloc1_op(struct mwl_worker *ww)
{
	mwl_fault_anon(ww, false);
	mwl_unmap_anon(ww);
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
	       .op = malloc1_op, .expect = malloc1_expect,
	       .kentry = { .faults = 1, .syscalls = 2 });
