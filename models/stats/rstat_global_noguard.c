/*
 * rstat_global_noguard - 5b3be698a872 (v5.17, mm/memcontrol.c): rstat
 * (2d146aa3aa84) with the flush trigger counted in |val| per CPU and
 * added into one global stats_flush_threshold with no check of its value
 * first.
 */
#include "models/internal.h"
#include "models/stats/stats.h"

static void noguard_updated(struct model_worker *mw, struct mcg *memcg, long val)
{
	(void)memcg;
	stats_global_updated(mw, val, false);
}

static const struct stats_design stats_rstat_global_noguard = {
	.name = "rstat_global_noguard", .commit = "5b3be698a872",
	.description = "rstat, per-CPU updates + global flush threshold, no guard (v5.17)",
	.update = "per-CPU add, cgroup_rstat_updated(); per-CPU stats_updates += |val|, "
		  "past MEMCG_CHARGE_BATCH atomic_add(x / BATCH) into the global threshold",
	.trigger = "global stats_flush_threshold > num_online_cpus()",
	.walk = "none on update (cgroup_rstat_updated links ancestors once per flush)",
	.scope = STATS_FLUSH_TREE,
	.reads = (const char *const[]){ "flush_ms", NULL },
	.updated = noguard_updated,
	.should_flush = stats_global_should_flush,
};
REGISTER(stats_design, stats_rstat_global_noguard);
