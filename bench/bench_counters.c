/*
 * bench_counters - single-threaded cost of the counter schemes.
 *
 *  1. ns per add() through the ops table for every scheme and threshold,
 *     for a run of +1 (folds at the scheme's rate) and for +1/-1 pairs
 *     (charge/uncharge: batch schemes stay on the fast path).
 *  2. The percpu_batch fast path inlined (no fold, no indirect call)
 *     against a plain thread-local increment and a shared atomic add.
 *     Targets: fast path <= 1.5x the plain increment, and faster than
 *     the atomic.  Timing noise on a shared machine can miss them; the
 *     figures are printed, the exit status does not depend on them.
 *     GCC emits the plain increment as one read-modify-write to memory
 *     (add $1, %fs:x) and the fast path as a load and a store; CPUs that
 *     rename memory through store-to-load forwarding (AMD Zen 2+) run
 *     the latter faster, so the fast path can beat the plain increment
 *     there.  Through the ops table an add also pays an indirect call.
 *  3. read() vs read_exact() at several worker-slot counts.
 *
 * Every figure is the best of REPS runs.  Total well under 30 s.
 */
#include <stdio.h>
#include <stdlib.h>

#include "counters/counter.h"
#include "counters/pcpu.h"
#include "locks/lock.h"

#define ADDS 2000000L
#define READS 400000u
#define REPS 9

struct config {
	const char *name;
	long thr; /* 0: the scheme's default */
};

static const struct config configs[] = {
	{ "atomic", 0 },
	{ "percpu_batch", 32 },
	{ "percpu_batch", 64 },
	{ "percpu_batch", 512 },
	{ "percpu_batch_dynamic", 0 },
	{ "percpu_counter", 0 },
	{ "vmstat", 0 },
	{ "sloppy", 32 },
	{ "sloppy", 512 },
	{ "percpu_exact", 0 },
};

static __thread long tls_count;

static double best(double a, double b)
{
	return a < b ? a : b;
}

static void *make(struct arena *a, const struct counter_ops *ops,
		  unsigned nworkers, long thr, void **ctx0)
{
	struct counter_params p = { .nworkers = nworkers, .threshold = thr,
				    .lock = lock_find("pthread_mutex") };
	void *c = counter_new(ops, a, &p);

	for (unsigned i = 0; i < nworkers; i++) {
		void *ctx = counter_ctx_new(ops, a, c, i);
		if (!i && ctx0)
			*ctx0 = ctx;
	}
	return c;
}

static double time_ops_add(const struct counter_ops *ops, void *c, void *ctx,
			   bool pairs)
{
	uint64_t t0 = now_ns();

	if (pairs) {
		for (long i = 0; i < ADDS; i += 2) {
			ops->add(c, ctx, 1);
			ops->add(c, ctx, -1);
		}
	} else {
		for (long i = 0; i < ADDS; i++)
			ops->add(c, ctx, 1);
	}
	return (double)(now_ns() - t0) / ADDS;
}

static void bench_adds(struct arena *a)
{
	printf("%-22s %6s %14s %14s %12s\n", "counter", "thr", "ns/add(+1)",
	       "ns/add(+1-1)", "folds/Mupd");
	for (size_t i = 0; i < ARRAY_SIZE(configs); i++) {
		const struct counter_ops *ops = counter_find(configs[i].name);
		double inc = 1e9, pair = 1e9;
		uint64_t folds = 0;
		void *c = NULL, *ctx;

		if (!ops)
			continue;
		for (int r = 0; r < REPS; r++) {
			c = make(a, ops, 1, configs[i].thr, &ctx);
			inc = best(inc, time_ops_add(ops, c, ctx, false));
			folds = counter_folds(ops, c, ADDS);
			pair = best(pair, time_ops_add(ops, c, ctx, true));
		}
		printf("%-22s %6ld %14.2f %14.2f %12.0f\n", ops->name,
		       ops->threshold(c), inc, pair, (double)folds * 1e6 / ADDS);
	}
}

