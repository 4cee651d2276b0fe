/*
 * c4df910620beb.c - kernel profile "4df910620beb": mm: memcg: relayout structure mem_cgroup to avoid cache interference (v5.10-rc6) [mem_cgroup layout performed (mc_layout), with its vmstats[] and vmevents[] atomics]
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: moving_account, move_lock_task, vmstats_local, vmstats_percpu and
 * _pad2_ move from right after _pad1_ to after the CONFIG_MEMCG_KMEM
 * block. Encoded: struct mem_cgroup layout bd0b230fe145 -> 4df910620beb.
 * The fold atomics (vmstats[], vmevents[]) and the vmstats_percpu
 * pointer sit at their offsets (models/memcg.h mcg_stat_total): at the
 * parent the pointer's line and vmstats[0..7] share a 128 B pair.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_4DF910620BEB,
	{ "mc_layout", "4df910620beb", "include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13, carries 4df910620beb)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c4df910620beb = {
	.name = "4df910620beb",
	.title = "mm: memcg: relayout structure mem_cgroup to avoid cache interference (v5.10-rc6) [mem_cgroup layout performed (mc_layout), with its vmstats[] and vmevents[] atomics]",
	.commit = "4df910620beb",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c4df910620beb);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "4df910620beb",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
