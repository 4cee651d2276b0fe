/*
 * knobs.c - the run-time variants of the memcg model (`--set KEY=VALUE`),
 * each value naming the kernel version or commit it stands for
 * (see docs/kernel-facts.md).  `memscale list variants` prints them.
 */
#include "models/memcg.h"

#include <stdio.h>
#include <string.h>

static const struct knob_value layout_values[] = {
	{ "v6.9", "v6.9: lruvec_stats embedded (1056 B) between hot and read-mostly fields" },
	{ "v6.10", "70a64b7919cb (v6.10-rc1): lruvec_stats behind a pointer, fields collapse (regressed page_fault2 -11.9%)" },
	{ "fixed", "fefc6e6631ff (~v6.11): read-mostly first, v1 fields as buffer, hot last" },
	{ "fixed_padded", "fefc6e6631ff + Gushchin's CACHELINE_PADDING follow-up (CONFIG_MEMCG_V1=n)" },
	{ NULL, NULL },
};
const struct knob knob_layout = {
	.name = "layout", .owner = "model", .type = KNOB_ENUM, .def = "fixed",
	.values = layout_values,
	.help = "field layout of struct mem_cgroup_per_node",
};

static const struct knob_value stats_values[] = {
	{ "v5.10_atomic", "v5.10/v5.11 (T@6168d0da2b47): per-CPU delta folded into atomics of the memcg and every ancestor past stats_batch" },
	{ "rstat_global_noguard", "5b3be698a872 (v5.17): rstat, per-CPU updates + global flush threshold, no guard" },
	{ "rstat_global", "873f64b791a2 (v6.0): global threshold, stop adding once past it" },
	{ "rstat_permemcg", "8d59d2214c23 (v6.8-rc1): per-memcg threshold, parent_mem_cgroup() walk" },
	{ "rstat_permemcg_cached", "9cee7e8ef3e3 (v6.8): cached statc->parent and statc->vmstats" },
	{ NULL, NULL },
};
const struct knob knob_stats = {
	.name = "stats", .owner = "model", .type = KNOB_ENUM,
	.def = "rstat_permemcg_cached", .values = stats_values,
	.help = "memcg stats update/flush path",
};

const struct knob knob_stats_batch = {
	.name = "stats_batch", .owner = "model", .type = KNOB_INT, .def = "32",
	.min = 1, .max = 65536,
	.help = "v5.10_atomic per-CPU stat batch: 32 = MEMCG_CHARGE_BATCH, 512 = Feng Tang's MEMCG_UPDATE_BATCH (RFC 2020-12-29, not merged)",
};

static const struct knob_value charge_batch_values[] = {
	{ "32", "MEMCG_CHARGE_BATCH 32U (v5.x .. v6.0)" },
	{ "64", "MEMCG_CHARGE_BATCH 64U, 1813e51eece0 (v6.1)" },
	{ NULL, NULL },
};
const struct knob knob_charge_batch = {
	.name = "charge_batch", .owner = "model", .type = KNOB_ENUM, .def = "64",
	.values = charge_batch_values,
	.help = "charge stock refill batch; also the rstat per-CPU flush threshold",
};

static const struct knob_value lru_batch_values[] = {
	{ "15", "PAGEVEC_SIZE 15 (up to v6.8)" },
	{ "31", "PAGEVEC_SIZE 31, 9cecde80aae0 (v6.9-rc2)" },
	{ NULL, NULL },
};
const struct knob knob_lru_batch = {
	.name = "lru_batch", .owner = "model", .type = KNOB_ENUM, .def = "31",
	.values = lru_batch_values,
	.help = "per-CPU folio batch size (lru_add, activate, release)",
};

static const struct knob_value lru_lock_values[] = {
	{ "pgdat", "pgdat->lru_lock: one per node shared by all memcgs (before v5.11)" },
	{ "lruvec", "lruvec->lru_lock: one per memcg per node, 6168d0da2b47 (v5.11)" },
	{ NULL, NULL },
};
const struct knob knob_lru_lock = {
	.name = "lru_lock", .owner = "model", .type = KNOB_ENUM, .def = "lruvec",
	.values = lru_lock_values,
	.help = "which lock protects the LRU lists",
};

