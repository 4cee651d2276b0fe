/*
 * v6_7.c - kernel profile "v6.7": v6.7: rstat with the global flush threshold, the base before 8d59d2214c
 * (commit v6.7).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v6.9", "include/linux/memcontrol.h @ v6.7: lruvec_stats embedded (declaration of v5.15..v6.9)" },
	{ "stats", "rstat_global", "mm/memcontrol.c @ v6.7: global stats_flush_threshold with the 873f64b791a2 guard (e0bf1dc859 is the base of LKP report 202401221624.cb53a8ca)" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "include/linux/memcontrol.h @ v6.7: MEMCG_CHARGE_BATCH 64U (1813e51eece0, v6.1)" },
	{ "lru_batch", "15", "include/linux/pagevec.h @ v6.7: PAGEVEC_SIZE 15" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47" },
	{ "flush_ms", "2000", "mm/memcontrol.c @ v6.7: FLUSH_TIME (2UL*HZ)" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v6.7: zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "auto", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): pcp->high between zone_highsize() high_min and high_max, tuned by nr_pcp_alloc() / nr_pcp_high() (51a755c56dc0)" },
	{ "pcp_scale", "v6.7", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): nr_pcp_alloc() alloc_factor, nr_pcp_free() free_count" },
	H_MITIGATIONS_V5_19,
	{ "mc_layout", "v6.7", "include/linux/memcontrol.h of the v6.2..v6.7 range (stored copy, search-tool id 44268685)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_v6_7 = {
	.name = "v6.7",
	.title = "v6.7: rstat with the global flush threshold, the base before 8d59d2214c",
	.commit = "v6.7",
	.sets = sets,
};
REGISTER(knob_profile, kernel_v6_7);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = { .name = "v6.7", .file = __FILE__ };
REGISTER(kernel_structs, structs);
