/*
 * v5_11.c - kernel profile "v5.11": v5.11: per-memcg per-node lruvec->lru_lock (6168d0da2b47)
 * (commit 6168d0da2b47).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v5.11", "include/linux/memcontrol.h, include/linux/mmzone.h @ 6168d0da2b47: lru_lock after lists[]" },
	{ "stats", "v5.10_atomic", "mm/memcontrol.c @ 6168d0da2b47: per-CPU batch + atomics of every ancestor (rstat came in v5.13)" },
	{ "stats_batch", "32", "MEMCG_CHARGE_BATCH as the stat threshold, mm/memcontrol.c __mod_memcg_state" },
	{ "charge_batch", "32", "include/linux/memcontrol.h @ 6168d0da2b47: MEMCG_CHARGE_BATCH 32U" },
	{ "lru_batch", "15", "include/linux/pagevec.h @ v5.11: PAGEVEC_SIZE 15" },
	{ "lru_lock", "lruvec", "6168d0da2b47 mm/lru: replace pgdat lru_lock with lruvec lock" },
	{ "flush_ms", "0", "no periodic flush before aa48e47e3906 (v5.15)" },
	{ "pc_layout", "v5", "include/linux/page_counter.h before 802f1d522d5f (v5.12 merge window; its diff 85bd413..6795913): parent after max, on usage's line" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v5.11: zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "6x_batch", "mm/page_alloc.c @ v5.11: pageset_set_batch(), high = 6 * batch" },
	{ "pcp_scale", "off", "mm/page_alloc.c @ v5.11: rmqueue_bulk / free_pcppages_bulk move pcp->batch pages" },
	H_MITIGATIONS_V4_15,
	{ "mc_layout", "4df910620beb", "include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13, carries 4df910620beb): ASSUMED for this kernel, its head (css, id, memory, swap) as v5.10.13's, not read at the version" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_v5_11 = {
	.name = "v5.11",
	.title = "v5.11: per-memcg per-node lruvec->lru_lock (6168d0da2b47)",
	.commit = "6168d0da2b47",
	.sets = sets,
};
REGISTER(knob_profile, kernel_v5_11);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = { .name = "v5.11", .file = __FILE__ };
REGISTER(kernel_structs, structs);
