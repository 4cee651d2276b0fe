/*
 * calib_probe_mem.c - the memory family of the calibration probes
 * (calib_probe.c runs them): a cache line's transfer between two cores
 * (store, atomic, load-from-modified, contended atomic), each lock's
 * uncontended and hand-off latency, and the single-thread loops (atomic,
 * cache hit and miss, per-CPU add, list add/del, page copy).
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/topo.h"
#include "core/util.h"
#include "harness/calib_probe.h"
#include "harness/calib_probe_int.h"
#include "locks/lock.h"


#define CHASE_LINES 64 /* a permutation step of 37 visits all 64 */

struct chase_line {
	const struct chase_line *next;
	char pad[CACHELINE - sizeof(void *)];
} __attribute__((aligned(CACHELINE)));

enum pair_kind { PAIR_STORE, PAIR_ATOMIC, PAIR_LOAD, PAIR_CONTENDED, PAIR_LOCK };

struct pair {
	enum pair_kind kind;
	uint64_t iters;
	struct pair_line *line;
	pthread_barrier_t gate;
	double ns[2]; /* elapsed per thread */
	struct chase_line *chain; /* PAIR_LOAD */
	double chase_ns;
	const struct lock_ops *lock;
	void *lk, *ctx[2];
};

struct pair_arg {
	struct pair *p;
	unsigned id;
};

static void *pair_thread(void *argp)
{
	struct pair_arg *a = argp;
	struct pair *p = a->p;
	volatile uint64_t *w = &p->line->word;
	uint64_t t0, sum = 0;

	topo_pin_self(topo_pu_for(AFF_CORES, a->id));
	pthread_barrier_wait(&p->gate);
	t0 = now_ns();
	switch (p->kind) {
	case PAIR_STORE:
	case PAIR_ATOMIC:
		/* Turn taking: thread id waits for an even/odd value.  Each
		 * round trip moves the line twice. */
		for (uint64_t i = 0; i < p->iters; i++) {
			uint64_t want = 2 * i + a->id;
			while (__atomic_load_n(w, __ATOMIC_ACQUIRE) != want)
				cpu_relax();
			if (p->kind == PAIR_STORE)
				__atomic_store_n(w, want + 1, __ATOMIC_RELEASE);
			else
				__atomic_fetch_add(w, 1, __ATOMIC_ACQ_REL);
		}
		break;
	case PAIR_LOAD:
		/* ccbench's LOAD_FROM_MODIFIED: thread 0 rewrites a chain of
		 * CHASE_LINES lines (modified in its cache), then passes the
		 * turn; thread 1 follows the chain with dependent loads, so
		 * every load is a miss served by the other core.  Only
		 * thread 1's chase is timed. */
		for (uint64_t i = 0; i < p->iters; i++) {
			uint64_t want = 2 * i + a->id;
			while (__atomic_load_n(w, __ATOMIC_ACQUIRE) != want)
				cpu_relax();
			if (a->id == 0) {
				for (unsigned k = 0; k < CHASE_LINES; k++)
					p->chain[k].next = &p->chain[(k * 37 + 11) % CHASE_LINES];
			} else {
				const struct chase_line *cl = &p->chain[0];
				uint64_t t1 = now_ns();
				for (unsigned k = 0; k < CHASE_LINES; k++)
					cl = *(const struct chase_line *const volatile *)&cl->next;
				p->chase_ns += (double)(now_ns() - t1);
				sum += (uintptr_t)cl;
			}
			__atomic_store_n(w, want + 1, __ATOMIC_RELEASE);
		}
		break;
	case PAIR_CONTENDED:
		for (uint64_t i = 0; i < p->iters; i++)
			__atomic_fetch_add(w, 1, __ATOMIC_RELAXED);
		break;
	case PAIR_LOCK:
		/* Strict alternation, so every acquisition is a hand-off
		 * from the other core (an unfair lock would otherwise stay
		 * on one core).  The turn flag is written inside the
		 * critical section: its transfer is part of the figure. */
		for (uint64_t i = 0; i < p->iters; i++) {
			uint64_t want = 2 * i + a->id;
			while (__atomic_load_n(w, __ATOMIC_ACQUIRE) != want)
				cpu_relax();
			p->lock->lock(p->lk, p->ctx[a->id]);
			__atomic_store_n(w, want + 1, __ATOMIC_RELEASE);
			p->lock->unlock(p->lk, p->ctx[a->id]);
		}
		break;
	}
	p->ns[a->id] = (double)(now_ns() - t0);
	keep(sum);
	return NULL;
}

