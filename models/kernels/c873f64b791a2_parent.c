/*
 * c873f64b791a2_parent.c - kernel profile "873f64b791a2^": parent of 873f64b791a2 (mm/memcontrol.c: remove the redundant updating of stats_flush_threshold)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 873f64b791a2: the state its diff applies to. Diff:
 * memcg_rstat_updated() reads stats_flush_threshold and skips the
 * atomic_add once it is past num_online_cpus(). Encoded: stats
 * rstat_global_noguard -> rstat_global. pc_layout not set on either side:
 * whether 408587baee39 precedes it in v6.1 was not checked, so both run
 * with the knob's default (408587baee39).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_LAYOUT_V6_9,
	H_STATS_RSTAT_GLOBAL_NOGUARD_E,
	H_STATS_BATCH_32_A,
	H_CHARGE_BATCH_32,
	H_LRU_BATCH_15,
	H_LRU_LOCK_LRUVEC_A,
	H_FLUSH_MS_2000_A,
	H_PCP_BATCH_63,
	H_PCP_HIGH_WMARK_V5_14,
	H_PCP_SCALE_OFF_V5_14,
	H_MITIGATIONS_V5_19,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c873f64b791a2_parent = {
	.name = "873f64b791a2^",
	.title = "parent of 873f64b791a2 (mm/memcontrol.c: remove the redundant updating of stats_flush_threshold)",
	.commit = "873f64b791a2^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c873f64b791a2_parent);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "873f64b791a2^",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
