/*
 * page_fault3 - will-it-scale tests/page_fault3.c over the memcg model:
 * like page_fault2 but MAP_SHARED, so after the first pass (done in
 * set-up) a fault finds the cached tmpfs page: no allocation, charge or
 * LRU work, only NR_FILE_MAPPED moves (up at fault, down at munmap) and
 * the PGFAULT event.  The counter-only workload: fefc6e6631ff measured
 * little here (experiments/layout_false_sharing.ini), 8d59d2214c23's commit message mentions a regression
 * of it from a stats change.
 *
 * One operation = one page faulted.
 * Op table per operation: charges 0, uncharges 0, LRU adds 0, dels 0,
 *   stat updates 2 (NR_FILE_MAPPED +1, -1 at munmap), events 1 (PGFAULT),
 *   LRU lock acquisitions 0.
 */
#include "workloads/model/model_workload.h"
#include "models/mmlock.h"

static void page_fault3_op(struct mwl_worker *ww)
{
	struct model_worker *mw = ww->mw;
	struct mpage *pg;

	if (ww->pos == 0)
		model_mm_mmap(mw);
	pg = ww->file[ww->pos++];
	model_mm_fault_enter(mw, true);
	model_count_event(mw, mw->memcg, EV_PGFAULT, 1);
	model_mod_lruvec_state(mw, pg->memcg, pg->nid, NR_FILE_MAPPED, 1);
	model_page_work(mw, false);
	if (ww->pte) { /* set_pte_at, then the benchmark's write to the page */
		char *frame = model_page_frame(mw->m, pg);
		ww->pte[ww->pos - 1] = (uintptr_t)frame | 1;
		((volatile char *)frame)[0] = 1;
	}
	model_mm_fault_exit(mw, true);
	if (ww->pos < ww->nfile)
		return;
	model_mm_munmap_enter(mw);
	for (unsigned i = 0; i < ww->nfile; i++) { /* munmap: page_remove_rmap */
		mwl_zap_pte(ww, i);
		model_mod_lruvec_state(mw, ww->file[i]->memcg, ww->file[i]->nid,
				       NR_FILE_MAPPED, -1);
	}
	model_mm_munmap_exit(mw);
	ww->pos = 0;
}

static void page_fault3_expect(const struct model_params *p, struct mwl_counts *c)
{
	*c = (struct mwl_counts){ .stat_updates = 2, .events = 1 };
}

MODEL_WORKLOAD(page_fault3, 0,
	       "will-it-scale page_fault3: shared fault of a cached tmpfs page, NR_FILE_MAPPED only (model)",
	       .pages_per_worker = MWL_WIS_PAGES + 2 * MODEL_MAX_BATCH,
	       .map_pages = MWL_WIS_PAGES, .prefault = mwl_prefault_file,
	       .op = page_fault3_op, .expect = page_fault3_expect);
KERNEL_WORKLOAD(page_fault3, 0,
		"Separate file shared mapping page fault (will-it-scale page_fault3, real faults)",
		.op_unit = "page faulted", .flags = KWL_F_SIZED, .dir = KWL_DIR_TMP,
		.prepare = kwl_pf_prepare_file, .loop = kwl_pf3_loop);
WORKLOAD_SPEC(page_fault3, .suite = WL_SUITE_WIS, .test = "page_fault3",
	      .mmtests = "wis-pf",
	      .kentry = { .faults = 1, .syscalls = 2.0 / MWL_WIS_PAGES },
	      .kernel = &page_fault3_kernel);
