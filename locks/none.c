/*
 * none - no mutual exclusion at all.  The harness-overhead baseline (like
 * LiTL's "empty" lock): a run with it measures the loop, the sampling and
 * the critical-section body, nothing else.  Marked unsafe: the validator
 * refuses it and results using it say so.
 */
#include "locks/lock.h"
#include "locks/lock_loop.h"

static int none_init(void *lock, unsigned max_workers, struct arena *arena)
{
	(void)lock;
	(void)max_workers;
	(void)arena;
	return 0;
}
static void none_lock(void *lock, void *ctx) { (void)lock; (void)ctx; }
static void none_unlock(void *lock, void *ctx) { (void)lock; (void)ctx; }
static bool none_trylock(void *lock, void *ctx)
{
	(void)lock;
	(void)ctx;
	return true;
}

const struct lock_ops none_ops = {
	.name = "none",
	.description = "no exclusion: harness-overhead baseline (unsafe)",
	.size = 8,
	.flags = LOCK_F_UNSAFE,
	.init = none_init,
	.lock = none_lock,
	.unlock = none_unlock,
	.trylock = none_trylock,
};
REGISTER(lock, none_ops);
LOCK_BENCH_SPECIALISE(none_ops);
