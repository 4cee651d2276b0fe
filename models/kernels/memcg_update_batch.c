/*
 * memcg_update_batch.c - kernel profile "memcg_update_batch": Feng Tang's MEMCG_UPDATE_BATCH 512 RFC on v5.11-rc1 (not merged)
 * (commit v5.11-rc1 + the RFC).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v5.11", "include/linux/memcontrol.h @ v5.11-rc1 (the patch's base): lru_lock in lruvec" },
	{ "stats", "v5.10_atomic", "mm/memcontrol.c @ v5.11-rc1: per-CPU batch + atomics" },
	{ "stats_batch", "512", "Feng Tang, [PATCH 2/2] mm: memcg: add a new MEMCG_UPDATE_BATCH, 2020-12-29 (not merged): MEMCG_UPDATE_BATCH 512U" },
	{ "charge_batch", "32", "MEMCG_CHARGE_BATCH 32U stays for charging in the patch" },
	{ "lru_batch", "15", "include/linux/pagevec.h @ v5.11-rc1: PAGEVEC_SIZE 15" },
	{ "lru_lock", "lruvec", "6168d0da2b47 is in v5.11-rc1" },
	{ "flush_ms", "0", "no periodic flush before aa48e47e3906 (v5.15)" },
	{ "pc_layout", "v5", "include/linux/page_counter.h before 802f1d522d5f (v5.12 merge window; its diff 85bd413..6795913): parent after max, on usage's line" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v5.11-rc1: zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "6x_batch", "mm/page_alloc.c @ v5.11-rc1: pageset_set_batch(), high = 6 * batch" },
	{ "pcp_scale", "off", "mm/page_alloc.c @ v5.11-rc1: rmqueue_bulk / free_pcppages_bulk move pcp->batch pages" },
	H_MITIGATIONS_V4_15,
	{ "mc_layout", "4df910620beb", "include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13, carries 4df910620beb): ASSUMED for this kernel, its head (css, id, memory, swap) as v5.10.13's, not read at the version (the patch adds a #define only)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_memcg_update_batch = {
	.name = "memcg_update_batch",
	.title = "Feng Tang's MEMCG_UPDATE_BATCH 512 RFC on v5.11-rc1 (not merged)",
	.commit = "v5.11-rc1 + the RFC",
	.sets = sets,
};
REGISTER(knob_profile, kernel_memcg_update_batch);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = { .name = "memcg_update_batch", .file = __FILE__ };
REGISTER(kernel_structs, structs);
