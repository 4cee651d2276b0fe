/*
 * bench_locks - what the lock layer and the harness cost, single-threaded.
 *
 *  1. Uncontended lock+unlock for every registered lock, through the
 *     registry (ops->lock / ops->unlock, two indirect calls) and calling
 *     the algorithm directly (CK's inline functions, our qspinlock.h /
 *     ttas_backoff.h inlines, glibc's pthread functions), the two loops
 *     alternating round by round.  Target: registry <= 10% over direct.
 *  2. The harness's cost per empty operation: the `lock` workload with
 *     lock `none`, cs=0, think=0, lines=0 run by harness_run_one() at one
 *     worker, against a bare loop with the same body (same indirect
 *     calls, same protected-word and per-lock counter updates) but no
 *     stop-flag check and no per-worker ops counter.  Target: < 1 ns/op.
 *
 * The `none` row (two indirect calls to empty functions) is the floor of
 * any registry call: a lock whose inlined pair costs about as much (the
 * one-xchg TAS family) cannot come within 10% through the ops table.
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

#include "../experiments/harness.h"
#include "../locks/qspinlock.h"
#include "../locks/ttas_backoff.h"

/*
 * Many short rounds: on a shared machine a round is either clean or hit
 * by a preemption or a busy SMT sibling, and the median of short rounds
 * tolerates that better than a few long ones.  The ratio is the median
 * of the per-round ratios (registry and direct measured back to back,
 * order alternating), so slow drifts cancel.
 */
#define ROUNDS 31
#define PAIRS 200000ul /* lock+unlock pairs per round */
#define HARNESS_ROUNDS 5
#define BARE_OPS 50000000ul

/* ---- direct loops: the algorithm's own functions, inlined ---- */

typedef void (*direct_fn)(void *lock, void *ctx, unsigned long n);

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

#define DIRECT_PLAIN(algo)						\
static void direct_ck_##algo(void *l, void *c, unsigned long n)	\
{									\
	for (unsigned long i = 0; i < n; i++) {				\
		ck_spinlock_##algo##_lock(l);				\
		ck_spinlock_##algo##_unlock(l);				\
	}								\
}
DIRECT_PLAIN(fas)
DIRECT_PLAIN(cas)
DIRECT_PLAIN(dec)
DIRECT_PLAIN(ticket)

static void direct_ck_ticket_pb(void *l, void *c, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		ck_spinlock_ticket_lock_pb(l, 5); /* as locks/ck_ticket_pb.c */
		ck_spinlock_ticket_unlock(l);
	}
}

static void direct_ck_mcs(void *l, void *c, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		ck_spinlock_mcs_lock(l, c);
		ck_spinlock_mcs_unlock(l, c);
	}
}

static void direct_ck_clh(void *l, void *c, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		ck_spinlock_clh_lock(&dclh->tail, dclh->mine);
		ck_spinlock_clh_unlock(&dclh->mine);
	}
}

/* The context of locks/ck_anderson.c is just the slot pointer. */
static void direct_ck_anderson(void *l, void *c, unsigned long n)
{
	ck_spinlock_anderson_thread_t **slot = c;

	for (unsigned long i = 0; i < n; i++) {
		ck_spinlock_anderson_lock(l, slot);
		ck_spinlock_anderson_unlock(l, *slot);
	}
}

static void direct_qspinlock(void *l, void *c, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		qspin_lock(l, c);
		qspin_unlock(l);
	}
}

static void direct_ttas_backoff(void *l, void *c, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		ttas_lock(l);
		ttas_unlock(l);
	}
}

static void direct_pthread_spin(void *l, void *c, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		pthread_spin_lock(l);
		pthread_spin_unlock(l);
	}
}

static void direct_pthread_mutex(void *l, void *c, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		pthread_mutex_lock(l);
		pthread_mutex_unlock(l);
	}
}

static const struct { const char *name; direct_fn fn; } directs[] = {
	{ "ck_anderson", direct_ck_anderson },
	{ "ck_cas", direct_ck_cas },
	{ "ck_clh", direct_ck_clh },
	{ "ck_dec", direct_ck_dec },
	{ "ck_fas", direct_ck_fas },
	{ "ck_mcs", direct_ck_mcs },
	{ "ck_ticket", direct_ck_ticket },
	{ "ck_ticket_pb", direct_ck_ticket_pb },
	{ "pthread_mutex", direct_pthread_mutex },
	{ "pthread_spin", direct_pthread_spin },
	{ "qspinlock", direct_qspinlock },
	{ "ttas_backoff", direct_ttas_backoff },
};

static direct_fn direct_for(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(directs); i++)
		if (!strcmp(directs[i].name, name))
			return directs[i].fn;
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

