/*
 * t_locks - every registered lock keeps mutual exclusion (the validator at
 * 2 and 4 threads), deliberately broken locks are caught (so the validator
 * can fail), the registry and flags are consistent, qspinlock walks through
 * the kernel's (tail, pending, locked) states, and the harness runs the
 * `lock` workload over every lock in thread and process mode.
 *
 * 4 threads on this 2-core machine oversubscribe the spinlocks: a FIFO
 * lock then waits a scheduler slice whenever the next owner is preempted,
 * so the fair locks get few iterations there.
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "harness/harness.h"
#include "locks/lock_loop.h"
#include "harness/validate.h"
#include "locks/qspinlock.h"
#include "tap.h"

/* ---- locks that must fail validation (not registered) ---- */

struct racy_word {
	volatile unsigned word;
};

static int racy_init(void *lock, unsigned max_workers, struct arena *arena)
{
	((struct racy_word *)lock)->word = 0;
	return 0;
}

/*
 * Test, then set, without an atomic: two threads can both see 0.  The
 * short delay between the two widens the window so the race shows up
 * within a few rounds on 2 cores, as it would under real contention.
 */
static void racy_lock(void *lock, void *ctx)
{
	struct racy_word *l = lock;

	while (l->word)
		cpu_relax();
	spin_iters(200);
	l->word = 1;
}

static void racy_unlock(void *lock, void *ctx)
{
	((struct racy_word *)lock)->word = 0;
}

static const struct lock_ops racy_tas_ops = {
	.name = "broken_racy_tas",
	.description = "test-and-set without the atomic (tests only)",
	.size = sizeof(struct racy_word),
	.flags = LOCK_F_BROKEN | LOCK_F_SPINS,
	.init = racy_init,
	.lock = racy_lock,
	.unlock = racy_unlock,
};

/* A correct lock whose trylock claims success without taking it. */
static void lying_lock(void *lock, void *ctx)
{
	struct racy_word *l = lock;

	while (__atomic_exchange_n(&l->word, 1, __ATOMIC_ACQUIRE))
		cpu_relax();
}

static void lying_unlock(void *lock, void *ctx)
{
	__atomic_store_n(&((struct racy_word *)lock)->word, 0, __ATOMIC_RELEASE);
}

static bool lying_trylock(void *lock, void *ctx)
{
	return true;
}

static const struct lock_ops lying_trylock_ops = {
	.name = "broken_trylock",
	.description = "trylock always succeeds (tests only)",
	.size = sizeof(struct racy_word),
	.flags = LOCK_F_BROKEN | LOCK_F_SPINS,
	.init = racy_init,
	.lock = lying_lock,
	.unlock = lying_unlock,
	.trylock = lying_trylock,
};

/*
 * Iterations per thread: plenty where waiters cannot stall a hand-off,
 * few for FIFO locks at 4 threads (see the top of the file).
 */
static unsigned long iterations(const struct lock_ops *ops, unsigned threads)
{
	if (threads <= 2)
		return (ops->flags & LOCK_F_FAIR) ? 50000 : 200000;
	return (ops->flags & LOCK_F_FAIR) ? 2000 : 20000;
}

static void test_validate_all(void)
{
	const struct lock_ops **all;
	size_t n = lock_all(&all);
	static const unsigned threads[] = { 2, 4 };

	for (size_t i = 0; i < n; i++) {
		if (all[i]->flags & LOCK_F_UNSAFE)
			continue;
		for (size_t t = 0; t < ARRAY_SIZE(threads); t++) {
			struct validate_report rep;
			unsigned long it = iterations(all[i], threads[t]);
			bool good = validate_lock(all[i], threads[t], it, &rep);

			ok(good, "%s: exclusion holds, %u threads x %lu", all[i]->name,
			   threads[t], it);
			if (!good)
				diag("violations %llu lost updates %llu", rep.violations,
				     rep.lost_updates);
			ok(!all[i]->trylock || rep.trylocks_ok == threads[t] * (it / 2),
			   "%s: every other acquisition went through trylock",
			   all[i]->name);
		}
	}
}

/*
 * A broken lock must be caught.  It is a race, and it needs the two
 * threads on CPU at once, which a loaded 2-core machine grants only part
 * of the time: allow up to 100 short rounds, stopping at the first catch.
 */
