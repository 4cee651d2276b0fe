/*
 * ck_fas - Concurrency Kit's fetch-and-store (test-and-set) spinlock,
 * include/spinlock/fas.h: lock = xchg(1) until it returns 0, spinning on
 * plain loads in between.  CK's default ck_spinlock_t ("lowest latency in
 * fast path testing"); unfair, every waiter hammers one line.
 */
#include "locks/ck_wrap.h"
#include "locks/lock_loop.h"

CK_WRAP_PLAIN(fas)

const struct lock_ops ck_fas_ops = {
	.name = "ck_fas",
	.description = "Concurrency Kit fetch-and-store (TAS) spinlock",
	.size = sizeof(ck_spinlock_fas_t),
	.flags = LOCK_F_SPINS,
	CK_WRAP_PLAIN_OPS(fas),
};
REGISTER(lock, ck_fas_ops);
LOCK_BENCH_SPECIALISE(ck_fas_ops);
