/*
 * rstat_permemcg_cached - 9cee7e8ef3e3 (v6.8, mm/memcontrol.c): the
 * ancestor walk of 8d59d2214c23 follows statc->parent, with
 * statc->vmstats cached beside the counter on the per-CPU struct's first
 * line, so no shared memcg line is read on the way up.
 */
#include "models/internal.h"
#include "models/stats/stats.h"

static void cached_updated(struct model_worker *mw, struct mcg *memcg, long val)
{
	struct model *m = mw->m;

	for (struct mcg_pcpu *leaf = mcg_statc(m, memcg, mw->id), *statc = leaf;
	     statc; statc = statc->parent) {
		MODEL_REC_LOCAL(m, RL_WALK_CACHED);
		if (stats_memcg_level_updated(m, &statc->stats_updates, statc->vmstats, val) &&
		    statc == leaf)
			mw->ops.rstat_batches++;
	}
}

static const struct stats_design stats_rstat_permemcg_cached = {
	.name = "rstat_permemcg_cached", .commit = "9cee7e8ef3e3",
	.description = "cached statc->parent and statc->vmstats (v6.8)",
	.update = "as rstat_permemcg, the counter on the per-CPU struct's first line",
	.trigger = "memcg->vmstats->stats_updates > MEMCG_CHARGE_BATCH * num_online_cpus()",
	.walk = "every ancestor by statc->parent: one per-CPU line per level",
	.scope = STATS_FLUSH_SUBTREE,
	.probe = "walk.cached",
	.reads = (const char *const[]){ "flush_ms", NULL },
	.updated = cached_updated,
	.should_flush = stats_memcg_should_flush,
};
REGISTER(stats_design, stats_rstat_permemcg_cached);
