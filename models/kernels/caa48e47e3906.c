/*
 * caa48e47e3906.c - kernel profile "aa48e47e3906": memcg: infrastructure to flush memcg stats (v5.15-rc1)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff (mm/memcontrol.c): adds flush_memcg_stats_dwork every 2UL*HZ,
 * mem_cgroup_flush_stats() (spin_trylock stats_flush_lock,
 * cgroup_rstat_flush(root)), and in __mod_memcg_lruvec_state() a per-CPU
 * counter that queue_work()s a flush every MEMCG_CHARGE_BATCH updates.
 * and in mm/vmscan.c shrink_node() an unconditional flush. Encoded:
 * flush_ms 0 -> 2000 and stats rstat_global_noguard (the parent's
 * nearest) -> rstat_queue_work (models/stats/). The parent's own hybrid
 * (2d146aa3aa84) stays not modelled.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_1F828223B799_PARENT,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_caa48e47e3906 = {
	.name = "aa48e47e3906",
	.title = "memcg: infrastructure to flush memcg stats (v5.15-rc1)",
	.commit = "aa48e47e3906",
	.sets = sets,
};
REGISTER(knob_profile, kernel_caa48e47e3906);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "aa48e47e3906",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
