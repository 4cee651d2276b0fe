/*
 * qspinlock - our own implementation of the Linux kernel's 4-byte queued
 * spinlock (kernel/locking/qspinlock.c, introduced in v4.2 by commit
 * a33fda35e3a7 "locking/qspinlock: Introduce a simple generic 4-byte
 * queued spinlock"; pending-bit and tail layout as in
 * include/asm-generic/qspinlock_types.h), the spinlock_t behind every
 * memcg lock we model (lru_lock, rstat lock, percpu_counter's fbc->lock).
 * Layout and the fast paths are in qspinlock.h; this file has the slow
 * path and the ops glue.  Paravirt hooks are left out.
 *
 * C11 atomics only, so ThreadSanitizer can check it (make check-tsan).
 * Where the kernel relies on smp_wmb() or address dependencies we use the
 * equivalent C11 release/acquire pairs; every one is commented with the
 * access it pairs with.
 */
#include <errno.h>
#include <pthread.h>

#include "locks/lock.h"
#include "locks/qspinlock.h"
#include "locks/lock_loop.h"

static inline uint32_t qspin_load_acquire_until_clear(struct qspinlock *l,
						      uint32_t mask)
{
	uint32_t v;

	while ((v = __atomic_load_n(&l->val, __ATOMIC_ACQUIRE)) & mask)
		cpu_relax();
	return v;
}

/*
 * The queued half of the slow path (the kernel's queue: label in
 * queued_spin_lock_slowpath): MCS-queue on our own node, then, at the
 * head, wait for owner and pending to go and take the lock.
 */
static void qspin_lock_queued(struct qspinlock *l, struct qspin_ctx *ctx)
{
	struct qspin_node *node = ctx->node, *prev, *next = NULL;
	uint32_t old, succ, val;

	__atomic_store_n(&node->locked, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&node->next, 0, __ATOMIC_RELAXED);

	/* The node's line may have been cold: try once more before queueing. */
	if (qspin_trylock(l))
		return;

	/*
	 * p,*,* -> n,*,*: publish ourselves as the tail with a 16-bit xchg
	 * (the kernel's xchg_tail for an 8-bit pending field).
	 *   release: our node's initialisation above is visible to whoever
	 *            reads our tail code (the successor writing node->next,
	 *            the kernel uses smp_wmb() here);
	 *   acquire: pairs with the predecessor's own release xchg, so its
	 *            initialising store of prev->next = 0 is ordered before
	 *            our store to prev->next below and cannot overwrite it.
	 */
	old = (uint32_t)__atomic_exchange_n(&l->tail,
					    (uint16_t)(ctx->tail >> QSPIN_TAIL_SHIFT),
					    __ATOMIC_ACQ_REL) << QSPIN_TAIL_SHIFT;
	if (old) {
		prev = qspin_decode_tail(ctx, old);
		/*
		 * Link in.  Release pairs with the predecessor's acquire load
		 * of its ->next below: our node->locked = 0 is then ordered
		 * before its hand-off store of node->locked = 1.
		 */
		__atomic_store_n(&prev->next, ctx->tail >> QSPIN_TAIL_SHIFT,
				 __ATOMIC_RELEASE);
		/* MCS wait on our own line.  Acquire pairs with the
		 * predecessor's release hand-off store below. */
		while (!__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE))
			cpu_relax();
		/* A successor may already have linked in; pick it up now.
		 * Acquire pairs with its release store to our ->next. */
		succ = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);
		if (succ)
			next = &ctx->nodes[succ - 1];
	}

	/*
	 * We are the queue head: wait for (*,0,0), i.e. for both the owner
	 * and any pending waiter to go.  Acquire pairs with the owner's
	 * release store in qspin_unlock().
	 */
	val = qspin_load_acquire_until_clear(l, QSPIN_LOCKED_PENDING);

	/*
	 * (n,0,0) -> (0,0,1) if we are the last in the queue: cmpxchg the
	 * whole word so a newcomer's concurrent xchg_tail (or pending bit)
	 * makes it fail.  Relaxed: the acquire load above already ordered
	 * us after the previous owner.
	 */
	if ((val & QSPIN_TAIL_MASK) == ctx->tail &&
	    __atomic_compare_exchange_n(&l->val, &val, QSPIN_LOCKED, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;

	/*
	 * (*,*,0) -> (*,*,1): someone queued behind us.  Only the locked
	 * byte changes; a newcomer may set pending meanwhile but then sees
	 * the tail and queues (it undoes nothing it did not set).
	 */
	__atomic_store_n(&l->locked, QSPIN_LOCKED, __ATOMIC_RELAXED);

	/* Wait for the successor to finish linking in (acquire pairs with
	 * its release store to our ->next), then hand over the MCS lock. */
	while (!next) {
		succ = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);
		if (succ)
			next = &ctx->nodes[succ - 1];
		else
			cpu_relax();
	}
	/* Release pairs with the successor's acquire spin on ->locked. */
	__atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
}

