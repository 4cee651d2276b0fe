/*
 * t_trace_stats - per-worker lock statistics (locks/tracked.h) and the
 * contention columns the harness adds from them, without any tracer:
 * exact counts on the fast path, the contended path driven by a lock whose
 * trylock always fails, hold sampling, handoffs, summing, and the result
 * columns of a real `lock` workload run (and their absence with
 * lockstat=off).
 */
#include "tap.h"
#include "harness/harness.h"
#include "locks/tracked.h"
#include "harness/runstat.h"

#include <string.h>

/* A lock whose trylock always fails: every tracked acquisition takes the
 * contended path.  Not a real lock; one thread only. */
static int fake_locked;
static void fake_lock(void *l, void *c) { (void)l; (void)c; fake_locked++; }
static void fake_unlock(void *l, void *c) { (void)l; (void)c; fake_locked--; }
static bool fake_trylock(void *l, void *c) { (void)l; (void)c; return false; }
static const struct lock_ops fake_ops = {
	.name = "fake", .lock = fake_lock, .unlock = fake_unlock,
	.trylock = fake_trylock,
};

int main(void)
{
	const struct lock_ops *mutex = lock_find("pthread_mutex");
	struct arena *a = arena_create(64 << 20);
	struct lock_owner_slot *owners = arena_alloc(a, LS_OWNER_SLOTS *
						     sizeof(*owners), PAD_SIZE);
	struct lock_stat *w0 = arena_alloc_padded(a, LC_NR * sizeof(struct lock_stat));
	struct lock_stat *w1 = arena_alloc_padded(a, LC_NR * sizeof(struct lock_stat));
	struct lock_stat sum[LC_NR], *sets[2] = { w0, w1 };
	struct lock_stat *st;
	struct harness_opts o;
	struct result res;
	void *m;
	uint64_t hist = 0;
	int fake;

	ok(mutex != NULL, "pthread_mutex lock is registered");
	if (!mutex) {
		printf("1..%d\n", tap_n);
		return 1;
	}
	m = lock_new(mutex, a, 2);

	/* Bucket edges. */
	is_int(lock_hist_bucket(0), 0, "bucket of 0 ns");
	is_int(lock_hist_bucket(1), 1, "bucket of 1 ns");
	is_int(lock_hist_bucket(1023), 10, "bucket of 1023 ns");
	is_int(lock_hist_bucket(1024), 11, "bucket of 1024 ns");
	is_int(lock_hist_bucket(UINT64_MAX), LS_HIST - 1, "huge waits clamp");

	/* Fast path, hold every acquisition, handoffs between two workers. */
	lock_stats_init(w0, 0, 1, owners);
	lock_stats_init(w1, 1, 3, owners); /* rounds up to 4 */
	is_int(w1[LC_BENCH].hold_mask, 3, "hold_every 3 rounds up to 4");
	is_int(w0[LC_LRUVEC_LRU].cls, LC_LRUVEC_LRU, "stats know their class");
	st = lock_stat_of(w0, LC_BENCH);
	for (int i = 0; i < 100; i++) {
		tracked_lock(mutex, m, NULL, st);
		tracked_unlock(mutex, m, NULL, st);
	}
	is_int(st->acquired, 100, "uncontended acquisitions counted");
	is_int(st->contended, 0, "no contention with one worker");
	is_int(st->hold_n, 100, "hold_every=1 times every hold");
	for (unsigned b = 0; b < LS_HIST; b++)
		hist += st->hold_hist[b];
	is_int(hist, 100, "hold histogram holds every timed hold");
	is_int(st->handoffs, 1, "first acquisition is a handoff, repeats are not");
	is_int(st->t_acquired, 0, "no hold left open after unlock");
	st = lock_stat_of(w1, LC_BENCH);
	for (int i = 0; i < 8; i++) {
		tracked_lock(mutex, m, NULL, st);
		tracked_unlock(mutex, m, NULL, st);
	}
	is_int(st->handoffs, 1, "other worker taking the lock is one handoff");
	is_int(st->hold_n, 2, "hold sampled 1 in 4 of 8 acquisitions");
	tracked_lock(mutex, m, NULL, lock_stat_of(w0, LC_BENCH));
	tracked_unlock(mutex, m, NULL, lock_stat_of(w0, LC_BENCH));
	is_int(w0[LC_BENCH].handoffs, 2, "handed back to worker 0");

	/* Contended path. */
	st = lock_stat_of(w0, LC_PAGE_COUNTER);
	fake = 0;
	for (int i = 0; i < 5; i++) {
		tracked_lock(&fake_ops, &fake, NULL, st);
		ok(fake_locked == 1, "contended acquisition %d holds the lock", i);
		tracked_unlock(&fake_ops, &fake, NULL, st);
	}
	is_int(st->acquired, 5, "contended acquisitions are acquisitions");
	is_int(st->contended, 5, "every failed trylock is a contention");
	ok(st->wait_min_ns >= 1 && st->wait_min_ns <= st->wait_max_ns,
	   "min wait set and not above max");
	ok(st->wait_ns >= st->wait_max_ns, "total wait covers the max");
	hist = 0;
	for (unsigned b = 0; b < LS_HIST; b++)
		hist += st->wait_hist[b];
	is_int(hist, 5, "wait histogram counts every contended acquisition");
	ok(!st->t_acquired && !st->pend_end && !st->hold_contended,
	   "nothing left pending after a contended hold's unlock");

	/* Nested contended holds of one class: the outer hold's deferred
	 * contention_end is written when the inner one needs the scratch,
	 * the unlocks still reach the lock and nothing stays pending. */
	tracked_lock(&fake_ops, &fake, NULL, st);
	tracked_lock(&fake_ops, &fake, NULL, st);
	is_int(fake_locked, 2, "nested contended acquisitions both taken");
	tracked_unlock(&fake_ops, &fake, NULL, st);
	tracked_unlock(&fake_ops, &fake, NULL, st);
	is_int(fake_locked, 0, "nested unlocks both reach the lock");
	is_int(st->contended, 7, "nested contentions counted");
	ok(!st->t_acquired && !st->pend_end, "nothing pending after nesting");

	/* A zero-filled stat (hold timing off) still routes the unlock of a
	 * contended hold through the slow path, once. */
	{
		struct lock_stat z;

		memset(&z, 0, sizeof(z));
		tracked_lock(&fake_ops, &fake, NULL, &z);
		ok(z.t_acquired != 0 && z.pend_end,
		   "hold timing off: contended hold has its record pending");
		tracked_unlock(&fake_ops, &fake, NULL, &z);
		ok(fake_locked == 0 && !z.t_acquired && !z.pend_end && !z.hold_n,
		   "hold timing off: unlocked, record written, no hold counted");
	}
	tracked_lock(&fake_ops, &fake, NULL, NULL);
	tracked_unlock(&fake_ops, &fake, NULL, NULL);
	is_int(st->acquired, 7, "NULL stats: no accounting");

	lock_stats_sum(sum, sets, 2);
	is_int(sum[LC_BENCH].acquired, 109, "sum of acquisitions");
	is_int(sum[LC_BENCH].handoffs, 3, "sum of handoffs");
	is_int(sum[LC_PAGE_COUNTER].contended, 7, "sum of contentions");
	is_int(sum[LC_PAGE_COUNTER].wait_min_ns, w0[LC_PAGE_COUNTER].wait_min_ns,
	       "min over workers ignores workers without waits");

	/* Result columns of a real run: 1 worker, lock workload. */
	harness_defaults(&o);
	o.wl = workload_find("lock");
	o.lock = mutex;
	o.knobs = knobset_new();
	o.seconds = 0.2;
	o.sample_ms = 50;
	o.warmup = 1;
	o.aff = AFF_NONE;
	o.arena_size = 64 << 20;
	ok(o.wl != NULL, "lock workload registered");
	if (o.wl && harness_run_one(&o, 1, 0, &res) == 0) {
		double acq = result_get(&res, "acq_max", -1);
		is_int((long long)result_get(&res, "bench_contended_pct", -1), 0,
		       "1 worker: 0%% contended");
		ok(result_get(&res, "bench_wait_avg_ns", -1) == 0, "1 worker: no wait");
		ok(result_get(&res, "bench_wait_max_ns", -1) == 0, "1 worker: no max wait");
		ok(acq > 0, "the run acquired the lock (%.0f times)", acq);
		ok(result_get(&res, "pgdat_lru_lock_contended_pct", -1) == -1,
		   "no columns for classes the run never used");
		result_free(&res);
	} else {
		ok(0, "harness run with lockstat on");
	}
	knobset_set_arg(o.knobs, "lockstat=off");
	if (o.wl && harness_run_one(&o, 1, 0, &res) == 0) {
		ok(result_get(&res, "bench_contended_pct", -1) == -1,
		   "lockstat=off: no contention columns");
		ok(result_get(&res, "acq_max", -1) > 0, "lockstat=off: still runs");
		result_free(&res);
	} else {
		ok(0, "harness run with lockstat off");
	}
	{
		/* A workload's own stats adopted by the harness. */
		struct worker w;
		struct lock_stat *own = arena_alloc_padded(a, LC_NR * sizeof(*own));

		memset(&w, 0, sizeof(w));
		w.id = 3;
		own[LC_STATS_FLUSH].acquired = 99;
		runstat_adopt(&w, own);
		ok(w.lock_stats == own, "runstat_adopt makes the harness report the set");
		ok(own[LC_STATS_FLUSH].worker == 3 && own[LC_STATS_FLUSH].cls == LC_STATS_FLUSH &&
		   own[LC_STATS_FLUSH].inited && own[LC_STATS_FLUSH].acquired == 0,
		   "adopted set is initialised with worker id and classes");
	}
	knobset_free(o.knobs);
	arena_destroy(a);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
