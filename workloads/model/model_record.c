/*
 * model_record.c - the model workloads' recorder (models/record.h): runs
 * one model workload on one worker, without threads or timing, under
 * given model parameters, and records its shared-line accesses for the
 * simulator (predict/sim_memcg.c builds the program from them).  The
 * periodic flusher is off and flushes are not recorded; pages get no
 * content work (page_work=none: it touches only this CPU's memory).
 */
#include "workloads/model/model_workload.h"
#include "models/record.h"

#include <stdlib.h>
#include <string.h>

#include "counters/counter.h"
#include "harness/harness.h"

static const struct workload *model_wl(const char *name)
{
	const struct workload *wl = workload_find(name);

	return wl && (wl->flags & WL_F_MODEL) ? wl : NULL;
}

static bool rec_known(const char *name)
{
	return model_wl(name) != NULL;
}

static const char *rec_workload_at(size_t i)
{
	const struct workload **all;
	size_t n = workload_all(&all);

	for (size_t k = 0; k < n; k++)
		if ((all[k]->flags & WL_F_MODEL) && !i--)
			return all[k]->name;
	return NULL;
}

/* Attaches a recorder to a model of one worker: zeroes it, and sets the
 * thresholds the machine's CPU count decides (vmstat threshold, flush
 * thresholds, pcp->high) to those of `cpus` online CPUs. */
static void attach_recorder(struct model *m, struct model_rec *r, unsigned cpus)
{
	model_rec_clear(r);
	m->rec = r;
	m->online_cpus = cpus;
	m->node_threshold = model_node_threshold(cpus);
	/* pcp->high at `cpus` (zone_highsize() divides by the node's CPUs) */
	model_pcp_set_high(m);
	r->pcp_high = m->pcp_high;
	r->pcp_batch = m->p.pcp_batch;
	if (r->actor) {
		r->actor->pcp_high = r->pcp_high;
		r->actor->pcp_batch = r->pcp_batch;
	}
}

static int rec_record(const char *name, const struct model_params *mp,
		      uint64_t warmup, uint64_t ops, struct model_rec *rec)
{
	const struct workload *wl = model_wl(name);
	struct model_params p = *mp;
	struct knobset *ks = knobset_new();
	int stop = 0, status;
	struct run r = { .wl = wl, .knobs = ks, .lock = lock_find("qspinlock"),
			 .counter = counter_find("percpu_batch"),
			 .nworkers = 1, .mode = MODE_THREADS };
	struct mwl_shared *sh;
	struct mwl_worker *ww;

	if (!wl || !r.lock || !r.counter)
		die(1, "internal error: cannot record '%s'", name);
	p.page_work = PAGE_WORK_NONE;
	p.flush_ms = 0;
	r.arena = arena_create((size_t)1 << 30);
	r.workers = arena_alloc(r.arena, sizeof(struct worker), PAD_SIZE);
	r.workers[0].pu = -1;
	r.workers[0].run = &r;
	r.workers[0].stop = &stop;
	mwl_params_override = &p;
	status = wl->setup(&r);
	mwl_params_override = NULL;
	if (status) {
		arena_destroy(r.arena);
		knobset_free(ks);
		return status;
	}
	sh = r.shared;
	ww = r.workers[0].priv;
	/* An AIM9 call is thousands of kernel entries: fewer of them give
	 * as many pages and syscalls as the small operations' window. */
	{
		double e = sh->d->spec->kentry.faults + sh->d->spec->kentry.syscalls;
		if (e > 1.5) {
			ops = (uint64_t)((double)ops / e) + 16;
			warmup = (uint64_t)((double)warmup / e) + 16;
		}
	}
	/* Global reclaim's memcg walk (models/memcg.h, model_page_free_reclaimed):
	 * a workload whose footprint exceeds memory reclaims without a
	 * memory.max (ASSUMPTION: the containers of the published runs set
	 * none; vm-scalability's case-lru-file-readtwice sets no limit), so
	 * its reclaim walks every container (one: only that lruvec); the
	 * reclaim calls are recorded apart too (rec->actor, for kswapd). */
	sh->m->reclaim_walk = sh->d->footprint_per_memory > 1;
	if (sh->m->reclaim_walk && !rec->actor)
		rec->actor = xcalloc(1, sizeof(*rec->actor));
	else if (!sh->m->reclaim_walk && rec->actor) {
		free(rec->actor->pg_run); /* its page-run table (models/record.c) */
		free(rec->actor);
		rec->actor = NULL;
	}
	attach_recorder(sh->m, rec, MODEL_REC_CPUS);
	for (uint64_t k = 0; k < warmup; k++)
		sh->d->op(ww);
	model_rec_reset(rec);
	for (uint64_t k = 0; k < ops; k++) {
		model_rec_op(rec);
		sh->d->op(ww);
	}
	rec->ops = ops;
	rec->faults = sh->d->spec->kentry.faults;
	rec->syscalls = sh->d->spec->kentry.syscalls;
	rec->copies = sh->d->spec->kentry.copies;
	rec->clears = sh->d->spec->kentry.clears;
	rec->private_atomics = sh->d->spec->kentry.private_atomics;
	sh->m->rec = NULL;
	if (wl->teardown)
		wl->teardown(&r);
	arena_destroy(r.arena);
	knobset_free(ks);
	return 0;
}

static const struct model_recorder model_workload_recorder = {
	.name = "model workloads",
	.known = rec_known,
	.record = rec_record,
	.workload_at = rec_workload_at,
};
REGISTER(model_recorder, model_workload_recorder);
