/*
 * rstat_global_count - 11192d9c124d (v5.16-rc1, mm/memcontrol.c; the
 * state 5b3be698a872 applies to).  Diff read: 11192d9c124d's and
 * 5b3be698a872's diffs of mm/memcontrol.c (the latter index
 * 781605e92015..a8f07540d4b8).
 *
 * memcg_rstat_updated(), called once per __mod_memcg_state(),
 * __mod_memcg_lruvec_state() and __count_memcg_events(), counts calls,
 * not pages: every MEMCG_CHARGE_BATCH-th call per CPU does
 * atomic_inc(&stats_flush_threshold).  mem_cgroup_flush_stats() flushes
 * the whole tree only past num_online_cpus(), and so does the 2 s dwork
 * (it calls mem_cgroup_flush_stats(); 5b3be698a872 made it unconditional).
 * A zero-valued update counts in the kernel; the model's rstat path
 * skips those before the trigger (models/memcg.c).
 */
#include "models/internal.h"
#include "models/stats/stats.h"

static void count_updated(struct model_worker *mw, struct mcg *memcg, long val)
{
	struct model *m = mw->m;

	(void)memcg;
	(void)val;
	/* __this_cpu_inc_return(stats_updates) % MEMCG_CHARGE_BATCH */
	MODEL_REC_LOCAL(m, RL_PERCPU);
	if (++mw->stats_updates % m->p.charge_batch)
		return;
	mw->stats_updates = 0;
	mw->ops.rstat_batches++;
	MODEL_REC(m, &m->stats_flush_threshold, REC_RMW);
	__atomic_add_fetch(&m->stats_flush_threshold, 1, __ATOMIC_RELAXED);
}

static const struct stats_design stats_rstat_global_count = {
	.name = "rstat_global_count", .commit = "11192d9c124d",
	.description = "global threshold bumped every 32 updates per CPU (counted, not "
		       "weighted); flush only past num_online_cpus() (v5.16-rc1)",
	.update = "per-CPU add, cgroup_rstat_updated(); per-CPU stats_updates++, every "
		  "MEMCG_CHARGE_BATCH-th atomic_inc of the global threshold",
	.trigger = "global stats_flush_threshold > num_online_cpus(), for readers and the "
		   "2 s flusher",
	.walk = "none on update (cgroup_rstat_updated links ancestors once per flush)",
	.scope = STATS_FLUSH_TREE,
	.reads = (const char *const[]){ "flush_ms", NULL },
	.updated = count_updated,
	.should_flush = stats_global_should_flush,
	.periodic_checks_trigger = true,
};
REGISTER(stats_design, stats_rstat_global_count);
