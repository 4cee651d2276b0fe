/*
 * layout_struct.h - byte layouts of struct mem_cgroup and struct
 * page_counter at the commits of the memcg history whose diffs change
 * them (bd0b230fe145, 4df910620beb, 802f1d522d5f), derived by the
 * compiler from declarations that mirror include/linux/memcontrol.h and
 * include/linux/page_counter.h (models/layout_struct.c): nothing here is a
 * typed offset.
 *
 * A kernel profile (models/kernels/NAME.ini) says which declared version
 * of each struct its kernel had with its mc_layout and pc_layout knobs;
 * `memscale layout --struct mem_cgroup|page_counter --kernel NAME`
 * prints it with the 64 B line and 128 B pair of each member.
 *
 * The memcg model places the members of its page_counter at the offsets
 * of the version the knob `pc_layout` names (struct pc_offsets below),
 * and the members of struct mem_cgroup its paths touch (css.parent,
 * memory, swap, vmstats, vmstats_percpu) at the offsets of the version
 * the knob `mc_layout` names (struct mc_offsets); the kernel profiles set
 * both, and `memscale layout --struct` prints the same declarations.
 */
#ifndef MEMSCALE_MODELS_LAYOUT_STRUCT_H
#define MEMSCALE_MODELS_LAYOUT_STRUCT_H

#include <stdbool.h>
#include <stddef.h>

enum kstruct_kind { KSTRUCT_MEM_CGROUP, KSTRUCT_PAGE_COUNTER, KSTRUCT_NR };
extern const char *const kstruct_names[KSTRUCT_NR];

struct kstruct_member {
	const char *name;   /* kernel spelling, "memory.usage" for nested */
	size_t off, size;
};

/* One declared version of one struct. */
struct kstruct_decl {
	const char *name;          /* "page_counter@802f1d522d5f" */
	enum kstruct_kind kind;
	const char *version;       /* "802f1d522d5f" */
	const char *source;        /* what was read, and what is assumed */
	const struct kstruct_member *members;
	size_t nmembers;
	size_t size;               /* sizeof of what is declared */
	bool whole;                /* false: a leading part of the struct only */
};

const struct kstruct_decl *kstruct_decl_find(enum kstruct_kind k, const char *version);
size_t kstruct_decl_all(const struct kstruct_decl ***out);
const struct kstruct_decl *kstruct_decl_by_name(const char *name);
/* The declared version of struct k a kernel profile had: mem_cgroup from
 * its mc_layout preset, page_counter from its pc_layout preset; NULL if
 * it declares none. */
struct knob_profile;
const char *kernel_struct_version(const struct knob_profile *p, enum kstruct_kind k);
/* KSTRUCT_NR if the name is no struct we declare. */
enum kstruct_kind kstruct_kind_parse(const char *name);
/* The member called `name`, or NULL. */
const struct kstruct_member *kstruct_member(const struct kstruct_decl *d, const char *name);


/*
 * The members of struct page_counter the model's charge path touches,
 * at the offsets of one declared version (knob `pc_layout`): the model
 * keeps each memcg's page_counter as PC_MAX_BYTES bytes and reads and
 * writes usage, max, parent, watermark and failcnt at these offsets, so
 * what shares a line with `usage` is what shared it in that kernel.
 */
#define PC_MAX_BYTES 192
struct pc_offsets {
	const char *version;
	size_t usage, max, parent, watermark, failcnt, size;
	/* read by propagate_protected_usage() and the memory.high check */
	size_t min, low, high, min_usage, low_usage;
};
/* The layout `version` names ("v5", "802f1d522d5f", "408587baee39"). */
void pc_offsets_of(struct pc_offsets *o, const char *version);
/* knob pc_layout (owner model): the declared page_counter versions */
struct knob;
extern const struct knob knob_pc_layout;

/*
 * The members of struct mem_cgroup the model's memcgs hold at the
 * offsets of one declared version (knob `mc_layout`): css.parent, the
 * embedded `memory` and `swap` page_counters, the vmstats and
 * vmstats_percpu pointers (models/memcg_types.h struct mcg keeps them in its
 * first MCG_KBYTES bytes).  "isolated" is no kernel's: each of them on a
 * line of its own, the model's layout before the declarations were
 * performed.  parent_via_counter: parent_mem_cgroup() follows
 * memory.parent (v5.x, include/linux/memcontrol.h at v5.10.13) instead of
 * css.parent (v5.17+: the stored v6.2..v6.7 copy).
 */
#define MCG_KBYTES 3072
struct mc_offsets {
	const char *version;
	size_t css_parent, memory, swap, vmstats, vmstats_percpu, size;
	bool parent_via_counter;
	/* v5.x: vmstats[] and vmevents[] are atomic_long_t arrays inside
	 * struct mem_cgroup (vmstats is then the array, not the pointer of
	 * v5.13+), of nr_vmstats and nr_vmevents entries */
	bool stats_inline;
	size_t vmevents, nr_vmstats, nr_vmevents;
};
void mc_offsets_of(struct mc_offsets *o, const char *version);
extern const struct knob knob_mc_layout;

#endif