static void test_broken(const struct lock_ops *ops)
{
	struct validate_report rep;
	int caught = 0, round;

	for (round = 1; round <= 100 && !caught; round++)
		caught = !validate_lock(ops, 2, 100000, &rep);
	ok(caught, "validator catches %s (round %d)", ops->name, round - 1);
	if (caught)
		ok(rep.violations || rep.lost_updates,
		   "%s: failure is reported as violations (%llu) / lost updates (%llu)",
		   ops->name, rep.violations, rep.lost_updates);
	else
		ok(0, "%s: no failure reported", ops->name);
}

static void test_registry(void)
{
	static const char *const expected[] = {
		"ck_anderson", "ck_cas", "ck_clh", "ck_dec", "ck_fas", "ck_mcs",
		"ck_ticket", "ck_ticket_pb", "none", "pthread_mutex",
		"pthread_spin", "qspinlock", "ttas_backoff",
	};
	const struct lock_ops **all;
	size_t n = lock_all(&all);

	ok(lock_find("no_such_lock") == NULL, "lock_find of an unknown name is NULL");
	ok(lock_find("") == NULL, "lock_find of an empty name is NULL");
	for (size_t i = 0; i < ARRAY_SIZE(expected); i++) {
		const struct lock_ops *ops = lock_find(expected[i]);
		ok(ops && !strcmp(ops->name, expected[i]), "lock %s is registered",
		   expected[i]);
	}
	for (size_t i = 0; i < n; i++) {
		const struct lock_ops *o = all[i];
		unsigned f = o->flags;

		ok(!(f & LOCK_F_NEEDS_CTX) == !o->ctx_size,
		   "%s: NEEDS_CTX iff ctx_size > 0 (%zu)", o->name, o->ctx_size);
		ok(o->init && o->lock && o->unlock && o->size > 0 && o->description,
		   "%s: init, lock, unlock, size and description present", o->name);
		ok(!((f & LOCK_F_SPINS) && (f & LOCK_F_SLEEPS)),
		   "%s: not both spinning and sleeping", o->name);
		ok(!(f & LOCK_F_QUEUE) || (f & LOCK_F_NEEDS_CTX),
		   "%s: a queue lock has a per-thread context", o->name);
		ok(!(f & LOCK_F_BROKEN), "%s: no broken lock is registered", o->name);
		ok(i == 0 || strcmp(all[i - 1]->name, o->name) < 0,
		   "%s: listed in order, name unique", o->name);
	}
}

/* ---- qspinlock: step through the (tail, pending, locked) states ---- */

struct qs_arg {
	const struct lock_ops *ops;
	void *lock, *ctx;
	int in, release;
};

static void *qs_thread(void *p)
{
	struct qs_arg *a = p;

	a->ops->lock(a->lock, a->ctx);
	__atomic_store_n(&a->in, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&a->release, __ATOMIC_ACQUIRE))
		usleep(100);
	a->ops->unlock(a->lock, a->ctx);
	return NULL;
}

/* Poll (sleeping) until cond holds; false after ~10 s (a hung lock). */
#define WAIT_FOR(cond)                                                        \
	({                                                                    \
		int n_ = 0;                                                   \
		while (!(cond) && n_++ < 100000)                              \
			usleep(100);                                          \
		(cond);                                                       \
	})

static uint32_t qs_val(struct qspinlock *l)
{
	return __atomic_load_n(&l->val, __ATOMIC_ACQUIRE);
}

static bool qs_flag(int *f)
{
	return __atomic_load_n(f, __ATOMIC_ACQUIRE);
}

/*
 * Main holds the lock; B arrives (pending), then C and D (queued).  Each
 * release is then checked against the kernel's transitions: B takes over
 * from pending, C becomes the head with D behind it and hands the MCS
 * lock on, D is last and clears the tail.
 */
