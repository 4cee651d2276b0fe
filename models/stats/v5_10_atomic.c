/*
 * v5.10_atomic - the stats path before rstat: __mod_memcg_state(),
 * __mod_memcg_lruvec_state() and __count_memcg_events() of v5.10/v5.11
 * (mm/memcontrol.c at T@6168d0da2b47).  A per-CPU delta, folded with
 * atomic_long_add into the memcg and every ancestor once |delta| >
 * stats_batch (MEMCG_CHARGE_BATCH, 32).  There is no flush: readers see
 * the atomics.
 */
#include "models/internal.h"
#include "models/stats/stats.h"
#include "models/kitems.h"

/* parent_mem_cgroup() of v5.x (include/linux/memcontrol.h at v5.10.13):
 * the accounting parent through memcg->memory.parent
 * (mem_cgroup_from_counter), so each level of the v5 walks reads the
 * page_counter's parent word: on usage's 64 B line before 802f1d522d5f
 * (pc_layout).  css.parent took over in the v5.17 cycle, after the v5
 * stats path was gone.  Recorded here whatever mc_layout says (this
 * design is v5's). */
static struct mcg *v510_parent(struct model *m, struct mcg *mi)
{
	struct page_counter *p = *pc_parent(m, mcg_memory(m, mi));

	MODEL_REC(m, pc_parent(m, mcg_memory(m, mi)), REC_READ);
	return p ? mcg_of_memory(m, p) : NULL;
}

/* Fold a per-CPU delta into the memcg and every ancestor's atomics once
 * it passes the batch; `x` is the new per-CPU value.  Events are
 * unsigned there (no abs). */
static long v510_fold(struct model *m, long x, long thr, bool is_event,
		      struct mcg *memcg, unsigned idx)
{
	if (is_event ? x <= thr : stats_labs(x) <= thr)
		return x;
	for (struct mcg *mi = memcg; mi; mi = v510_parent(m, mi)) {
		/* memcg->vmstats[] / vmevents[]: inside struct mem_cgroup
		 * at the mc_layout's offsets (mcg_stat_total) */
		long *t = is_event ? mcg_event_total(m, mi, KE(m, idx))
				   : mcg_stat_total(m, mi, KS(m, idx));
		MODEL_REC(m, t, REC_RMW);
		__atomic_add_fetch(t, x, __ATOMIC_RELAXED);
	}
	return 0;
}

/* __mod_memcg_state() then the lruvec part of __mod_memcg_lruvec_state(),
 * each a per-CPU delta with its own fold. */
static void v510_mod_state(struct model_worker *mw, struct mcg *memcg, unsigned nid,
			   enum stat_item idx, long val)
{
	struct model *m = mw->m;
	struct lruvec_pcpu *pc = MODEL_PCPU(m, pn_stats_percpu(m, memcg->nodeinfo[nid]), mw->id);
	struct mcg_pcpu *statc = mcg_statc(m, memcg, mw->id);
	long thr = m->p.stats_batch, x;

	/* (the load of memcg->vmstats_percpu, beside vmstats[] before
	 * 4df910620beb, is recorded by model_mod_lruvec_state) */
	MODEL_REC_LOCAL(m, RL_PERCPU);
	MODEL_REC_LOCAL(m, RL_PERCPU);
	x = statc->state[KS(m, idx)] + val;
	mw->ops.folds_memcg[idx] += stats_labs(x) > thr;
	statc->state[KS(m, idx)] = v510_fold(m, x, thr, false, memcg, idx);
	x = pc->state[KS(m, idx)] + val;
	if (stats_labs(x) > thr) {
		mw->ops.folds_lruvec[idx]++;
		for (struct mcg *mi = memcg; mi; mi = v510_parent(m, mi)) {
			long *t = &pn_lruvec_stats(m, mi->nodeinfo[nid])[KS(m, idx)];

			MODEL_REC(m, t, REC_RMW);
			__atomic_add_fetch(t, x, __ATOMIC_RELAXED);
		}
		x = 0;
	}
	pc->state[KS(m, idx)] = x;
}

static void v510_count_event(struct model_worker *mw, struct mcg *memcg,
			     enum event_item ev, long n)
{
	struct model *m = mw->m;
	struct mcg_pcpu *statc = mcg_statc(m, memcg, mw->id);
	long x = statc->events[KE(m, ev)] + n;

	mw->ops.folds_memcg[NR_STAT_ITEMS + ev] += x > (long)m->p.stats_batch;
	statc->events[KE(m, ev)] = v510_fold(m, x, m->p.stats_batch, true, memcg, ev);
}

/* Readers see the atomics.  To compare with the exact counts, fold every
 * residual per-CPU delta (workers stopped). */
static void v510_final_fold(struct model *m)
{
	for (unsigned i = 0; i < m->nmemcg; i++) {
		struct mcg *memcg = &m->memcgs[i];
		for (unsigned w = 0; w < m->nworkers; w++) {
			struct mcg_pcpu *statc = mcg_statc(m, memcg, w);
			for (unsigned k = 0; k < NR_STAT_ITEMS; k++)
				statc->state[KS(m, k)] = v510_fold(m, statc->state[KS(m, k)], -1, false,
								memcg, k);
			for (unsigned k = 0; k < NR_EVENTS; k++)
				statc->events[KE(m, k)] = v510_fold(m, statc->events[KE(m, k)], -1, true,
								 memcg, k);
		}
		for (unsigned n = 0; n < m->p.nodes; n++)
			for (unsigned w = 0; w < m->nworkers; w++) {
				struct lruvec_pcpu *pc = MODEL_PCPU(m,
					pn_stats_percpu(m, memcg->nodeinfo[n]), w);
				for (unsigned k = 0; k < NR_STAT_ITEMS; k++) {
					for (struct mcg *mi = memcg; mi; mi = v510_parent(m, mi))
						pn_lruvec_stats(m, mi->nodeinfo[n])[KS(m, k)] +=
							pc->state[KS(m, k)];
					pc->state[KS(m, k)] = 0;
				}
			}
	}
}

static const struct stats_design stats_v5_10_atomic = {
	.name = "v5.10_atomic", .commit = "6168d0da2b47",
	.description = "v5.10/v5.11: per-CPU delta folded into atomics of the memcg and "
		       "every ancestor past stats_batch",
	.update = "per-CPU delta (memcg and lruvec apart); past stats_batch atomic_long_add "
		  "into every level",
	.trigger = "none (no flush: readers see the atomics)",
	.walk = "every ancestor by memcg->memory.parent, on each fold",
	.scope = STATS_FLUSH_NONE,
	.reads = (const char *const[]){ "stats_batch", NULL },
	.totals_in_memcg = true,
	.mod_state = v510_mod_state,
	.count_event = v510_count_event,
	.final_flush = v510_final_fold,
};
REGISTER(stats_design, stats_v5_10_atomic);
