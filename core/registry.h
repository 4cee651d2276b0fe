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

#endif
