/*
 * registry.h - link-time registries.
 *
 * Every pluggable thing (lock, counter, workload, knob, subcommand) is a
 * const ops table defined in its own file and registered there with one
 * line, e.g. REGISTER(lock, ck_fas_ops).  The macro drops a pointer to the
 * table into a dedicated ELF section; the linker provides __start_/__stop_
 * symbols for it, so iterating a registry needs no hand-kept list that can
 * drift.  Order in the section is link order; listings sort by name.
 */
#ifndef MEMSCALE_REGISTRY_H
#define MEMSCALE_REGISTRY_H

#include <stddef.h>

#define REGISTER(kind, obj)                                                   \
	static const void *const ms_reg_##kind##_##obj                        \
	    __attribute__((used, section("ms_reg_" #kind),                    \
			   aligned(sizeof(void *)))) = &(obj)

/* Declares the bounds of a registry section; use once per kind. */
#define REGISTRY_BOUNDS(kind)                                                 \
	extern const void *const __start_ms_reg_##kind[]                      \
	    __attribute__((weak));                                            \
	extern const void *const __stop_ms_reg_##kind[] __attribute__((weak))

#define REGISTRY_FOREACH(kind, type, var)                                     \
	for (const void *const *ms_it_##var = __start_ms_reg_##kind;          \
	     ms_it_##var && ms_it_##var < __stop_ms_reg_##kind;               \
	     ms_it_##var++)                                                   \
		for (type var = *ms_it_##var; var; var = NULL)

/*
 * Collect a registry into a name-sorted array (for listings and lookups
 * that must be deterministic).  Returns the count; *out is malloc'd.
 */
size_t registry_sorted(const void *const *start, const void *const *stop,
		       const char *(*name_of)(const void *), const void ***out);
const void *registry_find(const void *const *sorted, size_t n,
			  const char *(*name_of)(const void *), const char *name);

/*
 * Defines the two lookups every registry offers, for a TYPE with a
 * `const char *name` member:
 *   size_t ALL(const TYPE ***out)     every entry, sorted by name (cached)
 *   const TYPE *FIND(const char *)    by exact name, NULL if unknown
 */
#define DEFINE_REGISTRY_LOOKUP(kind, type, all_fn, find_fn)                   \
	static const char *ms_name_of_##kind(const void *p)                   \
	{                                                                     \
		return ((const type *)p)->name;                               \
	}                                                                     \
	size_t all_fn(const type ***out)                                      \
	{                                                                     \
		static const void **cache;                                    \
		static size_t n;                                              \
		if (!cache)                                                   \
			n = registry_sorted(__start_ms_reg_##kind,            \
					    __stop_ms_reg_##kind,             \
					    ms_name_of_##kind, &cache);       \
		*out = (const type **)cache;                                  \
		return n;                                                     \
	}                                                                     \
	const type *find_fn(const char *name)                                 \
	{                                                                     \
		const type **all;                                             \
		size_t n = all_fn(&all);                                      \
		return registry_find((const void *const *)all, n,             \
				     ms_name_of_##kind, name);                \
	}

#endif
