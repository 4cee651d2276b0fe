/*
 * lock - lock microbenchmark (Concurrency Kit's throughput.h and libslock's
 * stress_test, through the registry).  Per operation: pick one of `locks`
 * locks, acquire it, write `lines` cache lines of data it protects, spend
 * `cs` in the critical section, release, spend `think` outside.  One
 * operation = one acquisition.
 *
 * Invariant: every acquisition increments its lock's first data word, so
 * after the run the words sum to the operations counted by the harness.
 */
#include "harness/workload.h"
#include "locks/lock_loop.h"
#include "trace/lock_stat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool len_ok(const char *value);
#define LEN_ALLOWED "loop iterations 0..1000000000 or a time 0ns..100000000ns such as 200ns"
static const struct knob knob_cs = {
	.name = "cs", .owner = "lock workload", .type = KNOB_STR, .def = "0",
	.help = "critical-section length: loop iterations, or a time like 200ns",
	.check = len_ok, .allowed = LEN_ALLOWED,
};
static const struct knob knob_think = {
	.name = "think", .owner = "lock workload", .type = KNOB_STR, .def = "0",
	.help = "think time between acquisitions: loop iterations or e.g. 500ns",
	.check = len_ok, .allowed = LEN_ALLOWED,
};
static const struct knob knob_lines = {
	.name = "lines", .owner = "lock workload", .type = KNOB_INT, .def = "1",
	.min = 0, .max = 64,
	.help = "cache lines of shared data written inside the critical section",
};
static const struct knob knob_locks = {
	.name = "locks", .owner = "lock workload", .type = KNOB_INT, .def = "1",
	.min = 1, .max = 4096,
	.help = "number of locks; each acquisition picks one at random",
};
REGISTER(knob, knob_cs);
REGISTER(knob, knob_think);
REGISTER(knob, knob_lines);
REGISTER(knob, knob_locks);

/*
 * Loop iterations per nanosecond of spin_delay(), measured once per
 * worker thread or process, on the worker's own (pinned) CPU.  The CPU is first kept busy for 30 ms so that its clock has
 * ramped up from idle (a cold clock makes the loop look slow and every
 * "Nns" too short); then the fastest of several 2 ms timings counts,
 * since a timing can only be slowed down (preemption, a busy sibling),
 * never sped up.
 */
static double iters_per_ns(void)
{
	static __thread double v;

	if (v == 0) {
		uint64_t n = 1000, t0 = now_ns(), dt;

		while (now_ns() - t0 < 30000000ull) {
			spin_delay(n);
			if (n < (1u << 24))
				n *= 2;
		}
		/* n iterations took about as long as the last round: size the
		 * timed rounds to ~2 ms from the warm-up's own rate */
		t0 = now_ns();
		spin_delay(n);
		dt = now_ns() - t0 + 1;
		n = (uint64_t)((double)n * 2e6 / (double)dt) + 1;
		for (int k = 0; k < 9; k++) {
			t0 = now_ns();
			spin_delay(n);
			dt = now_ns() - t0 + 1;
			if ((double)n / (double)dt > v)
				v = (double)n / (double)dt;
		}
	}
	return v;
}

/* "N" (loop iterations) into *iters, or "Nns" into *ns; false if bad. */
static bool len_parse(const char *s, uint64_t *iters, uint64_t *ns)
{
	size_t n = strlen(s);
	long v;

	if (n > 2 && !strcmp(s + n - 2, "ns")) {
		char *num = strndup(s, n - 2);
		bool ok = parse_long(num, 0, 100000000, &v);
		free(num);
		if (ok)
			*ns = (uint64_t)v;
		return ok;
	}
	if (!parse_long(s, 0, 1000000000, &v))
		return false;
	*iters = (uint64_t)v;
	return true;
}

/* The knobs' check: --set and experiment files call it when they read. */
static bool len_ok(const char *value)
{
	uint64_t i, ns;

	return len_parse(value, &i, &ns);
}

static int parse_len(const char *s, const char *what, uint64_t *iters,
		     uint64_t *ns)
{
	if (len_parse(s, iters, ns))
		return 0;
	fprintf(stderr, "memscale: bad value '%s' for knob '%s' (allowed: "
		LEN_ALLOWED ")\n", s, what);
	return EXIT_USAGE;
}

