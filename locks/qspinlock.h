/*
 * qspinlock.h - a user-space queued spinlock after the Linux kernel's
 * kernel/locking/qspinlock.c (Waiman Long and Peter Zijlstra, v4.2,
 * commit a33fda35e3a7 "locking/qspinlock: Introduce a simple generic
 * 4-byte queued spinlock"), written from the design, not from the code.
 *
 * The whole lock state is one 32-bit word, laid out as in
 * include/asm-generic/qspinlock_types.h for NR_CPUS < 16K:
 *
 *	bits  0- 7  locked byte   (1 while held)
 *	bits  8-15  pending byte  (1 while the first contender waits)
 *	bits 16-31  tail          (worker index + 1 of the last queued node;
 *	                           0 = empty queue)
 *
 * The kernel packs a CPU number and a nesting index (task/softirq/hardirq/
 * NMI) into the tail and uses per-CPU nodes shared by every lock.  Here
 * too the MCS nodes are per worker and shared by every qspinlock of a run
 * (one table in the run's shared arena), so the lock itself is exactly
 * the kernel's 4-byte word and sits in the modelled structures at the
 * kernel's size.  The tail is the worker index + 1 (up to 65535 workers).
 * A worker only ever waits for one lock at a time and its node is free
 * again once the slow path returns (the kernel's node release), so no
 * nesting index is needed: no interrupts here.  All references between
 * nodes are indices, never pointers, so the same word works unchanged
 * between forked processes; the context carries the table's address.
 *
 * State transitions are written (tail, pending, locked) as in the kernel:
 *	(0,0,0) -> (0,0,1)             uncontended: one cmpxchg
 *	(0,0,1) -> (0,1,1) -> (0,0,1)  first contender: pending bit, spins
 *	                               on the locked byte, no queue node
 *	(n,*,*)                        further contenders queue MCS-style,
 *	                               each spinning on its own node; the
 *	                               head spins on the word until locked
 *	                               and pending are both clear.
 *
 * The functions are static inline so bench/bench_locks.c can time the
 * direct calls against the ops-table calls in locks/qspinlock.c.
 */
#ifndef MEMSCALE_QSPINLOCK_H
#define MEMSCALE_QSPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/util.h"

#define QSPIN_LOCKED		1u		/* locked byte value */
#define QSPIN_PENDING		(1u << 8)	/* pending byte value */
#define QSPIN_LOCKED_MASK	0xffu
#define QSPIN_PENDING_MASK	0xff00u
#define QSPIN_LOCKED_PENDING	0xffffu
#define QSPIN_TAIL_SHIFT	16
#define QSPIN_TAIL_MASK		0xffff0000u
#define QSPIN_MAX_WORKERS	0xffffu		/* tail codes 1..65535 */

/*
 * Bounded wait for a pending->locked hand-over in progress before giving
 * up and queueing; x86 uses 1 << 9 (arch/x86/include/asm/qspinlock.h),
 * the generic default is 1.
 */
#define QSPIN_PENDING_LOOPS	512

/* The kernel's per-CPU `struct mcs_spinlock`, one per worker, own lines. */
struct qspin_node {
	uint32_t locked; /* set to 1 by the predecessor: we are the head */
	uint32_t next;   /* tail code (index + 1) of the successor, 0: none */
} cacheline_aligned;

/*
 * The word is addressed as a whole, as locked/pending bytes and as
 * locked_pending/tail halves, exactly like the kernel's union (this
 * layout assumes a little-endian machine).  Every access is atomic, so
 * the mixed-size views never race in the C11 sense.
 */
struct qspinlock {
	union {
		uint32_t val;
		struct {
			uint8_t locked;
			uint8_t pending;
		};
		struct {
			uint16_t locked_pending;
			uint16_t tail;
		};
	};
};
_Static_assert(sizeof(struct qspinlock) == 4, "the kernel's 4-byte spinlock_t");

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "qspinlock byte layout assumes little endian");

/* Per-worker context: the run's node table (shared arena, valid after
 * fork), which node is ours and the tail code naming it. */
struct qspin_ctx {
	struct qspin_node *nodes;
	struct qspin_node *node;
	uint32_t tail; /* (worker + 1) << QSPIN_TAIL_SHIFT */
};

static inline struct qspin_node *qspin_decode_tail(const struct qspin_ctx *ctx,
						   uint32_t tail)
{
	return &ctx->nodes[(tail >> QSPIN_TAIL_SHIFT) - 1];
}

static inline bool qspin_trylock(struct qspinlock *l)
{
	uint32_t v = __atomic_load_n(&l->val, __ATOMIC_RELAXED);

	/* Acquire on success pairs with the release store of the locked
	 * byte in qspin_unlock(): the last holder's critical section
	 * happens before ours. */
	return !v && __atomic_compare_exchange_n(&l->val, &v, QSPIN_LOCKED,
						 false, __ATOMIC_ACQUIRE,
						 __ATOMIC_RELAXED);
}

void qspin_lock_slowpath(struct qspinlock *l, struct qspin_ctx *ctx,
			 uint32_t val);

static inline void qspin_lock(struct qspinlock *l, struct qspin_ctx *ctx)
{
	uint32_t v = 0;

	/* (0,0,0) -> (0,0,1).  Acquire pairs with qspin_unlock()'s release. */
	if (likely(__atomic_compare_exchange_n(&l->val, &v, QSPIN_LOCKED, false,
					       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
		return;
	qspin_lock_slowpath(l, ctx, v);
}

static inline void qspin_unlock(struct qspinlock *l)
{
	/* Release: our critical section happens before whoever next sees
	 * the locked byte clear (fast-path cmpxchg, the pending waiter's
	 * acquire load, or the queue head's acquire load of the word). */
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif
