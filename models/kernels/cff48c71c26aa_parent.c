/*
 * cff48c71c26aa_parent.c - kernel profile "ff48c71c26aa^": parent of ff48c71c26aa (memcg: reduce memory for the lruvec and memcg stats)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of ff48c71c26aa: the state its diff applies to. Diff
 * (mm/memcontrol.c): lruvec_stats(_percpu) and memcg_vmstats(_percpu)
 * arrays sized by NR_MEMCG_NODE_STAT_ITEMS / the memcg stat subset through
 * an index table (memcg_stats_index()) instead of NR_VM_NODE_STAT_ITEMS;
 * struct mem_cgroup_per_node is unchanged (lruvec_stats is behind a
 * pointer since 70a64b7919cb). NOT MODELLED: the model's per-CPU stat
 * arrays have fixed kernel item counts (K_NR_NODE_STAT, models/memcg.h)
 * and no index lookup; no knob differs.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.10", "70a64b7919cb (series before ff48c71c26aa): lruvec_stats behind a pointer; ff48c71c26aa does not change mem_cgroup_per_node" },
	{ "stats", "rstat_permemcg_cached", "mm/memcontrol.c v6.10 cycle: per-memcg threshold (8d59d2214c23) with cached statc->parent (9cee7e8ef3e3)" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "MEMCG_CHARGE_BATCH 64U" },
	{ "lru_batch", "31", "PAGEVEC_SIZE 31 (9cecde80aae0, v6.9-rc2)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock" },
	{ "flush_ms", "2000", "FLUSH_TIME (2UL*HZ)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_cff48c71c26aa_parent = {
	.name = "ff48c71c26aa^",
	.title = "parent of ff48c71c26aa (memcg: reduce memory for the lruvec and memcg stats)",
	.commit = "ff48c71c26aa^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_cff48c71c26aa_parent);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "ff48c71c26aa^",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = NULL },
};
REGISTER(kernel_structs, structs);
