/*
 * cbd0b230fe145_parent.c - kernel profile "bd0b230fe145^": parent of bd0b230fe145 (mm/memcg: unify swap and memsw page counters)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of bd0b230fe145: the state its diff applies to. Diff: struct
 * mem_cgroup's swap and memsw page_counters become one union (-112 B),
 * moving every member after it. Encoded: struct mem_cgroup layout
 * bd0b230fe145^ -> bd0b230fe145 (memscale layout --struct mem_cgroup). NOT
 * MODELLED: the model's struct mcg does not place its fields at these
 * offsets, so no knob the model reads differs.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v5.10", "include/linux/memcontrol.h @ v5.10.13: lruvec first, lruvec_stat_local/_cpu pointers, lruvec_stat[] atomics embedded, memcg last" },
	{ "stats", "v5.10_atomic", "mm/memcontrol.c before 2d146aa3aa84 (v5.13): per-CPU batch folded into the atomics of the memcg and every ancestor" },
	{ "stats_batch", "32", "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13), the fold threshold" },
	{ "charge_batch", "32", "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13)" },
	{ "lru_batch", "15", "PAGEVEC_SIZE 15 until 9cecde80aae0 (v6.9-rc2)" },
	{ "lru_lock", "pgdat", "pgdat->lru_lock until 6168d0da2b47 (v5.11)" },
	{ "flush_ms", "0", "no periodic flush before aa48e47e3906 (v5.15)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_cbd0b230fe145_parent = {
	.name = "bd0b230fe145^",
	.title = "parent of bd0b230fe145 (mm/memcg: unify swap and memsw page counters)",
	.commit = "bd0b230fe145^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_cbd0b230fe145_parent);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "bd0b230fe145^",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = "bd0b230fe145^", [KSTRUCT_PAGE_COUNTER] = "v5" },
};
REGISTER(kernel_structs, structs);
