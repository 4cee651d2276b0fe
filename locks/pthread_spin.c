/*
 * pthread_spin - glibc's pthread spinlock, process-shared so it works
 * between forked workers.  In glibc (nptl/pthread_spin_lock.c) it is an
 * exchange, then, while held, a read-only spin with a pause and a CAS
 * retry: test-and-test-and-set with no backoff.  The POSIX spinlock an
 * application would reach for, next to the CK and kernel-style ones.
 */
#include <pthread.h>

#include "locks/lock.h"
#include "locks/lock_loop.h"

static int pspin_init(void *lock, unsigned max_workers, struct arena *arena)
{
	(void)max_workers;
	(void)arena;
	return -pthread_spin_init(lock, PTHREAD_PROCESS_SHARED);
}

static void pspin_destroy(void *lock) { pthread_spin_destroy(lock); }
static void pspin_lock(void *lock, void *ctx) { (void)ctx; pthread_spin_lock(lock); }
static void pspin_unlock(void *lock, void *ctx) { (void)ctx; pthread_spin_unlock(lock); }
static bool pspin_trylock(void *lock, void *ctx)
{
	(void)ctx;
	return pthread_spin_trylock(lock) == 0;
}

const struct lock_ops pthread_spin_ops = {
	.name = "pthread_spin",
	.description = "glibc pthread spinlock (TTAS, no backoff; process-shared)",
	.size = sizeof(pthread_spinlock_t),
	.flags = LOCK_F_SPINS,
	.init = pspin_init,
	.destroy = pspin_destroy,
	.lock = pspin_lock,
	.unlock = pspin_unlock,
	.trylock = pspin_trylock,
};
REGISTER(lock, pthread_spin_ops);
LOCK_BENCH_SPECIALISE(pthread_spin_ops);
