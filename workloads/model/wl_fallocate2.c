/*
 * fallocate2 - will-it-scale tests/fallocate2.c over the memcg model: the
 * same as fallocate1 with the file in /tmp ("fallocate test against
 * /tmp", 2018).  With /tmp on tmpfs, as in Shakeel's fefc6e6631ff runs
 * (as much as fallocate1 in experiments/layout_false_sharing.ini), it takes the very same kernel path; on
 * ext4/xfs it would not touch the memcg LRU at all (fallocate there
 * allocates blocks, no page cache: our reading of the kernel), so
 * the model shares fallocate1's operation.
 *
 * One operation = one fallocate call (2 pages).
 * Op table per operation: as fallocate1 (charges 2, uncharges
 *   ceil(256/B)/128, LRU adds 2, dels 2, stat updates 12,
 *   events 2 + ceil(256/B)/128, LRU lock acquisitions 2*ceil(256/B)/128).
 */
#include "workloads/model/model_workload.h"

MODEL_WORKLOAD(fallocate2, 0,
	       "will-it-scale fallocate2: fallocate1 against tmpfs /tmp (model)",
	       .pages_per_worker = MWL_FALLOC_PAGES + 2 * MODEL_MAX_BATCH,
	       .map_pages = MWL_FALLOC_PAGES, .op = mwl_fallocate_op,
	       .expect = mwl_expect_fallocate);
KERNEL_WORKLOAD(fallocate2, 0,
		"Separate file fallocate in tmpfs /tmp (will-it-scale fallocate2, real syscalls)",
		.op_unit = "fallocate call", .dir = KWL_DIR_TMP,
		.prepare = kwl_fallocate_prepare, .loop = kwl_fallocate_loop);
WORKLOAD_SPEC(fallocate2, .suite = WL_SUITE_WIS, .test = "fallocate2",
	      .mmtests = "wis-fallocate",
	      .kentry = { .syscalls = 1 + 2.0 / MWL_FALLOC_PAGES },
	      .kernel = &fallocate2_kernel);
