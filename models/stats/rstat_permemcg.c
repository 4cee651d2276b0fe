/*
 * rstat_permemcg - 8d59d2214c23 (v6.8-rc1, mm/memcontrol.c): the flush
 * threshold per memcg.  Every ancestor reached by parent_mem_cgroup()
 * (memcg->css.parent) has a per-CPU counter, at the end of its
 * memcg_vmstats_percpu, and a shared atomic64 stats_updates; a reader
 * flushes its own subtree (7d7ef0a4686a).
 */
#include "models/internal.h"
#include "models/stats/stats.h"

/*
 * Per level, as memcg_rstat_updated() of 8d59d2214c23 (mm/memcontrol.c;
 * /work/shared/reference/kernel.md section 2.3 quotes it):
 *	x = __this_cpu_add_return(memcg->vmstats_percpu->stats_updates, abs(val));
 *	if (x < MEMCG_CHARGE_BATCH) continue;
 *	if (!memcg_should_flush_stats(memcg))	// memcg->vmstats->stats_updates
 *		atomic64_add(x, &memcg->vmstats->stats_updates);
 *	...
 *	memcg = parent_mem_cgroup(memcg);	// memcg->css.parent
 * so every level loads the memcg's vmstats_percpu pointer and css.parent
 * (RL_WALK_PERMEMCG_READS shared-line reads, at the mc_layout offsets:
 * model_parent_mem_cgroup() records the second), and only past the
 * batch the vmstats pointer.  The per-CPU counter is this CPU's
 * (stats_memcg_level_updated: RL_PERCPU).
 */
static void permemcg_updated(struct model_worker *mw, struct mcg *memcg, long val)
{
	struct model *m = mw->m;

	for (struct mcg *mi = memcg; mi; mi = model_parent_mem_cgroup(m, mi)) {
		MODEL_REC_LOCAL(m, RL_WALK_PERMEMCG);
		MODEL_REC(m, mcg_vmstats_percpu_p(m, mi), REC_READ);
		if (stats_memcg_level_updated(m, &mcg_statc(m, mi, mw->id)->stats_updates_tail,
					      mcg_vmstats(m, mi), val)) {
			MODEL_REC(m, mcg_vmstats_p(m, mi), REC_READ);
			if (mi == memcg)
				mw->ops.rstat_batches++;
		}
	}
}

static const struct stats_design stats_rstat_permemcg = {
	.name = "rstat_permemcg", .commit = "8d59d2214c23",
	.description = "per-memcg threshold, parent_mem_cgroup() walk (v6.8-rc1)",
	.update = "per-CPU add, cgroup_rstat_updated(); per level a per-CPU counter += |val|, "
		  "past MEMCG_CHARGE_BATCH atomic64_add into memcg->vmstats->stats_updates "
		  "unless it already says flush",
	.trigger = "memcg->vmstats->stats_updates > MEMCG_CHARGE_BATCH * num_online_cpus()",
	.walk = "every ancestor by parent_mem_cgroup(): memcg->vmstats_percpu and css.parent "
		"loads per level, memcg->vmstats past the batch",
	.scope = STATS_FLUSH_SUBTREE,
	.probe = "walk.permemcg",
	.reads = (const char *const[]){ "flush_ms", NULL },
	.updated = permemcg_updated,
	.should_flush = stats_memcg_should_flush,
};
REGISTER(stats_design, stats_rstat_permemcg);
