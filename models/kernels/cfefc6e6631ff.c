/*
 * cfefc6e6631ff.c - kernel profile "fefc6e6631ff": fefc6e6631ff: Shakeel Butt's rearrangement of mem_cgroup_per_node (the fix)
 * (commit fefc6e6631ff).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "fixed", "fefc6e6631ff memcg: rearrange fields of mem_cgroup_per_node (include/linux/memcontrol.h)" },
	{ "stats", "rstat_permemcg_cached", "mm/memcontrol.c: as v6.9" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "MEMCG_CHARGE_BATCH 64U" },
	{ "lru_batch", "31", "PAGEVEC_SIZE 31 (9cecde80aae0)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock" },
	{ "flush_ms", "2000", "FLUSH_TIME (2UL*HZ)" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v6.9 (the nearest version read): zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "auto", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): pcp->high between zone_highsize() high_min and high_max, tuned by nr_pcp_alloc() / nr_pcp_high() (51a755c56dc0)" },
	{ "pcp_scale", "v6.7", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): nr_pcp_alloc() alloc_factor, nr_pcp_free() free_count" },
	H_MITIGATIONS_V5_19,
	{ "mc_layout", "v6.8", "v6.7's include/linux/memcontrol.h with 501a06fe8e4c's zswap_writeback (v6.8-rc1); ASSUMED: v6.11's struct mem_cgroup is not declared, its head (css, id, memory, swap) is v6.8's" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_cfefc6e6631ff = {
	.name = "fefc6e6631ff",
	.title = "fefc6e6631ff: Shakeel Butt's rearrangement of mem_cgroup_per_node (the fix)",
	.commit = "fefc6e6631ff",
	.sets = sets,
};
REGISTER(knob_profile, kernel_cfefc6e6631ff);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = { .name = "fefc6e6631ff", .file = __FILE__ };
REGISTER(kernel_structs, structs);
