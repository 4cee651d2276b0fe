/*
 * knobs.c - the run-time variants of the memcg model (`--set KEY=VALUE`),
 * each value naming the kernel version or commit it stands for.  Every
 * knob's default and allowed values are written here and nowhere else:
 * model_params_from_knobs() reads them by value, model_params_default()
 * is an empty knob set read the same way.  `memscale list variants`
 * prints them; `memscale list kernels` prints the kernel profiles
 * (models/kernels/) that set the per-kernel ones together.
 */
#include "models/memcg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/kconfig.h"
#include "models/lru_gen.h"
#include "models/stats/stats.h"

const struct knob knob_kernel = {
	.name = "kernel", .owner = "model", .type = KNOB_PROFILE, .def = "none",
	.help = "kernel profile: presets every per-kernel knob to what that kernel had "
		"(`memscale list kernels`); knobs set with --set win over it",
};

static const struct knob_value layout_values[] = {
	{ "v5.3", "v5.3 include/linux/memcontrol.h: lruvec first, lruvec_stat_local/_cpu pointers, "
		  "lruvec_stat[] atomics embedded, iter[DEF_PRIORITY+1], congested, memcg last" },
	{ "v5.10", "v5.10: as v5.3 with one reclaim iter, no congested; lruvec with anon/file_cost, refaults[2], flags" },
	{ "v5.11", "6168d0da2b47 (v5.11): v5.10 with lruvec->lru_lock after lists[]" },
	{ "v6.9", "v5.15..v6.9: lruvec_stats_percpu pointer, struct lruvec_stats EMBEDDED, memcg last" },
	{ "v6.10", "70a64b7919cb (v6.10-rc1): lruvec_stats behind a pointer, fields collapse (the page_fault2 regression of experiments/layout_false_sharing.ini)" },
	{ "fixed", "fefc6e6631ff: read-mostly first, memcg-v1 fields as buffer, hot fields last" },
	{ "fixed_padded", "v6.11+ (98c9daf5ae6b + Gushchin's paddings): v1 fields under CONFIG_MEMCG_V1, "
			  "else CACHELINE_PADDING(_pad1_); CACHELINE_PADDING(_pad2_) before lru_zone_size" },
	{ "btf", "read member by member from BTF (knob layout_file, default /sys/kernel/btf/vmlinux)" },
	{ "pahole", "read from saved `pahole -C mem_cgroup_per_node -C lruvec` output (knob layout_file)" },
	{ NULL, NULL },
};
const struct knob knob_layout = {
	.name = "layout", .owner = "model", .type = KNOB_ENUM, .def = "fixed",
	.values = layout_values, .per_kernel = true,
	.help = "field layout of struct mem_cgroup_per_node (offsets derived by the compiler under kconfig)",
};

const struct knob knob_kconfig = {
	.name = "kconfig", .owner = "model", .type = KNOB_STR, .def = "rhel-8.3",
	.help = "kernel configuration the layout is compiled under: a bundle ("
		KCONFIG_BUNDLE_NAMES ") and/or options, comma separated "
		"(e.g. rhel-8.3,LRU_GEN=y)",
};

const struct knob knob_layout_file = {
	.name = "layout_file", .owner = "model", .type = KNOB_STR,
	.def = "/sys/kernel/btf/vmlinux",
	.help = "BTF (layout=btf) or saved pahole output (layout=pahole) to read the layout from",
};

/*
 * The `stats` knob's values are the registered stats designs
 * (models/stats/), filled in before main() runs: no list to keep here.
 * Each value's note is "COMMIT: description".
 */
#define STATS_DESIGNS_MAX 32
static struct knob_value stats_values[STATS_DESIGNS_MAX + 1];
static char stats_notes[STATS_DESIGNS_MAX][192];

