/*
 * v5_10.c - kernel profile "v5.10": v5.10, the last release with pgdat->lru_lock
 * (commit v5.10).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v5.10", "include/linux/memcontrol.h, include/linux/mmzone.h @ v5.10" },
	{ "stats", "v5.10_atomic", "mm/memcontrol.c @ v5.10: per-CPU batch + atomics of every ancestor" },
	{ "stats_batch", "32", "MEMCG_CHARGE_BATCH as the stat threshold, mm/memcontrol.c __mod_memcg_state" },
	{ "charge_batch", "32", "include/linux/memcontrol.h @ v5.10: MEMCG_CHARGE_BATCH 32U" },
	{ "lru_batch", "15", "include/linux/pagevec.h @ v5.10: PAGEVEC_SIZE 15" },
	{ "lru_lock", "pgdat", "include/linux/mmzone.h @ v5.10: pgdat->lru_lock (replaced by 6168d0da2b47 in v5.11)" },
	{ "flush_ms", "0", "no periodic flush before aa48e47e3906 (v5.15)" },
	{ "pc_layout", "v5", "include/linux/page_counter.h before 802f1d522d5f (v5.12 merge window; its diff 85bd413..6795913): parent after max, on usage's line" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v5.10: zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "6x_batch", "mm/page_alloc.c @ v5.10: pageset_set_batch(), high = 6 * batch" },
	{ "pcp_scale", "off", "mm/page_alloc.c @ v5.10: rmqueue_bulk / free_pcppages_bulk move pcp->batch pages" },
	H_MITIGATIONS_V4_15,
	{ "mc_layout", "4df910620beb", "v5.10 has 4df910620beb (v5.10-rc6): include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13, carries 4df910620beb)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_v5_10 = {
	.name = "v5.10",
	.title = "v5.10, the last release with pgdat->lru_lock",
	.commit = "v5.10",
	.sets = sets,
};
REGISTER(knob_profile, kernel_v5_10);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = { .name = "v5.10", .file = __FILE__ };
REGISTER(kernel_structs, structs);
