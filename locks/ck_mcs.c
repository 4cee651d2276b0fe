/*
 * ck_mcs - Concurrency Kit's MCS queue lock, include/spinlock/mcs.h
 * (Mellor-Crummey & Scott, "Algorithms for scalable synchronization on
 * shared-memory multiprocessors", ACM TOCS 1991).  The lock is a tail
 * pointer; each waiter appends its own node with one xchg and spins on
 * that node's flag, so a hand-off touches one remote line.  FIFO.
 *
 * The per-worker context is the MCS node itself, padded to its own lines
 * by lock_ctx_new().  Nodes and the tail pointer live in the shared arena
 * (same address in every forked worker), so the pointers are valid in
 * process mode.
 */
#include "locks/ck_wrap.h"
#include "locks/lock_loop.h"

static int ck_mcs_init(void *lock, unsigned max_workers, struct arena *arena)
{
	(void)max_workers;
	(void)arena;
	ck_spinlock_mcs_init(lock);
	return 0;
}

static void ck_mcs_lock(void *lock, void *ctx)
{
	ck_spinlock_mcs_lock(lock, ctx);
}

static void ck_mcs_unlock(void *lock, void *ctx)
{
	ck_spinlock_mcs_unlock(lock, ctx);
}

static bool ck_mcs_trylock(void *lock, void *ctx)
{
	return ck_spinlock_mcs_trylock(lock, ctx);
}

const struct lock_ops ck_mcs_ops = {
	.name = "ck_mcs",
	.description = "Concurrency Kit MCS queue lock (FIFO, local spinning)",
	.size = sizeof(ck_spinlock_mcs_t),
	.ctx_size = sizeof(ck_spinlock_mcs_context_t),
	.flags = LOCK_F_FAIR | LOCK_F_QUEUE | LOCK_F_NEEDS_CTX | LOCK_F_SPINS,
	.init = ck_mcs_init,
	.lock = ck_mcs_lock,
	.unlock = ck_mcs_unlock,
	.trylock = ck_mcs_trylock,
};
REGISTER(lock, ck_mcs_ops);
LOCK_BENCH_SPECIALISE(ck_mcs_ops);
