/*
 * aim9_page_test - AIM9 page_test (aim7/creat-clo.c, "System Allocations
 * & Pages", multiplier 1700) over the memcg model: sbrk(1 MB), then 100
 * times sbrk(-64 KB) and 16 x (sbrk(4 KB) + write a byte every 128 B of
 * the new page), finally brk(old).  Each shrink frees the 16 pages the
 * previous round dirtied (page_test in aim7/creat-clo.c): page_fault1's
 * memcg paths in
 * 64 KB bursts.  Unlike malloc1, the heap's VMA and page table stay:
 * sbrk(+4 KB) extends the brk VMA in place (do_brk_flags), and a 64 KB
 * shrink frees no page table (free_pgtables frees only tables wholly
 * inside the unmapped range, and the heap's first 2 MB table stays in
 * use), so a round's 16 faults allocate only the 16 zeroed anon pages
 * (do_anonymous_page), and each shrink drains 16 pages per lock hold.  Alex Shi's per-memcg lru_lock case (24 containers of
 * page_test + brk_test, seed 003) - run with containers=N.
 *
 * One operation = one page_test call (AIM reports calls/s x 1700).
 * Op table per operation (B = lru_batch; each round faults 16 pages, then
 * the shrink drains the LRU batch and releases them):
 *   charges 1600, uncharges 100*ceil(16/B)
 *   LRU adds 1600, LRU dels 1600
 *   stat updates 6400: NR_ANON_MAPPED +1/-1, NR_INACTIVE_ANON +1/-1 per page
 *   events 3200 + 100*ceil(16/B): PGFAULT, PGPGIN per page, PGPGOUT per gather
 *   LRU lock acquisitions 100*2*ceil(16/B)
 */
#include "workloads/model/model_workload.h"

#define ROUNDS 100
#define PAGES_PER_ROUND 16

static void aim9_page_test_op(struct mwl_worker *ww)
{
	for (unsigned r = 0; r < ROUNDS; r++) {
		for (unsigned i = 0; i < PAGES_PER_ROUND; i++)
			mwl_fault_anon(ww, false);
		mwl_unmap_anon(ww); /* the next sbrk(-64 KB) (or brk(old)) */
	}
}

static void aim9_page_test_expect(const struct model_params *p, struct mwl_counts *c)
{
	double g = ROUNDS * div_up(PAGES_PER_ROUND, p->lru_batch);
	double pages = ROUNDS * PAGES_PER_ROUND;

	*c = (struct mwl_counts){ .charges = pages, .uncharges = g, .lru_add = pages,
				  .lru_del = pages, .stat_updates = 4 * pages,
				  .events = 2 * pages + g, .lock_acq = 2 * g };
}

MODEL_WORKLOAD(aim9_page_test, 0,
	       "AIM9 page_test: 100 x (sbrk -64 KB, 16 page faults) per call (model)",
	       .pages_per_worker = PAGES_PER_ROUND + 2 * MODEL_MAX_BATCH,
	       .map_pages = PAGES_PER_ROUND, .op = aim9_page_test_op,
	       .expect = aim9_page_test_expect);
KERNEL_WORKLOAD(aim9_page_test, WL_F_PROCESSES_ONLY,
		"System Allocations & Pages (AIM9 page_test, real brk and faults)",
		.op_unit = "brk call", .dir = KWL_DIR_NONE, .loop = kwl_aim9_page_test_loop);
WORKLOAD_SPEC(aim9_page_test, .suite = WL_SUITE_AIM9, .test = "page_test",
	      .kentry = { .faults = 1600, .syscalls = 1703, .clears = 1600 },
	      .kops_per_op = 1700 /* the kernel twin counts brk calls */,
	      .kernel = &aim9_page_test_kernel);
