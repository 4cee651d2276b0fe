/* registry.c - lookup and allocation helpers over the lock registry. */
#include "locks/lock.h"
#include "core/util.h"

#include <stdio.h>
#include <string.h>

DEFINE_REGISTRY_LOOKUP(lock, struct lock_ops, lock_all, lock_find)
DEFINE_REGISTRY_LOOKUP(lock_control, struct lock_ops, lock_control_all,
		       lock_control_find)

const char *lock_flags_str(unsigned flags, char *buf, size_t len)
{
	static const struct flag_name names[] = {
		{ LOCK_F_FAIR, "fair" },     { LOCK_F_QUEUE, "queue" },
		{ LOCK_F_NEEDS_CTX, "ctx" }, { LOCK_F_SPINS, "spins" },
		{ LOCK_F_SLEEPS, "sleeps" }, { LOCK_F_UNSAFE, "unsafe" },
		{ LOCK_F_BROKEN, "broken" },
	};

	return flags_str(flags, names, ARRAY_SIZE(names), buf, len);
}

void *lock_new(const struct lock_ops *ops, struct arena *arena,
	       unsigned max_workers)
{
	void *l = arena_alloc_padded(arena, ops->size);
	int err = ops->init(l, max_workers, arena);

	if (err)
		die(1, "lock %s: init failed (%d)", ops->name, err);
	return l;
}

void *lock_ctx_new(const struct lock_ops *ops, struct arena *arena,
		   void *lock, unsigned worker)
{
	void *ctx;

	if (!ops->ctx_size)
		return NULL;
	ctx = arena_alloc_padded(arena, ops->ctx_size);
	if (ops->ctx_init)
		ops->ctx_init(lock, ctx, worker);
	return ctx;
}
