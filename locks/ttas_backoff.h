/*
 * ttas_backoff.h - test-and-test-and-set spinlock with bounded exponential
 * backoff (Anderson, "The performance of spin lock alternatives for
 * shared-memory multiprocessors", IEEE TPDS 1990; Herlihy & Shavit, "The
 * Art of Multiprocessor Programming", ch. 7 BackoffLock).  Our own code,
 * C11 atomics only, so ThreadSanitizer can check it.
 *
 * Waiters read the word until it looks free (local spinning on a shared
 * cache line, no writes), then try one exchange; a failed exchange means
 * another waiter won the race, so the loser backs off for a delay that
 * doubles on each consecutive failure, between TTAS_BACKOFF_MIN and
 * TTAS_BACKOFF_MAX pause instructions.  Not fair: whoever sees the free
 * word first wins.
 *
 * Inline so bench/bench_locks.c can time direct calls against the ops
 * table in locks/ttas_backoff.c.
 */
#ifndef MEMSCALE_TTAS_BACKOFF_H
#define MEMSCALE_TTAS_BACKOFF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/util.h"

/*
 * Delays in pause instructions.  A pause is ~10 cycles before Skylake and
 * ~140 after, so MIN = 4 is about one cache-line transfer on the older
 * parts (do not wait much longer than the hand-off we lost), and MAX =
 * 1024 caps a backoff at roughly 3-40 us: long enough to thin out the
 * exchange storm of tens of waiters, short enough that a freed lock does
 * not sit idle for a scheduler-tick-sized gap.
 */
#define TTAS_BACKOFF_MIN 4u
#define TTAS_BACKOFF_MAX 1024u

struct ttas_lock {
	uint32_t word; /* 0 free, 1 held */
};

static inline bool ttas_trylock(struct ttas_lock *l)
{
	/* Test before test-and-set: a held lock costs no write.  Acquire on
	 * the exchange pairs with the release store in ttas_unlock(). */
	return !__atomic_load_n(&l->word, __ATOMIC_RELAXED) &&
	       !__atomic_exchange_n(&l->word, 1, __ATOMIC_ACQUIRE);
}

static inline void ttas_lock(struct ttas_lock *l)
{
	uint32_t delay = TTAS_BACKOFF_MIN;

	/* Acquire pairs with the release store in ttas_unlock(). */
	while (__atomic_exchange_n(&l->word, 1, __ATOMIC_ACQUIRE)) {
		for (uint32_t i = 0; i < delay; i++)
			cpu_relax();
		if (delay < TTAS_BACKOFF_MAX)
			delay <<= 1;
		/* Test: wait (reading only) until the word looks free. */
		while (__atomic_load_n(&l->word, __ATOMIC_RELAXED))
			cpu_relax();
	}
}

static inline void ttas_unlock(struct ttas_lock *l)
{
	/* Release: the critical section happens before the next
	 * acquirer's successful (acquire) exchange. */
	__atomic_store_n(&l->word, 0, __ATOMIC_RELEASE);
}

#endif
