/*
 * rstat_global - 873f64b791a2 (v6.0, mm/memcontrol.c): the global
 * threshold of 5b3be698a872, read before the atomic_add and left alone
 * once it is past num_online_cpus().
 */
#include "models/internal.h"
#include "models/stats/stats.h"

static void global_updated(struct model_worker *mw, struct mcg *memcg, long val)
{
	(void)memcg;
	stats_global_updated(mw, val, true);
}

static const struct stats_design stats_rstat_global = {
	.name = "rstat_global", .commit = "873f64b791a2",
	.description = "global threshold, stop adding once past it (v6.0)",
	.update = "per-CPU add, cgroup_rstat_updated(); per-CPU stats_updates += |val|, "
		  "past MEMCG_CHARGE_BATCH read the global threshold, add x / BATCH "
		  "unless already past num_online_cpus()",
	.trigger = "global stats_flush_threshold > num_online_cpus()",
	.walk = "none on update (cgroup_rstat_updated links ancestors once per flush)",
	.scope = STATS_FLUSH_TREE,
	.reads = (const char *const[]){ "flush_ms", NULL },
	.updated = global_updated,
	.should_flush = stats_global_should_flush,
};
REGISTER(stats_design, stats_rstat_global);
