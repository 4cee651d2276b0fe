/*
 * ck_wrap.h - glue between Concurrency Kit spinlocks (<ck_spinlock.h>,
 * libck-dev 0.7.1) and struct lock_ops, for the CK locks whose verbs take
 * only the lock: ck_spinlock_<algo>_{init,lock,unlock,trylock}(lock).
 *
 * CK_WRAP_PLAIN(algo) defines static ck_<algo>_{init,lock,unlock,trylock}
 * adaptors; CK_WRAP_PLAIN_OPS(algo) fills the matching ops fields.  Each
 * lock file then states its own name, size, flags and description.
 *
 * CK objects hold no pointers for these locks, so they work unchanged in
 * the shared arena between processes.  CK implements its atomics with
 * inline assembly (ck_pr.h): ThreadSanitizer cannot see them, so these
 * locks are left out of `make check-tsan`.
 */
#ifndef MEMSCALE_CK_WRAP_H
#define MEMSCALE_CK_WRAP_H

#include <ck_spinlock.h>

#include "locks/lock.h"
#include "core/util.h"

#define CK_WRAP_PLAIN(algo)						\
static int ck_##algo##_init(void *lock, unsigned max_workers,		\
			    struct arena *arena)			\
{									\
	(void)max_workers;						\
	(void)arena;							\
	ck_spinlock_##algo##_init(lock);				\
	return 0;							\
}									\
static void ck_##algo##_lock(void *lock, void *ctx)			\
{									\
	(void)ctx;							\
	ck_spinlock_##algo##_lock(lock);				\
}									\
static void ck_##algo##_unlock(void *lock, void *ctx)			\
{									\
	(void)ctx;							\
	ck_spinlock_##algo##_unlock(lock);				\
}									\
static bool ck_##algo##_trylock(void *lock, void *ctx)			\
{									\
	(void)ctx;							\
	return ck_spinlock_##algo##_trylock(lock);			\
}

#define CK_WRAP_PLAIN_OPS(algo)						\
	.init = ck_##algo##_init,					\
	.lock = ck_##algo##_lock,					\
	.unlock = ck_##algo##_unlock,					\
	.trylock = ck_##algo##_trylock

#endif
