/*
 * c802f1d522d5f.c - kernel profile "802f1d522d5f": mm: page_counter: re-layout structure to reduce false sharing (v5.12-rc1)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * Diff: include/linux/page_counter.h moves parent from after max to the
 * end (off usage's 64 B line). Encoded: pc_layout v5 -> 802f1d522d5f,
 * which the model's charge path reads (page_counter members at the derived
 * offsets).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_2D146AA3AA84_PARENT,
	{ "mc_layout", "4df910620beb", "include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13, carries 4df910620beb): ASSUMED for this kernel, its head (css, id, memory, swap) as v5.10.13's, not read at the version (802f1d522d5f changes page_counter.h only; page_counter_802f has v5's 112 B)" },
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c802f1d522d5f = {
	.name = "802f1d522d5f",
	.title = "mm: page_counter: re-layout structure to reduce false sharing (v5.12-rc1)",
	.commit = "802f1d522d5f",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c802f1d522d5f);

/* its file; its declared struct mem_cgroup is the mc_layout preset, its
 * struct page_counter the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "802f1d522d5f",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
