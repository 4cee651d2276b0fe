/*
 * bench_locks - what the lock layer and the harness cost, single-threaded.
 *
 *  1. Uncontended lock+unlock for every registered lock, calling the
 *     algorithm directly (CK's inline functions, our qspinlock.h /
 *     ttas_backoff.h inlines, glibc's pthread functions) and through the
 *     registry in two ways:
 *       ops table  ops->lock / ops->unlock, two indirect calls per pair
 *                  (what the kernel models pay per acquisition);
 *       workload   the `lock` workload run by harness_run_one() at one
 *                  worker (cs=0 think=0 lines=0, lockstat off), which
 *                  uses the loop compiled inside the lock's own file
 *                  (LOCK_BENCH_SPECIALISE), against the same body under
 *                  the same loop control (count published and stop flag
 *                  read every WORKER_PUBLISH ops) with the pair inlined
 *                  by hand: the two differ only in how the lock is
 *                  reached, so their ratio is the registry's cost.
 *     Target: registry <= 10% over direct, judged on the workload path.
 *  2. The harness's cost per empty operation: the `lock` workload with
 *     lock `none` (specialised: the empty lock calls vanish), cs=0,
 *     think=0, lines=0 run by harness_run_one() at one worker, against a
 *     bare loop with the same body (same protected-word and per-lock
 *     counter updates) but no stop-flag check and no per-worker ops
 *     counter.  Target: < 1 ns/op.
 *
 * The `none` row of the ops-table column (two indirect calls to empty
 * functions) is the floor of any call through the ops table: a lock whose
 * inlined pair costs about as much (the one-xchg TAS family) cannot come
 * within 10% that way, which is why the workload path exists.
 *
 * The thread pins itself to the PU the harness gives worker 0, every
 * figure is the median of ROUNDS rounds, and the exit status does not
 * depend on the targets (a shared machine is noisy).  About 15 s.
 */
#include <ck_spinlock.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "locks/qspinlock.h"
#include "locks/ttas_backoff.h"

/*
 * Many short rounds: on a shared machine a round is either clean or hit
 * by a preemption or a busy SMT sibling, and the median of short rounds
 * tolerates that better than a few long ones.  The ratio is the median
 * of the per-round ratios (registry and direct measured back to back,
 * order alternating), so slow drifts cancel.
 */
#define ROUNDS 31
#define PAIRS 200000ul /* lock+unlock pairs per round */
#define BARE_OPS 50000000ul

/* ---- direct loops: the algorithm's own functions, inlined ---- */

typedef void (*direct_fn)(void *lock, void *ctx, unsigned long n);

/* The lock workload's shared and per-worker state (locks/lock_loop.h),
 * same fields, reached through the same pointers. */
struct bare_shared {
	unsigned nlocks, lines;
	uint64_t cs_iters, think_iters;
	void **locks;
	uint64_t **data;
};

struct bare_worker {
	void **ctx;
	uint64_t rng;
	uint64_t *acquired;
	uint64_t *ops;     /* published count, own line (as worker->ops) */
	const int *stop;   /* never set: the loops end by count */
};

typedef void (*direct_wl_fn)(const struct bare_shared *sh,
			     struct bare_worker *lw, unsigned long n);

/*
 * Direct loops run on the very objects the registry made (lock and
 * context), except CLH, whose lock/context wrapper in locks/ck_clh.c is
 * private: it gets its own CK objects, laid out the same way.
 */
struct direct_clh {
	ck_spinlock_clh_t *tail;
	ck_spinlock_clh_t unowned cacheline_aligned;
	ck_spinlock_clh_t node cacheline_aligned;
	ck_spinlock_clh_t *mine;
};

static struct direct_clh *dclh;

/*
 * For each lock two direct loops: the bare pair, and the body of the lock
 * workload's loop (lock_bench_loop with lockstat off) with the pair
 * inlined, statement for statement, under the harness's loop control
 * (WORKER_LOOP: the count published and the stop flag loaded every
 * WORKER_PUBLISH operations), so that the workload and the direct loop
 * differ only in how the lock is reached.  LOCK and UNLOCK are statements
 * over `l` (the lock) and `c` (the context).  `none` also gets the body
 * under a plain counted loop (bare_wl_none): the harness's own cost.
 */
