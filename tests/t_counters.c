/*
 * t_counters - the counter schemes: exact sums after concurrent adds for
 * every scheme and threshold, observed read() error within the
 * documented bound at 2 and 4 workers with a concurrent reader, fold
 * counts that match the kernel's comparison rules for deterministic
 * single-worker sequences, the kernel threshold formulas, and that the
 * checks can fail (a deliberately wrong counter is caught).
 *
 * No timing assertions; 4 threads on 2 CPUs is fine (counters never spin,
 * percpu_counter folds under pthread_mutex here).
 */
#include "tap.h"
#include "counters/counter.h"
#include "counters/pcpu.h"
#include "harness/validate.h"
#include "locks/lock.h"
#include "locks/tracked.h"

#define ITERS 1000000

static struct arena *arena;

/* A fresh single-worker-or-more counter with one bound context. */
static void *make(const struct counter_ops *ops, unsigned n, long thr,
		  long limit, long mem_mb, void **ctx)
{
	struct counter_params p = { .nworkers = n, .threshold = thr,
				    .limit = limit, .mem_mb = mem_mb };
	void *c = counter_new(ops, arena, &p);

	for (unsigned i = 0; i < n; i++) {
		void *x = counter_ctx_new(ops, arena, c, i);
		if (i == 0)
			*ctx = x;
	}
	return c;
}

static const struct counter_ops *need(const char *name)
{
	const struct counter_ops *ops = counter_find(name);

	if (!ops) {
		printf("Bail out! counter '%s' is not registered\n", name);
		exit(1);
	}
	return ops;
}

/* Folds after `n` adds of `delta` by worker 0. */
static uint64_t folds_after(const struct counter_ops *ops, unsigned workers,
			    long thr, long limit, long n, long delta,
			    long *read, long *exact)
{
	void *ctx, *c = make(ops, workers, thr, limit, 0, &ctx);

	for (long i = 0; i < n; i++)
		ops->add(c, ctx, delta);
	if (read)
		*read = ops->read(c);
	if (exact)
		*exact = ops->read_exact(c);
	return counter_folds(ops, c, (uint64_t)n);
}

static void test_registry(void)
{
	static const char *const names[] = {
		"atomic", "percpu_batch", "percpu_batch_dynamic",
		"percpu_counter", "vmstat", "sloppy", "percpu_exact",
	};
	const struct counter_ops **v;
	size_t n = counter_all(&v);

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		ok(counter_find(names[i]) != NULL, "counter '%s' registered", names[i]);
	for (size_t i = 0; i < n; i++)
		ok(v[i]->description && v[i]->read && v[i]->read_exact &&
		   v[i]->add && v[i]->init && v[i]->error_bound && v[i]->threshold,
		   "%s: ops table complete", v[i]->name);
	ok(counter_find("nosuch") == NULL, "unknown counter not found");
}

