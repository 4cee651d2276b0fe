/*
 * layout.c - resolves a layout of struct mem_cgroup_per_node: the
 * compiler's offsetof() tables of models/layout_decls.inc for a kernel
 * version under a configuration (one table set per configuration, found
 * through the pn_decl_set registry), adjusted for a model lock bigger
 * than the kernel's spinlock_t.
 *
 *   v5.3 .. v5.11  lruvec first, the per-node stat atomics embedded, memcg last
 *   v6.9     the ~1 KB struct lruvec_stats EMBEDDED between
 *            lruvec_stats_percpu and lru_zone_size, memcg back-pointer last
 *   v6.10    70a64b7919cb "memcg: dynamically allocate lruvec_stats": the
 *            same order with lruvec_stats behind a pointer, so the
 *            read-mostly pointers collapse towards the lines of the
 *            often-written lists and lru_zone_size (the LKP page_fault2 regression, experiments/layout_false_sharing.ini)
 *   fixed    fefc6e6631ff "memcg: rearrange fields of mem_cgroup_per_node"
 *   fixed_padded  v6.11+: v1 fields under CONFIG_MEMCG_V1 (98c9daf5ae6b),
 *            CACHELINE_PADDING(_pad1_) without them, _pad2_ before
 *            lru_zone_size
 */
#include "models/layout.h"

#include <stdio.h>
#include <string.h>

#include "core/registry.h"
#include "core/util.h"

REGISTRY_BOUNDS(pn_decl_set);

const char *const pn_field_names[PN_NR_FIELDS] = {
	[PN_MEMCG] = "memcg",
	[PN_STATS_PERCPU] = "lruvec_stats_percpu",
	[PN_STATS_LOCAL] = "lruvec_stat_local",
	[PN_LRUVEC_STATS] = "lruvec_stats",
	[PN_SHRINKER_INFO] = "shrinker_info",
	[PN_TREE_NODE] = "tree_node",
	[PN_USAGE_IN_EXCESS] = "usage_in_excess",
	[PN_ON_TREE] = "on_tree",
	[PN_CONGESTED] = "congested",
	[PN_LISTS] = "lruvec.lists",
	[PN_LRU_LOCK] = "lruvec.lru_lock",
	[PN_COSTS] = "lruvec.costs+refaults+flags",
	[PN_LRUGEN_SEQ] = "lruvec.lrugen.max_seq+min_seq",
	[PN_LRUGEN_FOLIOS] = "lruvec.lrugen.folios",
	[PN_LRUGEN_NR_PAGES] = "lruvec.lrugen.nr_pages",
	[PN_LRUGEN_ENABLED] = "lruvec.lrugen.enabled",
	[PN_LRUGEN] = "lruvec.lrugen",
	[PN_MM_STATE] = "lruvec.mm_state",
	[PN_PGDAT] = "lruvec.pgdat",
	[PN_ZSWAP] = "lruvec.zswap_lruvec_state",
	[PN_PAD1] = "_pad1_",
	[PN_PAD2] = "_pad2_",
	[PN_LRU_ZONE_SIZE] = "lru_zone_size",
	[PN_ITER] = "iter",
};

const char *const pn_layout_names[LAYOUT_NR] = {
	[LAYOUT_V5_3] = "v5.3",
	[LAYOUT_V5_10] = "v5.10",
	[LAYOUT_V5_11] = "v5.11",
	[LAYOUT_V69] = "v6.9",
	[LAYOUT_V610] = "v6.10",
	[LAYOUT_FIXED] = "fixed",
	[LAYOUT_FIXED_PADDED] = "fixed_padded",
	[LAYOUT_BTF] = "btf",
	[LAYOUT_PAHOLE] = "pahole",
};

const char *pn_field_name(const struct pn_layout *l, enum pn_field f)
{
	if (l->id <= LAYOUT_V5_11) {
		if (f == PN_STATS_PERCPU)
			return "lruvec_stat_cpu";
		if (f == PN_LRUVEC_STATS)
			return "lruvec_stat";
		if (f == PN_SHRINKER_INFO)
			return "shrinker_map";
	}
	return pn_field_names[f];
}

static const struct pn_decl *find_decl(enum pn_layout_id id, struct kconfig kc)
{
	REGISTRY_FOREACH(pn_decl_set, const struct pn_decl_set *, s)
		if (s->kconfig_bits == kc.bits)
			return &s->decls[id];
	return NULL;
}

/* A lock object bigger than the room the kernel's spinlock_t has (up to
 * the next field) pushes every later byte down by the excess, rounded to
 * the alignment of what follows (8). */
static void grow_lock(struct pn_layout *l, size_t spinlock_size)
{
	size_t lock_off = l->off[PN_LRU_LOCK], room = SIZE_MAX, shift;

	l->lock_size = l->lock_size < spinlock_size ? spinlock_size : l->lock_size;
	for (int f = 0; f < PN_NR_FIELDS; f++)
		if (l->present[f] && l->off[f] > lock_off && l->off[f] - lock_off < room)
			room = l->off[f] - lock_off;
	if (room == SIZE_MAX || l->lock_size <= room) {
		l->lock_grew = false;
		return;
	}
	shift = (l->lock_size - room + 7) & ~(size_t)7;
	for (int f = 0; f < PN_NR_FIELDS; f++)
		if (l->present[f] && l->off[f] > lock_off)
			l->off[f] += shift;
	l->sizeof_pn = (l->sizeof_pn + shift + 63) & ~(size_t)63;
	l->lock_grew = true;
}

static void from_decl(struct pn_layout *l, const struct pn_decl *d, size_t lock_size)
{
	memcpy(l->off, d->off, sizeof(l->off));
	memcpy(l->size, d->size, sizeof(l->size));
	memcpy(l->present, d->present, sizeof(l->present));
	l->sizeof_pn = d->sizeof_pn;
	l->max_nr_zones = d->max_nr_zones;
	l->zone_normal = d->zone_normal;
	l->lock_size = lock_size;
	/* v5.x lruvec_stat[] and v6.9 lruvec_stats are arrays inside the
	 * block; later layouts hold a pointer. */
	l->stats_embedded = l->present[PN_LRUVEC_STATS] && l->size[PN_LRUVEC_STATS] > sizeof(void *);
	if (l->present[PN_LRU_LOCK])
		grow_lock(l, d->spinlock_size);
}

void pn_layout_resolve(struct pn_layout *l, enum pn_layout_id id,
		       struct kconfig kc, size_t lock_size)
{
	const struct pn_decl *d;
	char buf[160];

	if (id >= LAYOUT_NR_DECLARED)
		die(1, "internal error: layout '%s' is read from a file, not declared",
		    pn_layout_names[id]);
	d = find_decl(id, kc);
	if (!d)
		die(1, "internal error: no compiled layout tables for kconfig %s",
		    kconfig_str(kc, buf, sizeof(buf)));
	memset(l, 0, sizeof(*l));
	l->id = id;
	l->name = pn_layout_names[id];
	l->kconfig = kc;
	snprintf(l->source, sizeof(l->source), "declared %s under %s",
		 pn_layout_names[id], kconfig_str(kc, buf, sizeof(buf)));
	from_decl(l, d, lock_size);
}

void pn_layout_from_decl(struct pn_layout *l, const struct pn_decl *d,
			 size_t lock_size)
{
	from_decl(l, d, lock_size);
}