static void test_qspinlock_states(void)
{
	const struct lock_ops *ops = lock_find("qspinlock");
	struct arena *arena = arena_create((size_t)1 << 20);
	struct qspinlock *l;
	struct qs_arg w[3]; /* B, C, D */
	pthread_t tid[3];
	void *c0;
	const uint32_t tail_c = 3u << QSPIN_TAIL_SHIFT, tail_d = 4u << QSPIN_TAIL_SHIFT;

	if (!ok(ops != NULL, "qspinlock registered"))
		return;
	l = lock_new(ops, arena, 4);
	c0 = lock_ctx_new(ops, arena, l, 0);
	for (unsigned i = 0; i < 3; i++)
		w[i] = (struct qs_arg){ ops, l, lock_ctx_new(ops, arena, l, i + 1), 0, 0 };

	ops->lock(l, c0);
	is_int(l->val, QSPIN_LOCKED, "qspinlock uncontended: (0,0,0) -> (0,0,1)");
	ok(!ops->trylock(l, c0), "qspinlock trylock fails while held");

	pthread_create(&tid[0], NULL, qs_thread, &w[0]);
	ok(WAIT_FOR(qs_val(l) == (QSPIN_PENDING | QSPIN_LOCKED)),
	   "first contender sets pending: (0,1,1)");
	pthread_create(&tid[1], NULL, qs_thread, &w[1]);
	ok(WAIT_FOR(qs_val(l) == (tail_c | QSPIN_PENDING | QSPIN_LOCKED)),
	   "second contender queues: (3,1,1)");
	pthread_create(&tid[2], NULL, qs_thread, &w[2]);
	ok(WAIT_FOR(qs_val(l) == (tail_d | QSPIN_PENDING | QSPIN_LOCKED)),
	   "third contender queues behind it: (4,1,1)");
	ok(!ops->trylock(l, c0), "trylock fails with waiters queued");

	ops->unlock(l, c0);
	ok(WAIT_FOR(qs_flag(&w[0].in)), "pending waiter takes the lock on release");
	is_int(qs_val(l), tail_d | QSPIN_LOCKED,
	       "pending cleared, locked set, queue kept: (4,0,1)");

	__atomic_store_n(&w[0].release, 1, __ATOMIC_RELEASE);
	ok(WAIT_FOR(qs_flag(&w[1].in)), "queue head takes the lock next");
	is_int(qs_val(l), tail_d | QSPIN_LOCKED,
	       "head with a successor only sets locked: (4,0,1)");
	ok(!qs_flag(&w[2].in), "its successor still waits");

	__atomic_store_n(&w[1].release, 1, __ATOMIC_RELEASE);
	ok(WAIT_FOR(qs_flag(&w[2].in)), "MCS hand-off: the successor gets the lock");
	is_int(qs_val(l), QSPIN_LOCKED, "last queued waiter clears the tail: (0,0,1)");

	__atomic_store_n(&w[2].release, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < 3; i++)
		pthread_join(tid[i], NULL);
	is_int(l->val, 0, "all released: (0,0,0)");
	ok(ops->trylock(l, c0) && l->val == QSPIN_LOCKED, "trylock takes a free lock");
	ops->unlock(l, c0);
	arena_destroy(arena);
}

/* ---- the harness over every lock, threads and processes ---- */

static void test_harness(enum run_mode mode)
{
	const struct lock_ops **all;
	size_t n = lock_all(&all);
	struct harness_opts o;

	harness_defaults(&o);
	o.wl = workload_find("lock");
	if (!ok(o.wl != NULL, "lock workload registered"))
		return;
	o.knobs = knobset_new();
	o.seconds = 0.1;
	o.sample_ms = 50;
	o.warmup = 1;
	o.mode = mode;
	o.arena_size = (size_t)64 << 20;
	for (size_t i = 0; i < n; i++) {
		struct result res;
		int st;

		o.lock = all[i];
		/*
		 * On a loaded machine the sampler can wake so late that all
		 * its samples come back to back and the window holds no
		 * operation; that says nothing about the lock, so retry.
		 */
		for (int tries = 0;; tries++) {
			st = harness_run_one(&o, 2, 0, &res);
			if (st || res.ops_total || tries == 3)
				break;
			diag("%s: empty measured window, retrying", all[i]->name);
			result_free(&res);
		}
		ok(st == 0 && res.ops_total > 0 &&
		   ((all[i]->flags & LOCK_F_UNSAFE) ||
		    result_get(&res, "lost_updates", -1) == 0),
		   "harness, lock workload, %s, 2 %s: status %d, ops %llu",
		   all[i]->name, mode == MODE_THREADS ? "threads" : "processes",
		   st, (unsigned long long)res.ops_total);
		result_free(&res);
	}
	knobset_free(o.knobs);
}

