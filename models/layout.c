/*
 * layout.c - field order of struct mem_cgroup_per_node per kernel version
 * (include/linux/memcontrol.h at each commit named):
 *
 *   v6.9     lruvec first, the ~1 KB struct lruvec_stats EMBEDDED between
 *            lruvec_stats_percpu and lru_zone_size, memcg back-pointer last.
 *   v6.10    70a64b7919cb "memcg: dynamically allocate lruvec_stats": the
 *            same order with lruvec_stats behind a pointer, so the
 *            read-mostly pointers collapse onto the lines of the
 *            often-written lists and lru_zone_size (LKP: page_fault2 -11.9%).
 *   fixed    fefc6e6631ff "memcg: rearrange fields of mem_cgroup_per_node":
 *            read-mostly pointers first, memcg-v1 fields as a buffer, hot
 *            fields last.
 *   fixed_padded  Roman Gushchin's follow-up (lore 20240701185932.704807-2):
 *            with CONFIG_MEMCG_V1=n the v1 fields become
 *            CACHELINE_PADDING(_pad1_), so the hot lruvec starts a new line.
 *
 * Each table lists the fields in order with their size and alignment; the
 * one routine below lays them out like the C compiler does.
 */
#include "models/layout.h"

#include <string.h>

#include "core/util.h"

const struct pn_field_info pn_fields[PN_NR_FIELDS] = {
	[PN_MEMCG] = { "memcg", PN_HOT_READ },
	[PN_STATS_PERCPU] = { "lruvec_stats_percpu", PN_HOT_READ },
	[PN_LRUVEC_STATS] = { "lruvec_stats", PN_COLD },
	[PN_SHRINKER_INFO] = { "shrinker_info", PN_COLD },
	[PN_TREE_NODE] = { "tree_node", PN_COLD },
	[PN_USAGE_IN_EXCESS] = { "usage_in_excess", PN_COLD },
	[PN_ON_TREE] = { "on_tree", PN_COLD },
	[PN_LISTS] = { "lruvec.lists", PN_HOT_WRITE },
	[PN_LRU_LOCK] = { "lruvec.lru_lock", PN_HOT_WRITE },
	[PN_COSTS] = { "lruvec.costs+refaults+flags", PN_COLD },
	[PN_PGDAT] = { "lruvec.pgdat", PN_HOT_READ },
	[PN_ZSWAP] = { "lruvec.zswap_lruvec_state", PN_COLD },
	[PN_LRU_ZONE_SIZE] = { "lru_zone_size", PN_HOT_WRITE },
	[PN_ITER] = { "iter", PN_COLD },
	[PN_PAD] = { "_pad1_", PN_COLD },
};

const char *const pn_layout_names[LAYOUT_NR] = {
	[LAYOUT_V69] = "v6.9",
	[LAYOUT_V610] = "v6.10",
	[LAYOUT_FIXED] = "fixed",
	[LAYOUT_FIXED_PADDED] = "fixed_padded",
};

const char *const pn_layout_notes[LAYOUT_NR] = {
	[LAYOUT_V69] = "v6.9: lruvec_stats (1056 B) embedded between the hot and read-mostly fields",
	[LAYOUT_V610] = "v6.10 70a64b7919cb: lruvec_stats behind a pointer; read-mostly pointers share lines with LRU fields",
	[LAYOUT_FIXED] = "fefc6e6631ff: read-mostly first, memcg-v1 fields as buffer, hot fields last",
	[LAYOUT_FIXED_PADDED] = "fefc6e6631ff + Gushchin's CACHELINE_PADDING instead of v1 fields (CONFIG_MEMCG_V1=n)",
};

struct fdesc {
	enum pn_field f;
	size_t size, align;
};

#define LRUVEC_FIELDS                                                         \
	{ PN_LISTS, 80, 8 }, { PN_LRU_LOCK, 4, 4 }, { PN_COSTS, 48, 8 },       \
	{ PN_PGDAT, 8, 8 }, { PN_ZSWAP, 8, 8 }
