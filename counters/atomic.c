/*
 * atomic - one shared atomic word: every add() is a locked read-modify-
 * write on the same cache line.  The pre-batching memcg statistics and
 * the page_counter usage word (mm/page_counter.c, atomic_long_add_return)
 * work this way; it is the exact-but-unscalable end of the trade-off
 * (Boyd-Wickizer et al., OLS 2012, on shared-line bouncing).
 *
 * No per-worker state: read() is exact, error bound 0, and every add is a
 * "fold" into the shared word (folds == NULL, see counter_folds()).
 */
#include "counters/counter.h"

struct atomic_counter {
	long v;
};

static int atomic_init(void *c, const struct counter_params *p, struct arena *a)
{
	(void)c;
	(void)p;
	(void)a;
	return 0;
}

static void atomic_add(void *c, void *ctx, long delta)
{
	struct atomic_counter *ac = c;

	(void)ctx;
	/* Relaxed like atomic_long_add(): orders nothing but itself. */
	__atomic_fetch_add(&ac->v, delta, __ATOMIC_RELAXED);
}

static long atomic_read(const void *c)
{
	return __atomic_load_n(&((const struct atomic_counter *)c)->v,
			       __ATOMIC_RELAXED);
}

static long atomic_bound(const void *c)
{
	(void)c;
	return 0;
}

static long atomic_threshold(const void *c)
{
	(void)c;
	return 0;
}

const struct counter_ops atomic_ops = {
	.name = "atomic",
	.description = "one shared atomic word (exact; every add bounces the line)",
	.size = sizeof(struct atomic_counter),
	.ctx_size = 0,
	.flags = COUNTER_F_EXACT_READ_CHEAP,
	.init = atomic_init,
	.add = atomic_add,
	.read = atomic_read,
	.read_exact = atomic_read,
	.error_bound = atomic_bound,
	.threshold = atomic_threshold,
};
REGISTER(counter, atomic_ops);
