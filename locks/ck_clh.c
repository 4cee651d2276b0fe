/*
 * ck_clh - Concurrency Kit's CLH queue lock, include/spinlock/clh.h
 * (Craig, TR 93-02-02, U. Washington 1993; Magnusson, Landin & Hagersten,
 * IPPS 1994).  The lock is a tail pointer to the last request node; a
 * waiter swaps in its node and spins on its predecessor's.  On unlock a
 * thread gives up its node (the successor may still read it) and adopts
 * the predecessor's, so nodes migrate between workers.  FIFO, no trylock
 * in CK.
 *
 * Storage: the lock object holds the tail pointer and, on its own lines,
 * the initial "unowned" node; each worker's context holds one node plus
 * the pointer to the node it currently owns.  Everything is in the shared
 * arena, so the migrating pointers stay valid across fork.
 */
#include "locks/ck_wrap.h"
#include "locks/lock_loop.h"

struct ck_clh_lock {
	ck_spinlock_clh_t *tail;
	char pad_[PAD_SIZE - sizeof(void *)];
	ck_spinlock_clh_t unowned cacheline_aligned;
};

struct ck_clh_ctx {
	ck_spinlock_clh_t *mine; /* node used for the next acquisition */
	ck_spinlock_clh_t node;  /* initial node; may migrate to others */
};

static int ck_clh_init(void *lock, unsigned max_workers, struct arena *arena)
{
	struct ck_clh_lock *l = lock;

	(void)max_workers;
	(void)arena;
	ck_spinlock_clh_init(&l->tail, &l->unowned);
	return 0;
}

static void ck_clh_ctx_init(void *lock, void *ctx, unsigned worker)
{
	struct ck_clh_ctx *c = ctx;

	(void)lock;
	(void)worker;
	c->mine = &c->node;
}

static void ck_clh_lock(void *lock, void *ctx)
{
	struct ck_clh_lock *l = lock;
	struct ck_clh_ctx *c = ctx;

	ck_spinlock_clh_lock(&l->tail, c->mine);
}

static void ck_clh_unlock(void *lock, void *ctx)
{
	struct ck_clh_ctx *c = ctx;

	(void)lock;
	/* Swaps c->mine to the predecessor's node. */
	ck_spinlock_clh_unlock(&c->mine);
}

const struct lock_ops ck_clh_ops = {
	.name = "ck_clh",
	.description = "Concurrency Kit CLH queue lock (FIFO, spins on predecessor)",
	.size = sizeof(struct ck_clh_lock),
	.ctx_size = sizeof(struct ck_clh_ctx),
	.flags = LOCK_F_FAIR | LOCK_F_QUEUE | LOCK_F_NEEDS_CTX | LOCK_F_SPINS,
	.init = ck_clh_init,
	.ctx_init = ck_clh_ctx_init,
	.lock = ck_clh_lock,
	.unlock = ck_clh_unlock,
};
REGISTER(lock, ck_clh_ops);
LOCK_BENCH_SPECIALISE(ck_clh_ops);