#define V1_FIELDS                                                             \
	{ PN_TREE_NODE, 24, 8 }, { PN_USAGE_IN_EXCESS, 8, 8 }, { PN_ON_TREE, 1, 1 }

static const struct fdesc order_v69[] = {
	LRUVEC_FIELDS, { PN_STATS_PERCPU, 8, 8 }, { PN_LRUVEC_STATS, 1056, 8 },
	{ PN_LRU_ZONE_SIZE, 200, 8 }, { PN_ITER, 16, 8 },
	{ PN_SHRINKER_INFO, 8, 8 }, V1_FIELDS, { PN_MEMCG, 8, 8 },
};
static const struct fdesc order_v610[] = {
	LRUVEC_FIELDS, { PN_STATS_PERCPU, 8, 8 }, { PN_LRUVEC_STATS, 8, 8 },
	{ PN_LRU_ZONE_SIZE, 200, 8 }, { PN_ITER, 16, 8 },
	{ PN_SHRINKER_INFO, 8, 8 }, V1_FIELDS, { PN_MEMCG, 8, 8 },
};
static const struct fdesc order_fixed[] = {
	{ PN_MEMCG, 8, 8 }, { PN_STATS_PERCPU, 8, 8 }, { PN_LRUVEC_STATS, 8, 8 },
	{ PN_SHRINKER_INFO, 8, 8 }, V1_FIELDS, LRUVEC_FIELDS,
	{ PN_LRU_ZONE_SIZE, 200, 8 }, { PN_ITER, 16, 8 },
};
static const struct fdesc order_fixed_padded[] = {
	{ PN_MEMCG, 8, 8 }, { PN_STATS_PERCPU, 8, 8 }, { PN_LRUVEC_STATS, 8, 8 },
	{ PN_SHRINKER_INFO, 8, 8 }, { PN_PAD, 0, 64 }, LRUVEC_FIELDS,
	{ PN_LRU_ZONE_SIZE, 200, 8 }, { PN_ITER, 16, 8 },
};

static const struct {
	const struct fdesc *f;
	size_t n;
} orders[LAYOUT_NR] = {
	[LAYOUT_V69] = { order_v69, ARRAY_SIZE(order_v69) },
	[LAYOUT_V610] = { order_v610, ARRAY_SIZE(order_v610) },
	[LAYOUT_FIXED] = { order_fixed, ARRAY_SIZE(order_fixed) },
	[LAYOUT_FIXED_PADDED] = { order_fixed_padded, ARRAY_SIZE(order_fixed_padded) },
};

void pn_layout_resolve(struct pn_layout *l, enum pn_layout_id id,
		       size_t lock_size)
{
	size_t off = 0, maxalign = 1;

	memset(l, 0, sizeof(*l));
	l->id = id;
	l->name = pn_layout_names[id];
	l->lock_size = lock_size < 4 ? 4 : lock_size;
	l->lock_grew = l->lock_size > 4; /* refined below */
	l->stats_embedded = id == LAYOUT_V69;
	for (size_t i = 0; i < orders[id].n; i++) {
		struct fdesc d = orders[id].f[i];

		if (d.f == PN_LRU_LOCK && l->lock_grew) {
			/* A bigger lock object keeps the kernel's offset (it
			 * still follows lists[]) and grows into what follows. */
			d.size = l->lock_size;
			d.align = l->lock_size >= 8 ? 8 : 4;
		}
		off = (off + d.align - 1) & ~(d.align - 1);
		l->off[d.f] = off;
		l->size[d.f] = d.size;
		l->present[d.f] = true;
		off += d.size;
		if (d.align > maxalign)
			maxalign = d.align;
	}
	l->sizeof_pn = (off + maxalign - 1) & ~(maxalign - 1);
	if (l->lock_grew) {
		/* Up to 8 bytes fit the padding before anon_cost: the layout
		 * changes only when a field after the lock moved. */
		struct pn_layout ref;
		pn_layout_resolve(&ref, id, 4);
		l->lock_grew = ref.off[PN_COSTS] != l->off[PN_COSTS];
	}
}
