/*
 * c11192d9c124d.c - kernel profile "11192d9c124d": memcg: flush stats only if updated (v5.16-rc1) [not modelled: see the profile file]
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: memcg_rstat_updated() with per-CPU stats_updates and a global
 * atomic stats_flush_threshold bumped every MEMCG_CHARGE_BATCH updates;
 * mem_cgroup_flush_stats() only when it exceeds num_online_cpus().
 * Encoded: nothing differs in knobs (the parent, 1f828223b799, has no
 * design of its own). NOT MODELLED: the parent design without an update-
 * side counter.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.9", "2d146aa3aa84 (include/linux/memcontrol.h): lruvec_stats_percpu pointer + struct lruvec_stats EMBEDDED; nearest declared layout: v6.9 (v5.13 has 2 arrays state/state_pending, v6.9 3 with state_local)" },
	{ "stats", "rstat_global_noguard", "11192d9c124d memcg_rstat_updated(): per-CPU stats_updates, every MEMCG_CHARGE_BATCH updates atomic_inc(&stats_flush_threshold), flush if > num_online_cpus(); counts updates, not |val| (same for 1-page updates)" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "32", "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13)" },
	{ "lru_batch", "15", "PAGEVEC_SIZE 15 until 9cecde80aae0 (v6.9-rc2)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47 (v5.11)" },
	{ "flush_ms", "2000", "aa48e47e3906: flush_memcg_stats_dwork re-queued every 2UL*HZ" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c11192d9c124d = {
	.name = "11192d9c124d",
	.title = "memcg: flush stats only if updated (v5.16-rc1) [not modelled: see the profile file]",
	.commit = "11192d9c124d",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c11192d9c124d);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "11192d9c124d",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = "802f1d522d5f" },
};
REGISTER(kernel_structs, structs);
