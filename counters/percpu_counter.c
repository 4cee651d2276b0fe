/*
 * percpu_counter - lib/percpu_counter.c semantics (classic form, up to
 * v6.10): per-CPU s32 slots, a shared s64 count, and folds under
 * fbc->lock.  percpu_counter_add_batch():
 *
 *	count = this_cpu(*counters) + amount;
 *	if (count >= batch || count <= -batch) {
 *		raw_spin_lock_irqsave(&fbc->lock);
 *		fbc->count += count;
 *		this_cpu_sub(*counters, count - amount);	(slot becomes 0)
 *		raw_spin_unlock_irqrestore(&fbc->lock);
 *	} else
 *		this_cpu_add(*counters, amount);
 *
 * with batch = percpu_counter_batch = max(32, 2 * num_online_cpus())
 * (compute_batch_value), workers standing in for CPUs.  Note '>=' here
 * versus memcg's '>': slots stay within (-batch, batch), so read() =
 * fbc->count is off by at most (batch - 1) * nworkers.
 *
 * The lock is a registry lock - the run's --lock - taken through
 * tracked_lock() with class LC_COUNTER_FOLD, so fold contention shows in
 * lock statistics and every lock algorithm can be tried in this role.
 * read_exact() sums without the lock (percpu_counter_sum() takes it).
 */
#include "counters/pcpu.h"
#include "locks/tracked.h"

struct pcpu_counter {
	struct pcpu_base b; /* b.thr holds the batch */
	const struct lock_ops *lock_ops;
	void *lock;
};

struct pcpu_counter_slot {
	struct pcpu_slot s; /* first: pcpu_read_exact/pcpu_folds use it */
	void *lock_ctx;
	struct lock_stat *st; /* the worker's LC_COUNTER_FOLD statistics */
	struct lock_stat own; /* used when the worker has none (zeroed is valid) */
};

static int pcc_init(void *c, const struct counter_params *p, struct arena *a)
{
	struct pcpu_counter *pc = c;
	long batch = 2L * (long)p->nworkers;

	if (batch < 32)
		batch = 32;
	pc->lock_ops = p->lock ? p->lock : lock_find("pthread_mutex");
	if (!pc->lock_ops)
		return -22;
	pc->lock = lock_new(pc->lock_ops, a, p->nworkers);
	return pcpu_base_init(&pc->b, p->nworkers, batch, a);
}

static void pcc_destroy(void *c)
{
	struct pcpu_counter *pc = c;

	if (pc->lock_ops->destroy)
		pc->lock_ops->destroy(pc->lock);
}

static void pcc_ctx_init(void *c, void *ctx, unsigned worker, struct arena *a,
			 struct lock_stat *stats)
{
	struct pcpu_counter *pc = c;
	struct pcpu_counter_slot *ps = ctx;

	ps->lock_ctx = lock_ctx_new(pc->lock_ops, a, pc->lock, worker);
	ps->st = stats ? lock_stat_of(stats, LC_COUNTER_FOLD) : &ps->own;
	pcpu_bind(c, ctx, worker, a, stats);
}

static void pcc_add(void *c, void *ctx, long amount)
{
	struct pcpu_counter *pc = c;
	struct pcpu_counter_slot *ps = ctx;
	long count = ps->s.delta + amount;

	if (count >= pc->b.thr || count <= -pc->b.thr) {
		tracked_lock(pc->lock_ops, pc->lock, ps->lock_ctx, ps->st);
		/* The lock serialises writers of the shared count; readers
		 * load it without the lock (percpu_counter_read), hence the
		 * atomic load/store pair rather than a plain +=. */
		__atomic_store_n(&pc->b.count,
				 __atomic_load_n(&pc->b.count, __ATOMIC_RELAXED) + count,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&ps->s.folds, ps->s.folds + 1, __ATOMIC_RELAXED);
		pcpu_slot_set(&ps->s, 0);
		tracked_unlock(pc->lock_ops, pc->lock, ps->lock_ctx, ps->st);
	} else {
		pcpu_slot_set(&ps->s, count);
	}
}

static long pcc_bound(const void *c)
{
	const struct pcpu_base *b = c;

	return (b->thr - 1) * (long)b->nworkers;
}

const struct counter_ops percpu_counter_ops = {
	.name = "percpu_counter",
	.description = "lib/percpu_counter: batch max(32, 2 x workers), folds "
		       "under the run's --lock (class percpu_counter->lock)",
	.size = sizeof(struct pcpu_counter),
	.ctx_size = sizeof(struct pcpu_counter_slot),
	.flags = COUNTER_F_USES_LOCK,
	.init = pcc_init,
	.destroy = pcc_destroy,
	.ctx_init = pcc_ctx_init,
	.add = pcc_add,
	.read = pcpu_read,
	.read_exact = pcpu_read_exact,
	.folds = pcpu_folds,
	.error_bound = pcc_bound,
	.threshold = pcpu_threshold,
};
REGISTER(counter, percpu_counter_ops);
