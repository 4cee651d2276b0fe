/*
 * counter.h - the counter ops table every counter scheme implements.
 *
 * Same registry pattern as locks: one scheme = one file in counters/
 * defining a `const struct counter_ops` and REGISTER(counter, <name>_ops).
 * Kernel models and workloads hold a `const struct counter_ops *` and call
 * through it, so every scheme runs the same code path.
 *
 * Memory comes from the run's shared arena (process mode works).  Each
 * worker owns a context of ctx_size bytes (its "per-CPU" slot); add() is
 * called only by the context's owner, the reads by anyone.
 */
#ifndef MEMSCALE_COUNTER_H
#define MEMSCALE_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/knob.h"
#include "../core/registry.h"

struct lock_ops;

enum counter_flags {
	COUNTER_F_EXACT_READ_CHEAP = 1u << 0, /* approximate read is exact */
	COUNTER_F_USES_LOCK = 1u << 1,        /* folds under a registry lock */
	COUNTER_F_THRESHOLD = 1u << 2,        /* honours --set threshold= */
};

/* Parameters a counter is created with. */
struct counter_params {
	unsigned nworkers;
	long threshold;              /* 0: the scheme's default */
	long limit;                  /* optional cap for dynamic schemes, 0: none */
	const struct lock_ops *lock; /* for schemes that fold under a lock */
};

struct counter_ops {
	const char *name;
	const char *description;
	size_t size;     /* bytes of the shared object */
	size_t ctx_size; /* bytes of per-worker context */
	unsigned flags;

	int (*init)(void *c, const struct counter_params *p, struct arena *a);
	/* Bind worker `worker`'s context (may allocate nothing). */
	void (*ctx_init)(void *c, void *ctx, unsigned worker);
	void (*add)(void *c, void *ctx, long delta);
	long (*read)(const void *c);       /* approximate, O(1) */
	long (*read_exact)(const void *c); /* sums every worker's slot */
	uint64_t (*folds)(const void *c);  /* folds into the shared part so far */
	/* Largest |read - true| the scheme allows with these parameters. */
	long (*error_bound)(const void *c);
};

REGISTRY_BOUNDS(counter);

const struct counter_ops *counter_find(const char *name);
size_t counter_all(const struct counter_ops ***out);

#endif
