/*
 * rstat_flush_always - 1f828223b799 (v5.15 cycle, mm/memcontrol.c and
 * mm/workingset.c; the state 11192d9c124d applies to).  Diff read: the
 * posting of 1f828223b799, mm/memcontrol.c index b762215d73eb..6da5020a8656.
 *
 * aa48e47e3906's update-side counter and queue_work() are gone: an update
 * is the per-CPU add and cgroup_rstat_updated() only.  Readers flush with
 * no threshold (mem_cgroup_flush_stats(): spin_trylock, whole tree):
 * shrink_node() as before, and now workingset_refault() too; the 2 s
 * dwork runs.  The model has no refault path (no workload refaults a
 * shadow entry), so the refault flush is not exercised: what differs
 * from rstat_queue_work here is the update path.
 */
#include "models/internal.h"
#include "models/stats/stats.h"

static const struct stats_design stats_rstat_flush_always = {
	.name = "rstat_flush_always", .commit = "1f828223b799",
	.description = "no update-side counter; readers (reclaim, refault) flush the whole tree "
		       "unconditionally (v5.15 cycle)",
	.update = "per-CPU add, cgroup_rstat_updated(); nothing counted",
	.trigger = "none: every reader flush runs (trylock); the 2 s flusher",
	.walk = "none on update (cgroup_rstat_updated links ancestors once per flush)",
	.scope = STATS_FLUSH_TREE,
	.reads = (const char *const[]){ "flush_ms", NULL },
	.should_flush = stats_always_flush,
};
REGISTER(stats_design, stats_rstat_flush_always);
