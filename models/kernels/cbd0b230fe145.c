/*
 * cbd0b230fe145.c - kernel profile "bd0b230fe145": mm/memcg: unify swap and memsw page counters (v5.10-rc1) [mem_cgroup layout performed (mc_layout), with its vmstats[] and vmevents[] atomics]
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: struct mem_cgroup's swap and memsw page_counters become one union
 * (-112 B), moving every member after it. Encoded: struct mem_cgroup
 * layout bd0b230fe145^ -> bd0b230fe145 (memscale layout --struct
 * mem_cgroup), the knob mc_layout, which also places the v5 stats
 * atomics (vmstats[], vmevents[]) the folds write and the vmstats_percpu
 * pointer every update reads (models/memcg.h mcg_stat_total).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_4DF910620BEB,
	{ "mc_layout", "bd0b230fe145", "include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13, carries 4df910620beb) with the diff of 4df910620beb reverted" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_cbd0b230fe145 = {
	.name = "bd0b230fe145",
	.title = "mm/memcg: unify swap and memsw page counters (v5.10-rc1) [mem_cgroup layout performed (mc_layout), with its vmstats[] and vmevents[] atomics]",
	.commit = "bd0b230fe145",
	.sets = sets,
};
REGISTER(knob_profile, kernel_cbd0b230fe145);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "bd0b230fe145",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
