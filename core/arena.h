/*
 * arena.h - bump allocator over one shared anonymous mapping.
 *
 * All state a run's workers touch (locks, counters, model structures,
 * per-worker slots) is carved from an arena created before the workers
 * start.  The mapping is MAP_SHARED, so in process mode the forked workers
 * see the same memory at the same addresses: pointers stored inside the
 * arena stay valid and the locks are really contended across processes.
 * Allocation is single-threaded (set-up phase only); memory is zeroed.
 */
#ifndef MEMSCALE_ARENA_H
#define MEMSCALE_ARENA_H

#include <stddef.h>

struct arena {
	char *base;
	size_t size;
	size_t used;
	unsigned long id; /* unique per process lifetime (addresses get reused) */
};

/* Reserves `size` bytes of address space (pages are touched lazily). */
struct arena *arena_create(size_t size);
void arena_destroy(struct arena *a);
/* Zeroed, aligned to `align` (a power of two, at least 8).  Dies when full. */
void *arena_alloc(struct arena *a, size_t size, size_t align);
/* Same, aligned and padded to PAD_SIZE so nothing else shares its lines. */
void *arena_alloc_padded(struct arena *a, size_t size);

#endif
