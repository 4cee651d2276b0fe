/*
 * c4df910620beb_parent.c - kernel profile "4df910620beb^": parent of 4df910620beb (mm: memcg: relayout structure mem_cgroup to avoid cache interference)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 4df910620beb: the state its diff applies to. Diff:
 * moving_account, move_lock_task, vmstats_local, vmstats_percpu and _pad2_
 * move from right after _pad1_ to after the CONFIG_MEMCG_KMEM block.
 * Encoded: struct mem_cgroup layout bd0b230fe145 -> 4df910620beb. NOT
 * MODELLED: as bd0b230fe145.
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

const struct knob_profile kernel_c4df910620beb_parent = {
	.name = "4df910620beb^",
	.title = "parent of 4df910620beb (mm: memcg: relayout structure mem_cgroup to avoid cache interference)",
	.commit = "4df910620beb^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c4df910620beb_parent);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "4df910620beb^",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = "bd0b230fe145", [KSTRUCT_PAGE_COUNTER] = "v5" },
};
REGISTER(kernel_structs, structs);