static void test_folds(void)
{
	const struct counter_ops *batch = need("percpu_batch");
	const struct counter_ops *dyn = need("percpu_batch_dynamic");
	const struct counter_ops *pcc = need("percpu_counter");
	const struct counter_ops *sloppy = need("sloppy");
	long rd, ex;

	/* v5.10 memcg: fold when |x| > thr, so every (thr+1)-th +1. */
	is_int(folds_after(batch, 1, 32, 0, 1000, 1, &rd, &ex), 1000 / 33,
	       "percpu_batch thr 32: 1000 incs fold floor(1000/33) times");
	is_int(rd, 1000 / 33 * 33, "percpu_batch thr 32: read() is what was folded");
	is_int(ex, 1000, "percpu_batch thr 32: exact read 1000");
	is_int(folds_after(batch, 1, 64, 0, 1000, 1, NULL, NULL), 1000 / 65,
	       "percpu_batch thr 64: floor(1000/65) folds");
	is_int(folds_after(batch, 1, 512, 0, 1000, 1, NULL, NULL), 1000 / 513,
	       "percpu_batch thr 512: floor(1000/513) folds");
	is_int(folds_after(batch, 1, 32, 0, 1000, -1, &rd, &ex), 1000 / 33,
	       "percpu_batch thr 32: 1000 decs fold as often (|x| rule)");
	is_int(ex, -1000, "percpu_batch: exact read -1000");
	is_int(folds_after(batch, 1, 32, 0, 32, 1, &rd, NULL), 0,
	       "percpu_batch thr 32: 32 incs do not fold ('>' not '>=')");
	is_int(rd, 0, "percpu_batch: nothing folded yet, read() 0");
	is_int(folds_after(batch, 1, 32, 0, 100, 33, NULL, NULL), 100,
	       "percpu_batch thr 32: adds of 33 fold every time");

	/* percpu_counter: fold when count >= batch; batch max(32, 2n). */
	is_int(folds_after(pcc, 1, 0, 0, 1000, 1, NULL, NULL), 1000 / 32,
	       "percpu_counter 1 worker: batch 32, floor(1000/32) folds ('>=')");
	is_int(folds_after(pcc, 20, 0, 0, 1000, 1, NULL, NULL), 1000 / 40,
	       "percpu_counter 20 workers: batch 40, floor(1000/40) folds");

	/* folds under the registry lock, counted in the worker's class */
	{
		static struct lock_stat set[LC_NR];
		struct counter_params p = { .nworkers = 1,
					    .lock = lock_find("pthread_mutex") };
		void *c = counter_new(pcc, arena, &p);
		void *ctx = counter_ctx_new_stats(pcc, arena, c, 0, set);

		for (int i = 0; i < 1000; i++)
			pcc->add(c, ctx, 1);
		is_int(set[LC_COUNTER_FOLD].acquired, 1000 / 32,
		       "percpu_counter: each fold takes the lock as LC_COUNTER_FOLD");
		is_int(set[LC_BENCH].acquired, 0, "percpu_counter: no other class used");
	}

	/* dynamic: clamp(limit / n, 1, 512) */
	is_int(folds_after(dyn, 1, 0, 0, 1000, 1, NULL, NULL), 1000 / 513,
	       "percpu_batch_dynamic 1 worker: threshold 512");
	is_int(folds_after(dyn, 3, 0, 100, 1000, 1, NULL, NULL), 1000 / 34,
	       "percpu_batch_dynamic limit 100, 3 workers: threshold 33");

	/* sloppy: an increment without spares goes to the central count;
	 * released references stay local up to the threshold. */
	is_int(folds_after(sloppy, 1, 32, 0, 1000, 1, &rd, &ex), 1000,
	       "sloppy: 1000 acquires without spares all hit the central count");
	is_int(rd, 1000, "sloppy: central count 1000");
	is_int(folds_after(sloppy, 1, 32, 0, 40, -1, &rd, &ex), 1,
	       "sloppy thr 32: 40 releases return spares once (at 33)");
	is_int(rd, -33, "sloppy: central count after returning 33 spares");
	is_int(ex, -40, "sloppy: exact = central - spares");
	{
		void *ctx, *c = make(sloppy, 1, 32, 0, 0, &ctx);
		for (int i = 0; i < 500; i++) {
			sloppy->add(c, ctx, 1);
			sloppy->add(c, ctx, -1);
		}
		is_int(counter_folds(sloppy, c, 1000), 1,
		       "sloppy: 500 get/put pairs touch the central count once");
		is_int(sloppy->read_exact(c), 0, "sloppy: get/put pairs sum to 0");
		is_int(sloppy->read(c), 1, "sloppy: one spare held, read() 1");
	}

	is_int(folds_after(need("atomic"), 1, 0, 0, 1000, 1, &rd, NULL), 1000,
	       "atomic: every add is a shared update");
	is_int(rd, 1000, "atomic: read() exact");
	is_int(folds_after(need("percpu_exact"), 1, 0, 0, 1000, 1, &rd, &ex), 0,
	       "percpu_exact: never folds");
	is_int(ex, 1000, "percpu_exact: exact read sums the slot");
}

