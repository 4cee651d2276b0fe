/*
 * c802f1d522d5f.c - kernel profile "802f1d522d5f": mm: page_counter: re-layout structure to reduce false sharing (v5.12-rc1)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: include/linux/page_counter.h moves parent from after max to the
 * end (off usage's 64 B line). Encoded: struct page_counter layout v5 ->
 * 802f1d522d5f. NOT MODELLED: the model's struct page_counter
 * (models/memcg.h) has the v6.1 grouping whatever the profile.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_LAYOUT_V5_11,
	H_STATS_V5_10_ATOMIC,
	H_STATS_BATCH_32_B,
	H_CHARGE_BATCH_32,
	H_LRU_BATCH_15,
	H_LRU_LOCK_LRUVEC_A,
	H_FLUSH_MS_0,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c802f1d522d5f = {
	.name = "802f1d522d5f",
	.title = "mm: page_counter: re-layout structure to reduce false sharing (v5.12-rc1)",
	.commit = "802f1d522d5f",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c802f1d522d5f);

/* the declared struct layouts of this kernel (models/layout_struct.c) */
static const struct kernel_structs structs = {
	.name = "802f1d522d5f",
	.file = __FILE__,
	.version = { [KSTRUCT_MEM_CGROUP] = NULL, [KSTRUCT_PAGE_COUNTER] = "802f1d522d5f" },
};
REGISTER(kernel_structs, structs);
