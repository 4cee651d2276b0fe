/*
 * c5b3be698a872.c - kernel profile "5b3be698a872": memcg: better bounds on the memcg stats updates (v5.17 cycle)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: stats_updates counts abs(val) and adds x / MEMCG_CHARGE_BATCH to
 * the global threshold, then resets; the 2 s dwork flushes
 * unconditionally (__mem_cgroup_flush_stats). Encoded: stats
 * rstat_global_count (the parent, 11192d9c124d: a call count, atomic_inc
 * every 32nd call, dwork behind the threshold) -> rstat_global_noguard.
 * They differ in the model wherever an update is not one page (the
 * uncharge gathers' PGPGOUT, batched LRU size updates).
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
	H_PC_LAYOUT_802F1D522D5F,
	H_PCP_BATCH_63,
	H_PCP_HIGH_WMARK_V5_14,
	H_PCP_SCALE_OFF_V5_14,
	H_MITIGATIONS_V4_15,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c5b3be698a872 = {
	.name = "5b3be698a872",
	.title = "memcg: better bounds on the memcg stats updates (v5.17 cycle)",
	.commit = "5b3be698a872",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c5b3be698a872);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "5b3be698a872",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
