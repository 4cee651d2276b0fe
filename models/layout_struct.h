/*
 * layout_struct.h - byte layouts of struct mem_cgroup and struct
 * page_counter at the commits of the memcg history whose diffs change
 * them (bd0b230fe145, 4df910620beb, 802f1d522d5f), derived by the
 * compiler from declarations that mirror include/linux/memcontrol.h and
 * include/linux/page_counter.h (models/layout_struct.c): nothing here is a
 * typed offset.
 *
 * A kernel profile (models/kernels/) says which declared version of each
 * struct its kernel had with REGISTER(kernel_structs, ...) in its own
 * file; `memscale layout --struct mem_cgroup|page_counter --kernel NAME`
 * prints it with the 64 B line and 128 B pair of each member.
 *
 * The memcg model does not place its own struct mcg / struct page_counter
 * fields at these offsets (models/memcg.h lays each hot field on a line
 * of its own): the layouts are printed and checked, not yet performed.
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

/* Which declared versions a kernel profile had (NULL: not declared). */
struct kernel_structs {
	const char *name;          /* the profile's name */
	const char *file;          /* __FILE__ of the profile */
	const char *version[KSTRUCT_NR];
};

const struct kstruct_decl *kstruct_decl_find(enum kstruct_kind k, const char *version);
size_t kstruct_decl_all(const struct kstruct_decl ***out);
const struct kstruct_decl *kstruct_decl_by_name(const char *name);
const struct kernel_structs *kernel_structs_find(const char *profile);
size_t kernel_structs_all(const struct kernel_structs ***out);
/* KSTRUCT_NR if the name is no struct we declare. */
enum kstruct_kind kstruct_kind_parse(const char *name);
/* The member called `name`, or NULL. */
const struct kstruct_member *kstruct_member(const struct kstruct_decl *d, const char *name);

#endif
