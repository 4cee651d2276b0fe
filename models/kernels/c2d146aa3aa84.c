/*
 * c2d146aa3aa84.c - kernel profile "2d146aa3aa84": mm: memcontrol: switch to rstat (v5.13-rc1)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: __mod_memcg_state() and __count_memcg_events() lose the per-CPU
 * batch + ancestor atomics for a per-CPU add + cgroup_rstat_updated();
 * struct mem_cgroup embeds struct memcg_vmstats and drops vmstats_local;
 * the lruvec part (batched_lruvec_stat, per-node atomics) is unchanged.
 * Encoded: stats v5.10_atomic -> rstat_global_noguard (nearest). NOT
 * MODELLED: the hybrid (memcg part rstat without a flush counter, lruvec
 * part batched atomics).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_LAYOUT_V5_11_A,
	H_STATS_RSTAT_GLOBAL_NOGUARD_A,
	H_STATS_BATCH_32_A,
	H_CHARGE_BATCH_32,
	H_LRU_BATCH_15,
	H_LRU_LOCK_LRUVEC_A,
	H_FLUSH_MS_0,
	H_PC_LAYOUT_802F1D522D5F,
	H_PCP_BATCH_63,
	H_PCP_HIGH_6X,
	H_PCP_SCALE_OFF,
	H_MITIGATIONS_V4_15,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c2d146aa3aa84 = {
	.name = "2d146aa3aa84",
	.title = "mm: memcontrol: switch to rstat (v5.13-rc1)",
	.commit = "2d146aa3aa84",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c2d146aa3aa84);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "2d146aa3aa84",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
