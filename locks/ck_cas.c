/*
 * ck_cas - Concurrency Kit's compare-and-swap spinlock,
 * include/spinlock/cas.h: lock = cmpxchg(0 -> 1), spinning on plain loads
 * while held.  Same shape as ck_fas but the RMW only writes when it wins
 * (CK's trylock for it is an xchg).  Unfair.
 */
#include "locks/ck_wrap.h"
#include "locks/lock_loop.h"

CK_WRAP_PLAIN(cas)

const struct lock_ops ck_cas_ops = {
	.name = "ck_cas",
	.description = "Concurrency Kit compare-and-swap spinlock",
	.size = sizeof(ck_spinlock_cas_t),
	.flags = LOCK_F_SPINS,
	CK_WRAP_PLAIN_OPS(cas),
};
REGISTER(lock, ck_cas_ops);
LOCK_BENCH_SPECIALISE(ck_cas_ops);
