/*
 * percpu_exact - per-worker slots that are never folded: the write side
 * of the v5.13+ rstat scheme (2d146aa3aa84: __mod_memcg_state is a plain
 * __this_cpu_add) without any flush, and McKenney's "statistical counter"
 * (perfbook, count_stat.c).  Adds never leave the worker's own line;
 * read_exact() sums every slot (O(workers)), which is what rstat pays at
 * flush time.  read() returns the shared part, which nothing ever updates:
 * the O(1) read is useless by design and its error unbounded - the far
 * end of the trade-off, for comparison.
 */
#include "counters/pcpu.h"

static int exact_init(void *c, const struct counter_params *p, struct arena *a)
{
	return pcpu_base_init(c, p->nworkers, 0, a);
}

static void exact_add(void *c, void *ctx, long delta)
{
	struct pcpu_slot *s = ctx;

	(void)c;
	pcpu_slot_set(s, s->delta + delta);
}

static long exact_bound(const void *c)
{
	(void)c;
	return COUNTER_NO_BOUND;
}

const struct counter_ops percpu_exact_ops = {
	.name = "percpu_exact",
	.description = "per-worker slots, never folded; exact read sums them "
		       "(rstat write side / perfbook count_stat)",
	.size = sizeof(struct pcpu_base),
	.ctx_size = sizeof(struct pcpu_slot),
	.flags = COUNTER_F_UNBOUNDED,
	.init = exact_init,
	.ctx_init = pcpu_bind,
	.add = exact_add,
	.read = pcpu_read,
	.read_exact = pcpu_read_exact,
	.folds = pcpu_folds,
	.error_bound = exact_bound,
	.threshold = pcpu_threshold,
};
REGISTER(counter, percpu_exact_ops);
