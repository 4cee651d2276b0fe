/*
 * model_workload.c - the shared body of the model workloads (wl_*.c over
 * models/memcg.h): set-up from the knobs, the measured loop with the
 * periodic flusher tick, the kernel operations benchmarks are made of,
 * per-operation metrics and the invariants.
 */
#include "workloads/model/model_workload.h"
#include "harness/runstat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/counter.h"
#include "harness/harness.h"
#include "models/mmlock.h"

int mwl_test_corruption = -1;
__thread const struct model_params *mwl_params_override;

int mwl_setup(struct run *r, const struct mwl_desc *d)
{
	struct mwl_shared *sh = arena_alloc_padded(r->arena, sizeof(*sh));
	struct model_params p;
	int err;

	if (mwl_params_override)
		p = *mwl_params_override;
	else if ((err = model_params_from_knobs(&p, r->knobs)) ||
		 (err = model_knobs_check_read(&p, r->knobs)))
		return err;
	else
		p.mm_shared = r->mode == MODE_THREADS; /* one mm for all workers */
	/* The model's lists and counters are protected by r->lock: a lock
	 * without mutual exclusion corrupts them (and a corrupted list can
	 * send a walker into a cycle), so the run is refused. */
	if (r->lock->flags & (LOCK_F_UNSAFE | LOCK_F_BROKEN)) {
		fprintf(stderr, "memscale: workload '%s' needs a lock with mutual "
			"exclusion; lock '%s' has none (pick another --lock)\n",
			r->wl->name, r->lock->name);
		return EXIT_USAGE;
	}
	if (d->uses_counter && !r->counter) {
		fprintf(stderr, "memscale: workload '%s' needs a counter (--counter)\n",
			r->wl->name);
		return EXIT_USAGE;
	}
	sh->d = d;
	if (p.page_work == PAGE_WORK_KERNEL &&
	    (err = kwork_resolve(r->wl, d, r->knobs, &sh->kwork)))
		return err;
	sh->m = model_setup(r->arena, &p, r->lock, r->nworkers, d->pages_per_worker);
	if (p.mm_shared)
		model_mm_new(sh->m, r->arena);
	if (d->uses_counter) {
		struct counter_params cp;
		counter_params_from_knobs(&cp, r->counter, r->knobs, r->nworkers, r->lock);
		sh->counter = counter_new(r->counter, r->arena, &cp);
	}
	r->shared = sh;
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct mwl_worker *ww = arena_alloc_padded(r->arena, sizeof(*ww));

		ww->mw = model_worker(sh->m, i);
		ww->d = d;
		ww->run = r;
		ww->map = arena_alloc(r->arena, (d->map_pages + 1) * sizeof(*ww->map), 8);
		ww->mw->kw.units = sh->kwork.units;
		if (p.page_work == PAGE_WORK_KERNEL)
			ww->pte = arena_alloc(r->arena, (d->map_pages + 1) * sizeof(*ww->pte),
					      PAGE_SIZE_MODEL);
		if (sh->counter)
			ww->counter_ctx = counter_ctx_new_stats(r->counter, r->arena,
					sh->counter, i, ww->mw->lock_stats);
		r->workers[i].priv = ww;
		if (d->prefault) {
			d->prefault(ww);
			/* Set-up work is not part of any operation. */
			memset(&ww->mw->ops, 0, sizeof(ww->mw->ops));
			memset(ww->mw->lock_stats, 0, sizeof(ww->mw->lock_stats));
		}
		/* The harness reports (and traces) the model's own per-class
		 * lock stats; lockstat=off left w->lock_stats NULL. */
		if (r->workers[i].lock_stats)
			runstat_adopt(&r->workers[i], ww->mw->lock_stats);
	}
	return 0;
}

void mwl_worker_init(struct worker *w)
{
	struct mwl_worker *ww = w->priv;

	model_worker_populate(ww->mw->m, ww->mw->id);
	if (ww->pte)
		for (unsigned i = 0; i <= ww->d->map_pages; i++)
			ww->pte[i] = 0;
}

void mwl_run(struct worker *w)
{
	struct mwl_worker *ww = w->priv;
	void (*op)(struct mwl_worker *) = ww->d->op;

	struct kwork *kw = &ww->mw->kw;

	if (kw->units) {
		/* Kernel-shaped operations take microseconds to milliseconds
		 * (an AIM9 page_test call is 1600 faults): publish every one,
		 * or a sample would see none of a batch of WORKER_PUBLISH. */
		while (!worker_should_stop(w)) {
			op(ww);
			kwork_spend(kw, kw->units);
			model_tick(ww->mw);
			ww->iters++;
			worker_done_op(w);
		}
		return;
	}
	WORKER_LOOP(w) {
		op(ww);
		/* The rest of the kernel's work for this operation (page_work=
		 * kernel; units 0 otherwise): outside every modelled lock, as
		 * entry, VMA and page-table work are in the kernel. */
		kwork_spend(kw, kw->units);
		model_tick(ww->mw);
		ww->iters++;
	}
}

