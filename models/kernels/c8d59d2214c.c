/*
 * c8d59d2214c.c - kernel profile "8d59d2214c": 8d59d2214c23: per-memcg stats flush threshold (v6.8-rc1)
 * (commit 8d59d2214c23).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.9", "include/linux/memcontrol.h @ 8d59d2214c23: mem_cgroup_per_node unchanged from v6.7" },
	{ "stats", "rstat_permemcg", "8d59d2214c23 mm: memcg: make stats flushing threshold per-memcg (parent_mem_cgroup() walk)" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "include/linux/memcontrol.h @ 8d59d2214c23: MEMCG_CHARGE_BATCH 64U" },
	{ "lru_batch", "15", "include/linux/pagevec.h @ 8d59d2214c23: PAGEVEC_SIZE 15 (31 from 9cecde80aae0, v6.9-rc2)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47" },
	{ "flush_ms", "2000", "mm/memcontrol.c @ 8d59d2214c23: FLUSH_TIME (2UL*HZ)" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v6.7: zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "auto", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): pcp->high between zone_highsize() high_min and high_max, tuned by nr_pcp_alloc() / nr_pcp_high() (51a755c56dc0)" },
	{ "pcp_scale", "v6.7", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): nr_pcp_alloc() alloc_factor, nr_pcp_free() free_count" },
	H_MITIGATIONS_V5_19,
	{ "mc_layout", "v6.7", "v6.7's include/linux/memcontrol.h: NOT CHECKED whether 501a06fe8e4c's bool zswap_writeback (v6.8-rc1) precedes 8d59d2214c23; the seed pairs v6.7..8d59d2214c..9cee7e8ef3e3 isolate the stats path, and the v6.8 layout predicts the same (lru_shm at 224 CPUs, checked)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c8d59d2214c = {
	.name = "8d59d2214c",
	.title = "8d59d2214c23: per-memcg stats flush threshold (v6.8-rc1)",
	.commit = "8d59d2214c23",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c8d59d2214c);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = { .name = "8d59d2214c", .file = __FILE__ };
REGISTER(kernel_structs, structs);