/* Two threads on two cores; returns ns per unit as the probe defines. */
static double run_pair(struct pair *p)
{
	pthread_t th[2];
	struct pair_arg args[2] = { { p, 0 }, { p, 1 } };

	p->line->word = 0;
	p->chase_ns = 0;
	p->chain = aligned_alloc(CACHELINE, CHASE_LINES * sizeof(struct chase_line));
	for (unsigned k = 0; k < CHASE_LINES; k++)
		p->chain[k].next = &p->chain[(k * 37 + 11) % CHASE_LINES];
	pthread_barrier_init(&p->gate, NULL, 2);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, pair_thread, &args[i]))
			die(1, "calibrate: cannot start a thread");
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&p->gate);
	free(p->chain);
	switch (p->kind) {
	case PAIR_STORE:
	case PAIR_ATOMIC:
		return p->ns[0] / (double)p->iters / 2.0; /* one way */
	case PAIR_LOAD:
		return p->chase_ns / (double)p->iters / CHASE_LINES;
	case PAIR_CONTENDED:
		/* Latency of one thread's atomic while the other hammers. */
		return (p->ns[0] > p->ns[1] ? p->ns[0] : p->ns[1]) / (double)p->iters;
	case PAIR_LOCK:
		/* 2 * iters strictly alternating acquisitions. */
		return (p->ns[0] > p->ns[1] ? p->ns[0] : p->ns[1]) / (2.0 * (double)p->iters);
	}
	return NAN;
}



void calib_probe_pairs(struct calib *c, const struct calib_opts *o,
			struct pair_line *line)
{
	static const struct { const char *name; enum pair_kind kind; uint64_t iters; } pp[] = {
		{ "xfer.store", PAIR_STORE, 20000 },
		{ "xfer.atomic", PAIR_ATOMIC, 20000 },
		{ "xfer.load", PAIR_LOAD, 5000 },
		{ "atomic.contended", PAIR_CONTENDED, 200000 },
	};
	double *v = xcalloc(o->reps, sizeof(double));

	for (size_t k = 0; k < ARRAY_SIZE(pp); k++) {
		for (unsigned r = 0; r < o->reps; r++) {
			struct pair p = { .kind = pp[k].kind, .line = line,
					  .iters = calib_probe_scaled(o, pp[k].iters) };
			v[r] = run_pair(&p);
		}
		calib_record(c, pp[k].name, v, o->reps, o->verbose);
	}
	free(v);
}

double calib_time_atomic(uint64_t n, struct pair_line *l)
{
	return TIME_BLOCKS(n, i, __atomic_fetch_add(&l->word, 1, __ATOMIC_RELAXED));
}

/* Dependent loads over a random cycle through `bytes` of memory. */
double calib_time_chase(uint64_t n, size_t bytes)
{
	size_t slots = bytes / CACHELINE;
	char *buf = xmalloc(bytes);
	size_t *perm = xmalloc(slots * sizeof(size_t));
	uint64_t x = 88172645463325252ull;
	size_t cur = 0;
	double ns;

	for (size_t i = 0; i < slots; i++)
		perm[i] = i;
	for (size_t i = slots - 1; i > 0; i--) {
		size_t j;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		j = x % (i + 1);
		size_t t = perm[i]; perm[i] = perm[j]; perm[j] = t;
	}
	for (size_t i = 0; i < slots; i++)
		*(size_t *)(buf + perm[i] * CACHELINE) = perm[(i + 1) % slots] * CACHELINE;
	ns = TIME_BLOCKS(n, i, cur = *(volatile size_t *)(buf + cur));
	keep(cur);
	free(perm);
	free(buf);
	return ns;
}

