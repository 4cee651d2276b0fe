/*
 * rstat.c - the stats design registry, and the two flush triggers more
 * than one rstat design shares (mm/memcontrol.c at the commits named):
 * the global threshold of 2d146aa3aa84 / 5b3be698a872 / 873f64b791a2 and
 * the per-memcg threshold of 8d59d2214c23 / 9cee7e8ef3e3.  The designs
 * themselves are the other files of this folder.
 */
#include "models/internal.h"
#include "models/stats/stats.h"

#include <string.h>

DEFINE_REGISTRY_LOOKUP(stats_design, struct stats_design, stats_design_all,
		       stats_design_find)

bool stats_design_reads(const struct stats_design *d, const char *name)
{
	for (const char *const *r = d->reads; r && *r; r++)
		if (!strcmp(*r, name))
			return true;
	return false;
}

/*
 * memcg_rstat_updated() of 5b3be698a872 (and, with guard, 873f64b791a2):
 * the per-CPU stats_updates counts |val|; past MEMCG_CHARGE_BATCH it adds
 * x / BATCH to the one global stats_flush_threshold.
 */
void stats_global_updated(struct model_worker *mw, long val, bool guard)
{
	struct model *m = mw->m;
	unsigned batch = m->p.charge_batch;
	unsigned x = mw->stats_updates + (unsigned)val;

	MODEL_REC_LOCAL(m, RL_PERCPU);
	if (x > batch) {
		mw->ops.rstat_batches++;
		/* 873f64b791a2: reading first keeps the shared line from
		 * bouncing once a flush is due anyway. */
		if (guard)
			MODEL_REC(m, &m->stats_flush_threshold, REC_READ);
		if (!guard ||
		    __atomic_load_n(&m->stats_flush_threshold, __ATOMIC_RELAXED) <=
			    (long)m->online_cpus) {
			MODEL_REC(m, &m->stats_flush_threshold, REC_RMW);
			__atomic_add_fetch(&m->stats_flush_threshold, (long)(x / batch),
					   __ATOMIC_RELAXED);
		}
		x = 0;
	}
	mw->stats_updates = x;
}

bool stats_always_flush(const struct model *m, const struct mcg *memcg)
{
	(void)m;
	(void)memcg;
	return true;
}

/* mem_cgroup_flush_stats() of the global designs: past num_online_cpus(). */
bool stats_global_should_flush(const struct model *m, const struct mcg *memcg)
{
	(void)memcg;
	MODEL_REC(m, &m->stats_flush_threshold, REC_READ);
	return __atomic_load_n(&m->stats_flush_threshold, __ATOMIC_RELAXED) >
	       (long)m->online_cpus;
}

bool stats_memcg_level_updated(struct model *m, unsigned *counter,
			       struct mcg_vmstats *vmstats, long val)
{
	unsigned batch = m->p.charge_batch;
	unsigned x = __atomic_load_n(counter, __ATOMIC_RELAXED) + (unsigned)val;

	MODEL_REC_LOCAL(m, RL_PERCPU);
	MODEL_REC_PCPU(m, counter); /* the flush zeroes it */
	if (x < batch) {
		__atomic_store_n(counter, x, __ATOMIC_RELAXED);
		return false;
	}
	MODEL_REC(m, &vmstats->stats_updates, REC_READ);
	if (__atomic_load_n(&vmstats->stats_updates, __ATOMIC_RELAXED) <=
	    (long)batch * m->online_cpus) {
		MODEL_REC(m, &vmstats->stats_updates, REC_RMW);
		__atomic_add_fetch(&vmstats->stats_updates, (long)x, __ATOMIC_RELAXED);
	}
	__atomic_store_n(counter, 0, __ATOMIC_RELAXED);
	return true;
}

/* memcg_vmstats_needs_flush(): past MEMCG_CHARGE_BATCH * num_online_cpus()
 * pending updates in the memcg's shared atomic (8d59d2214c23). */
bool stats_memcg_should_flush(const struct model *m, const struct mcg *memcg)
{
	long thr = (long)m->p.charge_batch * m->online_cpus;

	MODEL_REC(m, &mcg_vmstats(m, memcg)->stats_updates, REC_READ);
	return __atomic_load_n(&mcg_vmstats(m, memcg)->stats_updates, __ATOMIC_RELAXED) > thr;
}
