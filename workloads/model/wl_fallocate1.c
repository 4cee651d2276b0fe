/*
 * fallocate1 - will-it-scale tests/fallocate1.c over the memcg model: a
 * file in /dev/shm grown by fallocate(8 KB) steps to 1 MB, then
 * ftruncate(0).  Kernel path (the perf profile of LKP's report on
 * fefc6e6631ff, Message-ID 202408081325.cba32176-oliver.sang@intel.com,
 * where folio_lruvec_lock_irqsave is 84.8% of cycles):
 * shmem_fallocate -> shmem_alloc_and_add_folio: alloc, mem_cgroup_charge,
 * shmem_add_to_page_cache (NR_FILE_PAGES, NR_SHMEM), folio_add_lru;
 * ftruncate -> shmem_undo_range -> filemap_remove_folio (stats back),
 * __folio_batch_release (lru_add_drain + folios_put_refs).
 *
 * One operation = one fallocate call (2 pages).
 * Op table per operation (256 pages per truncate = 128 calls, B = lru_batch):
 *   charges 2, uncharges ceil(256/B)/128
 *   LRU adds 2, LRU dels 2
 *   stat updates 12: per page NR_FILE_PAGES, NR_SHMEM, NR_INACTIVE_ANON
 *     up at fallocate and down at truncate
 *   events 2 + ceil(256/B)/128: PGPGIN per page, PGPGOUT per gather
 *   LRU lock acquisitions 2*ceil(256/B)/128
 */
#include "workloads/model/model_workload.h"

MODEL_WORKLOAD(fallocate1, 0,
	       "will-it-scale fallocate1: shmem fallocate 8 KB steps, ftruncate at 1 MB (model)",
	       .pages_per_worker = MWL_FALLOC_PAGES + 2 * MODEL_MAX_BATCH,
	       .map_pages = MWL_FALLOC_PAGES, .op = mwl_fallocate_op,
	       .expect = mwl_expect_fallocate);
KERNEL_WORKLOAD(fallocate1, 0,
		"Separate file fallocate in /dev/shm (will-it-scale fallocate1, real syscalls)",
		.op_unit = "fallocate call", .dir = KWL_DIR_DEV_SHM,
		.prepare = kwl_fallocate_prepare, .loop = kwl_fallocate_loop);
WORKLOAD_SPEC(fallocate1, .suite = WL_SUITE_WIS, .test = "fallocate1",
	      .mmtests = "wis-fallocate",
	      .kentry = { .syscalls = 1 + 2.0 / MWL_FALLOC_PAGES },
	      .kernel = &fallocate1_kernel);
