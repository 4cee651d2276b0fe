/*
 * cbd0b230fe145.c - kernel profile "bd0b230fe145": mm/memcg: unify swap and memsw page counters (v5.10-rc1)
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
	H_LAYOUT_V5_10,
	H_STATS_V5_10_ATOMIC,
	H_STATS_BATCH_32_B,
	H_CHARGE_BATCH_32,
	H_LRU_BATCH_15,
	H_LRU_LOCK_PGDAT,
	H_FLUSH_MS_0,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_cbd0b230fe145 = {
	.name = "bd0b230fe145",
	.title = "mm/memcg: unify swap and memsw page counters (v5.10-rc1)",
	.commit = "bd0b230fe145",
	.sets = sets,
};
REGISTER(knob_profile, kernel_cbd0b230fe145);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "bd0b230fe145",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = "bd0b230fe145", [KSTRUCT_PAGE_COUNTER] = "v5" },
};
REGISTER(kernel_structs, structs);
