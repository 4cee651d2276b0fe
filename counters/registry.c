/* registry.c - lookup over the counter registry. */
#include "counters/counter.h"
#include "core/util.h"

#include <stdio.h>
#include <string.h>

DEFINE_REGISTRY_LOOKUP(counter, struct counter_ops, counter_all, counter_find)

const char *counter_flags_str(unsigned flags, char *buf, size_t len)
{
	static const struct flag_name names[] = {
		{ COUNTER_F_EXACT_READ_CHEAP, "exact" },
		{ COUNTER_F_USES_LOCK, "lock" },
		{ COUNTER_F_THRESHOLD, "threshold" },
		{ COUNTER_F_DYNAMIC, "dynamic" },
		{ COUNTER_F_UNBOUNDED, "unbounded" },
	};

	return flags_str(flags, names, ARRAY_SIZE(names), buf, len);
}

void counter_params_from_knobs(struct counter_params *p,
			       const struct counter_ops *ops,
			       struct knobset *ks, unsigned nworkers,
			       const struct lock_ops *lock)
{
	memset(p, 0, sizeof(*p));
	p->nworkers = nworkers;
	p->lock = lock;
	if (ops->params && ks)
		ops->params(p, ks);
}

void *counter_new(const struct counter_ops *ops, struct arena *a,
		  const struct counter_params *p)
{
	void *c = arena_alloc_padded(a, ops->size);
	int err = ops->init(c, p, a);

	if (err)
		die(1, "counter %s: init failed (%d)", ops->name, err);
	return c;
}

void *counter_ctx_new_stats(const struct counter_ops *ops, struct arena *a,
			    void *c, unsigned worker, struct lock_stat *stats)
{
	void *ctx = ops->ctx_size ? arena_alloc_padded(a, ops->ctx_size) : NULL;

	if (ops->ctx_init)
		ops->ctx_init(c, ctx, worker, a, stats);
	return ctx;
}

void *counter_ctx_new(const struct counter_ops *ops, struct arena *a,
		      void *c, unsigned worker)
{
	return counter_ctx_new_stats(ops, a, c, worker, NULL);
}

uint64_t counter_folds(const struct counter_ops *ops, const void *c,
		       uint64_t adds)
{
	return ops->folds ? ops->folds(c) : adds;
}
