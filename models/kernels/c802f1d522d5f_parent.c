/*
 * c802f1d522d5f_parent.c - kernel profile "802f1d522d5f^": parent of 802f1d522d5f (mm: page_counter: re-layout structure to reduce false sharing)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 802f1d522d5f: the state its diff applies to. Diff:
 * include/linux/page_counter.h moves parent from after max to the end (off
 * usage's 64 B line). Encoded: struct page_counter layout v5 ->
 * 802f1d522d5f. NOT MODELLED: the model's struct page_counter
 * (models/memcg.h) has the v6.1 grouping whatever the profile.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "v5.11", "6168d0da2b47 (v5.11): v5.10 per-node layout with lruvec->lru_lock after lists[]; unchanged up to 2d146aa3aa84" },
	{ "stats", "v5.10_atomic", "mm/memcontrol.c before 2d146aa3aa84 (v5.13): per-CPU batch folded into the atomics of the memcg and every ancestor" },
	{ "stats_batch", "32", "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13), the fold threshold" },
	{ "charge_batch", "32", "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13)" },
	{ "lru_batch", "15", "PAGEVEC_SIZE 15 until 9cecde80aae0 (v6.9-rc2)" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock since 6168d0da2b47 (v5.11)" },
	{ "flush_ms", "0", "no periodic flush before aa48e47e3906 (v5.15)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c802f1d522d5f_parent = {
	.name = "802f1d522d5f^",
	.title = "parent of 802f1d522d5f (mm: page_counter: re-layout structure to reduce false sharing)",
	.commit = "802f1d522d5f^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c802f1d522d5f_parent);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "802f1d522d5f^",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = "v5" },
};
REGISTER(kernel_structs, structs);