static void bench_fast_path(struct arena *a)
{
	const struct counter_ops *batch = counter_find("percpu_batch");
	const struct counter_ops *atom = counter_find("atomic");
	double plain = 1e9, fast = 1e9, viaops = 1e9, atomic_inline = 1e9;
	long *shared = arena_alloc_padded(a, sizeof(long));

	for (int r = 0; r < REPS; r++) {
		void *ctx, *c = make(a, batch, 1, 1L << 20, &ctx);
		uint64_t t0;

		/* +1/-1 pairs: the batch never reaches its threshold. */
		t0 = now_ns();
		for (long i = 0; i < ADDS; i += 2) {
			tls_count += 1;
			compiler_barrier();
			tls_count -= 1;
			compiler_barrier();
		}
		plain = best(plain, (double)(now_ns() - t0) / ADDS);

		/* The barriers, as in the plain loop, keep the compiler from
		 * carrying the slot in a register across adds: every add is a
		 * load, add, compare and store, as separate kernel calls are. */
		t0 = now_ns();
		for (long i = 0; i < ADDS; i += 2) {
			pcpu_batch_add(c, ctx, 1);
			compiler_barrier();
			pcpu_batch_add(c, ctx, -1);
			compiler_barrier();
		}
		fast = best(fast, (double)(now_ns() - t0) / ADDS);
		if (counter_folds(batch, c, ADDS))
			printf("# unexpected folds on the fast path\n");

		viaops = best(viaops, time_ops_add(batch, c, ctx, true));

		t0 = now_ns();
		for (long i = 0; i < ADDS; i += 2) {
			__atomic_fetch_add(shared, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(shared, -1, __ATOMIC_RELAXED);
		}
		atomic_inline = best(atomic_inline, (double)(now_ns() - t0) / ADDS);
	}
	keep((uint64_t)tls_count);
	printf("\n%-40s %10s %8s\n", "add, single thread, +1/-1 pairs", "ns/add",
	       "x plain");
	printf("%-40s %10.2f %8.2f\n", "plain thread-local increment", plain, 1.0);
	printf("%-40s %10.2f %8.2f\n", "percpu_batch fast path (inline)", fast,
	       fast / plain);
	printf("%-40s %10.2f %8.2f\n", "percpu_batch fast path (via ops)", viaops,
	       viaops / plain);
	printf("%-40s %10.2f %8.2f\n", "atomic add (inline lock xadd)",
	       atomic_inline, atomic_inline / plain);
	if (atom) {
		void *c = make(a, atom, 1, 0, NULL);
		double t = 1e9;
		for (int r = 0; r < REPS; r++)
			t = best(t, time_ops_add(atom, c, NULL, true));
		printf("%-40s %10.2f %8.2f\n", "atomic (via ops)", t, t / plain);
	}
	printf("target: fast path <= 1.5x plain: %s (%.2fx); faster than atomic: %s\n",
	       fast <= 1.5 * plain ? "met" : "MISSED", fast / plain,
	       fast < atomic_inline ? "met" : "MISSED");
}

static void bench_reads(struct arena *a)
{
	static const unsigned slots[] = { 1, 2, 4, 16, 64, 256 };
	static const char *const names[] = {
		"percpu_batch", "percpu_counter", "vmstat", "sloppy", "percpu_exact",
	};

	printf("\n%-16s", "read ns");
	for (size_t k = 0; k < ARRAY_SIZE(slots); k++)
		printf(" %8u slots", slots[k]);
	printf("\n");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const struct counter_ops *ops = counter_find(names[i]);
		double rd[ARRAY_SIZE(slots)], ex[ARRAY_SIZE(slots)];

		if (!ops)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(slots); k++) {
			void *c = make(a, ops, slots[k], 0, NULL);
			rd[k] = ex[k] = 1e9;
			for (int r = 0; r < REPS; r++) {
				rd[k] = best(rd[k], counter_time_reads(ops, c, false, READS));
				ex[k] = best(ex[k], counter_time_reads(ops, c, true,
								      READS / slots[k]));
			}
		}
		printf("%-16s", ops->name);
		for (size_t k = 0; k < ARRAY_SIZE(slots); k++)
			printf(" %14.2f", rd[k]);
		printf("   read()\n%-16s", "");
		for (size_t k = 0; k < ARRAY_SIZE(slots); k++)
			printf(" %14.2f", ex[k]);
		printf("   read_exact()\n");
	}
}

int main(void)
{
	struct arena *a = arena_create((size_t)1 << 30);
	uint64_t t0 = now_ns();

	bench_adds(a);
	bench_fast_path(a);
	bench_reads(a);
	printf("\n(bench_counters: %.1f s)\n", (double)(now_ns() - t0) / 1e9);
	arena_destroy(a);
	return 0;
}
