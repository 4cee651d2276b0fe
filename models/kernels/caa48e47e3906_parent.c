/*
 * caa48e47e3906_parent.c - kernel profile "aa48e47e3906^": parent of aa48e47e3906 (memcg: infrastructure to flush memcg stats)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of aa48e47e3906: the state its diff applies to. Diff
 * (mm/memcontrol.c): adds flush_memcg_stats_dwork every 2UL*HZ,
 * mem_cgroup_flush_stats() (spin_trylock stats_flush_lock,
 * cgroup_rstat_flush(root)), and in __mod_memcg_lruvec_state() a per-CPU
 * counter that queue_work()s a flush every MEMCG_CHARGE_BATCH updates.
 * Encoded: flush_ms 0 -> 2000. NOT MODELLED: the queued flush every 32
 * updates per CPU.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_LAYOUT_V6_9,
	H_STATS_RSTAT_GLOBAL_NOGUARD_A,
	H_STATS_BATCH_32_A,
	H_CHARGE_BATCH_32,
	H_LRU_BATCH_15,
	H_LRU_LOCK_LRUVEC_A,
	H_FLUSH_MS_0,
	H_PC_LAYOUT_802F1D522D5F,
	H_PCP_BATCH_63,
	H_PCP_HIGH_WMARK_V5_14,
	H_PCP_SCALE_OFF_V5_14,
	H_MITIGATIONS_V4_15,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_caa48e47e3906_parent = {
	.name = "aa48e47e3906^",
	.title = "parent of aa48e47e3906 (memcg: infrastructure to flush memcg stats)",
	.commit = "aa48e47e3906^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_caa48e47e3906_parent);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "aa48e47e3906^",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