__attribute__((constructor)) static void stats_values_from_registry(void)
{
	const struct stats_design **d;
	size_t n = stats_design_all(&d);

	if (n > STATS_DESIGNS_MAX) {
		fprintf(stderr, "memscale: internal error: %zu stats designs, room for %d "
			"(models/knobs.c STATS_DESIGNS_MAX)\n", n, STATS_DESIGNS_MAX);
		_exit(1);
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(stats_notes[i], sizeof(stats_notes[i]), "%s: %s", d[i]->commit,
			 d[i]->description);
		stats_values[i] = (struct knob_value){ d[i]->name, stats_notes[i] };
	}
}
const struct knob knob_stats = {
	.name = "stats", .owner = "model", .type = KNOB_ENUM,
	.def = "rstat_permemcg_cached", .values = stats_values, .per_kernel = true,
	.help = "memcg stats design: update path, flush trigger and scope (`memscale list stats`)",
};

const struct knob knob_stats_batch = {
	.name = "stats_batch", .owner = "model", .type = KNOB_INT, .def = "32",
	.min = 1, .max = 65536, .per_kernel = true,
	.help = "v5.10_atomic per-CPU stat batch: 32 = MEMCG_CHARGE_BATCH, 512 = Feng Tang's MEMCG_UPDATE_BATCH (RFC 2020-12-29, not merged)",
};

static const struct knob_value charge_batch_values[] = {
	{ "32", "MEMCG_CHARGE_BATCH 32U (v5.x .. v6.0)" },
	{ "64", "MEMCG_CHARGE_BATCH 64U, 1813e51eece0 (v6.1)" },
	{ NULL, NULL },
};
const struct knob knob_charge_batch = {
	.name = "charge_batch", .owner = "model", .type = KNOB_ENUM, .def = "64",
	.values = charge_batch_values, .per_kernel = true,
	.help = "charge stock refill batch; also the rstat per-CPU flush threshold",
};

static const struct knob_value lru_batch_values[] = {
	{ "15", "PAGEVEC_SIZE 15 (up to v6.8)" },
	{ "31", "PAGEVEC_SIZE 31, 9cecde80aae0 (v6.9-rc2)" },
	{ NULL, NULL },
};
const struct knob knob_lru_batch = {
	.name = "lru_batch", .owner = "model", .type = KNOB_ENUM, .def = "31",
	.values = lru_batch_values, .per_kernel = true,
	.help = "per-CPU folio batch size (lru_add, activate, release)",
};

/*
 * The page allocator's per-CPU lists (mm/page_alloc.c).  zone_batchsize()
 * is min(managed pages / 1024, 1 MiB / PAGE_SIZE) / 4, rounded down to
 * 2^n - 1: 63 for every zone of 1 GiB or more, the same in v5.10, v5.11,
 * v6.7 and v6.9; the knob exists for smaller zones and tests.
 */
const struct knob knob_pcp_batch = {
	.name = "pcp_batch", .owner = "model", .type = KNOB_INT, .def = "63",
	.min = 1, .max = 1024, .per_kernel = true,
	.help = "pcp->batch: pages moved per zone->lock hold (zone_batchsize(): 63 for a zone >= 1 GiB, v5.10 .. v6.9)",
};

static const struct knob_value pcp_high_values[] = {
	{ "6x_batch", "pageset_set_batch() @ v5.10, v5.11 (mm/page_alloc.c): pcp->high = 6 * batch "
		      "(percpu_pagelist_fraction unset), until 74f44822097c (v5.14)" },
	{ "wmark", "zone_highsize() @ v5.14 .. v6.6 (mm/page_alloc.c, 74f44822097c): the zone's low "
		   "watermark over the CPUs local to its node, at least 4 * batch" },
	{ "auto", "v6.7 .. v6.9 (51a755c56dc0; mm/page_alloc.c nr_pcp_alloc, nr_pcp_high): pcp->high "
		  "between high_min (wmark) and high_max (zone_highsize() of managed / 8), raised by a "
		  "refill's batch and to free_count + batch on a drain (ZONE_BELOW_HIGH never set, "
		  "decay_pcp_high not modelled; high_max at most MODEL_PCP_MAX pages)" },
	{ NULL, NULL },
};
const struct knob knob_pcp_high = {
	.name = "pcp_high", .owner = "model", .type = KNOB_ENUM, .def = "auto",
	.values = pcp_high_values, .per_kernel = true,
	.help = "pcp->high: past it a free drains a batch under zone->lock (at a nominal 64 GB node)",
};