#define WL_BODY_LOOP(fname, LOCK, UNLOCK, HEAD)				\
static __attribute__((noinline)) void					\
fname(const struct bare_shared *sh, struct bare_worker *lw, unsigned long n) \
{									\
	const unsigned lines = sh->lines, nlocks = sh->nlocks;		\
	void *const *const locks = sh->locks, *const *const ctxs = lw->ctx; \
	uint64_t *const *const data = sh->data;				\
	uint64_t *const acquired = lw->acquired;			\
	const uint64_t cs_iters = sh->cs_iters, think_iters = sh->think_iters; \
	uint64_t rng = lw->rng;						\
									\
	HEAD {								\
		unsigned li = nlocks == 1 ? 0 :				\
			(unsigned)(rng++ % nlocks);			\
		volatile uint64_t *d = data[li];			\
		void *l = locks[li], *c = ctxs[li];			\
									\
		(void)l;						\
		(void)c;						\
		LOCK;							\
		d[0]++;							\
		for (unsigned k = 1; k < lines; k++)			\
			d[k * 8]++;					\
		if (cs_iters)						\
			spin_delay(cs_iters);				\
		UNLOCK;							\
		acquired[li]++;						\
		if (think_iters)					\
			spin_delay(think_iters);			\
	}								\
	lw->rng = rng;							\
}

/* WORKER_LOOP's control (core/worker.h), ending after n ops. */
#define HARNESS_HEAD							\
	for (unsigned long i = 0;					\
	     (i % WORKER_PUBLISH) ||					\
	     (__atomic_store_n(lw->ops, i, __ATOMIC_RELAXED),		\
	      !__atomic_load_n(lw->stop, __ATOMIC_RELAXED) && i < n);	\
	     i++)
#define BARE_HEAD for (unsigned long i = 0; i < n; i++)

#define DIRECT(name, LOCK, UNLOCK)					\
static __attribute__((unused)) void direct_##name(void *l, void *c, unsigned long n) \
{									\
	for (unsigned long i = 0; i < n; i++) {				\
		LOCK;							\
		UNLOCK;							\
	}								\
}									\
WL_BODY_LOOP(direct_wl_##name, LOCK, UNLOCK, HARNESS_HEAD)

DIRECT(ck_fas, ck_spinlock_fas_lock(l), ck_spinlock_fas_unlock(l))
DIRECT(ck_cas, ck_spinlock_cas_lock(l), ck_spinlock_cas_unlock(l))
DIRECT(ck_dec, ck_spinlock_dec_lock(l), ck_spinlock_dec_unlock(l))
DIRECT(ck_ticket, ck_spinlock_ticket_lock(l), ck_spinlock_ticket_unlock(l))
/* backoff constant as locks/ck_ticket_pb.c */
DIRECT(ck_ticket_pb, ck_spinlock_ticket_lock_pb(l, 5), ck_spinlock_ticket_unlock(l))
DIRECT(ck_mcs, ck_spinlock_mcs_lock(l, c), ck_spinlock_mcs_unlock(l, c))
DIRECT(ck_clh, ck_spinlock_clh_lock(&dclh->tail, dclh->mine),
       ck_spinlock_clh_unlock(&dclh->mine))
/* The context of locks/ck_anderson.c is just the slot pointer. */
DIRECT(ck_anderson,
       ck_spinlock_anderson_lock(l, (ck_spinlock_anderson_thread_t **)c),
       ck_spinlock_anderson_unlock(l, *(ck_spinlock_anderson_thread_t **)c))
DIRECT(qspinlock, qspin_lock(l, c), qspin_unlock(l))
DIRECT(ttas_backoff, ttas_lock(l), ttas_unlock(l))
DIRECT(pthread_spin, pthread_spin_lock(l), pthread_spin_unlock(l))
DIRECT(pthread_mutex, pthread_mutex_lock(l), pthread_mutex_unlock(l))
/* `none`: the workload body alone, without the harness's loop control */
WL_BODY_LOOP(bare_wl_none, (void)0, (void)0, BARE_HEAD)

#define D(name) { #name, direct_##name, direct_wl_##name }
static const struct {
	const char *name;
	direct_fn fn;
	direct_wl_fn wl;
} directs[] = {
	D(ck_anderson), D(ck_cas), D(ck_clh), D(ck_dec), D(ck_fas), D(ck_mcs),
	D(ck_ticket), D(ck_ticket_pb), D(pthread_mutex), D(pthread_spin),
	D(qspinlock), D(ttas_backoff),
};
#undef D

static direct_fn direct_for(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(directs); i++)
		if (!strcmp(directs[i].name, name))
			return directs[i].fn;
	return NULL;
}

static direct_wl_fn direct_wl_for(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(directs); i++)
		if (!strcmp(directs[i].name, name))
			return directs[i].wl;
	return NULL;
}

/* noinline: one loop for every lock, so each call site is a true
 * indirect call, exactly what the harness and the models execute. */
