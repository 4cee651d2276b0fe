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
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.9", "2d146aa3aa84 (include/linux/memcontrol.h): lruvec_stats_percpu pointer + struct lruvec_stats EMBEDDED; nearest declared layout: v6.9 (v5.13 has 2 arrays state/state_pending, v6.9 3 with state_local)" },
	{ "stats", "rstat_global", "873f64b791a2: atomic_add only while atomic_read(&stats_flush_threshold) <= num_online_cpus()" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "1813e51eece0: MEMCG_CHARGE_BATCH 64U" },
	{ "lru_batch", "15", "PAGEVEC_SIZE 15 until 9cecde80aae0 (v6.9-rc2)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47 (v5.11)" },
	{ "flush_ms", "2000", "aa48e47e3906: flush_memcg_stats_dwork re-queued every 2UL*HZ" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c1813e51eece0 = {
	.name = "1813e51eece0",
	.title = "memcg: increase MEMCG_CHARGE_BATCH to 64 (v6.1-rc1)",
	.commit = "1813e51eece0",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c1813e51eece0);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "1813e51eece0",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = "408587baee39" },
};
REGISTER(kernel_structs, structs);
