/*
 * v6_11.c - kernel profile "v6.11": v6.11: CONFIG_MEMCG_V1 and cache-line paddings in mem_cgroup_per_node
 * (commit v6.11).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "fixed_padded", "include/linux/memcontrol.h @ v6.11: v1 fields under CONFIG_MEMCG_V1 (98c9daf5ae6b), CACHELINE_PADDING _pad1_/_pad2_ (Gushchin)" },
	{ "stats", "rstat_permemcg_cached", "mm/memcontrol.c @ v6.11: as v6.9" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "MEMCG_CHARGE_BATCH 64U" },
	{ "lru_batch", "31", "PAGEVEC_SIZE 31" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock" },
	{ "flush_ms", "2000", "FLUSH_TIME (2UL*HZ)" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v6.9 (the nearest version read): zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "auto", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): pcp->high between zone_highsize() high_min and high_max, tuned by nr_pcp_alloc() / nr_pcp_high() (51a755c56dc0)" },
	{ "pcp_scale", "v6.7", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): nr_pcp_alloc() alloc_factor, nr_pcp_free() free_count" },
	H_MITIGATIONS_V5_19,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_v6_11 = {
	.name = "v6.11",
	.title = "v6.11: CONFIG_MEMCG_V1 and cache-line paddings in mem_cgroup_per_node",
	.commit = "v6.11",
	.sets = sets,
};
REGISTER(knob_profile, kernel_v6_11);

/* no declared struct mem_cgroup / page_counter layout for this kernel */
static const struct kernel_structs structs = { .name = "v6.11", .file = __FILE__ };
REGISTER(kernel_structs, structs);
