/*
 * ck_anderson - Concurrency Kit's array-based queue lock,
 * include/spinlock/anderson.h (T. E. Anderson, "The performance of spin
 * lock alternatives for shared-memory multiprocessors", IEEE TPDS 1990).
 * A fetch-and-add on `next` hands each waiter a slot; it spins on that
 * slot's flag, and unlock clears the following slot.  FIFO.
 *
 * The slots array (one per possible worker, from the shared arena) must
 * have at least as many entries as concurrent acquirers, hence sized to
 * max_workers.  CK's slot is 8 bytes (no padding), so eight waiters share
 * a 64-byte line: waiters do not spin on lines of their own, which is why
 * LOCK_F_QUEUE is not set.  The context remembers the slot taken, which
 * unlock needs.  No trylock in CK.
 */
#include <errno.h>

#include "locks/ck_wrap.h"
#include "locks/lock_loop.h"

struct ck_anderson_ctx {
	ck_spinlock_anderson_thread_t *slot;
};

static int ck_anderson_init(void *lock, unsigned max_workers,
			    struct arena *arena)
{
	ck_spinlock_anderson_thread_t *slots;

	if (max_workers == 0)
		return -EINVAL;
	slots = arena_alloc(arena, max_workers * sizeof(*slots), PAD_SIZE);
	ck_spinlock_anderson_init(lock, slots, max_workers);
	return 0;
}

static void ck_anderson_lock(void *lock, void *ctx)
{
	struct ck_anderson_ctx *c = ctx;

	ck_spinlock_anderson_lock(lock, &c->slot);
}

static void ck_anderson_unlock(void *lock, void *ctx)
{
	struct ck_anderson_ctx *c = ctx;

	ck_spinlock_anderson_unlock(lock, c->slot);
}

const struct lock_ops ck_anderson_ops = {
	.name = "ck_anderson",
	.description = "Concurrency Kit Anderson array lock (FIFO, slot per waiter)",
	.size = sizeof(ck_spinlock_anderson_t),
	.ctx_size = sizeof(struct ck_anderson_ctx),
	.flags = LOCK_F_FAIR | LOCK_F_NEEDS_CTX | LOCK_F_SPINS,
	.init = ck_anderson_init,
	.lock = ck_anderson_lock,
	.unlock = ck_anderson_unlock,
};
REGISTER(lock, ck_anderson_ops);
LOCK_BENCH_SPECIALISE(ck_anderson_ops);