/*
 * Every registered lock carries a loop compiled for it
 * (LOCK_BENCH_SPECIALISE), and an ops table without one still runs the
 * workload through the generic loop: an unregistered copy of qspinlock's
 * table has another address, so nothing is specialised for it.
 *
 * The generic loop is driven here without the harness's clock: two
 * threads run the lock workload until each has published at least
 * GENERIC_MIN_OPS operations, however slowly a loaded machine lets them
 * go, and only then is the stop flag raised.  Nothing depends on time.
 */
#define GENERIC_MIN_OPS 20000

struct generic_arg {
	const struct workload *wl;
	struct worker *w;
};

static void *generic_worker(void *p)
{
	struct generic_arg *a = p;

	if (a->wl->worker_init)
		a->wl->worker_init(a->w);
	a->wl->run(a->w);
	return NULL;
}

static void test_specialised_loops(void)
{
	const struct lock_ops **all;
	size_t n = lock_all(&all), missing = 0;
	struct lock_ops copy = *lock_find("qspinlock");
	struct arena *arena = arena_create((size_t)64 << 20);
	struct run r = { 0 };
	struct result res = { 0 };
	struct generic_arg arg[2];
	pthread_t th[2];
	volatile int stop = 0;
	uint64_t least;
	int st;

	for (size_t i = 0; i < n; i++)
		if (!lock_bench_specialised(all[i])) {
			diag("%s has no LOCK_BENCH_SPECIALISE", all[i]->name);
			missing++;
		}
	is_int(missing, 0, "every registered lock has a specialised workload loop");
	ok(lock_bench_specialised(&copy) == NULL,
	   "an unregistered ops table has no specialised loop");

	r.wl = workload_find("lock");
	r.knobs = knobset_new();
	r.arena = arena;
	r.lock = &copy;
	r.nworkers = 2;
	r.mode = MODE_THREADS;
	r.workers = arena_alloc(arena, 2 * sizeof(struct worker), PAD_SIZE);
	for (unsigned i = 0; i < 2; i++) {
		memset(&r.workers[i], 0, sizeof(r.workers[i]));
		r.workers[i].id = i;
		r.workers[i].pu = -1;
		r.workers[i].run = &r;
		r.workers[i].stop = &stop;
	}
	st = r.wl->setup(&r);
	if (!ok(st == 0, "lock workload set up over the unregistered table (status %d)", st)) {
		knobset_free(r.knobs);
		arena_destroy(arena);
		return;
	}
	for (unsigned i = 0; i < 2; i++) {
		arg[i] = (struct generic_arg){ r.wl, &r.workers[i] };
		pthread_create(&th[i], NULL, generic_worker, &arg[i]);
	}
	/* Count-based stop: wait for both workers' published counts. */
	do {
		usleep(1000);
		least = UINT64_MAX;
		for (unsigned i = 0; i < 2; i++) {
			uint64_t o = __atomic_load_n(&r.workers[i].ops, __ATOMIC_RELAXED);
			least = o < least ? o : least;
		}
	} while (least < GENERIC_MIN_OPS);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	st = r.wl->finish(&r, &res);
	ok(st == 0 && result_get(&res, "acq_min", 0) >= GENERIC_MIN_OPS &&
	   result_get(&res, "lost_updates", -1) == 0,
	   "generic (unspecialised) loop, 2 threads: status %d, least %.0f ops "
	   "per worker (want >= %d), lost updates %.0f", st,
	   result_get(&res, "acq_min", 0), GENERIC_MIN_OPS,
	   result_get(&res, "lost_updates", -1));
	if (r.wl->teardown)
		r.wl->teardown(&r);
	result_free(&res);
	knobset_free(r.knobs);
	arena_destroy(arena);
}

int main(void)
{
	test_registry();
	test_specialised_loops();
	test_broken(&racy_tas_ops);
	test_broken(&lying_trylock_ops);
	test_qspinlock_states();
	test_validate_all();
	test_harness(MODE_THREADS);
	test_harness(MODE_PROCESSES);
	return done_testing();
}
