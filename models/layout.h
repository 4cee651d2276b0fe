/*
 * layout.h - byte layouts of struct mem_cgroup_per_node, one table per
 * kernel version, resolved into offsets by one routine (C's own struct
 * layout rules: natural alignment, padding, size rounded to the largest
 * alignment).  The model reads and writes the fields of a per-node block
 * through these offsets, so the false sharing of each version is real.
 *
 * Field sizes are the kernel's on x86_64 with CONFIG_LRU_GEN=n,
 * CONFIG_ZSWAP=y, MAX_NR_ZONES=5, NR_VM_NODE_STAT_ITEMS=44, no lockdep
 * (include/linux/mmzone.h and include/linux/memcontrol.h at 70a64b7919cb
 * and fefc6e6631ff): struct lruvec is 152 B (lists 0-79, lru_lock 80,
 * flags 128, pgdat 136), lru_zone_size[5][5] is 200 B, the embedded
 * struct lruvec_stats of v6.9 is 1056 B.
 */
#ifndef MEMSCALE_MODELS_LAYOUT_H
#define MEMSCALE_MODELS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

enum pn_layout_id { LAYOUT_V69, LAYOUT_V610, LAYOUT_FIXED, LAYOUT_FIXED_PADDED, LAYOUT_NR };

enum pn_field {
	PN_MEMCG,           /* struct mem_cgroup *memcg          read (hot) */
	PN_STATS_PERCPU,    /* lruvec_stats_percpu __percpu *    read (hot) */
	PN_LRUVEC_STATS,    /* lruvec_stats: embedded or pointer  flush only */
	PN_SHRINKER_INFO,
	PN_TREE_NODE,       /* rb_node, v1 soft limit */
	PN_USAGE_IN_EXCESS,
	PN_ON_TREE,
	PN_LISTS,           /* lruvec.lists[NR_LRU]                write (hot) */
	PN_LRU_LOCK,        /* lruvec.lru_lock                     write (hot) */
	PN_COSTS,           /* anon_cost .. refaults[], flags      reclaim */
	PN_PGDAT,           /* lruvec.pgdat                        read (hot) */
	PN_ZSWAP,           /* lruvec.zswap_lruvec_state */
	PN_LRU_ZONE_SIZE,   /* lru_zone_size[5][5]                 write (hot) */
	PN_ITER,            /* mem_cgroup_reclaim_iter             reclaim */
	PN_PAD,             /* CACHELINE_PADDING(_pad1_) (size 0) */
	PN_NR_FIELDS
};

enum pn_access { PN_COLD, PN_HOT_READ, PN_HOT_WRITE };

struct pn_field_info {
	const char *name;
	enum pn_access access;
};
extern const struct pn_field_info pn_fields[PN_NR_FIELDS];

struct pn_layout {
	enum pn_layout_id id;
	const char *name;
	size_t off[PN_NR_FIELDS];
	size_t size[PN_NR_FIELDS];
	bool present[PN_NR_FIELDS];
	size_t sizeof_pn;
	size_t lock_size;     /* bytes reserved for the lock at PN_LRU_LOCK */
	bool lock_grew;       /* the lock moved fields after it (> 8 B) */
	bool stats_embedded;  /* v6.9: lruvec_stats inside the block */
};

extern const char *const pn_layout_names[LAYOUT_NR];
extern const char *const pn_layout_notes[LAYOUT_NR];

/* Resolve the field offsets of `id` with a lock object of lock_size bytes
 * at lruvec.lru_lock (the kernel's spinlock_t is 4 B; a larger object
 * grows into the following bytes and shifts what follows). */
void pn_layout_resolve(struct pn_layout *l, enum pn_layout_id id,
		       size_t lock_size);

#endif
