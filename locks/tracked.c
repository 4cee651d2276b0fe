/*
 * tracked.c - the out-of-line parts of tracked locking (see tracked.h):
 * the contended path with its trace records and timed releases.
 */
#include "locks/tracked.h"
#include "trace/tp.h"

#include <string.h>

/* Class and worker for trace records: a zero-filled stat that never went
 * through lock_stats_init() is labelled "unclassified", not class 0. */
static inline int class_of(const struct lock_stat *st)
{
	return st->inited && st->cls < LC_NR ? st->cls : LC_UNCLASSIFIED;
}

static inline uint32_t worker_of(const struct lock_stat *st)
{
	return st->inited ? st->worker : LS_WORKER_UNKNOWN;
}

/* The contention_end record of an outer hold of the same class still
 * pending when an inner contended acquisition needs the scratch fields: it
 * is written now (inside the outer critical section, the rare nested
 * case), so the trace keeps one record per contended acquisition. */
static void flush_pending_end(void *lock, struct lock_stat *st)
{
	if (st->pend_end) {
		st->pend_end = 0;
		MS_TP(contention_end, class_of(st), lock, worker_of(st),
		      st->pend_wait_ns);
	}
}

void tracked_lock_slow(const struct lock_ops *ops, void *lock, void *ctx,
		       struct lock_stat *st)
{
	int c = class_of(st);
	uint32_t me = worker_of(st);
	uint64_t t0, t1, w;

	flush_pending_end(lock, st);
	MS_TP(contention_begin, c, lock, me);
	t0 = now_ns();
	ops->lock(lock, ctx);
	t1 = now_ns();
	w = t1 - t0;
	ls_add(&st->contended, 1);
	ls_add(&st->wait_ns, w);
	if (w > st->wait_max_ns)
		ls_set(&st->wait_max_ns, w);
	if (!st->wait_min_ns || w < st->wait_min_ns)
		ls_set(&st->wait_min_ns, w ? w : 1);
	ls_add(&st->wait_hist[lock_hist_bucket(w)], 1);
	tracked_note_owner(lock, st);
	/* contention_end (and lock_release) are written by the unlock:
	 * tracked_unlock() takes the slow path while t_acquired != 0. */
	st->pend_wait_ns = w;
	st->pend_end = 1;
	/* The clock was just read: time every contended hold for the
	 * per-event record, but count it in the statistics only when the
	 * sampler would have picked it (unbiased mean). */
	st->hold_sampled = st->hold_on && !(st->acquired & st->hold_mask);
	st->hold_contended = st->hold_on;
	st->t_acquired = t1 ? t1 : 1;
}

void tracked_unlock_slow(const struct lock_ops *ops, void *lock, void *ctx,
			 struct lock_stat *st)
{
	bool timed = st->hold_sampled || st->hold_contended;
	uint64_t h = timed ? now_ns() - st->t_acquired : 0;

	st->t_acquired = 0;
	ops->unlock(lock, ctx);
	/* Everything below runs outside the critical section. */
	if (st->hold_sampled) {
		st->hold_sampled = 0;
		ls_add(&st->hold_n, 1);
		ls_add(&st->hold_ns, h);
		if (h > st->hold_max_ns)
			ls_set(&st->hold_max_ns, h);
		ls_add(&st->hold_hist[lock_hist_bucket(h)], 1);
	}
	flush_pending_end(lock, st);
	if (st->hold_contended) {
		st->hold_contended = 0;
		MS_TP(lock_release, class_of(st), lock, worker_of(st), h);
	}
}
