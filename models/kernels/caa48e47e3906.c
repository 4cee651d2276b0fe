/*
 * caa48e47e3906.c - kernel profile "aa48e47e3906": memcg: infrastructure to flush memcg stats (v5.15-rc1)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff (mm/memcontrol.c): adds flush_memcg_stats_dwork every 2UL*HZ,
 * mem_cgroup_flush_stats() (spin_trylock stats_flush_lock,
 * cgroup_rstat_flush(root)), and in __mod_memcg_lruvec_state() a per-CPU
 * counter that queue_work()s a flush every MEMCG_CHARGE_BATCH updates.
 * Encoded: flush_ms 0 -> 2000. NOT MODELLED: the queued flush every 32
 * updates per CPU.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.9", "2d146aa3aa84 (include/linux/memcontrol.h): lruvec_stats_percpu pointer + struct lruvec_stats EMBEDDED; nearest declared layout: v6.9 (v5.13 has 2 arrays state/state_pending, v6.9 3 with state_local)" },
	{ "stats", "rstat_global_noguard", "NEAREST, not the kernel: aa48e47e3906 mm/memcontrol.c __mod_memcg_lruvec_state(): every MEMCG_CHARGE_BATCH updates per CPU (per-CPU stats_flush_threshold) queue_work() of a whole-tree flush; the model lacks this design" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "32", "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13)" },
	{ "lru_batch", "15", "PAGEVEC_SIZE 15 until 9cecde80aae0 (v6.9-rc2)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47 (v5.11)" },
	{ "flush_ms", "2000", "aa48e47e3906: flush_memcg_stats_dwork re-queued every 2UL*HZ" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_caa48e47e3906 = {
	.name = "aa48e47e3906",
	.title = "memcg: infrastructure to flush memcg stats (v5.15-rc1)",
	.commit = "aa48e47e3906",
	.sets = sets,
};
REGISTER(knob_profile, kernel_caa48e47e3906);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "aa48e47e3906",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = "802f1d522d5f" },
};
REGISTER(kernel_structs, structs);