static const struct knob_value pcp_scale_values[] = {
	{ "off", "v5.10, v5.11: rmqueue_bulk() and free_pcppages_bulk() move pcp->batch pages" },
	{ "v6.7", "v6.7 .. v6.9 (mm/page_alloc.c nr_pcp_alloc, nr_pcp_free): batch << alloc_factor on "
		  "refill (doubled per refill without a free, CONFIG_PCP_BATCH_SCALE_MAX 5), the "
		  "consecutive frees (free_count) on a drain, both bounded by pcp->high - batch" },
	{ NULL, NULL },
};
const struct knob knob_pcp_scale = {
	.name = "pcp_scale", .owner = "model", .type = KNOB_ENUM, .def = "v6.7",
	.values = pcp_scale_values, .per_kernel = true,
	.help = "how many pages one zone->lock hold moves beyond pcp->batch",
};

/*
 * The entry mitigations (arch/x86/kernel/cpu/bugs.c, arch/x86/mm/pti.c),
 * read in the kernel source; which CPUs they apply to is a fact of the
 * target (predict/targets/: entry_cycles, pti_cycles, ibrs_entry_cycles).
 * Not priced in either era, for want of a sourced cycle count: the
 * MDS/TAA buffer clear (VERW) on every return to user mode (v5.2+ on the
 * CPUs those bugs affect) and v6.9's branch-history clearing loop on
 * system call entry (spectre_bhi=on).
 */
static const struct knob_value mitigations_values[] = {
	{ "v4.15", "v4.15 .. v5.18 defaults: page-table isolation where the CPU has X86_BUG_CPU_MELTDOWN "
		   "(pti=auto, a CR3 switch with PCID on every entry and exit), retpolines for Spectre v2; "
		   "no SPEC_CTRL write on entry" },
	{ "v5.19", "v5.19+ defaults: as v4.15, and spectre_v2_select_mitigation() picks IBRS on kernel entry "
		   "(SPECTRE_V2_IBRS: SPEC_CTRL written on every entry and exit, CONFIG_CPU_IBRS_ENTRY, "
		   "CONFIG_MITIGATION_IBRS_ENTRY from v6.9) on an Intel CPU with X86_BUG_RETBLEED and no "
		   "enhanced IBRS (the retbleed series; eIBRS is checked first)" },
	{ NULL, NULL },
};
const struct knob knob_mitigations = {
	.name = "mitigations", .owner = "model", .type = KNOB_ENUM, .def = "v5.19",
	.values = mitigations_values, .per_kernel = true,
	.help = "the kernel's default x86 entry mitigations: which of the target's entry costs "
		"each system call and page fault pays",
};

/*
 * The kernel whose counted LRU-section instructions (predict/work/
 * kpath.ini) stand for this one's: the counted release nearest in
 * releases.  Counted: Debian's 5.10.223 (pgdat->lru_lock, pages and
 * pagevecs, the v5.10 per-CPU stat batches with their hierarchical
 * atomics) and 6.12.107 (lruvec->lru_lock, folios and folio batches,
 * rstat with the cached ancestor walk).  v5.10-lock_stat is no release:
 * v5.10's counts with what a CONFIG_LOCK_STAT build adds to them (an
 * overlay, kpath.ini `like`), for a published row whose kernel had lock
 * statistics (its build=kpath:v5.10-lock_stat).
 */
static const struct knob_value kpath_values[] = {
	{ "v5.10", "Debian 5.10.223's LRU sections: profiles from v5.3 to v6.0" },
	{ "v6.12", "Debian 6.12.107's LRU sections: profiles from v6.1" },
	{ "v5.10-lock_stat", "v5.10's counts with what CONFIG_LOCK_STAT adds to them (5.10.223 "
			     "built with and without it): a published run whose kernel was built "
			     "with lock statistics" },
	{ NULL, NULL },
};
const struct knob knob_kpath = {
	.name = "kpath", .owner = "model", .type = KNOB_ENUM, .def = "v6.12",
	.values = kpath_values, .per_kernel = true,
	.help = "which counted kernel's instructions inside an LRU section stand for this "
		"kernel's (predict/work/kpath.ini)",
};

