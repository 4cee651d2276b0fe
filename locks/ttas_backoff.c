/*
 * ttas_backoff - test-and-test-and-set spinlock with bounded exponential
 * backoff, our own C11-atomics implementation (Anderson, IEEE TPDS 1990;
 * Herlihy & Shavit ch. 7).  The unfair, cheap-when-uncontended end of the
 * spectrum that the queue locks are measured against; algorithm and the
 * backoff constants are documented in ttas_backoff.h.
 */
#include "locks/lock.h"
#include "locks/ttas_backoff.h"
#include "locks/lock_loop.h"

static int ttas_backoff_init(void *lock, unsigned max_workers,
			     struct arena *arena)
{
	(void)max_workers;
	(void)arena;
	((struct ttas_lock *)lock)->word = 0;
	return 0;
}

static void ttas_backoff_lock(void *lock, void *ctx)
{
	(void)ctx;
	ttas_lock(lock);
}

static void ttas_backoff_unlock(void *lock, void *ctx)
{
	(void)ctx;
	ttas_unlock(lock);
}

static bool ttas_backoff_trylock(void *lock, void *ctx)
{
	(void)ctx;
	return ttas_trylock(lock);
}

const struct lock_ops ttas_backoff_ops = {
	.name = "ttas_backoff",
	.description = "test-and-test-and-set, bounded exponential backoff (own, C11 atomics)",
	.size = sizeof(struct ttas_lock),
	.flags = LOCK_F_SPINS,
	.init = ttas_backoff_init,
	.lock = ttas_backoff_lock,
	.unlock = ttas_backoff_unlock,
	.trylock = ttas_backoff_trylock,
};
REGISTER(lock, ttas_backoff_ops);
LOCK_BENCH_SPECIALISE(ttas_backoff_ops);
