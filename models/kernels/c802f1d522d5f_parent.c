/*
 * c802f1d522d5f_parent.c - kernel profile "802f1d522d5f^": parent of 802f1d522d5f (mm: page_counter: re-layout structure to reduce false sharing)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 802f1d522d5f: the state its diff applies to. Diff:
 * include/linux/page_counter.h moves parent from after max to the end (off
 * usage's 64 B line). Encoded: pc_layout v5 -> 802f1d522d5f, which the
 * model's charge path reads (page_counter members at the derived offsets).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_LAYOUT_V5_11_B,
	H_STATS_V5_10_ATOMIC,
	H_STATS_BATCH_32_B,
	H_CHARGE_BATCH_32,
	H_LRU_BATCH_15,
	H_LRU_LOCK_LRUVEC_A,
	H_FLUSH_MS_0,
	H_PC_LAYOUT_V5,
	H_PCP_BATCH_63,
	H_PCP_HIGH_6X,
	H_PCP_SCALE_OFF,
	H_MITIGATIONS_V4_15,
	{ "mc_layout", "4df910620beb", "include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13, carries 4df910620beb): ASSUMED for this kernel, its head (css, id, memory, swap) as v5.10.13's, not read at the version" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c802f1d522d5f_parent = {
	.name = "802f1d522d5f^",
	.title = "parent of 802f1d522d5f (mm: page_counter: re-layout structure to reduce false sharing)",
	.commit = "802f1d522d5f^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c802f1d522d5f_parent);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "802f1d522d5f^",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
