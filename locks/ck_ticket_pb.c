/*
 * ck_ticket_pb - Concurrency Kit's ticket spinlock with proportional
 * backoff, ck_spinlock_ticket_lock_pb() in include/spinlock/ticket.h: a
 * waiter d places from the head waits (d << c) empty loop iterations
 * between polls of the word, the idea of Mellor-Crummey & Scott (ACM TOCS
 * 1991, "ticket lock with proportional backoff").  Same word, unlock and
 * trylock as ck_ticket.
 *
 * c = CK_TICKET_PB_SHIFT = 5, i.e. 32 iterations (~32 cycles, plus a pause)
 * per place in the queue.  An in-socket hand-off costs about one
 * cache-line transfer (~100 cycles), so a waiter d places back polls a
 * few times per hand-off it must wait for: polling traffic on the lock
 * line drops roughly d-fold, while the next-in-line (d = 1) is late by at
 * most ~32 cycles, a fraction of a hand-off.  CK's own regression uses
 * c = 0 (no scaling); larger c makes the head of the queue late on fast
 * hand-offs.
 */
#include "locks/ck_wrap.h"
#include "locks/lock_loop.h"

#define CK_TICKET_PB_SHIFT 5

static int ck_ticket_pb_init(void *lock, unsigned max_workers,
			     struct arena *arena)
{
	(void)max_workers;
	(void)arena;
	ck_spinlock_ticket_init(lock);
	return 0;
}

static void ck_ticket_pb_lock(void *lock, void *ctx)
{
	(void)ctx;
	ck_spinlock_ticket_lock_pb(lock, CK_TICKET_PB_SHIFT);
}

static void ck_ticket_pb_unlock(void *lock, void *ctx)
{
	(void)ctx;
	ck_spinlock_ticket_unlock(lock);
}

static bool ck_ticket_pb_trylock(void *lock, void *ctx)
{
	(void)ctx;
	return ck_spinlock_ticket_trylock(lock);
}

const struct lock_ops ck_ticket_pb_ops = {
	.name = "ck_ticket_pb",
	.description = "Concurrency Kit ticket spinlock, proportional backoff (c=5)",
	.size = sizeof(ck_spinlock_ticket_t),
	.flags = LOCK_F_FAIR | LOCK_F_SPINS,
	.init = ck_ticket_pb_init,
	.lock = ck_ticket_pb_lock,
	.unlock = ck_ticket_pb_unlock,
	.trylock = ck_ticket_pb_trylock,
};
REGISTER(lock, ck_ticket_pb_ops);
LOCK_BENCH_SPECIALISE(ck_ticket_pb_ops);
