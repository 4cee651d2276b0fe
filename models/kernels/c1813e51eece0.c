/*
 * c1813e51eece0.c - kernel profile "1813e51eece0": memcg: increase MEMCG_CHARGE_BATCH to 64 (v6.1-rc1)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: include/linux/memcontrol.h MEMCG_CHARGE_BATCH 32U -> 64U (the
 * charge stock and the rstat thresholds). Encoded: charge_batch 32 -> 64.
 * Its parent in Shakeel Butt's series is 408587baee39 (page_counter
 * rearranged).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_LAYOUT_V6_9,
	H_STATS_RSTAT_GLOBAL,
	H_STATS_BATCH_32_A,
	H_CHARGE_BATCH_64_A,
	H_LRU_BATCH_15,
	H_LRU_LOCK_LRUVEC_A,
	H_FLUSH_MS_2000_A,
	H_PC_LAYOUT_408587BAEE39,
	H_PCP_BATCH_63,
	H_PCP_HIGH_WMARK_V5_14,
	H_PCP_SCALE_OFF_V5_14,
	H_MITIGATIONS_V5_19,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c1813e51eece0 = {
	.name = "1813e51eece0",
	.title = "memcg: increase MEMCG_CHARGE_BATCH to 64 (v6.1-rc1)",
	.commit = "1813e51eece0",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c1813e51eece0);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "1813e51eece0",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
