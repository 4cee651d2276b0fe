/*
 * layout.h - byte layouts of struct mem_cgroup_per_node (with the struct
 * lruvec inside it), per kernel version and configuration.
 *
 * No offset is typed in: models/layout_decls.inc holds C declarations
 * that mirror the kernel's (include/linux/memcontrol.h and
 * include/linux/mmzone.h at each commit: field types, array lengths,
 * #ifdef CONFIG_... blocks, CACHELINE_PADDING), and the build compiles it
 * once per combination of the options that move fields
 * (models/kconfig.h), each object registering its offsetof() tables.
 * The layout of the running kernel comes from BTF (libbpf) or from saved
 * `pahole -C` output (models/layout_btf.c).  The model reads and writes
 * the fields of a per-node block through these offsets, so the false
 * sharing of each version is real.
 */
#ifndef MEMSCALE_MODELS_LAYOUT_H
#define MEMSCALE_MODELS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "models/kconfig.h"

enum pn_layout_id {
	LAYOUT_V5_3,
	LAYOUT_V5_10,
	LAYOUT_V5_11,
	LAYOUT_V69,
	LAYOUT_V610,
	LAYOUT_FIXED,
	LAYOUT_FIXED_PADDED,
	LAYOUT_BTF,    /* read from BTF */
	LAYOUT_PAHOLE, /* read from pahole output */
	LAYOUT_NR
};
#define LAYOUT_NR_DECLARED LAYOUT_BTF /* the ones compiled from declarations */

/* Members (or runs of members) of mem_cgroup_per_node the model knows. */
enum pn_field {
	PN_MEMCG,           /* struct mem_cgroup *memcg */
	PN_STATS_PERCPU,    /* lruvec_stats_percpu (v5.x: lruvec_stat_cpu) */
	PN_STATS_LOCAL,     /* v5.x lruvec_stat_local */
	PN_LRUVEC_STATS,    /* lruvec_stats: embedded, pointer; v5.x lruvec_stat[] atomics */
	PN_SHRINKER_INFO,   /* shrinker_info (v5.x shrinker_map) */
	PN_TREE_NODE,       /* rb_node, v1 soft limit */
	PN_USAGE_IN_EXCESS,
	PN_ON_TREE,
	PN_CONGESTED,       /* v5.3 */
	PN_LISTS,           /* lruvec.lists[NR_LRU_LISTS] */
	PN_LRU_LOCK,        /* lruvec.lru_lock (v5.11+) */
	PN_COSTS,           /* lruvec: reclaim_stat/anon_cost .. refaults, flags */
	/* members of lruvec.lrugen the MGLRU add/delete paths touch
	 * (include/linux/mm_inline.h lru_gen_add_folio, lru_gen_update_size),
	 * before PN_LRUGEN so that an access inside them is placed on them */
	PN_LRUGEN_SEQ,      /* lrugen.max_seq, min_seq[ANON_AND_FILE] */
	PN_LRUGEN_FOLIOS,   /* lrugen.folios[MAX_NR_GENS][ANON_AND_FILE][MAX_NR_ZONES] */
	PN_LRUGEN_NR_PAGES, /* lrugen.nr_pages[MAX_NR_GENS][ANON_AND_FILE][MAX_NR_ZONES] */
	PN_LRUGEN_ENABLED,  /* lrugen.enabled */
	PN_LRUGEN,          /* lruvec.lrugen (CONFIG_LRU_GEN), the whole struct */
	PN_MM_STATE,        /* lruvec.mm_state (CONFIG_LRU_GEN_WALKS_MMU) */
	PN_PGDAT,           /* lruvec.pgdat */
	PN_ZSWAP,           /* lruvec.zswap_lruvec_state */
	PN_PAD1,            /* CACHELINE_PADDING(_pad1_) (size 0) */
	PN_PAD2,            /* CACHELINE_PADDING(_pad2_) (size 0) */
	PN_LRU_ZONE_SIZE,   /* lru_zone_size[MAX_NR_ZONES][NR_LRU_LISTS] */
	PN_ITER,            /* mem_cgroup_reclaim_iter (v5.3: [DEF_PRIORITY+1]) */
	PN_NR_FIELDS
};

extern const char *const pn_field_names[PN_NR_FIELDS];
struct pn_layout;
/* The kernel's own name of field f in layout l (v5.x: lruvec_stat_cpu,
 * lruvec_stat, shrinker_map). */
const char *pn_field_name(const struct pn_layout *l, enum pn_field f);

