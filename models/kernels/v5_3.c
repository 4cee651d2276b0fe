/*
 * v5_3.c - kernel profile "v5.3": v5.3, the base of Alex Shi's per-memcg lru_lock series (5.3-rc4)
 * (commit v5.3).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v5.3", "include/linux/memcontrol.h, include/linux/mmzone.h @ v5.3" },
	{ "stats", "v5.10_atomic", "mm/memcontrol.c @ v5.3: __mod_memcg_state folds per-CPU deltas into atomics of every ancestor" },
	{ "stats_batch", "32", "MEMCG_CHARGE_BATCH as the stat threshold, mm/memcontrol.c __mod_memcg_state" },
	{ "charge_batch", "32", "include/linux/memcontrol.h @ v5.3: MEMCG_CHARGE_BATCH 32U" },
	{ "lru_batch", "15", "include/linux/pagevec.h @ v5.3: PAGEVEC_SIZE 15" },
	{ "lru_lock", "pgdat", "include/linux/mmzone.h @ v5.3: pgdat->lru_lock" },
	{ "flush_ms", "0", "no periodic flush before aa48e47e3906 (v5.15)" },
	{ "pc_layout", "v5", "include/linux/page_counter.h before 802f1d522d5f (v5.12 merge window; its diff 85bd413..6795913): parent after max, on usage's line" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v5.3 (read at v5.10, unchanged since v4.x): zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "6x_batch", "mm/page_alloc.c @ v5.3 (read at v5.10, unchanged since v4.x): pageset_set_batch(), high = 6 * batch" },
	{ "pcp_scale", "off", "mm/page_alloc.c @ v5.3 (read at v5.10, unchanged since v4.x): rmqueue_bulk / free_pcppages_bulk move pcp->batch pages" },
	H_MITIGATIONS_V4_15,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_v5_3 = {
	.name = "v5.3",
	.title = "v5.3, the base of Alex Shi's per-memcg lru_lock series (5.3-rc4)",
	.commit = "v5.3",
	.sets = sets,
};
REGISTER(knob_profile, kernel_v5_3);

/* no declared struct mem_cgroup / page_counter layout for this kernel */
static const struct kernel_structs structs = { .name = "v5.3", .file = __FILE__ };
REGISTER(kernel_structs, structs);