/* ---- the kernel operations ---- */

void mwl_zap_pte(struct mwl_worker *ww, unsigned i)
{
	/* zap_pte_range: ptep_get_and_clear */
	if (ww->pte && ww->pte[i])
		ww->pte[i] = 0;
}

struct mpage *mwl_page_alloc(struct mwl_worker *ww)
{
	struct model_worker *mw = ww->mw;
	struct worker *w = &ww->run->workers[mw->id];
	struct mpage *pg;

	while (!(pg = model_page_alloc(mw))) {
		if (!(ww->d->footprint_per_memory > 1))
			die(1, "internal error: workload '%s' ran out of model pages",
			    ww->run->wl->name);
		/* direct reclaim (ASSUMPTION: no swap, so only the file LRU;
		 * get_scan_count's SCAN_FILE) */
		if (model_reclaim(mw, LRU_INACTIVE_FILE, SWAP_CLUSTER_MAX))
			continue;
		/* our own pages may all sit in our batches */
		model_lru_add_drain(mw);
		if (model_reclaim(mw, LRU_INACTIVE_FILE, SWAP_CLUSTER_MAX))
			continue;
		if (worker_should_stop(w))
			return NULL;
		cpu_relax();
	}
	return pg;
}

static struct mpage *alloc_page_or_die(struct mwl_worker *ww)
{
	struct mpage *pg = mwl_page_alloc(ww);

	if (!pg) /* only a reclaiming workload stops in here */
		die(1, "internal error: workload '%s' ran out of model pages",
		    ww->run->wl->name);
	return pg;
}

void mwl_fault_anon(struct mwl_worker *ww, bool copy)
{
	struct model_worker *mw = ww->mw;
	struct mpage *pg;

	model_mm_fault_enter(mw, copy); /* a CoW fault maps a file */
	model_count_event(mw, mw->memcg, EV_PGFAULT, 1); /* handle_mm_fault */
	pg = alloc_page_or_die(ww);
	__atomic_store_n(&pg->flags, PG_SWAPBACKED, __ATOMIC_RELAXED);
	if (!model_charge(mw, pg, mw->memcg))
		die(1, "internal error: charge failed without a limit");
	model_page_work(mw, copy);
	if (ww->pte) {
		/* copy_page from the file page (CoW) or clear_page, then
		 * set_pte_at and the benchmark's one-byte write */
		char *frame = model_page_frame(mw->m, pg);
		model_page_fill(mw, pg, copy && ww->nfile ? ww->file[ww->nmap % ww->nfile]
							   : NULL);
		ww->pte[ww->nmap] = (uintptr_t)frame | 1;
		((volatile char *)frame)[0] = 1;
	}
	model_mod_lruvec_state(mw, mw->memcg, mw->nid, NR_ANON_MAPPED, 1);
	mw->lru_gen_in_fault = true; /* lru_gen_enter_fault() in handle_mm_fault */
	model_lru_add(mw, pg);
	mw->lru_gen_in_fault = false;
	ww->map[ww->nmap++] = pg;
	model_mm_fault_exit(mw, copy);
}

void mwl_munmap_anon(struct mwl_worker *ww)
{
	model_mm_munmap_enter(ww->mw);
	mwl_unmap_anon(ww);
	model_mm_munmap_exit(ww->mw);
}

void mwl_unmap_anon(struct mwl_worker *ww)
{
	struct model_worker *mw = ww->mw;

	model_lru_add_drain(mw); /* unmap_region() / zap_page_range_single() */
	for (unsigned i = 0; i < ww->nmap; i++) {
		struct mpage *pg = ww->map[i];
		mwl_zap_pte(ww, i);
		model_mod_lruvec_state(mw, pg->memcg, pg->nid, NR_ANON_MAPPED, -1);
		model_release(mw, pg);
	}
	model_release_drain(mw); /* tlb_finish_mmu() */
	ww->nmap = 0;
}

struct mpage *mwl_shmem_add(struct mwl_worker *ww)
{
	struct model_worker *mw = ww->mw;
	struct mpage *pg = alloc_page_or_die(ww);

	__atomic_store_n(&pg->flags, PG_SWAPBACKED, __ATOMIC_RELAXED);
	if (!model_charge(mw, pg, mw->memcg))
		die(1, "internal error: charge failed without a limit");
	model_mod_lruvec_state(mw, mw->memcg, mw->nid, NR_FILE_PAGES, 1);
	model_mod_lruvec_state(mw, mw->memcg, mw->nid, NR_SHMEM, 1);
	model_lru_add(mw, pg);
	ww->map[ww->nmap++] = pg;
	return pg;
}

