/*
 * c873f64b791a2_parent.c - kernel profile "873f64b791a2^": parent of 873f64b791a2 (mm/memcontrol.c: remove the redundant updating of stats_flush_threshold)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 873f64b791a2: the state its diff applies to. Diff:
 * memcg_rstat_updated() reads stats_flush_threshold and skips the
 * atomic_add once it is past num_online_cpus(). Encoded: stats
 * rstat_global_noguard -> rstat_global. page_counter not declared: whether
 * 408587baee39 precedes it in v6.1 was not checked.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.9", "2d146aa3aa84 (include/linux/memcontrol.h): lruvec_stats_percpu pointer + struct lruvec_stats EMBEDDED; nearest declared layout: v6.9 (v5.13 has 2 arrays state/state_pending, v6.9 3 with state_local)" },
	{ "stats", "rstat_global_noguard", "5b3be698a872: value-weighted stats_updates (abs(val)), atomic_add(x / MEMCG_CHARGE_BATCH) to the global threshold, no guard" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "32", "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13)" },
	{ "lru_batch", "15", "PAGEVEC_SIZE 15 until 9cecde80aae0 (v6.9-rc2)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47 (v5.11)" },
	{ "flush_ms", "2000", "aa48e47e3906: flush_memcg_stats_dwork re-queued every 2UL*HZ" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c873f64b791a2_parent = {
	.name = "873f64b791a2^",
	.title = "parent of 873f64b791a2 (mm/memcontrol.c: remove the redundant updating of stats_flush_threshold)",
	.commit = "873f64b791a2^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c873f64b791a2_parent);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "873f64b791a2^",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = NULL },
};
REGISTER(kernel_structs, structs);
