/*
 * truth.c - ground truth for counter accuracy checks and the concurrent
 * reader (see the counter_truth comment in counter.h for the method).
 */
#include "counters/counter.h"

#include <errno.h>
#include <string.h>

/* Timed reads per sample: enough to amortise the two clock reads. */
#define READER_BURST 16
#define READER_EXACT_BURST 4

struct counter_truth *counter_truth_new(struct arena *a, unsigned n,
					long dpos, long dneg)
{
	struct counter_truth *t = arena_alloc_padded(a, sizeof(*t));

	t->n = n;
	t->dpos = dpos;
	t->dneg = dneg;
	t->slot = arena_alloc(a, n * sizeof(*t->slot), PAD_SIZE);
	return t;
}

long counter_truth_sum(const struct counter_truth *t)
{
	long sum = 0;

	for (unsigned i = 0; i < t->n; i++)
		sum += __atomic_load_n(&t->slot[i].pos, __ATOMIC_ACQUIRE) -
		       __atomic_load_n(&t->slot[i].neg, __ATOMIC_ACQUIRE);
	return sum;
}

uint64_t counter_truth_ops(const struct counter_truth *t)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < t->n; i++)
		n += __atomic_load_n(&t->slot[i].ops, __ATOMIC_RELAXED);
	return n;
}

static void truth_pass(const struct counter_truth *t, long *pos, long *neg)
{
	*pos = *neg = 0;
	for (unsigned i = 0; i < t->n; i++) {
		/* Acquire: pairs with the release in counter_truth_add(), so
		 * the folds of every add counted here are visible to the
		 * loads that follow. */
		*pos += __atomic_load_n(&t->slot[i].pos, __ATOMIC_ACQUIRE);
		*neg += __atomic_load_n(&t->slot[i].neg, __ATOMIC_ACQUIRE);
	}
}

long counter_truth_sample(const struct counter_truth *t,
			  const struct counter_ops *ops, const void *c,
			  long *width)
{
	long p1, n1, p2, n2, a, lo, hi;

	truth_pass(t, &p1, &n1);
	a = ops->read(c);
	/* The read (a relaxed load inside ops->read) must complete before
	 * the second pass: an acquire fence orders it before later loads. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	truth_pass(t, &p2, &n2);
	lo = p1 - n2 - (long)t->n * t->dneg;
	hi = p2 - n1 + (long)t->n * t->dpos;
	if (width)
		*width = hi - lo;
	if (a < lo)
		return lo - a;
	if (a > hi)
		return a - hi;
	return 0;
}

double counter_time_reads(const struct counter_ops *ops, const void *c,
			  bool exact, unsigned n)
{
	uint64_t t0 = now_ns();

	for (unsigned i = 0; i < n; i++)
		keep((uint64_t)(exact ? ops->read_exact(c) : ops->read(c)));
	return n ? (double)(now_ns() - t0) / n : 0;
}

static void *reader_main(void *p)
{
	struct counter_reader *r = p;
	struct timespec ts = { .tv_sec = r->sleep_us / 1000000,
			       .tv_nsec = (long)(r->sleep_us % 1000000) * 1000 };

	/* At least one sample even if stopped at once.  Relaxed: stop is only
	 * a request to leave the loop; the results are published to
	 * counter_reader_stop() by pthread_join. */
	do {
		long width, err = counter_truth_sample(r->t, r->ops, r->c, &width);
		uint64_t t0, t1, t2;

		r->samples++;
		if (err > r->max_error)
			r->max_error = err;
		if (width > r->max_width)
			r->max_width = width;
		t0 = now_ns();
		for (int i = 0; i < READER_BURST; i++)
			keep((uint64_t)r->ops->read(r->c));
		t1 = now_ns();
		for (int i = 0; i < READER_EXACT_BURST; i++)
			keep((uint64_t)r->ops->read_exact(r->c));
		t2 = now_ns();
		r->reads += READER_BURST;
		r->read_ns += t1 - t0;
		r->exact_reads += READER_EXACT_BURST;
		r->exact_ns += t2 - t1;
		if (r->sleep_us)
			nanosleep(&ts, NULL);
	} while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED));
	return NULL;
}

int counter_reader_start(struct counter_reader *r,
			 const struct counter_ops *ops, const void *c,
			 const struct counter_truth *t, unsigned sleep_us)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->ops = ops;
	r->c = c;
	r->t = t;
	r->sleep_us = sleep_us;
	err = pthread_create(&r->thread, NULL, reader_main, r);
	r->running = !err;
	return err;
}

void counter_reader_stop(struct counter_reader *r)
{
	if (!r->running)
		return;
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	pthread_join(r->thread, NULL);
	r->running = false;
}