static void bench_registry(void)
{
	const struct lock_ops **all;
	size_t n = lock_all(&all);
	struct arena *arena = arena_create((size_t)64 << 20);
	double worst = 0, floor_ns = 0;
	const char *worst_name = "-";

	dclh = arena_alloc_padded(arena, sizeof(*dclh));
	ck_spinlock_clh_init(&dclh->tail, &dclh->unowned);
	dclh->mine = &dclh->node;

	printf("1. uncontended lock+unlock, ns per pair (median of %d x %lu;"
	       " ratio = median of per-round ratios)\n", ROUNDS, PAIRS);
	printf("   %-14s %10s %10s %8s   %s\n", "lock", "registry", "direct",
	       "ratio", "best-of: registry direct ratio");
	for (size_t i = 0; i < n; i++) {
		const struct lock_ops *ops = all[i];
		void *l = lock_new(ops, arena, 1);
		void *c = lock_ctx_new(ops, arena, l, 0);
		direct_fn direct = direct_for(ops->name);
		double reg[ROUNDS], dir[ROUNDS], ratio[ROUNDS], r, d, q, rb, db;

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
		r = median(reg, ROUNDS); /* sorts: reg[0] is the best */
		rb = reg[0];
		if (!direct) {
			printf("   %-14s %10.2f %10s %8s   %8.2f\n", ops->name, r,
			       "-", "-", rb);
			if (ops->flags & LOCK_F_UNSAFE)
				floor_ns = r;
			continue;
		}
		d = median(dir, ROUNDS);
		db = dir[0];
		q = median(ratio, ROUNDS);
		printf("   %-14s %10.2f %10.2f %7.3fx   %8.2f %6.2f %6.3fx\n",
		       ops->name, r, d, q, rb, db, rb / db);
		if (q > worst) {
			worst = q;
			worst_name = ops->name;
		}
	}
	printf("   worst registry/direct: %.3fx (%s); target <= 1.10x: %s\n",
	       worst, worst_name, worst <= 1.10 ? "met" : "MISSED");
	/* `none` through the registry is two indirect calls to empty
	 * functions: no lock can cost less than that via the ops table. */
	printf("   indirect-call floor (none via the registry): %.2f ns per pair\n\n",
	       floor_ns);
	arena_destroy(arena);
}

/* ---- harness overhead ---- */

/* The lock workload's shared and per-worker state (experiments/wl_lock.c),
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
};

/*
 * The body of the lock workload's loop, statement for statement, with
 * lockstat off (tracked_lock() with NULL stats is a plain ops->lock).
 * Only the loop control differs: a counted loop instead of WORKER_LOOP's
 * stop-flag load and per-worker ops-counter store.  The indirect calls
 * keep the compiler from caching any of the fields, as in the workload.
 */
static __attribute__((noinline)) void bare_loop(const struct lock_ops *ops,
						const struct bare_shared *sh,
						struct bare_worker *lw,
						unsigned long n)
{
	unsigned lines = sh->lines;

	for (unsigned long i = 0; i < n; i++) {
		unsigned l = sh->nlocks == 1 ? 0 : (unsigned)(lw->rng++ % sh->nlocks);
		volatile uint64_t *d = sh->data[l];

		ops->lock(sh->locks[l], lw->ctx[l]);
		d[0]++;
		for (unsigned k = 1; k < lines; k++)
			d[k * 8]++;
		spin_iters(sh->cs_iters);
		ops->unlock(sh->locks[l], lw->ctx[l]);
		lw->acquired[l]++;
		spin_iters(sh->think_iters);
	}
}

static void bench_harness(void)
{
	const struct lock_ops *none = lock_find("none");
	struct arena *arena = arena_create((size_t)1 << 20);
	struct bare_shared *sh = arena_alloc_padded(arena, sizeof(*sh));
	struct bare_worker *lw = arena_alloc_padded(arena, sizeof(*lw));
	struct harness_opts o;
	double h[HARNESS_ROUNDS], b[HARNESS_ROUNDS], hm, bm;
	char err[256];
	bool stats_off;

	sh->nlocks = 1;
	sh->locks = arena_alloc(arena, sizeof(void *), 8);
	sh->locks[0] = lock_new(none, arena, 1);
	sh->data = arena_alloc(arena, sizeof(uint64_t *), 8);
	sh->data[0] = arena_alloc_padded(arena, CACHELINE);
	lw->ctx = arena_alloc(arena, sizeof(void *), 8);
	lw->acquired = arena_alloc_padded(arena, sizeof(uint64_t));

	harness_defaults(&o);
	o.wl = workload_find("lock");
	o.lock = none;
	o.knobs = knobset_new();
	knobset_set_arg(o.knobs, "cs=0");
	knobset_set_arg(o.knobs, "think=0");
	knobset_set_arg(o.knobs, "lines=0");
	/* Lock statistics are the tracing layer's cost, not the harness's. */
	stats_off = knobset_set(o.knobs, "lockstat", "off", err, sizeof(err));
	o.seconds = 0.5;
	o.sample_ms = 250;
	o.warmup = 1;
	o.arena_size = (size_t)64 << 20;

	bare_loop(none, sh, lw, BARE_OPS / 10);
	for (int k = 0; k < HARNESS_ROUNDS; k++) {
		struct result res;
		uint64_t t0;
		int st = harness_run_one(&o, 1, (unsigned)k, &res);

		if (st || res.ops_per_sec <= 0)
			die(1, "bench_locks: harness run failed (status %d)", st);
		h[k] = 1e9 / res.ops_per_sec;
		result_free(&res);
		t0 = now_ns();
		bare_loop(none, sh, lw, BARE_OPS);
		b[k] = (double)(now_ns() - t0) / BARE_OPS;
	}
	hm = median(h, HARNESS_ROUNDS);
	bm = median(b, HARNESS_ROUNDS);
	printf("2. empty operation (lock workload, lock none, cs=0 think=0 lines=0,"
	       " lockstat %s, 1 worker)\n", stats_off ? "off" : "on (no knob)");
	printf("   harness_run_one  %8.3f ns/op (median of %d x %.1f s)\n", hm,
	       HARNESS_ROUNDS, o.seconds);
	printf("   bare loop        %8.3f ns/op (median of %d x %lu)\n", bm,
	       HARNESS_ROUNDS, BARE_OPS);
	printf("   harness overhead %8.3f ns/op; target < 1 ns/op: %s\n",
	       hm - bm, hm - bm < 1.0 ? "met" : "MISSED");
	knobset_free(o.knobs);
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
