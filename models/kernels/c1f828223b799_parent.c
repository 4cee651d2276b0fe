/*
 * c1f828223b799_parent.c - kernel profile "1f828223b799^": parent of 1f828223b799 (memcg: flush lruvec stats in the refault)
 * Every per-kernel knob with the commit and file it was read from (read with
 * the search tool from stored kernel sources and diffs, never from benchmark
 * results); `memscale list kernels` prints them.
 * The parent of 1f828223b799 (aa48e47e3906's state): the update-path
 * queue_work() every MEMCG_CHARGE_BATCH lruvec updates per CPU, readers
 * (shrink_node) flushing unconditionally. Encoded: stats rstat_queue_work
 * -> rstat_flush_always in 1f828223b799.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	H_KNOBS_1F828223B799_PARENT,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_c1f828223b799_parent = {
	.name = "1f828223b799^",
	.title = "parent of 1f828223b799 (memcg: flush lruvec stats in the refault)",
	.commit = "1f828223b799^",
	.sets = sets,
};
REGISTER(knob_profile, kernel_c1f828223b799_parent);

/* its file, and its declared struct mem_cgroup (models/layout_struct.c); its
 * struct page_counter is the pc_layout preset */
static const struct kernel_structs structs = {
	.name = "1f828223b799^",
	.file = __FILE__,
};
REGISTER(kernel_structs, structs);
