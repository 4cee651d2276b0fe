/*
 * lock_loop.h - the measured loop of the `lock` workload, shared by the
 * generic workload (workloads/micro/wl_lock.c, calls through the ops table)
 * and by one copy compiled inside each lock's own file.
 *
 * A lock file adds LOCK_BENCH_SPECIALISE(<name>_ops) after its ops table:
 * that instantiates lock_bench_loop() with a pointer to the lock's const
 * ops, so the compiler folds ops->lock / ops->unlock / ops->trylock into
 * direct (inlined) calls, the way Concurrency Kit compiles its throughput
 * benchmark once per lock.  The registry then costs one indirect call per
 * run instead of two per acquisition; the semantics are identical.
 */
#ifndef MEMSCALE_LOCK_LOOP_H
#define MEMSCALE_LOCK_LOOP_H

#include "core/worker.h"
#include "locks/tracked.h"

struct protected_data {
	uint64_t line[64][CACHELINE / sizeof(uint64_t)];
};

struct lock_shared {
	unsigned nlocks, lines;
	uint64_t cs_iters, think_iters; /* loop iterations, or */
	uint64_t cs_ns, think_ns;       /* times, converted per worker */
	void **locks;
	struct protected_data **data;
	/* specialised loop, or NULL */
	void (*loop)(struct worker *w, const struct lock_shared *sh);
};

struct lock_worker {
	void **ctx; /* one context per lock */
	uint64_t rng;
	uint64_t *acquired; /* per lock, to cross-check the data words */
	/* spin_delay() iterations of this worker, converted on its own CPU
	 * (vCPUs and SMT siblings do not run the loop equally fast) */
	uint64_t cs_iters, think_iters;
};

static inline uint64_t lock_loop_xorshift(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static inline __attribute__((always_inline)) void
lock_bench_loop(struct worker *w, const struct lock_shared *sh,
		const struct lock_ops *ops)
{
	struct lock_worker *lw = w->priv;
	/* Loop invariants in locals: the body's volatile stores could alias
	 * them as far as the compiler knows, so it would reload every one of
	 * them on every operation (and a reload in front of the unlock can
	 * wait on a false store-forwarding match, 4 KiB aliasing). */
	const unsigned lines = sh->lines, nlocks = sh->nlocks;
	void *const *const locks = sh->locks, *const *const ctxs = lw->ctx;
	struct protected_data *const *const data = sh->data;
	uint64_t *const acquired = lw->acquired;
	const uint64_t cs_iters = lw->cs_iters, think_iters = lw->think_iters;
	uint64_t rng = lw->rng;
	/* class LC_BENCH; NULL (plain lock/unlock) with --set lockstat=off */
	struct lock_stat *st = lock_stat_of(w->lock_stats, LC_BENCH);

	WORKER_LOOP(w) {
		unsigned l = nlocks == 1 ? 0 :
			(unsigned)(lock_loop_xorshift(&rng) % nlocks);
		volatile uint64_t *d = data[l]->line[0];
		void *lock = locks[l], *ctx = ctxs[l];

		tracked_lock(ops, lock, ctx, st);
		d[0]++;
		for (unsigned k = 1; k < lines; k++)
			d[k * 8]++;
		if (cs_iters)
			spin_delay(cs_iters);
		tracked_unlock(ops, lock, ctx, st);
		acquired[l]++;
		if (think_iters)
			spin_delay(think_iters);
	}
	lw->rng = rng;
}

struct lock_loop {
	const struct lock_ops *ops;
	void (*run)(struct worker *w, const struct lock_shared *sh);
};
REGISTRY_BOUNDS(lock_loop);

/* The loop compiled for `ops`, or NULL (then the generic one runs). */
typedef void lock_bench_fn(struct worker *w, const struct lock_shared *sh);
lock_bench_fn *lock_bench_specialised(const struct lock_ops *ops);

#define LOCK_BENCH_SPECIALISE(ops_obj)                                        \
	static void ops_obj##_bench_loop(struct worker *w,                   \
					 const struct lock_shared *sh)        \
	{                                                                     \
		lock_bench_loop(w, sh, &ops_obj);                             \
	}                                                                     \
	static const struct lock_loop ops_obj##_loop = { &ops_obj,           \
							 ops_obj##_bench_loop }; \
	REGISTER(lock_loop, ops_obj##_loop)

#endif
