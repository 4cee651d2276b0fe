/*
 * pcpu.h - plumbing shared by the counter schemes that keep a shared part
 * plus one slot per worker (private to counters/ and the counter bench).
 *
 * The shared part sits alone on its lines; every slot is a worker's
 * context, allocated padded by counter_ctx_new(), and starts with a
 * struct pcpu_slot so the generic exact read and fold count work for all
 * schemes that store their unfolded part as a long.
 *
 * Slots are written only by their owner, but read_exact() and folds()
 * load them from other threads: the owner uses relaxed atomic stores and
 * the readers relaxed loads, so no access is torn; nothing orders them
 * further (the kernel's this_cpu ops do not either).
 */
#ifndef MEMSCALE_COUNTERS_PCPU_H
#define MEMSCALE_COUNTERS_PCPU_H

#include <stdlib.h>

#include "trace/tp.h"
#include "counters/counter.h"

struct pcpu_slot {
	long delta;     /* this worker's unfolded part */
	uint64_t folds; /* folds this worker did into the shared part */
	unsigned worker; /* owner, for trace records */
};

struct pcpu_base {
	long count; /* the shared part */
	char pad_[PAD_SIZE - sizeof(long)];
	long thr;          /* per-worker threshold (0: none) */
	unsigned nworkers;
	void **slot;       /* nworkers contexts; NULL until bound */
};

/* Allocates the slot table; thr as given. */
int pcpu_base_init(struct pcpu_base *b, unsigned nworkers, long thr,
		   struct arena *a);
/* ctx_init for schemes whose context starts with struct pcpu_slot. */
void pcpu_bind(void *c, void *ctx, unsigned worker, struct arena *a,
	       struct lock_stat *stats);
long pcpu_read(const void *c);
long pcpu_read_exact(const void *c);
uint64_t pcpu_folds(const void *c);
long pcpu_threshold(const void *c);
/* Slots stay within [-thr, thr]: the v5.10 memcg bound thr * nworkers. */
long pcpu_bound_thr_n(const void *c);

static inline void pcpu_slot_set(struct pcpu_slot *s, long x)
{
	__atomic_store_n(&s->delta, x, __ATOMIC_RELAXED);
}

/* Move x into the shared part.  Relaxed like the kernel's atomic_long_add:
 * the fold orders nothing else. */
static inline void pcpu_fold(struct pcpu_base *b, struct pcpu_slot *s, long x)
{
	long total = __atomic_add_fetch(&b->count, x, __ATOMIC_RELAXED);

	__atomic_store_n(&s->folds, s->folds + 1, __ATOMIC_RELAXED);
	/* slow path only; a load and a branch while no session is tracing */
	trace_counter_fold("pcpu", s->worker, x, total);
}

/*
 * The v5.10 __mod_memcg_state() rule: x = slot + delta; fold x when
 * |x| > threshold (strictly greater: with threshold 32 a run of +1s
 * folds every 33rd add).  Inline so the bench can measure the fast path
 * without the indirect call.
 */
static inline void pcpu_batch_add(struct pcpu_base *b, struct pcpu_slot *s,
				  long delta)
{
	long x = s->delta + delta;

	if (unlikely(labs(x) > b->thr)) {
		pcpu_fold(b, s, x);
		x = 0;
	}
	pcpu_slot_set(s, x);
}

#endif
