/*
 * c9cee7e8ef3e3.c - kernel profile "9cee7e8ef3e3": 9cee7e8ef3e3: Yosry Ahmed's fix of 8d59d2214c (release tag not verified here)
 * (commit 9cee7e8ef3e31ca25b40ca52b8585dc6935deff2).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.9", "include/linux/memcontrol.h @ 9cee7e8ef3e3: mem_cgroup_per_node unchanged" },
	{ "stats", "rstat_permemcg_cached", "9cee7e8ef3e3 mm: memcg: optimize parent iteration in memcg_rstat_updated() (cached statc->parent, statc->vmstats)" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "MEMCG_CHARGE_BATCH 64U" },
	{ "lru_batch", "15", "include/linux/pagevec.h @ 9cee7e8ef3e3: PAGEVEC_SIZE 15" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47" },
	{ "flush_ms", "2000", "FLUSH_TIME (2UL*HZ)" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v6.7: zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "auto", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): pcp->high between zone_highsize() high_min and high_max, tuned by nr_pcp_alloc() / nr_pcp_high() (51a755c56dc0)" },
	{ "pcp_scale", "v6.7", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): nr_pcp_alloc() alloc_factor, nr_pcp_free() free_count" },
	H_MITIGATIONS_V5_19,
	{ "mc_layout", "v6.7", "v6.7's include/linux/memcontrol.h: NOT CHECKED whether 501a06fe8e4c's bool zswap_writeback (v6.8-rc1) precedes 9cee7e8ef3e3; the seed pairs v6.7..8d59d2214c..9cee7e8ef3e3 isolate the stats path, and the v6.8 layout predicts the same (lru_shm at 224 CPUs, checked)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c9cee7e8ef3e3 = {
	.name = "9cee7e8ef3e3",
	.title = "9cee7e8ef3e3: Yosry Ahmed's fix of 8d59d2214c (release tag not verified here)",
	.commit = "9cee7e8ef3e31ca25b40ca52b8585dc6935deff2",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c9cee7e8ef3e3);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = { .name = "9cee7e8ef3e3", .file = __FILE__ };
REGISTER(kernel_structs, structs);