static int lock_setup(struct run *r)
{
	struct lock_shared *sh = arena_alloc_padded(r->arena, sizeof(*sh));
	int err;

	if ((err = parse_len(knob_str(r->knobs, &knob_cs), "cs", &sh->cs_iters,
			     &sh->cs_ns)) ||
	    (err = parse_len(knob_str(r->knobs, &knob_think), "think",
			     &sh->think_iters, &sh->think_ns)))
		return err;
	sh->lines = (unsigned)knob_int(r->knobs, &knob_lines);
	sh->nlocks = (unsigned)knob_int(r->knobs, &knob_locks);
	sh->locks = arena_alloc(r->arena, sh->nlocks * sizeof(void *), 8);
	sh->data = arena_alloc(r->arena, sh->nlocks * sizeof(void *), 8);
	for (unsigned l = 0; l < sh->nlocks; l++) {
		sh->locks[l] = lock_new(r->lock, r->arena, r->nworkers);
		sh->data[l] = arena_alloc_padded(r->arena,
			sizeof(uint64_t) * 8 * (sh->lines ? sh->lines : 1));
	}
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct lock_worker *lw = arena_alloc_padded(r->arena, sizeof(*lw));
		lw->ctx = arena_alloc(r->arena, sh->nlocks * sizeof(void *), 8);
		lw->acquired = arena_alloc_padded(r->arena, sh->nlocks * sizeof(uint64_t));
		for (unsigned l = 0; l < sh->nlocks; l++)
			lw->ctx[l] = lock_ctx_new(r->lock, r->arena, sh->locks[l], i);
		lw->rng = 0x9e3779b97f4a7c15ull * (i + 1);
		r->workers[i].priv = lw;
	}
	/* A loop compiled for this very lock (LOCK_BENCH_SPECIALISE in its
	 * file) saves the two indirect calls per acquisition. */
	sh->loop = lock_bench_specialised(r->lock);
	r->shared = sh;
	return 0;
}

lock_bench_fn *lock_bench_specialised(const struct lock_ops *ops)
{
	REGISTRY_FOREACH(lock_loop, const struct lock_loop *, l)
		if (l->ops == ops)
			return l->run;
	return NULL;
}

/* Runs pinned, before the start gate: times become iterations here. */
static void lock_worker_init(struct worker *w)
{
	const struct lock_shared *sh = w->run->shared;
	struct lock_worker *lw = w->priv;

	lw->cs_iters = sh->cs_ns ?
		(uint64_t)((double)sh->cs_ns * iters_per_ns() + 0.5) : sh->cs_iters;
	lw->think_iters = sh->think_ns ?
		(uint64_t)((double)sh->think_ns * iters_per_ns() + 0.5) : sh->think_iters;
}

/* The generic loop: one indirect call per lock/unlock through the ops. */
static void lock_run(struct worker *w)
{
	const struct lock_shared *sh = w->run->shared;

	if (sh->loop)
		sh->loop(w, sh);
	else
		lock_bench_loop(w, sh, w->run->lock);
}

static int lock_finish(struct run *r, struct result *res)
{
	const struct lock_shared *sh = r->shared;
	uint64_t words = 0, counted = 0, lo = UINT64_MAX, hi = 0;

	for (unsigned l = 0; l < sh->nlocks; l++)
		words += sh->data[l]->line[0][0];
	for (unsigned i = 0; i < r->nworkers; i++) {
		const struct lock_worker *lw = r->workers[i].priv;
		uint64_t mine = 0;
		for (unsigned l = 0; l < sh->nlocks; l++)
			mine += lw->acquired[l];
		if (mine != r->workers[i].ops) {
			fprintf(stderr, "memscale: lock: worker %u acquired %llu times "
				"but the harness counted %llu operations\n", i,
				(unsigned long long)mine,
				(unsigned long long)r->workers[i].ops);
			return 1;
		}
		counted += mine;
		lo = mine < lo ? mine : lo;
		hi = mine > hi ? mine : hi;
	}
	result_metric(res, "acq_min", (double)lo);
	result_metric(res, "acq_max", (double)hi);
	result_metric(res, "lost_updates", (double)(counted - words));
	if (words != counted && !(r->lock->flags & LOCK_F_UNSAFE)) {
		fprintf(stderr, "memscale: lock: mutual exclusion violated under "
			"'%s': %llu acquisitions but the protected words sum to %llu\n",
			r->lock->name, (unsigned long long)counted,
			(unsigned long long)words);
		return 1;
	}
	return 0;
}

const struct workload lock_workload = {
	.name = "lock",
	.description = "lock microbenchmark: acquire, write lines, cs, release, think",
	.flags = WL_F_USES_LOCK,
	.lock_classes = 1u << LC_BENCH,
	.setup = lock_setup,
	.worker_init = lock_worker_init,
	.run = lock_run,
	.finish = lock_finish,
};
REGISTER(workload, lock_workload);
