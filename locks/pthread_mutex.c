/*
 * pthread_mutex - glibc's default (non-recursive) mutex, process-shared so
 * it also works between forked workers.  Waiters spin briefly in the
 * futex fast path and then sleep in the kernel: the baseline every
 * spinlock is compared against (as in Concurrency Kit's regressions and
 * LiTL's pthreadinterpose).
 */
#include <pthread.h>

#include "locks/lock.h"
#include "locks/lock_loop.h"

static int mutex_init(void *lock, unsigned max_workers, struct arena *arena)
{
	pthread_mutexattr_t attr;
	int err;

	(void)max_workers;
	(void)arena;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	err = pthread_mutex_init(lock, &attr);
	pthread_mutexattr_destroy(&attr);
	return -err;
}

static void mutex_destroy(void *lock) { pthread_mutex_destroy(lock); }
static void mutex_lock(void *lock, void *ctx) { (void)ctx; pthread_mutex_lock(lock); }
static void mutex_unlock(void *lock, void *ctx) { (void)ctx; pthread_mutex_unlock(lock); }
static bool mutex_trylock(void *lock, void *ctx)
{
	(void)ctx;
	return pthread_mutex_trylock(lock) == 0;
}

const struct lock_ops pthread_mutex_ops = {
	.name = "pthread_mutex",
	.description = "glibc pthread mutex (futex; process-shared)",
	.size = sizeof(pthread_mutex_t),
	.flags = LOCK_F_SLEEPS,
	.init = mutex_init,
	.destroy = mutex_destroy,
	.lock = mutex_lock,
	.unlock = mutex_unlock,
	.trylock = mutex_trylock,
};
REGISTER(lock, pthread_mutex_ops);
LOCK_BENCH_SPECIALISE(pthread_mutex_ops);