/* One layout, as the compiler (or BTF) laid it out. */
struct pn_decl {
	enum pn_layout_id id;
	size_t off[PN_NR_FIELDS];
	size_t size[PN_NR_FIELDS];
	bool present[PN_NR_FIELDS];
	size_t sizeof_pn;
	unsigned max_nr_zones, zone_normal;
	size_t spinlock_size;   /* the kernel's spinlock_t */
};

/* The tables of one configuration (one object of layout_decls.inc). */
struct pn_decl_set {
	unsigned kconfig_bits;
	const struct pn_decl *decls; /* [LAYOUT_NR_DECLARED] */
};

struct pn_layout {
	enum pn_layout_id id;
	const char *name;
	struct kconfig kconfig;       /* declared layouts */
	char source[160];             /* "declared ... under ..." or the file */
	size_t off[PN_NR_FIELDS];
	size_t size[PN_NR_FIELDS];
	bool present[PN_NR_FIELDS];
	size_t sizeof_pn;
	unsigned max_nr_zones, zone_normal;
	size_t lock_size;     /* bytes reserved for the lock at PN_LRU_LOCK */
	bool lock_grew;       /* the lock moved fields after it */
	bool stats_embedded;  /* lruvec_stats (v6.9) / lruvec_stat[] (v5.x) inside */
};

extern const char *const pn_layout_names[LAYOUT_NR];

/* The declared layout `id` under configuration `kc`, with a lock object
 * of lock_size bytes at lruvec.lru_lock (a bigger object than the
 * kernel's spinlock_t grows into the following bytes and shifts what
 * follows; lock_grew says so). */
void pn_layout_resolve(struct pn_layout *l, enum pn_layout_id id,
		       struct kconfig kc, size_t lock_size);

/* Members of mem_cgroup_per_node and of its lruvec as a file gives them
 * (every member, by its kernel name). */
struct pn_member {
	char name[64];
	size_t off, size;
};
struct pn_raw {
	struct pn_member pn[48], lruvec[48];
	size_t npn, nlruvec;
	size_t sizeof_pn, sizeof_lruvec;
	int zone_normal; /* ZONE_NORMAL from enum zone_type; -1: not given */
};
/* BTF (raw or inside an ELF vmlinux) via libbpf, or `pahole -C
 * mem_cgroup_per_node -C lruvec [-C zone_type]` text: 0, or -1 with a
 * reason in why. */
int pn_raw_from_btf(const char *path, struct pn_raw *r, char *why, size_t len);
int pn_raw_from_pahole(const char *path, struct pn_raw *r, char *why, size_t len);
/* Checks what a reader gave: members inside their struct, unique,
 * aligned; the members the model writes present (both readers call it). */
int pn_raw_check(const struct pn_raw *r, const char *path, char *why, size_t len);
/* LAYOUT_BTF or LAYOUT_PAHOLE from `path`: 0, or -1 with a reason. */
int pn_layout_from_file(struct pn_layout *l, enum pn_layout_id id,
			const char *path, size_t lock_size, char *why, size_t len);
/* For the readers: fill l (offsets set) from a table. */
void pn_layout_from_decl(struct pn_layout *l, const struct pn_decl *d,
			 size_t lock_size);
/* Byte offset of lru_zone_size[zid][lru] and of lruvec.lists[lru]. */
static inline size_t pn_zone_size_off(const struct pn_layout *l, unsigned zid,
				      unsigned lru)
{
	return l->off[PN_LRU_ZONE_SIZE] + (zid * 5 + lru) * sizeof(long);
}
static inline size_t pn_list_off(const struct pn_layout *l, unsigned lru)
{
	return l->off[PN_LISTS] + lru * 2 * sizeof(void *);
}
/* MGLRU (CONFIG_LRU_GEN): MAX_NR_GENS generations of ANON_AND_FILE types
 * per zone; byte offset of lrugen.folios[gen][type][zid] and of
 * lrugen.nr_pages[gen][type][zid]. */
#define PN_MAX_NR_GENS 4
static inline size_t pn_gen_index(const struct pn_layout *l, unsigned gen,
				  unsigned type, unsigned zid)
{
	return (gen * 2 + type) * l->max_nr_zones + zid;
}
static inline size_t pn_gen_list_off(const struct pn_layout *l, unsigned gen,
				     unsigned type, unsigned zid)
{
	return l->off[PN_LRUGEN_FOLIOS] + pn_gen_index(l, gen, type, zid) * 2 * sizeof(void *);
}
static inline size_t pn_gen_size_off(const struct pn_layout *l, unsigned gen,
				     unsigned type, unsigned zid)
{
	return l->off[PN_LRUGEN_NR_PAGES] + pn_gen_index(l, gen, type, zid) * sizeof(long);
}

#endif
