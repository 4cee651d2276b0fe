/*
 * cbd0b230fe145.c - kernel profile "bd0b230fe145": mm/memcg: unify swap and memsw page counters (v5.10-rc1) [struct mem_cgroup layout not performed by the model]
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: struct mem_cgroup's swap and memsw page_counters become one union
 * (-112 B), moving every member after it. Encoded: struct mem_cgroup
 * layout bd0b230fe145^ -> bd0b230fe145 (memscale layout --struct
 * mem_cgroup). NOT MODELLED: the model's struct mcg does not place its
 * fields at these offsets, so no knob the model reads differs.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_4DF910620BEB,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_cbd0b230fe145 = {
	.name = "bd0b230fe145",
	.title = "mm/memcg: unify swap and memsw page counters (v5.10-rc1) [struct mem_cgroup layout not performed by the model]",
	.commit = "bd0b230fe145",
	.sets = sets,
};
REGISTER(knob_profile, kernel_cbd0b230fe145);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "bd0b230fe145",
	.file = __FILE__,
	.mem_cgroup = "bd0b230fe145",
};
REGISTER(kernel_structs, structs);
