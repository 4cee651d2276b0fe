/*
 * cff48c71c26aa.c - kernel profile "ff48c71c26aa": memcg: reduce memory for the lruvec and memcg stats (v6.10-rc1) [not modelled: see the profile file]
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff (mm/memcontrol.c): lruvec_stats(_percpu) and memcg_vmstats(_percpu)
 * arrays sized by NR_MEMCG_NODE_STAT_ITEMS / the memcg stat subset through
 * an index table (memcg_stats_index()) instead of NR_VM_NODE_STAT_ITEMS;
 * struct mem_cgroup_per_node is unchanged (lruvec_stats is behind a
 * pointer since 70a64b7919cb). NOT MODELLED, and why it cannot move a
 * prediction here: every array it shrinks is either this CPU's own
 * (lruvec_stats_percpu, memcg_vmstats_percpu past their first line, whose
 * stats_updates/parent/vmstats fields do not move) or written only by the
 * flusher (memcg->vmstats, lruvec_stats); the simulator's program is the
 * recorded update path, which touches no shared line of those arrays, and
 * flushes are not part of it (models/record.h).  What it changes is a
 * flush's length (fewer items folded per CPU under cgroup_rstat_lock)
 * and one read of the read-only index table per update, which only
 * `memscale run` of the model would show; the model keeps the kernel's
 * full item counts (K_NR_NODE_STAT, models/memcg.h) for every profile.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_FF48C71C26AA,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_cff48c71c26aa = {
	.name = "ff48c71c26aa",
	.title = "memcg: reduce memory for the lruvec and memcg stats (v6.10-rc1) [not modelled: see the profile file]",
	.commit = "ff48c71c26aa",
	.sets = sets,
};
REGISTER(knob_profile, kernel_cff48c71c26aa);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "ff48c71c26aa",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