void qspin_lock_slowpath(struct qspinlock *l, struct qspin_ctx *ctx,
			 uint32_t val)
{

	/*
	 * (0,1,0) is a pending waiter in the middle of taking over: give it
	 * a bounded number of spins to reach (0,0,1) rather than queueing.
	 */
	if (val == QSPIN_PENDING) {
		for (int n = QSPIN_PENDING_LOOPS; n && val == QSPIN_PENDING; n--) {
			cpu_relax();
			val = __atomic_load_n(&l->val, __ATOMIC_RELAXED);
		}
	}
	/* Anyone pending or queued: go to the back of the queue. */
	if (val & ~QSPIN_LOCKED_MASK) {
		qspin_lock_queued(l, ctx);
		return;
	}

	/*
	 * (0,0,*) -> (0,1,*): become the pending waiter.  Acquire: if the
	 * lock turns out to be free already (val == 0) this RMW is what
	 * orders us after the last holder's release in qspin_unlock().
	 */
	val = __atomic_fetch_or(&l->val, QSPIN_PENDING, __ATOMIC_ACQUIRE);
	if (unlikely(val & ~QSPIN_LOCKED_MASK)) {
		/*
		 * Someone else got pending or queued between our load and the
		 * RMW.  Undo our bit only if we were the one who set it: if a
		 * queue head is waiting for (n,0,0) our bit would hold it up.
		 */
		if (!(val & QSPIN_PENDING_MASK))
			__atomic_store_n(&l->pending, 0, __ATOMIC_RELAXED);
		qspin_lock_queued(l, ctx);
		return;
	}

	/*
	 * (0,1,1) -> (*,1,0): wait for the owner to go.  The acquire load
	 * pairs with the release store of the locked byte in qspin_unlock(),
	 * so the owner's critical section happens before ours.
	 */
	if (val & QSPIN_LOCKED_MASK)
		while (__atomic_load_n(&l->locked, __ATOMIC_ACQUIRE))
			cpu_relax();

	/*
	 * (*,1,0) -> (*,0,1): clear pending and set locked in one 16-bit
	 * store (the kernel's clear_pending_set_locked).  Plain relaxed is
	 * enough: ordering with the previous owner came from the acquire
	 * above, and while pending is set nobody else writes these bytes
	 * (the queue head waits for both to be clear, newcomers queue).
	 */
	__atomic_store_n(&l->locked_pending, QSPIN_LOCKED, __ATOMIC_RELAXED);
	return;
}

/*
 * The node tables (the kernel's per-CPU qnodes), one per run: allocated
 * in the run's arena by the first qspinlock initialised there and shared
 * by all later ones; a worker's context finds its run's table by the
 * lock's address in that arena, the newest table first (an arena's
 * addresses may be an older, unmapped one's).  Set up before the workers
 * start, so forked workers inherit them.  Several runs may set up at
 * once on different threads (the model recorder's): the list is under
 * tables_lock.
 */
#define QSPIN_TABLES 64
static struct qspin_table {
	unsigned long arena_id;  /* 0: free */
	const char *base;        /* the arena's range */
	size_t size;
	unsigned n;
	struct qspin_node *nodes;
} tables[QSPIN_TABLES];
static unsigned tables_next; /* the next slot to (re)use: the oldest */
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

static int qspinlock_init(void *lock, unsigned max_workers, struct arena *arena)
{
	struct qspinlock *l = lock;
	struct qspin_table *t = NULL;
	int rc = 0;

	if (max_workers == 0 || max_workers > QSPIN_MAX_WORKERS)
		return -EINVAL;
	pthread_mutex_lock(&tables_lock);
	for (unsigned i = 0; i < QSPIN_TABLES && !t; i++)
		if (tables[i].arena_id == arena->id)
			t = &tables[i];
	if (!t) {
		t = &tables[tables_next++ % QSPIN_TABLES];
		t->nodes = arena_alloc(arena, max_workers * sizeof(struct qspin_node), PAD_SIZE);
		t->n = max_workers;
		t->base = arena->base;
		t->size = arena->size;
		t->arena_id = arena->id;
	} else if (max_workers > t->n) {
		rc = -ERANGE; /* one run, one worker count */
	}
	pthread_mutex_unlock(&tables_lock);
	if (!rc)
		l->val = 0;
	return rc;
}

static void qspinlock_ctx_init(void *lock, void *ctx, unsigned worker)
{
	struct qspin_ctx *c = ctx;
	const char *p = lock;
	const struct qspin_table *t = NULL;

	pthread_mutex_lock(&tables_lock);
	/* newest first: tables_next - 1 back to tables_next - QSPIN_TABLES */
	for (unsigned k = 1; k <= QSPIN_TABLES && !t; k++) {
		const struct qspin_table *e = &tables[(tables_next - k) % QSPIN_TABLES];

		if (e->arena_id && p >= e->base && p < e->base + e->size)
			t = e;
	}
	if (!t && tables_next) /* a lock outside any arena: the newest run's */
		t = &tables[(tables_next - 1) % QSPIN_TABLES];
	pthread_mutex_unlock(&tables_lock);
	if (!t || !t->nodes || worker >= t->n)
		die(1, "qspinlock: worker %u out of range (node table for %u)",
		    worker, t ? t->n : 0);
	c->nodes = t->nodes;
	c->node = &t->nodes[worker];
	c->tail = (worker + 1) << QSPIN_TAIL_SHIFT;
}

static void qspinlock_lock(void *lock, void *ctx)
{
	qspin_lock(lock, ctx);
}

static void qspinlock_unlock(void *lock, void *ctx)
{
	(void)ctx;
	qspin_unlock(lock);
}

static bool qspinlock_trylock(void *lock, void *ctx)
{
	(void)ctx;
	return qspin_trylock(lock);
}

const struct lock_ops qspinlock_ops = {
	.name = "qspinlock",
	.description = "Linux queued spinlock: 4-byte word, pending bit, MCS tail (own, C11 atomics)",
	.size = sizeof(struct qspinlock),
	.ctx_size = sizeof(struct qspin_ctx),
	.flags = LOCK_F_FAIR | LOCK_F_QUEUE | LOCK_F_NEEDS_CTX | LOCK_F_SPINS,
	.init = qspinlock_init,
	.ctx_init = qspinlock_ctx_init,
	.lock = qspinlock_lock,
	.unlock = qspinlock_unlock,
	.trylock = qspinlock_trylock,
};
REGISTER(lock, qspinlock_ops);
LOCK_BENCH_SPECIALISE(qspinlock_ops);