void mwl_shmem_truncate(struct mwl_worker *ww)
{
	struct model_worker *mw = ww->mw;

	model_lru_add_drain(mw); /* __folio_batch_release -> lru_add_drain */
	for (unsigned i = 0; i < ww->nmap; i++) {
		struct mpage *pg = ww->map[i];
		model_mod_lruvec_state(mw, pg->memcg, pg->nid, NR_FILE_PAGES, -1);
		model_mod_lruvec_state(mw, pg->memcg, pg->nid, NR_SHMEM, -1);
		model_release(mw, pg);
	}
	model_release_drain(mw);
	ww->nmap = 0;
}

void mwl_region_fault(struct mwl_worker *ww, bool copy)
{
	if (ww->nmap == 0)
		model_mm_mmap(ww->mw);
	mwl_fault_anon(ww, copy);
	if (ww->nmap == ww->d->map_pages)
		mwl_munmap_anon(ww);
}

void mwl_expect_region(const struct model_params *p, struct mwl_counts *c)
{
	double gathers = (double)div_up(MWL_WIS_PAGES, p->lru_batch) / MWL_WIS_PAGES;

	/* fault: PGFAULT, PGPGIN, NR_ANON_MAPPED+1, NR_INACTIVE_ANON+1 (drain);
	 * munmap: NR_ANON_MAPPED-1, NR_INACTIVE_ANON-1, PGPGOUT per gather */
	*c = (struct mwl_counts){
		.charges = 1, .uncharges = gathers, .lru_add = 1, .lru_del = 1,
		.stat_updates = 4, .events = 2 + gathers, .lock_acq = 2 * gathers,
	};
}

void mwl_prefault_file(struct mwl_worker *ww)
{
	unsigned n = ww->d->map_pages;

	ww->file = arena_alloc(ww->run->arena, n * sizeof(*ww->file), 8);
	for (unsigned i = 0; i < n; i++)
		model_page_fill(ww->mw, mwl_shmem_add(ww), NULL); /* shmem_fault clears */
	model_lru_add_drain(ww->mw);
	memcpy(ww->file, ww->map, n * sizeof(*ww->file));
	ww->nfile = n;
	ww->nmap = 0;
}

void mwl_fallocate_op(struct mwl_worker *ww)
{
	mwl_shmem_add(ww);
	mwl_shmem_add(ww);
	if (ww->nmap == MWL_FALLOC_PAGES)
		mwl_shmem_truncate(ww);
}

void mwl_expect_fallocate(const struct model_params *p, struct mwl_counts *c)
{
	double calls = MWL_FALLOC_PAGES / 2, gathers = div_up(MWL_FALLOC_PAGES, p->lru_batch);

	/* per page in: PGPGIN, NR_FILE_PAGES, NR_SHMEM, NR_INACTIVE_ANON;
	 * per page out: the three stats back, PGPGOUT per gather */
	*c = (struct mwl_counts){
		.charges = 2, .uncharges = gathers / calls, .lru_add = 2, .lru_del = 2,
		.stat_updates = 12, .events = 2 + gathers / calls,
		.lock_acq = 2 * gathers / calls,
	};
}

/* ---- results ---- */

static void per_op_counts(const struct model *m, uint64_t iters, struct mwl_counts *c)
{
	struct model_ops o;
	struct lock_stat ls[LC_NR];
	double n = iters ? (double)iters : 1;

	model_sum_ops(m, &o);
	model_sum_lock_stats(m, ls);
	*c = (struct mwl_counts){
		.charges = o.charges / n, .uncharges = o.uncharges / n,
		.lru_add = o.lru_add / n, .lru_del = o.lru_del / n,
		.lru_move = o.lru_move / n, .stat_updates = o.stat_updates / n,
		.events = o.events / n,
		.lock_acq = (ls[LC_PGDAT_LRU].acquired + ls[LC_LRUVEC_LRU].acquired) / n,
		.rstat_batches = o.rstat_batches / n,
	};
	for (unsigned k = 0; k < NR_STAT_ITEMS + NR_EVENTS; k++)
		c->folds_memcg[k] = o.folds_memcg[k] / n;
	for (unsigned k = 0; k < NR_STAT_ITEMS; k++)
		c->folds_lruvec[k] = o.folds_lruvec[k] / n;
}