static const struct knob_value lru_lock_values[] = {
	{ "pgdat", "pgdat->lru_lock: one per node shared by all memcgs (before v5.11)" },
	{ "lruvec", "lruvec->lru_lock: one per memcg per node, 6168d0da2b47 (v5.11)" },
	{ NULL, NULL },
};
const struct knob knob_lru_lock = {
	.name = "lru_lock", .owner = "model", .type = KNOB_ENUM, .def = "lruvec",
	.values = lru_lock_values, .per_kernel = true,
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
	.min = 0, .max = 3600000, .per_kernel = true,
	.help = "periodic stats flush period (FLUSH_TIME = 2 s since aa48e47e3906, v5.15); 0 = none (before)",
};

static const struct knob_value page_work_values[] = {
	{ "none", "no work on the page itself" },
	{ "touch", "write one cache line of the page (the benchmark's 1-byte write)" },
	{ "copy", "zero (clear_page) or copy (copy_page) the whole 4 KiB page" },
	{ "kernel", "kernel-shaped work: clear/copy into a frame per page, PTEs, and the calibrated rest of the kernel's per-op work (models/kwork.h)" },
	{ NULL, NULL },
};
const struct knob knob_page_work = {
	.name = "page_work", .owner = "model", .type = KNOB_ENUM, .def = "touch",
	.values = page_work_values,
	.help = "emulated work on the page contents per fault",
};

REGISTER(knob, knob_kernel);
REGISTER(knob, knob_layout);
REGISTER(knob, knob_kconfig);
REGISTER(knob, knob_layout_file);
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
REGISTER(knob, knob_pcp_batch);
REGISTER(knob, knob_pcp_high);
REGISTER(knob, knob_pcp_scale);
REGISTER(knob, knob_mitigations);
REGISTER(knob, knob_kpath);

void model_params_default(struct model_params *p)
{
	struct knobset *ks = knobset_new();

	if (model_params_from_knobs(p, ks))
		die(1, "internal error: the model knobs' defaults do not form a model");
	knobset_free(ks);
}

