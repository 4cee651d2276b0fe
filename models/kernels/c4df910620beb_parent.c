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
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_4DF910620BEB,
	{ "mc_layout", "bd0b230fe145", "include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13, carries 4df910620beb) with the diff of 4df910620beb reverted" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c4df910620beb_parent = {
	.name = "4df910620beb^",
	.title = "parent of 4df910620beb (mm: memcg: relayout structure mem_cgroup to avoid cache interference)",
	.commit = "4df910620beb^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c4df910620beb_parent);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "4df910620beb^",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