static int check(struct run *r, struct mwl_shared *sh)
{
	char msg[256];

	model_quiesce(sh->m);
	if (mwl_test_corruption >= 0)
		model_corrupt(sh->m, (enum model_corruption)mwl_test_corruption);
	if (model_check(sh->m, msg, sizeof(msg))) {
		fprintf(stderr, "memscale: %s: model invariant violated: %s\n",
			r->wl->name, msg);
		return 1;
	}
	if (sh->counter && r->counter->read_exact(sh->counter) != 0) {
		fprintf(stderr, "memscale: %s: vm_committed_as reads %ld, want 0\n",
			r->wl->name, r->counter->read_exact(sh->counter));
		return 1;
	}
	return 0;
}

int mwl_finish(struct run *r, struct result *res)
{
	struct mwl_shared *sh = r->shared;
	struct mwl_counts c;
	struct model_ops o;
	uint64_t iters = 0;

	for (unsigned i = 0; i < r->nworkers; i++)
		iters += ((struct mwl_worker *)r->workers[i].priv)->iters;
	per_op_counts(sh->m, iters, &c);
	model_sum_ops(sh->m, &o);
	result_metric(res, "charges_per_op", c.charges);
	result_metric(res, "uncharges_per_op", c.uncharges);
	result_metric(res, "lru_add_per_op", c.lru_add);
	result_metric(res, "lru_del_per_op", c.lru_del);
	result_metric(res, "lru_move_per_op", c.lru_move);
	result_metric(res, "stat_updates_per_op", c.stat_updates);
	result_metric(res, "events_per_op", c.events);
	result_metric(res, "lock_acq_per_op", c.lock_acq);
	result_metric(res, "reclaimed_per_op", iters ? (double)o.reclaimed / (double)iters : 0);
	result_metric(res, "flushes", (double)o.flushes);
	/* bytes the lock takes at lruvec.lru_lock (4 = the kernel's layout;
	 * more: the fields after it moved, see `memscale layout --lock`) */
	result_metric(res, "pn_lock_bytes", (double)sh->m->lay.lock_size);
	if (sh->m->p.page_work == PAGE_WORK_KERNEL) {
		/* kernel-shaped work (kwork_calib.c): source 1 kernel backend,
		 * 2 probes, 3 knob */
		result_metric(res, "kwork_units", (double)sh->kwork.units);
		result_metric(res, "kwork_source", sh->kwork.source);
		result_metric(res, "kwork_kernel_ns", sh->kwork.kernel_ns);
		result_metric(res, "kwork_model0_ns", sh->kwork.model0_ns);
		result_metric(res, "kwork_unit_ns", sh->kwork.unit_ns);
	}
	/* Contention per lock class: the harness adds <class>_contended_pct
	 * etc. from the stats runstat_adopt() handed over in setup. */
	return check(r, sh);
}

void mwl_sidecar(const struct workload *wl, const struct mwl_desc *d,
		 struct json *j, struct knobset *ks)
{
	struct model_params p;
	struct kwork_cal c;

	if (model_params_from_knobs(&p, ks) || p.page_work != PAGE_WORK_KERNEL)
		return;
	if (kwork_resolve(wl, d, ks, &c) == 0)
		kwork_json(j, &c);
}

int mwl_drive(const struct workload *wl, struct knobset *ks,
	      const struct lock_ops *lock, unsigned nworkers, uint64_t iters,
	      struct mwl_counts *per_op, struct mwl_counts *want, bool *has_table)
{
	int stop = 0, status;
	struct run r = { .wl = wl, .knobs = ks, .lock = lock,
			 .counter = counter_find("percpu_batch"),
			 .nworkers = nworkers, .mode = MODE_THREADS };
	struct mwl_shared *sh;

	r.arena = arena_create((size_t)1 << 30);
	r.workers = arena_alloc(r.arena, nworkers * sizeof(struct worker), PAD_SIZE);
	for (unsigned i = 0; i < nworkers; i++) {
		r.workers[i].id = i;
		r.workers[i].pu = -1;
		r.workers[i].run = &r;
		r.workers[i].stop = &stop;
	}
	status = wl->setup(&r);
	if (status) {
		arena_destroy(r.arena);
		return status;
	}
	sh = r.shared;
	/* Round-robin over the workers, one operation each. */
	for (uint64_t k = 0; k < iters; k++)
		for (unsigned i = 0; i < nworkers; i++) {
			struct mwl_worker *ww = r.workers[i].priv;
			sh->d->op(ww);
			ww->iters++;
		}
	per_op_counts(sh->m, iters * nworkers, per_op);
	memset(want, 0, sizeof(*want));
	*has_table = sh->d->expect != NULL;
	if (sh->d->expect)
		sh->d->expect(&sh->m->p, want);
	status = check(&r, sh);
	arena_destroy(r.arena);
	return status;
}
