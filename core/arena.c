/* arena.c - the bump allocator over one shared anonymous mapping (core/arena.h). */
#include "core/arena.h"
#include "core/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

static unsigned long next_id; /* atomic: arenas are made on several threads */

struct arena *arena_create(size_t size)
{
	struct arena *a = xcalloc(1, sizeof(*a));

	a->base = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (a->base == MAP_FAILED)
		die_errno(1, "cannot map a %zu-byte shared arena", size);
	a->size = size;
	a->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
	return a;
}

void arena_destroy(struct arena *a)
{
	if (!a)
		return;
	munmap(a->base, a->size);
	free(a);
}

void *arena_alloc(struct arena *a, size_t size, size_t align)
{
	size_t off;

	if (align < 8)
		align = 8;
	off = (a->used + align - 1) & ~(align - 1);
	if (off + size > a->size || off + size < off)
		die(1, "shared arena exhausted (%zu of %zu bytes used, %zu more wanted)",
		    a->used, a->size, size);
	a->used = off + size;
	/* MAP_ANONYMOUS memory is zero and never reused, so no memset. */
	return a->base + off;
}

void *arena_alloc_padded(struct arena *a, size_t size)
{
	size = (size + PAD_SIZE - 1) & ~(size_t)(PAD_SIZE - 1);
	return arena_alloc(a, size ? size : PAD_SIZE, PAD_SIZE);
}
