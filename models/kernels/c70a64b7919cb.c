/*
 * c70a64b7919cb.c - kernel profile "70a64b7919cb": 70a64b7919cb: lruvec_stats behind a pointer (v6.10-rc1)
 * (commit 70a64b7919cb).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.10", "70a64b7919cb memcg: dynamically allocate lruvec_stats (include/linux/memcontrol.h)" },
	{ "stats", "rstat_permemcg_cached", "mm/memcontrol.c @ 70a64b7919cb: as v6.9" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "MEMCG_CHARGE_BATCH 64U" },
	{ "lru_batch", "31", "PAGEVEC_SIZE 31 (9cecde80aae0)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock" },
	{ "flush_ms", "2000", "FLUSH_TIME (2UL*HZ)" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v6.9 (the nearest version read): zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "auto", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): pcp->high between zone_highsize() high_min and high_max, tuned by nr_pcp_alloc() / nr_pcp_high() (51a755c56dc0)" },
	{ "pcp_scale", "v6.7", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): nr_pcp_alloc() alloc_factor, nr_pcp_free() free_count" },
	H_MITIGATIONS_V5_19,
	{ "mc_layout", "v6.8", "v6.7's include/linux/memcontrol.h with 501a06fe8e4c's zswap_writeback (v6.8-rc1); ASSUMED unchanged to 70a64b7919cb (its diff: mem_cgroup_per_node)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c70a64b7919cb = {
	.name = "70a64b7919cb",
	.title = "70a64b7919cb: lruvec_stats behind a pointer (v6.10-rc1)",
	.commit = "70a64b7919cb",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c70a64b7919cb);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = { .name = "70a64b7919cb", .file = __FILE__ };
REGISTER(kernel_structs, structs);
