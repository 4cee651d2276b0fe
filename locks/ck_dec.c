/*
 * ck_dec - Concurrency Kit's decrement spinlock, include/spinlock/dec.h:
 * the word starts at 1 and the `lock; dec` that reaches zero wins, as in
 * the x86 Linux spinlock before ticket locks (up to v2.6.24); losers spin
 * until the word is back to 1.  Unfair.  (CK issue #99 was a bug in the
 * _eb variant, which we do not use.)
 */
#include "locks/ck_wrap.h"
#include "locks/lock_loop.h"

CK_WRAP_PLAIN(dec)

const struct lock_ops ck_dec_ops = {
	.name = "ck_dec",
	.description = "Concurrency Kit decrement spinlock (old x86 Linux style)",
	.size = sizeof(ck_spinlock_dec_t),
	.flags = LOCK_F_SPINS,
	CK_WRAP_PLAIN_OPS(dec),
};
REGISTER(lock, ck_dec_ops);
LOCK_BENCH_SPECIALISE(ck_dec_ops);