/* mm/vmstat.c: t = min(125, 2 * fls(cpus) * (1 + fls(MiB / 128))). */
static void test_vmstat(void)
{
	const struct counter_ops *vm = need("vmstat");
	void *ctx, *c;
	long t, first, every, want;

	c = make(vm, 1, 0, 0, 16384, &ctx);
	is_int(vm->threshold(c), 18, "vmstat 1 worker, 16 GiB: t = 2*1*(1+8) = 18");
	c = make(vm, 4, 0, 0, 1024, &ctx);
	is_int(vm->threshold(c), 30, "vmstat 4 workers, 1 GiB: t = 2*3*(1+4) = 30");
	c = make(vm, 64, 0, 0, 1L << 20, &ctx);
	is_int(vm->threshold(c), 125, "vmstat 64 workers, 1 TiB: capped at 125");
	is_int(vm->error_bound(c), 125 * 64, "vmstat bound t * workers");

	/* __inc overstep: first fold after t+1 incs, then every t+1+t/2. */
	c = make(vm, 1, 0, 0, 16384, &ctx);
	t = vm->threshold(c);
	first = t + 1;
	every = t + 1 + t / 2;
	want = 1000 < first ? 0 : 1 + (1000 - first) / every;
	for (int i = 0; i < 1000; i++)
		vm->add(c, ctx, 1);
	is_int(counter_folds(vm, c, 1000), want,
	       "vmstat t=%ld: 1000 incs fold 1 + (1000-%ld)/%ld times", t, first, every);
	is_int(vm->read_exact(c), 1000, "vmstat: exact read 1000");
	ok(labs(vm->read(c) - 1000) <= t, "vmstat: read() within t of 1000");
	/* __mod path: delta 5 folds when |x| > t */
	c = make(vm, 1, 0, 0, 16384, &ctx);
	for (int i = 0; i < 100; i++)
		vm->add(c, ctx, 5);
	is_int(counter_folds(vm, c, 100), 100 / ((t / 5) + 1),
	       "vmstat t=%ld: adds of 5 fold every %ld adds", t, (t / 5) + 1);
}

static void test_bounds(void)
{
	void *ctx, *c;

	c = make(need("percpu_batch"), 4, 32, 0, 0, &ctx);
	is_int(need("percpu_batch")->error_bound(c), 128, "percpu_batch bound 32 x 4");
	c = make(need("percpu_counter"), 4, 0, 0, 0, &ctx);
	is_int(need("percpu_counter")->error_bound(c), 31 * 4,
	       "percpu_counter bound (batch-1) x workers");
	c = make(need("percpu_batch_dynamic"), 64, 0, 0, 0, &ctx);
	is_int(need("percpu_batch_dynamic")->threshold(c), 256,
	       "dynamic: 64 workers under the default budget 16384 -> 256");
	is_int(need("percpu_batch_dynamic")->error_bound(c), 16384,
	       "dynamic: bound stays within the budget");
	c = make(need("percpu_batch_dynamic"), 4, 0, 2, 0, &ctx);
	is_int(need("percpu_batch_dynamic")->threshold(c), 1,
	       "dynamic: threshold never below 1");
	c = make(need("atomic"), 2, 0, 0, 0, &ctx);
	is_int(need("atomic")->error_bound(c), 0, "atomic bound 0");
	c = make(need("percpu_exact"), 2, 0, 0, 0, &ctx);
	is_int(need("percpu_exact")->error_bound(c), COUNTER_NO_BOUND,
	       "percpu_exact read() unbounded");
}

/* The bracket is exact when nothing runs concurrently. */
static void test_truth(void)
{
	const struct counter_ops *ops = need("percpu_batch");
	void *ctx, *c = make(ops, 1, 32, 0, 0, &ctx);
	struct counter_truth *t = counter_truth_new(arena, 1, 1, 0);
	long width, err;

	for (int i = 0; i < 20; i++) {
		ops->add(c, ctx, 1);
		counter_truth_add(&t->slot[0], 1);
	}
	err = counter_truth_sample(t, ops, c, &width);
	is_int(width, 1, "bracket width = one add in flight per adder");
	is_int(err, 20, "read() 0 vs true 20 (adds only grow: slack above only): error 20");
	is_int(counter_truth_sum(t), 20, "truth sum");
	for (int i = 0; i < 13; i++) {
		ops->add(c, ctx, 1);
		counter_truth_add(&t->slot[0], 1);
	}
	is_int(counter_truth_sample(t, ops, c, NULL), 0,
	       "after the fold at 33 read() is exact: no error");
}

