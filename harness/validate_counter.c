/*
 * validate_counter.c - counter accuracy validator (`memscale validate
 * --counter NAME`), the counters' counterpart of the lock validator in
 * validate.c and of Concurrency Kit's regressions.
 *
 * Threads start together behind a barrier and each add a known sequence:
 * every fourth delta is a unit (+1/-1, the vmstat inc/dec paths), the
 * others a size 2..VALIDATE_DMAX, signs at random, so folds happen in
 * both directions.  A reader thread (counter_reader) samples read()
 * against the published true sums while they run.  Failure, by return
 * value: exact read after the join differs from the sum of the deltas,
 * or a final or observed read() error exceeds error_bound().
 */
#include "harness/validate.h"
#include "counters/counter.h"
#include "core/util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define VALIDATE_DMAX 7
#define VALIDATE_READER_US 20

/* ---- the broken control: a shared word updated without an atomic ---- */

/* Its races are the point: not instrumented by ThreadSanitizer. */
#if defined(__SANITIZE_THREAD__)
#define NO_TSAN __attribute__((no_sanitize("thread")))
#else
#define NO_TSAN
#endif

struct racy_counter {
	volatile long v;
};

static int racy_counter_init(void *c, const struct counter_params *p, struct arena *a)
{
	(void)c;
	(void)p;
	(void)a;
	return 0;
}

/* load, a short dwell, store: a concurrent add in between is lost */
static NO_TSAN void racy_add(void *c, void *ctx, long delta)
{
	struct racy_counter *rc = c;
	long v = rc->v;

	(void)ctx;
	spin_iters(32);
	rc->v = v + delta;
}

static NO_TSAN long racy_read(const void *c)
{
	return ((const struct racy_counter *)c)->v;
}

static long racy_bound(const void *c)
{
	(void)c;
	return 0;
}

const struct counter_ops validate_racy_counter_ops = {
	.name = "racy_word",
	.description = "one shared word added without an atomic (validator control)",
	.size = sizeof(struct racy_counter),
	.init = racy_counter_init,
	.add = racy_add,
	.read = racy_read,
	.read_exact = racy_read,
	.error_bound = racy_bound,
	.threshold = racy_bound,
};

struct cvarg {
	const struct counter_ops *ops;
	void *c, *ctx;
	struct counter_truth_slot *truth;
	pthread_barrier_t *gate;
	unsigned long iterations;
	uint64_t seed;
	long sum; /* what this thread added, kept privately */
};

static void *cvthread(void *p)
{
	struct cvarg *a = p;
	uint64_t s = a->seed;

	pthread_barrier_wait(a->gate);
	for (unsigned long i = 0; i < a->iterations; i++) {
		long d;

		s = s * 6364136223846793005ull + 1442695040888963407ull;
		d = (i & 3) == 0 ? 1 : (long)((s >> 40) % (VALIDATE_DMAX - 1)) + 2;
		if ((s >> 33) & 1)
			d = -d;
		a->ops->add(a->c, a->ctx, d);
		counter_truth_add(a->truth, d);
		a->sum += d;
	}
	return NULL;
}

bool validate_counter(const struct counter_ops *ops,
		      const struct counter_params *params, unsigned threads,
		      unsigned long iterations,
		      struct counter_validate_report *rep)
{
	struct arena *arena = arena_create((size_t)64 << 20);
	struct counter_params p = { 0 };
	void *c;
	struct counter_truth *t = counter_truth_new(arena, threads, VALIDATE_DMAX,
						    VALIDATE_DMAX);
	struct counter_reader *rd = arena_alloc_padded(arena, sizeof(*rd));
	pthread_t *tids = xcalloc(threads, sizeof(*tids));
	struct cvarg *args = xcalloc(threads, sizeof(*args));
	pthread_barrier_t gate;
	long own = 0;
	bool ok;

	if (params)
		p = *params;
	p.nworkers = threads;
	c = counter_new(ops, arena, &p);

	pthread_barrier_init(&gate, NULL, threads);
	for (unsigned i = 0; i < threads; i++)
		args[i] = (struct cvarg){ ops, c, counter_ctx_new(ops, arena, c, i),
					  &t->slot[i], &gate, iterations,
					  0x9e3779b97f4a7c15ull * (i + 1), 0 };
	if ((errno = counter_reader_start(rd, ops, c, t, VALIDATE_READER_US)))
		die_errno(1, "validate: cannot create the reader thread");
	for (unsigned i = 0; i < threads; i++)
		if ((errno = pthread_create(&tids[i], NULL, cvthread, &args[i])))
			die_errno(1, "validate: cannot create thread");
	for (unsigned i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		own += args[i].sum;
	}
	counter_reader_stop(rd);
	pthread_barrier_destroy(&gate);

	memset(rep, 0, sizeof(*rep));
	rep->adds = (unsigned long long)threads * iterations;
	rep->truth = counter_truth_sum(t);
	rep->exact = ops->read_exact(c);
	rep->approx = ops->read(c);
	rep->bound = ops->error_bound(c);
	rep->max_error = rd->max_error;
	rep->samples = rd->samples;
	rep->folds = counter_folds(ops, c, rep->adds);
	ok = rep->truth == own && rep->exact == rep->truth;
	if (rep->bound != COUNTER_NO_BOUND)
		ok = ok && rep->max_error <= rep->bound &&
		     labs(rep->approx - rep->exact) <= rep->bound;
	if (ops->destroy)
		ops->destroy(c);
	arena_destroy(arena);
	free(tids);
	free(args);
	return ok;
}
