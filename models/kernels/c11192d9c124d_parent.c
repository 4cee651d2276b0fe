/*
 * c11192d9c124d_parent.c - kernel profile "11192d9c124d^": parent of 11192d9c124d (memcg: flush stats only if updated)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 11192d9c124d: 1f828223b799's state, no update-side
 * counter and unconditional reader flushes. Encoded: stats
 * rstat_flush_always -> rstat_global_count in 11192d9c124d.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_11192D9C124D_PARENT,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c11192d9c124d_parent = {
	.name = "11192d9c124d^",
	.title = "parent of 11192d9c124d (memcg: flush stats only if updated)",
	.commit = "11192d9c124d^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c11192d9c124d_parent);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "11192d9c124d^",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
