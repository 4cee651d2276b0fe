/*
 * lock.h - the lock ops table every lock algorithm implements.
 *
 * One algorithm = one file in locks/ defining a `const struct lock_ops`
 * and registering it with REGISTER(lock, <name>_ops).  Callers (the
 * harness, the validator, the kernel models) only ever hold a
 * `const struct lock_ops *`, so every variant runs the same code path.
 *
 * Memory: the lock object (ops->size bytes) and any extra storage it needs
 * come from the run's shared arena, so a lock works unchanged when the
 * workers are processes.  Queue locks need a per-thread context
 * (ops->ctx_size bytes, LOCK_F_NEEDS_CTX); a context belongs to one worker
 * and may be used for one held lock at a time (a worker that nests two
 * locks needs two contexts).
 */
#ifndef MEMSCALE_LOCK_H
#define MEMSCALE_LOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/arena.h"
#include "core/registry.h"

enum lock_flags {
	LOCK_F_FAIR = 1u << 0,      /* FIFO hand-off (ticket, queue locks) */
	LOCK_F_QUEUE = 1u << 1,     /* waiters spin on their own line */
	LOCK_F_NEEDS_CTX = 1u << 2, /* lock/unlock need a per-thread context */
	LOCK_F_SPINS = 1u << 3,     /* waiters busy-wait (oversubscription hurts) */
	LOCK_F_SLEEPS = 1u << 4,    /* waiters may block in the kernel */
	LOCK_F_UNSAFE = 1u << 5,    /* no mutual exclusion: baseline only */
	LOCK_F_BROKEN = 1u << 6,    /* deliberately wrong (tests only) */
};

struct lock_ops {
	const char *name;
	const char *description; /* one line: what it is, where it comes from */
	size_t size;             /* bytes of the lock object */
	size_t ctx_size;         /* bytes of per-thread context (0: none) */
	unsigned flags;

	/* Initialise an object of `size` bytes for up to max_workers users;
	 * extra storage comes from the arena.  Returns 0 or -errno. */
	int (*init)(void *lock, unsigned max_workers, struct arena *arena);
	void (*destroy)(void *lock);                          /* optional */
	/* Prepare a worker's context (optional even with ctx_size > 0). */
	void (*ctx_init)(void *lock, void *ctx, unsigned worker);

	void (*lock)(void *lock, void *ctx);
	void (*unlock)(void *lock, void *ctx);
	bool (*trylock)(void *lock, void *ctx); /* NULL: not supported */
};

REGISTRY_BOUNDS(lock);
/*
 * Deliberately broken locks that prove the validator's power (LOCK_F_BROKEN,
 * registered with REGISTER(lock_control, ...)): a registry of their own, so
 * nothing that enumerates locks (listings, benchmarks, `validate --all`)
 * ever offers one as a real lock.
 */
REGISTRY_BOUNDS(lock_control);

const struct lock_ops *lock_find(const char *name);
/* The controls, sorted by name, and one by name (NULL if unknown). */
size_t lock_control_all(const struct lock_ops ***out);
const struct lock_ops *lock_control_find(const char *name);
/* Sorted by name; returns count.  *out is a static array. */
size_t lock_all(const struct lock_ops ***out);
/* "fair,queue,ctx,spins" style summary of the flags. */
const char *lock_flags_str(unsigned flags, char *buf, size_t len);

/* Allocate and initialise one lock object (padded to its own lines). */
void *lock_new(const struct lock_ops *ops, struct arena *arena,
	       unsigned max_workers);
/* Allocate one worker's context for `lock` (NULL when ctx_size is 0). */
void *lock_ctx_new(const struct lock_ops *ops, struct arena *arena,
		   void *lock, unsigned worker);

#endif
