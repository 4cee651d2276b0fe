/*
 * validate.c - lock mutual-exclusion validator.
 *
 * Inside the lock each thread: marks itself owner, bumps an "inside"
 * count and checks it is 1, does a read-spin-write increment of a shared
 * word (a lost update shows any overlap), checks it is still the owner,
 * then leaves.  The words are plain (not atomic) on purpose: only the lock
 * orders them.  Threads start together behind a barrier.
 */
#include "harness/validate.h"
#include "core/util.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct vshared {
	volatile unsigned long owner;
	volatile unsigned long inside;
	volatile unsigned long long value;
	char pad_[PAD_SIZE];
	unsigned long long violations;	/* atomic */
	unsigned long long trylocks_ok; /* atomic */
};

struct varg {
	const struct lock_ops *ops;
	void *lock;
	void *ctx;
	struct vshared *sh;
	pthread_barrier_t *gate;
	unsigned id;
	unsigned long iterations;
};

static void *vthread(void *p)
{
	struct varg *a = p;
	struct vshared *sh = a->sh;
	unsigned long long viol = 0, tries = 0;

	pthread_barrier_wait(a->gate);
	for (unsigned long i = 0; i < a->iterations; i++) {
		unsigned long long v;

		if (a->ops->trylock && (i & 1)) {
			while (!a->ops->trylock(a->lock, a->ctx))
				cpu_relax();
			tries++;
		} else {
			a->ops->lock(a->lock, a->ctx);
		}
		sh->owner = a->id + 1;
		if (++sh->inside != 1)
			viol++;
		v = sh->value;
		for (int k = 0; k < 8; k++)
			compiler_barrier();
		sh->value = v + 1;
		if (sh->owner != a->id + 1)
			viol++;
		sh->inside--;
		a->ops->unlock(a->lock, a->ctx);
	}
	__atomic_fetch_add(&sh->violations, viol, __ATOMIC_RELAXED);
	__atomic_fetch_add(&sh->trylocks_ok, tries, __ATOMIC_RELAXED);
	return NULL;
}

bool validate_lock(const struct lock_ops *ops, unsigned threads,
		   unsigned long iterations, struct validate_report *rep)
{
	struct arena *arena = arena_create((size_t)64 << 20);
	struct vshared *sh = arena_alloc_padded(arena, sizeof(*sh));
	void *lock = lock_new(ops, arena, threads);
	pthread_t *tids = xcalloc(threads, sizeof(*tids));
	struct varg *args = xcalloc(threads, sizeof(*args));
	pthread_barrier_t gate;
	unsigned long long expected = (unsigned long long)threads * iterations;

	pthread_barrier_init(&gate, NULL, threads);
	for (unsigned i = 0; i < threads; i++) {
		args[i] = (struct varg){ ops, lock, lock_ctx_new(ops, arena, lock, i),
					 sh, &gate, i, iterations };
		if ((errno = pthread_create(&tids[i], NULL, vthread, &args[i])))
			die_errno(1, "validate: cannot create thread");
	}
	for (unsigned i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	pthread_barrier_destroy(&gate);

	memset(rep, 0, sizeof(*rep));
	rep->acquisitions = expected;
	rep->violations = sh->violations;
	rep->lost_updates = expected - sh->value;
	rep->trylocks_ok = sh->trylocks_ok;
	if (ops->destroy)
		ops->destroy(lock);
	arena_destroy(arena);
	free(tids);
	free(args);
	return rep->violations == 0 && rep->lost_updates == 0;
}