const struct knob knob_containers = {
	.name = "containers", .owner = "model", .type = KNOB_INT, .def = "1",
	.min = 1, .max = MODEL_MAX_CONTAINERS,
	.help = "leaf memcgs at the bottom level; workers assigned round-robin",
};
const struct knob knob_depth = {
	.name = "depth", .owner = "model", .type = KNOB_INT, .def = "3",
	.min = 0, .max = MODEL_MAX_DEPTH,
	.help = "levels below root (3 = root/A/B/C as in fefc6e6631ff's experiment; 0 = workers in root)",
};
const struct knob knob_nodes = {
	.name = "nodes", .owner = "model", .type = KNOB_INT, .def = "1",
	.min = 1, .max = MODEL_MAX_NODES,
	.help = "modelled NUMA nodes; worker i allocates on node i % nodes",
};
const struct knob knob_flush_ms = {
	.name = "flush_ms", .owner = "model", .type = KNOB_INT, .def = "2000",
	.min = 0, .max = 3600000,
	.help = "periodic stats flush period (kernel FLUSH_TIME = 2 s); 0 = reader-triggered only",
};

static const struct knob_value page_work_values[] = {
	{ "none", "no work on the page itself" },
	{ "touch", "write one cache line of the page (the benchmark's 1-byte write)" },
	{ "copy", "zero (clear_page) or copy (copy_page) the whole 4 KiB page" },
	{ NULL, NULL },
};
const struct knob knob_page_work = {
	.name = "page_work", .owner = "model", .type = KNOB_ENUM, .def = "touch",
	.values = page_work_values,
	.help = "emulated work on the page contents per fault",
};

REGISTER(knob, knob_layout);
REGISTER(knob, knob_stats);
REGISTER(knob, knob_stats_batch);
REGISTER(knob, knob_charge_batch);
REGISTER(knob, knob_lru_batch);
REGISTER(knob, knob_lru_lock);
REGISTER(knob, knob_containers);
REGISTER(knob, knob_depth);
REGISTER(knob, knob_nodes);
REGISTER(knob, knob_flush_ms);
REGISTER(knob, knob_page_work);

void model_params_default(struct model_params *p)
{
	*p = (struct model_params){
		.layout = LAYOUT_FIXED, .stats = STATS_RSTAT_PERMEMCG_CACHED,
		.lru_lock = LRU_LOCK_LRUVEC, .page_work = PAGE_WORK_TOUCH,
		.stats_batch = 32, .charge_batch = 64, .lru_batch = 31,
		.containers = 1, .depth = 3, .nodes = 1, .flush_ms = 2000,
	};
}

int model_params_from_knobs(struct model_params *p, struct knobset *ks)
{
	p->layout = (enum pn_layout_id)knob_enum(ks, &knob_layout);
	p->stats = (enum stats_variant)knob_enum(ks, &knob_stats);
	p->lru_lock = (enum lru_lock_variant)knob_enum(ks, &knob_lru_lock);
	p->page_work = (enum page_work)knob_enum(ks, &knob_page_work);
	/* stats_batch shapes only the v5.10 path: consult it only then, so
	 * result files list exactly the knobs that mattered. */
	p->stats_batch = p->stats == STATS_V510_ATOMIC
		? (unsigned)knob_int(ks, &knob_stats_batch) : 32;
	p->charge_batch = knob_enum(ks, &knob_charge_batch) ? 64 : 32;
	p->lru_batch = knob_enum(ks, &knob_lru_batch) ? 31 : 15;
	p->containers = (unsigned)knob_int(ks, &knob_containers);
	p->depth = (unsigned)knob_int(ks, &knob_depth);
	p->nodes = (unsigned)knob_int(ks, &knob_nodes);
	p->flush_ms = (unsigned)knob_int(ks, &knob_flush_ms);
	if (p->depth == 0 && p->containers > 1) {
		fprintf(stderr, "memscale: bad value '%u' for knob 'containers' "
			"(allowed: 1 when depth=0, the workers then run in root)\n",
			p->containers);
		return EXIT_USAGE;
	}
	return 0;
}
