/*
 * aim9_brk_test - AIM9 brk_test (aim7/creat-clo.c, "System Memory
 * Allocations", multiplier 17000 per 10 calls' worth: 1700 sbrk calls per
 * call here) over the memcg model: page_test's sbrk pattern without
 * touching memory, so NO faults and no memcg work at all (brk_test in
 * aim7/creat-clo.c).  What it does exercise is vm_acct_memory(): one
 * percpu_counter_add_batch on vm_committed_as per sbrk, modelled with the
 * run's --counter (default percpu_batch).  With page_test in other
 * containers it is the control: any lru_lock effect on it is indirect.
 *
 * One operation = one brk_test call: sbrk(+1 MB), 100 x (sbrk(-64 KB),
 * 16 x sbrk(+4 KB)), brk(old) = 1702 counter adds, net zero.
 * Op table per operation: charges 0, uncharges 0, LRU adds 0, dels 0,
 *   stat updates 0, events 0, LRU lock acquisitions 0
 *   (counter_adds_per_op 1702 is reported by the counter layer).
 */
#include "counters/counter.h"
#include "workloads/model/model_workload.h"

static void aim9_brk_test_op(struct mwl_worker *ww)
{
	const struct counter_ops *ops = ww->run->counter;
	void *c = ((struct mwl_shared *)ww->run->shared)->counter;

	ops->add(c, ww->counter_ctx, 256);
	for (unsigned r = 0; r < 100; r++) {
		ops->add(c, ww->counter_ctx, -16);
		for (unsigned i = 0; i < 16; i++)
			ops->add(c, ww->counter_ctx, 1);
	}
	ops->add(c, ww->counter_ctx, -256);
}

static void aim9_brk_test_expect(const struct model_params *p, struct mwl_counts *c)
{
	*c = (struct mwl_counts){ 0 };
}

MODEL_WORKLOAD(aim9_brk_test, WL_F_USES_COUNTER,
	       "AIM9 brk_test: 1700 sbrk calls per call, no faults; vm_committed_as via --counter (model)",
	       .pages_per_worker = 1, .map_pages = 1, .uses_counter = true,
	       .op = aim9_brk_test_op, .expect = aim9_brk_test_expect);
KERNEL_WORKLOAD(aim9_brk_test, WL_F_PROCESSES_ONLY,
		"System Memory Allocations (AIM9 brk_test, real brk)",
		.op_unit = "brk call", .dir = KWL_DIR_NONE, .loop = kwl_aim9_brk_test_loop);
WORKLOAD_SPEC(aim9_brk_test, .suite = WL_SUITE_AIM9, .test = "brk_test",
	      .kentry = { .syscalls = 1702 },
	      .kops_per_op = 1700 /* the kernel twin counts brk calls */,
	      .kernel = &aim9_brk_test_kernel);
