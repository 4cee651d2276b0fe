/*
 * lru_shm - vm-scalability case-lru-shm over the memcg model: per task a
 * sparse tmpfs file read through a read-only MAP_SHARED mapping
 * (usemem --readonly), then unmapped and removed.  Kernel path
 * (vm-scalability's case-lru-shm and usemem.c; LKP's report on
 * 8d59d2214c23, Message-ID 202401221624.cb53a8ca-oliver.sang@intel.com:
 * (experiments/permemcg_flush.ini), fixed by
 * 9cee7e8ef3e3): shmem_fault -> shmem_alloc_and_add_folio (charge,
 * PGPGIN, NR_FILE_PAGES, NR_SHMEM, folio_add_lru), finish_fault ->
 * folio_add_file_rmap (NR_FILE_MAPPED), the PGFAULT event; munmap takes
 * NR_FILE_MAPPED back, rm truncates (LRU del, uncharge).  The file is
 * MWL_SHM_PAGES pages per task (scaled, see model_workload.h).  The
 * files add up to half of RAM (shm_size/nr_task/2 per task, shm_size the
 * tmpfs size = RAM), whatever the task count: footprint_per_memory 0.5,
 * no reclaim (and shmem needs swap to be reclaimed).
 *
 * One operation = one page read (usemem's KB/s / 4).  usemem's timer
 * covers its reads only: the munmap at its exit and the case script's
 * rm (after `wait`) are outside it (../shared/reference/workloads.md
 * section 3).  memscale's loop times them all, as its runs (and the
 * kernel twin, kwl_lru_shm.c) measure; a prediction of the benchmark
 * (model_params.bench_window, a target profile's) records the reads
 * alone: per operation the charge, the LRU add and the fault's stats.
 * Op table per operation (F = MWL_SHM_PAGES = 32768 pages per file, B = lru_batch):
 *   charges 1, uncharges ceil(F/B)/F
 *   LRU adds 1, LRU dels 1
 *   stat updates 8: NR_FILE_PAGES, NR_SHMEM, NR_INACTIVE_ANON, NR_FILE_MAPPED
 *     each up at the fault and down at munmap/rm
 *   events 2 + ceil(F/B)/F: PGFAULT, PGPGIN, PGPGOUT per gather
 *   LRU lock acquisitions 2*ceil(F/B)/F
 */
#include "workloads/model/model_workload.h"
#include "models/mmlock.h"
#include "models/record.h"

static void lru_shm_op(struct mwl_worker *ww)
{
	struct model_worker *mw = ww->mw;
	struct mpage *pg;
	bool paused = false;

	if (ww->nmap == 0)
		model_mm_mmap(mw);
	model_mm_fault_enter(mw, true);
	model_count_event(mw, mw->memcg, EV_PGFAULT, 1);
	mw->lru_gen_in_fault = true; /* lru_gen_enter_fault(): shmem_fault */
	pg = mwl_shmem_add(ww);
	mw->lru_gen_in_fault = false;
	model_mod_lruvec_state(mw, pg->memcg, pg->nid, NR_FILE_MAPPED, 1);
	model_page_work(mw, false);
	if (ww->pte) { /* shmem_fault clears the new page; set_pte_at; usemem reads */
		char *frame = model_page_frame(mw->m, pg);
		model_page_fill(mw, pg, NULL);
		ww->pte[ww->nmap - 1] = (uintptr_t)frame | 1;
		keep(((volatile char *)frame)[0]);
	}
	model_mm_fault_exit(mw, true);
	if (ww->nmap < MWL_SHM_PAGES)
		return;
	/* usemem's timer stops before its munmap at exit, and the case
	 * script's rm comes after every usemem has exited: a prediction of
	 * the benchmark (bench_window) records none of it. */
	if (mw->m->p.bench_window)
		paused = model_rec_pause(mw->m->rec);
	model_mm_munmap_enter(mw);
	for (unsigned i = 0; i < ww->nmap; i++) { /* munmap */
		mwl_zap_pte(ww, i);
		model_mod_lruvec_state(mw, ww->map[i]->memcg, ww->map[i]->nid,
				       NR_FILE_MAPPED, -1);
	}
	model_mm_munmap_exit(mw);
	mwl_shmem_truncate(ww); /* rm */
	if (mw->m->p.bench_window)
		model_rec_resume(mw->m->rec, paused);
}

static void lru_shm_expect(const struct model_params *p, struct mwl_counts *c)
{
	double g = (double)div_up(MWL_SHM_PAGES, p->lru_batch) / MWL_SHM_PAGES;

	*c = (struct mwl_counts){ .charges = 1, .uncharges = g, .lru_add = 1,
				  .lru_del = 1, .stat_updates = 8, .events = 2 + g,
				  .lock_acq = 2 * g };
}

MODEL_WORKLOAD(lru_shm, 0,
	       "vm-scalability lru-shm: read-fault a tmpfs file, unmap, rm (model)",
	       .pages_per_worker = MWL_SHM_PAGES + 2 * MODEL_MAX_BATCH,
	       .map_pages = MWL_SHM_PAGES, .op = lru_shm_op, .expect = lru_shm_expect,
	       .footprint_per_memory = 0.5);
KERNEL_WORKLOAD(lru_shm, 0,
		"Read-only shared mapping of sparse tmpfs pages (vm-scalability lru-shm, real faults)",
		.op_unit = "4 KB page read", .dir = KWL_DIR_TMP, .flags = KWL_F_SIZED,
		.prepare = kwl_lru_shm_prepare, .loop = kwl_lru_shm_loop);
WORKLOAD_SPEC(lru_shm, .suite = WL_SUITE_VMSCAL, .test = "lru-shm",
	      .untimed = "usemem's munmap at its exit and the case script's rm after 'wait'",
	      .kentry = { .faults = 1, .syscalls = 2.0 / MWL_SHM_PAGES, .clears = 1 },
	      .kernel = &lru_shm_kernel);
