/* pcpu.c - generic parts of the per-worker-slot counter schemes (pcpu.h). */
#include "counters/pcpu.h"

int pcpu_base_init(struct pcpu_base *b, unsigned nworkers, long thr,
		   struct arena *a)
{
	if (!nworkers)
		return -22; /* -EINVAL */
	b->nworkers = nworkers;
	b->thr = thr;
	b->slot = arena_alloc(a, nworkers * sizeof(void *), 8);
	return 0;
}

void pcpu_bind(void *c, void *ctx, unsigned worker, struct arena *a,
	       struct lock_stat *stats)
{
	struct pcpu_base *b = c;

	(void)a;
	(void)stats;
	if (worker >= b->nworkers)
		die(1, "internal error: counter slot %u of %u", worker, b->nworkers);
	b->slot[worker] = ctx;
	((struct pcpu_slot *)ctx)->worker = worker;
}

long pcpu_read(const void *c)
{
	const struct pcpu_base *b = c;

	return __atomic_load_n(&b->count, __ATOMIC_RELAXED);
}

long pcpu_read_exact(const void *c)
{
	const struct pcpu_base *b = c;
	long sum = __atomic_load_n(&b->count, __ATOMIC_RELAXED);

	for (unsigned i = 0; i < b->nworkers; i++) {
		const struct pcpu_slot *s = b->slot[i];
		if (s)
			sum += __atomic_load_n(&s->delta, __ATOMIC_RELAXED);
	}
	return sum;
}

uint64_t pcpu_folds(const void *c)
{
	const struct pcpu_base *b = c;
	uint64_t n = 0;

	for (unsigned i = 0; i < b->nworkers; i++) {
		const struct pcpu_slot *s = b->slot[i];
		if (s)
			n += __atomic_load_n(&s->folds, __ATOMIC_RELAXED);
	}
	return n;
}

long pcpu_threshold(const void *c)
{
	return ((const struct pcpu_base *)c)->thr;
}

long pcpu_bound_thr_n(const void *c)
{
	const struct pcpu_base *b = c;

	return b->thr * (long)b->nworkers;
}