/* Per-CPU add with a threshold fold into a shared atomic, the shape of
 * __mod_memcg_state (mm/memcontrol.c at 6168d0da2b47, v5.11) and
 * percpu_counter_add_batch (lib/percpu_counter.c). */
double calib_time_percpu(uint64_t n, struct pair_line *shared)
{
	static long pcpu[16] cacheline_aligned;

	return TIME_BLOCKS(n, i, {
		long x = pcpu[i & 7] + 1;
		if (unlikely(x > 32)) {
			__atomic_fetch_add(&shared->word, (uint64_t)x, __ATOMIC_RELAXED);
			x = 0;
		}
		*(volatile long *)&pcpu[i & 7] = x;
	});
}

struct lnode {
	struct lnode *next, *prev;
};

double calib_time_list(uint64_t n)
{
	struct lnode head = { &head, &head }, nodes[8];

	return TIME_BLOCKS(n, i, {
		struct lnode *e = &nodes[i & 7];
		/* list_add */
		e->next = head.next;
		e->prev = &head;
		head.next->prev = e;
		head.next = e;
		compiler_barrier();
		/* list_del */
		e->prev->next = e->next;
		e->next->prev = e->prev;
		compiler_barrier();
	});
}

double calib_time_page_copy(uint64_t n)
{
	char *a = xmalloc(8192), *b = xmalloc(8192);
	double ns;

	memset(a, 1, 8192);
	memset(b, 2, 8192);
	ns = TIME_BLOCKS(n, i, {
		memcpy((i & 1) ? a : b, (i & 1) ? b : a, 4096);
		compiler_barrier();
	});
	free(a);
	free(b);
	return ns;
}


static double time_lock_alone(const struct lock_ops *ops, void *lk, void *ctx,
			      uint64_t n)
{
	uint64_t t0 = now_ns();
	for (uint64_t i = 0; i < n; i++) {
		ops->lock(lk, ctx);
		ops->unlock(lk, ctx);
	}
	return (double)(now_ns() - t0) / (double)n;
}

void calib_probe_locks(struct calib *c, const struct calib_opts *o,
			struct pair_line *line)
{
	const struct lock_ops **v;
	size_t n = lock_all(&v);
	double *u = xcalloc(o->reps, sizeof(double)), *h = xcalloc(o->reps, sizeof(double));

	for (size_t i = 0; i < n; i++) {
		struct arena *a;
		char name[96];
		struct pair p = { .kind = PAIR_LOCK, .line = line, .lock = v[i] };

		if (v[i]->flags & (LOCK_F_BROKEN | LOCK_F_UNSAFE))
			continue;
		a = arena_create((size_t)64 << 20);
		p.lk = lock_new(v[i], a, 2);
		p.ctx[0] = lock_ctx_new(v[i], a, p.lk, 0);
		p.ctx[1] = lock_ctx_new(v[i], a, p.lk, 1);
		for (unsigned r = 0; r < o->reps; r++) {
			u[r] = time_lock_alone(v[i], p.lk, p.ctx[0], calib_probe_scaled(o, 200000));
			p.iters = calib_probe_scaled(o, 20000);
			h[r] = run_pair(&p);
		}
		snprintf(name, sizeof(name), "lock.%s.uncontended", v[i]->name);
		calib_record(c, name, u, o->reps, o->verbose);
		snprintf(name, sizeof(name), "lock.%s.pair", v[i]->name);
		calib_record(c, name, h, o->reps, o->verbose);
		if (v[i]->destroy)
			v[i]->destroy(p.lk);
		arena_destroy(a);
	}
	free(u);
	free(h);
}
