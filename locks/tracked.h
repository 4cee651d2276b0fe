/*
 * tracked.h - lock acquisition through a lock class, with per-worker
 * statistics (the data behind perf-lock / lock_stat style reports).
 *
 * Kernel models never call ops->lock directly: they call tracked_lock()
 * with the class the lock belongs to ("pgdat->lru_lock",
 * "lruvec->lru_lock", ...) and the calling worker's per-class stats
 * (lock_stat_of(w->lock_stats, LC_...)).  Passing st == NULL skips all
 * accounting.
 *
 * Cost model, following /proc/lock_stat (Documentation/locking/lockstat.rst)
 * but cheap enough to leave on:
 *  - uncontended fast path: one trylock (the same atomic the lock's own
 *    fast path would do), one increment, one relaxed load of the
 *    instance's last-owner slot (a store only when the owner changed, when
 *    the lock's own line is moving anyway), and a mask test for hold
 *    sampling.  No clock read, no trace event.
 *  - contended slow path (out of line, tracked.c): clock reads around the
 *    wait, wait histogram, and the per-event trace records
 *    memscale:contention_begin (before the wait) and contention_end /
 *    lock_release, which are written just after the unlock of that hold
 *    (tracked_unlock_slow): a tracer running inside the critical section
 *    would lengthen the serial part, which is the very thing measured.
 *    Their fields carry the durations; their timestamps are release time.
 *  - hold time: every contended acquisition, plus one uncontended
 *    acquisition in `hold_every` (sampled), is timed until its unlock.
 *    Statistics count only the sampled ones so the mean is unbiased.
 *
 * A zero-filled struct lock_stat is valid: it counts acquisitions and
 * waits, with hold timing and handoff counting off.  lock_stats_init()
 * switches those on (the harness does it for w->lock_stats).
 *
 * Nesting two locks of the same class in one worker with one lock_stat
 * works for the counts; the hold time of the outer one is then not taken.
 *
 * The record itself (struct lock_stat, the classes) is defined with the
 * tracepoints in trace/lock_stat.h; the harness (harness/runstat.c) turns
 * it into trace aggregates and result columns.
 */
#ifndef MEMSCALE_TRACKED_H
#define MEMSCALE_TRACKED_H

#include <stdint.h>

#include "core/util.h"
#include "locks/lock.h"
#include "trace/lock_stat.h"

/* Out of line (tracked.c): the contended path, and the unlock of a hold
 * that is timed or has trace records pending. */
void tracked_lock_slow(const struct lock_ops *ops, void *lock, void *ctx,
		       struct lock_stat *st);
void tracked_unlock_slow(const struct lock_ops *ops, void *lock, void *ctx,
			 struct lock_stat *st);

static inline void tracked_note_owner(void *lock, struct lock_stat *st)
{
	struct lock_owner_slot *s;
	uint32_t me = st->worker + 1;

	if (!st->owners)
		return;
	s = &st->owners[((uintptr_t)lock >> 6) % LS_OWNER_SLOTS];
	/* We hold `lock`, so no other holder of it races with us; relaxed
	 * atomics only keep hash collisions between distinct locks defined
	 * (a collision can over-count a handoff, never corrupt state). */
	if (__atomic_load_n(&s->owner, __ATOMIC_RELAXED) != me) {
		__atomic_store_n(&s->owner, me, __ATOMIC_RELAXED);
		ls_add(&st->handoffs, 1);
	}
}

static inline void tracked_lock(const struct lock_ops *ops, void *lock,
				void *ctx, struct lock_stat *st)
{
	if (!st) {
		ops->lock(lock, ctx);
		return;
	}
	ls_add(&st->acquired, 1);
	if (unlikely(!ops->trylock)) {
		ops->lock(lock, ctx);
	} else if (unlikely(!ops->trylock(lock, ctx))) {
		tracked_lock_slow(ops, lock, ctx, st);
		return;
	}
	tracked_note_owner(lock, st);
	if (unlikely(st->hold_on && !(st->acquired & st->hold_mask))) {
		st->hold_sampled = 1;
		st->hold_contended = 0;
		st->t_acquired = now_ns();
	}
}

static inline void tracked_unlock(const struct lock_ops *ops, void *lock,
				  void *ctx, struct lock_stat *st)
{
	if (st && unlikely(st->t_acquired)) {
		tracked_unlock_slow(ops, lock, ctx, st);
		return;
	}
	ops->unlock(lock, ctx);
}

#endif
