/*
 * c5b3be698a872_parent.c - kernel profile "5b3be698a872^": parent of 5b3be698a872 (memcg: better bounds on the memcg stats updates)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 5b3be698a872: 11192d9c124d's state. Encoded: stats
 * rstat_global_count -> rstat_global_noguard in 5b3be698a872 (counted
 * calls vs |val|-weighted updates).
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_11192D9C124D,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c5b3be698a872_parent = {
	.name = "5b3be698a872^",
	.title = "parent of 5b3be698a872 (memcg: better bounds on the memcg stats updates)",
	.commit = "5b3be698a872^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c5b3be698a872_parent);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "5b3be698a872^",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
