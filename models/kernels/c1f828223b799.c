/*
 * c1f828223b799.c - kernel profile "1f828223b799": memcg: flush lruvec stats in the refault (v5.15 cycle)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: removes stats_flush_work, the per-CPU stats_flush_threshold and
 * the queue_work() from __mod_memcg_lruvec_state(); workingset_refault()
 * calls mem_cgroup_flush_stats(). Encoded: stats rstat_queue_work (the
 * parent) -> rstat_flush_always (models/stats/). Not exercised: the
 * refault-path flush (no model workload refaults a shadow entry).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_11192D9C124D_PARENT,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c1f828223b799 = {
	.name = "1f828223b799",
	.title = "memcg: flush lruvec stats in the refault (v5.15 cycle)",
	.commit = "1f828223b799",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c1f828223b799);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "1f828223b799",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
