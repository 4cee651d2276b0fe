/*
 * c11192d9c124d.c - kernel profile "11192d9c124d": memcg: flush stats only if updated (v5.16-rc1)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: memcg_rstat_updated() with per-CPU stats_updates and a global
 * atomic stats_flush_threshold bumped every MEMCG_CHARGE_BATCH updates;
 * mem_cgroup_flush_stats() only when it exceeds num_online_cpus().
 * Encoded: stats rstat_flush_always (the parent, 1f828223b799) ->
 * rstat_global_count (models/stats/).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_11192D9C124D,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c11192d9c124d = {
	.name = "11192d9c124d",
	.title = "memcg: flush stats only if updated (v5.16-rc1)",
	.commit = "11192d9c124d",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c11192d9c124d);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "11192d9c124d",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
