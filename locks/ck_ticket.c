/*
 * ck_ticket - Concurrency Kit's ticket spinlock, include/spinlock/ticket.h
 * (on x86-64 one 32-bit word, request and position in 16-bit halves, as in
 * Linux's ticket spinlock of v2.6.25-v4.1 that qspinlock replaced).  FIFO:
 * fetch-and-add a ticket, spin until the position reaches it.  Every
 * release invalidates every waiter's copy: the O(n) hand-off of
 * Boyd-Wickizer et al., "Non-scalable locks are dangerous" (OLS 2012).
 */
#include "locks/ck_wrap.h"
#include "locks/lock_loop.h"

#ifndef CK_F_SPINLOCK_TICKET_TRYLOCK
#error "this CK build has no ticket trylock (need x86-64 / TSO)"
#endif

CK_WRAP_PLAIN(ticket)

const struct lock_ops ck_ticket_ops = {
	.name = "ck_ticket",
	.description = "Concurrency Kit ticket spinlock (FIFO)",
	.size = sizeof(ck_spinlock_ticket_t),
	.flags = LOCK_F_FAIR | LOCK_F_SPINS,
	CK_WRAP_PLAIN_OPS(ticket),
};
REGISTER(lock, ck_ticket_ops);
LOCK_BENCH_SPECIALISE(ck_ticket_ops);
