/*
 * c1f828223b799.c - kernel profile "1f828223b799": memcg: flush lruvec stats in the refault (v5.15 cycle) [not modelled: see the profile file]
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: removes stats_flush_work, the per-CPU stats_flush_threshold and
 * the queue_work() from __mod_memcg_lruvec_state(); workingset_refault()
 * calls mem_cgroup_flush_stats(). Encoded: nothing (both sides use the
 * nearest design). NOT MODELLED: the update-path queue_work() of the
 * parent, the refault-path flush of the child.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.9", "2d146aa3aa84 (include/linux/memcontrol.h): lruvec_stats_percpu pointer + struct lruvec_stats EMBEDDED; nearest declared layout: v6.9 (v5.13 has 2 arrays state/state_pending, v6.9 3 with state_local)" },
	{ "stats", "rstat_global_noguard", "NEAREST, not the kernel: 1f828223b799 removes the queue_work() from __mod_memcg_lruvec_state() and flushes in workingset_refault(); no update-side counter; the model lacks this design" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "32", "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13)" },
	{ "lru_batch", "15", "PAGEVEC_SIZE 15 until 9cecde80aae0 (v6.9-rc2)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47 (v5.11)" },
	{ "flush_ms", "2000", "aa48e47e3906: flush_memcg_stats_dwork re-queued every 2UL*HZ" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c1f828223b799 = {
	.name = "1f828223b799",
	.title = "memcg: flush lruvec stats in the refault (v5.15 cycle) [not modelled: see the profile file]",
	.commit = "1f828223b799",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c1f828223b799);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "1f828223b799",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = "802f1d522d5f" },
};
REGISTER(kernel_structs, structs);