int model_params_from_knobs(struct model_params *p, struct knobset *ks)
{
	char why[256];

	memset(p, 0, sizeof(*p));
	p->layout = (enum pn_layout_id)knob_enum(ks, &knob_layout);
	p->stats = stats_design_find(knob_stats.values[knob_enum(ks, &knob_stats)].value);
	p->lru_lock = (enum lru_lock_variant)knob_enum(ks, &knob_lru_lock);
	p->page_work = (enum page_work)knob_enum(ks, &knob_page_work);
	/* stats_batch shapes only the v5.10 path: consult it only then, so
	 * result files list exactly the knobs that mattered. */
	p->stats_batch = stats_design_reads(p->stats, "stats_batch")
		? (unsigned)knob_uint(ks, &knob_stats_batch) : 32;
	p->charge_batch = (unsigned)knob_uint(ks, &knob_charge_batch);
	p->lru_batch = (unsigned)knob_uint(ks, &knob_lru_batch);
	p->pcp_batch = (unsigned)knob_int(ks, &knob_pcp_batch);
	p->pcp_high = (enum pcp_high_rule)knob_enum(ks, &knob_pcp_high);
	p->pcp_scale = (enum pcp_scale_rule)knob_enum(ks, &knob_pcp_scale);
	p->mitigations = (enum mitigations_era)knob_enum(ks, &knob_mitigations);
	p->kpath = (enum kpath_era)knob_enum(ks, &knob_kpath);
	p->containers = (unsigned)knob_int(ks, &knob_containers);
	p->depth = (unsigned)knob_int(ks, &knob_depth);
	p->nodes = (unsigned)knob_int(ks, &knob_nodes);
	p->flush_ms = (unsigned)knob_int(ks, &knob_flush_ms);
	p->pc_layout = (unsigned)knob_enum(ks, &knob_pc_layout);
	p->mc_layout = (unsigned)knob_enum(ks, &knob_mc_layout);
	p->lru_gen = knob_enum(ks, &knob_lru_gen) == 1;
	if (p->layout == LAYOUT_BTF || p->layout == LAYOUT_PAHOLE) {
		struct pn_layout l;

		snprintf(p->layout_file, sizeof(p->layout_file), "%s",
			 knob_str(ks, &knob_layout_file));
		if (model_resolve_layout(&l, p, 4, why, sizeof(why))) {
			fprintf(stderr, "memscale: layout=%s: %s\n",
				pn_layout_names[p->layout], why);
			return EXIT_USAGE;
		}
		if (p->lru_lock == LRU_LOCK_LRUVEC && !l.present[PN_LRU_LOCK]) {
			fprintf(stderr, "memscale: layout=%s: '%s' has no member "
				"lruvec.lru_lock, which lru_lock=lruvec writes (set "
				"lru_lock=pgdat)\n", pn_layout_names[p->layout],
				p->layout_file);
			return EXIT_USAGE;
		}
	} else if (kconfig_parse(knob_str(ks, &knob_kconfig), &p->kconfig, why,
				 sizeof(why))) {
		fprintf(stderr, "memscale: bad value '%s' for knob 'kconfig' (%s)\n",
			knob_str(ks, &knob_kconfig), why);
		return EXIT_USAGE;
	}
	if (p->lru_lock == LRU_LOCK_LRUVEC &&
	    (p->layout == LAYOUT_V5_3 || p->layout == LAYOUT_V5_10)) {
		fprintf(stderr, "memscale: bad value 'lruvec' for knob 'lru_lock' "
			"(layout %s has no lruvec->lru_lock: it came with 6168d0da2b47, "
			"layout v5.11 and later)\n", pn_layout_names[p->layout]);
		return EXIT_USAGE;
	}
	if (model_lru_gen_check(p, why, sizeof(why))) {
		fprintf(stderr, "memscale: bad value 'on' for knob 'lru_gen' (%s)\n", why);
		return EXIT_USAGE;
	}
	if (p->depth == 0 && p->containers > 1) {
		fprintf(stderr, "memscale: bad value '%u' for knob 'containers' "
			"(allowed: 1 when depth=0, the workers then run in root)\n",
			p->containers);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * Which knobs the selected code path reads.  The stats design declares
 * the knobs its update and flush paths read (its `reads` list: the v5.10
 * fold reads the batch; the rstat designs run the periodic flusher,
 * models/memcg.c model_tick(), and read its period); the layout source
 * reads either the kernel configuration it is compiled under or the file
 * it is read from.  Every other model knob is read on every path.
 */

/* Knobs whose reading depends on the stats design: any design lists it. */
static bool stats_owned(const char *name)
{
	const struct stats_design **d;
	size_t n = stats_design_all(&d);

	for (size_t i = 0; i < n; i++)
		if (stats_design_reads(d[i], name))
			return true;
	return false;
}

bool model_knob_is_read(const struct model_params *p, const char *name,
			char *path, size_t len)
{
	bool from_file = p->layout == LAYOUT_BTF || p->layout == LAYOUT_PAHOLE;

	if (stats_owned(name)) {
		snprintf(path, len, "stats=%s", p->stats->name);
		return stats_design_reads(p->stats, name);
	}
	if (!strcmp(name, "layout_file") || !strcmp(name, "kconfig")) {
		snprintf(path, len, "layout=%s", pn_layout_names[p->layout]);
		return from_file == !strcmp(name, "layout_file");
	}
	snprintf(path, len, "the memcg model");
	return true;
}

int model_knobs_check_read(const struct model_params *p, const struct knobset *ks)
{
	const struct knob **all;
	size_t n = knob_all(&all);
	char path[96];

	for (size_t i = 0; i < n; i++) {
		const struct knob *k = all[i];

		if (!k->owner || strcmp(k->owner, "model") || !knobset_value(ks, k) ||
		    model_knob_is_read(p, k->name, path, sizeof(path)))
			continue;
		fprintf(stderr, "memscale: knob '%s' is set (%s) but the code path %s does "
			"not read it\n", k->name, knobset_value(ks, k), path);
		return EXIT_USAGE;
	}
	return 0;
}
