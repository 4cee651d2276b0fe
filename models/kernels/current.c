/*
 * current.c - kernel profile "current": the current kernel as modelled (checked against a 6.18 kernel's BTF)
 * (commit 6.18 (BTF of the running kernel)).  Every per-kernel knob with the file it was read from;
 * `memscale list kernels` prints them.
 */
#include "core/knob.h"
#include "core/registry.h"
#include "models/kernels/history.h"
#include "models/layout_struct.h"

static const struct knob_preset sets[] = {
	{ "layout", "fixed_padded", "the running 6.18 kernel's BTF: as v6.11 (tests/layout_btf.t checks it member by member)" },
	{ "stats", "rstat_permemcg_cached", "mm/memcontrol.c: per-memcg threshold, cached parents (later changes to the stock and to memcg_rstat_updated are not modelled)" },
	{ "stats_batch", "32", "unused on the rstat path" },
	{ "charge_batch", "64", "MEMCG_CHARGE_BATCH 64U" },
	{ "lru_batch", "31", "PAGEVEC_SIZE 31" },
	{ "lru_lock", "lruvec", "lruvec->lru_lock" },
	{ "flush_ms", "2000", "FLUSH_TIME (2UL*HZ)" },
	{ "pc_layout", "v6.18", "include/linux/page_counter.h of a 6.14+ tree, member by member as the running 6.18 kernel's BTF (tests/kernel_history.t)" },
	{ "pcp_batch", "63", "mm/page_alloc.c @ v6.9 (the nearest version read): zone_batchsize(), 63 for a zone >= 1 GiB" },
	{ "pcp_high", "auto", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): pcp->high between zone_highsize() high_min and high_max, tuned by nr_pcp_alloc() / nr_pcp_high() (51a755c56dc0)" },
	{ "pcp_scale", "v6.7", "mm/page_alloc.c since v6.7 (read in the series' diffs and a v6.8+ page_alloc.c): nr_pcp_alloc() alloc_factor, nr_pcp_free() free_count" },
	H_MITIGATIONS_V5_19,
	{ NULL, NULL, NULL },
};

const struct knob_profile kernel_current = {
	.name = "current",
	.title = "the current kernel as modelled (checked against a 6.18 kernel's BTF)",
	.commit = "6.18 (BTF of the running kernel)",
	.sets = sets,
};
REGISTER(knob_profile, kernel_current);

/* no declared struct mem_cgroup / page_counter layout for this kernel */
static const struct kernel_structs structs = { .name = "current", .file = __FILE__ };
REGISTER(kernel_structs, structs);