static __attribute__((noinline)) void registry_loop(const struct lock_ops *ops,
						    void *l, void *c,
						    unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		ops->lock(l, c);
		ops->unlock(l, c);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define WL_ROUNDS 5
#define WL_OPS 2000000ul

/* A one-lock workload state around (l, c), as the lock workload's setup
 * makes it with locks=1 lines=0 cs=0 think=0. */
static struct bare_shared *bare_state(struct arena *a, void *l, void *c,
				      struct bare_worker **lw_out)
{
	struct bare_shared *sh = arena_alloc_padded(a, sizeof(*sh));
	struct bare_worker *lw = arena_alloc_padded(a, sizeof(*lw));

	sh->nlocks = 1;
	sh->locks = arena_alloc(a, sizeof(void *), 8);
	sh->locks[0] = l;
	sh->data = arena_alloc(a, sizeof(uint64_t *), 8);
	sh->data[0] = arena_alloc_padded(a, CACHELINE);
	lw->ctx = arena_alloc(a, sizeof(void *), 8);
	lw->ctx[0] = c;
	lw->acquired = arena_alloc_padded(a, sizeof(uint64_t));
	lw->ops = arena_alloc_padded(a, sizeof(uint64_t));
	lw->stop = arena_alloc_padded(a, sizeof(int));
	*lw_out = lw;
	return sh;
}

/*
 * The `lock` workload under `ops` through harness_run_one() (1 worker,
 * lines=0 cs=0 think=0, lockstat off: the specialised loop) against the
 * direct loop `fn` of the same body, round by round back to back, so a
 * vCPU whose speed drifts (this kind of machine) hits both alike.
 * Returns the median over rounds of workload ns/op / direct
 * ns/op, and the medians of both timings.
 */
static double workload_vs_direct(const struct lock_ops *ops, direct_wl_fn fn,
				 const struct bare_shared *sh,
				 struct bare_worker *lw, double seconds, unsigned long direct_ops,
				 double *wl_ns, double *direct_ns)
{
	struct harness_opts o;
	double h[WL_ROUNDS], d[WL_ROUNDS], q[WL_ROUNDS];
	char err[256];

	harness_defaults(&o);
	o.wl = workload_find("lock");
	o.lock = ops;
	o.knobs = knobset_new();
	knobset_set_arg(o.knobs, "cs=0");
	knobset_set_arg(o.knobs, "think=0");
	knobset_set_arg(o.knobs, "lines=0");
	/* Lock statistics are the tracing layer's cost, not the harness's. */
	if (!knobset_set(o.knobs, "lockstat", "off", err, sizeof(err)))
		die(1, "bench_locks: %s", err);
	o.seconds = seconds;
	o.sample_ms = 100;
	o.warmup = 1;
	o.arena_size = (size_t)64 << 20;
	fn(sh, lw, direct_ops / 10);
	for (int k = 0; k < WL_ROUNDS; k++) {
		struct result res;
		uint64_t t0 = now_ns();
		int st;

		fn(sh, lw, direct_ops);
		d[k] = (double)(now_ns() - t0) / direct_ops;
		st = harness_run_one(&o, 1, (unsigned)k, &res);
		if (st || res.ops_per_sec <= 0)
			die(1, "bench_locks: harness run of %s failed (status %d)",
			    ops->name, st);
		h[k] = 1e9 / res.ops_per_sec;
		q[k] = h[k] / d[k];
		result_free(&res);
	}
	knobset_free(o.knobs);
	*wl_ns = median(h, WL_ROUNDS);
	*direct_ns = median(d, WL_ROUNDS);
	return median(q, WL_ROUNDS);
}

static void bench_registry(void)
{
	const struct lock_ops **all;
	size_t n = lock_all(&all);
	struct arena *arena = arena_create((size_t)64 << 20);
	double worst = 0, floor_ns = 0, wl_worst = 0;
	const char *worst_name = "-", *wl_worst_name = "-";

	dclh = arena_alloc_padded(arena, sizeof(*dclh));
	ck_spinlock_clh_init(&dclh->tail, &dclh->unowned);
	dclh->mine = &dclh->node;

	printf("1. uncontended lock+unlock, ns per pair (median of %d x %lu;"
	       " ratio = median of per-round ratios)\n", ROUNDS, PAIRS);
	printf("   %-14s %10s %10s %8s | %12s %12s %8s\n", "lock", "ops table",
	       "direct", "ratio", "workload op", "direct op", "ratio*");
	for (size_t i = 0; i < n; i++) {
		const struct lock_ops *ops = all[i];
		void *l = lock_new(ops, arena, 1);
		void *c = lock_ctx_new(ops, arena, l, 0);
		direct_fn direct = direct_for(ops->name);
		double reg[ROUNDS], dir[ROUNDS], ratio[ROUNDS], r, d, q, w, dw, wq;

		registry_loop(ops, l, c, PAIRS / 10); /* warm up */
		if (direct)
			direct(l, c, PAIRS / 10);
		for (int k = 0; k < ROUNDS; k++) {
			uint64_t t0, t1, t2;

			if (!direct) {
				t0 = now_ns();
				registry_loop(ops, l, c, PAIRS);
				reg[k] = (double)(now_ns() - t0) / PAIRS;
				continue;
			}
			t0 = now_ns();
			if (k & 1)
				direct(l, c, PAIRS);
			else
				registry_loop(ops, l, c, PAIRS);
			t1 = now_ns();
			if (k & 1)
				registry_loop(ops, l, c, PAIRS);
			else
				direct(l, c, PAIRS);
			t2 = now_ns();
			reg[k] = (double)((k & 1) ? t2 - t1 : t1 - t0) / PAIRS;
			dir[k] = (double)((k & 1) ? t1 - t0 : t2 - t1) / PAIRS;
			ratio[k] = reg[k] / dir[k];
		}
		r = median(reg, ROUNDS);
		if (!direct) {
			printf("   %-14s %10.2f %10s %8s |\n", ops->name, r, "-", "-");
			if (ops->flags & LOCK_F_UNSAFE)
				floor_ns = r;
			continue;
		}
		d = median(dir, ROUNDS);
		q = median(ratio, ROUNDS);
		{
			struct bare_worker *lw;
			struct bare_shared *sh = bare_state(arena, l, c, &lw);

			wq = workload_vs_direct(ops, direct_wl_for(ops->name), sh,
						lw, 0.2, WL_OPS, &w, &dw);
		}
		printf("   %-14s %10.2f %10.2f %7.3fx | %12.2f %12.2f %7.3fx\n",
		       ops->name, r, d, q, w, dw, wq);
		if (q > worst) {
			worst = q;
			worst_name = ops->name;
		}
		if (wq > wl_worst) {
			wl_worst = wq;
			wl_worst_name = ops->name;
		}
	}
	printf("   workload op: the lock workload through harness_run_one (1 worker,"
	       " lines=0 cs=0 think=0,\n   lockstat off; the loop specialised in"
	       " the lock's file, found through the registry);\n   direct op: the"
	       " same body and loop control with the pair inlined by hand;\n"
	       "   ratio* = median of per-round ratios, the two run back to back\n");
	printf("   worst ops-table/direct: %.3fx (%s)\n", worst, worst_name);
	/* `none` through the ops table is two indirect calls to empty
	 * functions: no lock can cost less than that via the ops table. */
	printf("   indirect-call floor (none via the ops table): %.2f ns per pair\n",
	       floor_ns);
	printf("   worst workload op/direct op: %.3fx (%s); target <= 1.10x: %s\n\n",
	       wl_worst, wl_worst_name, wl_worst <= 1.10 ? "met" : "MISSED");
	arena_destroy(arena);
}

/* ---- harness overhead ---- */

static void bench_harness(void)
{
	const struct lock_ops *none = lock_find("none");
	struct arena *arena = arena_create((size_t)1 << 20);
	struct bare_worker *lw;
	struct bare_shared *sh = bare_state(arena, lock_new(none, arena, 1), NULL, &lw);
	const double seconds = 0.5;
	double hm, bm;

	workload_vs_direct(none, bare_wl_none, sh, lw, seconds, BARE_OPS,
			   &hm, &bm);
	printf("2. empty operation (lock workload, lock none, cs=0 think=0 lines=0,"
	       " lockstat off, 1 worker)\n");
	printf("   harness_run_one  %8.3f ns/op (median of %d x %.1f s)\n", hm,
	       WL_ROUNDS, seconds);
	printf("   bare loop        %8.3f ns/op (median of %d x %lu)\n", bm,
	       WL_ROUNDS, BARE_OPS);
	printf("   harness overhead %8.3f ns/op; target < 1 ns/op: %s\n",
	       hm - bm, hm - bm < 1.0 ? "met" : "MISSED");
	arena_destroy(arena);
}

int main(void)
{
	int pu = topo_pu_for(AFF_CORES, 0);

	if (topo_pin_self(pu))
		fprintf(stderr, "bench_locks: warning: could not pin to PU %d\n", pu);
	printf("bench_locks: pinned to PU %d, %s\n\n", pu, topo_get()->cpu_model);
	bench_registry();
	bench_harness();
	return 0;
}
