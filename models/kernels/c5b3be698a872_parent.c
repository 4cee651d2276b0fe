/*
 * c5b3be698a872_parent.c - kernel profile "5b3be698a872^": parent of 5b3be698a872 (memcg: better bounds on the memcg stats updates)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 5b3be698a872: the state its diff applies to. Diff:
 * stats_updates counts abs(val) and adds x / MEMCG_CHARGE_BATCH to the
 * global threshold, then resets. Encoded: nothing (rstat_global_noguard on
 * both sides). NOT MODELLED: the count-based trigger of 11192d9c124d as a
 * design apart (identical for 1-page updates but for 32 vs 33 updates per
 * bump).
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

const struct knob_profile kernel_c5b3be698a872_parent = {
	.name = "5b3be698a872^",
	.title = "parent of 5b3be698a872 (memcg: better bounds on the memcg stats updates)",
	.commit = "5b3be698a872^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c5b3be698a872_parent);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "5b3be698a872^",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = "802f1d522d5f" },
};
REGISTER(kernel_structs, structs);