static void check_concurrent(const struct counter_ops *ops, long thr,
			     long limit, unsigned threads, const char *label)
{
	struct counter_params p = { .threshold = thr, .limit = limit,
				    .lock = lock_find("pthread_mutex") };
	struct counter_validate_report r;
	bool valid = validate_counter(ops, &p, threads, ITERS, &r);

	ok(valid, "%s %s, %u threads: validator passes", ops->name, label, threads);
	is_int(r.exact, r.truth, "%s %s, %u threads: exact read == true sum %ld",
	       ops->name, label, threads, r.truth);
	if (r.bound != COUNTER_NO_BOUND) {
		ok(r.max_error <= r.bound, "%s %s, %u threads: observed error %ld "
		   "<= bound %ld (%llu samples)", ops->name, label, threads,
		   r.max_error, r.bound, r.samples);
		ok(labs(r.approx - r.exact) <= r.bound,
		   "%s %s, %u threads: final read() within bound", ops->name,
		   label, threads);
	}
	ok(r.samples >= 1, "%s %s, %u threads: reader sampled", ops->name,
	   label, threads);
}

static void test_concurrent(void)
{
	static const unsigned nthreads[] = { 2, 4 };

	for (size_t k = 0; k < ARRAY_SIZE(nthreads); k++) {
		unsigned n = nthreads[k];
		const struct counter_ops *batch = need("percpu_batch");

		check_concurrent(batch, 32, 0, n, "thr 32");
		check_concurrent(batch, 64, 0, n, "thr 64");
		check_concurrent(batch, 512, 0, n, "thr 512");
		check_concurrent(need("percpu_batch_dynamic"), 0, 0, n, "dynamic");
		check_concurrent(need("percpu_batch_dynamic"), 0, 40, n, "dynamic limit 40");
		check_concurrent(need("sloppy"), 32, 0, n, "thr 32");
		check_concurrent(need("sloppy"), 512, 0, n, "thr 512");
		check_concurrent(need("atomic"), 0, 0, n, "");
		check_concurrent(need("percpu_counter"), 0, 0, n, "");
		check_concurrent(need("vmstat"), 0, 0, n, "");
		check_concurrent(need("percpu_exact"), 0, 0, n, "");
	}
}

/* Wrong on purpose: read() claims more than the slots allow. */
static long broken_read(const void *c)
{
	return pcpu_read(c) + 1000;
}

static long broken_exact(const void *c)
{
	return pcpu_read_exact(c) + 1;
}

static void test_can_fail(void)
{
	struct counter_ops bad_read = *need("percpu_batch");
	struct counter_ops bad_exact = *need("percpu_batch");
	struct counter_validate_report r;
	bool valid;

	bad_read.read = broken_read;
	valid = validate_counter(&bad_read, NULL, 2, 20000, &r);
	ok(!valid, "validator rejects a read() 1000 off (bound %ld, observed %ld)",
	   r.bound, r.max_error);
	ok(r.max_error > r.bound, "reader observed the excess error");
	bad_exact.read_exact = broken_exact;
	valid = validate_counter(&bad_exact, NULL, 2, 20000, &r);
	ok(!valid, "validator rejects an exact read off by one");
	is_int(r.exact - r.truth, 1, "exact read differs by the injected 1");
}

int main(void)
{
	arena = arena_create((size_t)256 << 20);
	test_registry();
	test_folds();
	test_vmstat();
	test_bounds();
	test_truth();
	test_concurrent();
	test_can_fail();
	arena_destroy(arena);
	return done_testing();
}
