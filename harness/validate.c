/*
 * validate.c - lock mutual-exclusion validator, and the controls that
 * prove it can fail (in the spirit of Concurrency Kit's
 * regressions/ck_spinlock/validate).
 *
 * Inside the lock each thread: marks itself owner, bumps an "inside"
 * count and checks it is 1, does a read-dwell-write increment of a shared
 * word (a lost update shows any overlap), dwells, checks it is still the
 * owner, then leaves.  The words are plain (not atomic) on purpose: only
 * the lock orders them.  Threads start together behind a barrier.
 *
 * Power: a validator that never saw two threads at the lock at once
 * proves nothing.  Each thread announces itself in `attempting` (an
 * atomic count) before it calls lock() and leaves it once inside; the
 * owner, at the end of its dwell, counts the acquisition as contended
 * when another thread is attempting (or is inside: a violation).  A run
 * with no contended acquisition and no violation did not overlap and is
 * reported as such.  The dwell widens the window so that even threads on
 * one CPU overlap: a thread preempted inside the critical section leaves
 * the lock held while another runs.
 */
#include "harness/validate.h"
#include "core/util.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Iterations of the dwell loops inside the critical section. */
#define VALIDATE_DWELL 64

/*
 * The controls' accesses are races by construction; ThreadSanitizer
 * would (rightly) stop the run on them.  Their thread function and lock
 * are therefore not instrumented; the real locks' runs are.
 */
#if defined(__SANITIZE_THREAD__)
#define NO_TSAN __attribute__((no_sanitize("thread")))
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NO_TSAN __attribute__((no_sanitize("thread")))
#endif
#endif
#ifndef NO_TSAN
#define NO_TSAN
#endif

struct vshared {
	volatile unsigned long owner;
	volatile unsigned long inside;
	volatile unsigned long long value;
	char pad_[PAD_SIZE];
	unsigned long attempting;        /* atomic: threads inside lock() */
	char pad2_[PAD_SIZE];
	int stop;                        /* atomic: time limit reached */
	int min_done;                    /* atomic: minimum duration passed */
	unsigned long long violations;   /* atomic */
	unsigned long long trylocks_ok;  /* atomic */
	unsigned long long acquisitions; /* atomic */
	unsigned long long contended;    /* atomic */
};

struct varg {
	const struct lock_ops *ops;
	void *lock;
	void *ctx;
	struct vshared *sh;
	pthread_barrier_t *gate;
	unsigned id, threads;
	unsigned long iterations;
};

/*
 * Randomised hold and think times, as the kernel's locktorture
 * (kernel/locking/locktorture.c, torture_spin_lock_write_delay(), v6.9):
 * mostly none, a short delay in 1 of 2n*SHORT_US acquisitions, a long one
 * in 1 of 2000n*LONG, and a yield of the CPU in 1 of 20000n (n threads).
 * locktorture's long hold is 100 ms; ours is 1 ms, so that a run of a
 * second sees several without lasting minutes.  The variety lets the
 * threads meet at every phase of each other's acquisition, where a fixed
 * loop falls into one rhythm that can straddle a rare window forever.
 */
#define VALIDATE_SHORT_NS 2000
#define VALIDATE_LONG_NS 1000000
#define VALIDATE_LONG_DIV 2000
#define VALIDATE_YIELD_DIV 20000

static inline uint64_t vrand(uint64_t *s)
{
	/* xorshift64*: cheap, per thread, good enough to pick delays. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline void busy_ns(uint64_t ns)
{
	uint64_t t0 = now_ns();

	while (now_ns() - t0 < ns)
		cpu_relax();
}

/* The hold inside the lock: locktorture's write delay. */
static inline void vhold(uint64_t *rs, unsigned n)
{
	uint64_t r = vrand(rs);

	if (!(r % (2ull * n * (VALIDATE_SHORT_NS / 1000))))
		busy_ns(VALIDATE_SHORT_NS);
	if (!((r >> 20) % ((uint64_t)VALIDATE_LONG_DIV * n)))
		busy_ns(VALIDATE_LONG_NS);
}

/*
 * Outside the lock: a random think, log-uniform over 0..255 loop
 * iterations (a uniform one rarely lands in the few-nanosecond windows a
 * rare bug leaves; measured on the 1-in-1000 control, docs/lock-validator.md),
 * and now and then the CPU given up (locktorture's
 * torture_preempt_schedule()).
 */
static inline void vthink(uint64_t *rs, unsigned n)
{
	uint64_t r = vrand(rs);

	spin_iters((r & 255) >> ((r >> 8) & 7));
	if (!((r >> 11) % ((uint64_t)VALIDATE_YIELD_DIV * n)))
		sched_yield();
}

/*
 * The thread body, instantiated instrumented and (controls) not.  A run
 * stops at the first violation: every thread checks `stop` before each
 * acquisition, and the one that saw the violation sets it.
 */
#define DEFINE_VTHREAD(name, attr)                                            \
static attr void *name(void *p)                                               \
{                                                                             \
	struct varg *a = p;                                                   \
	struct vshared *sh = a->sh;                                           \
	unsigned long long viol = 0, tries = 0, acq = 0, cont = 0;            \
	uint64_t rs = (now_ns() ^ (0x9e3779b97f4a7c15ull * (a->id + 1))) | 1; \
	unsigned long i;                                                      \
                                                                              \
	pthread_barrier_wait(a->gate);                                        \
	for (i = 0; i < a->iterations ||                                      \
		    !__atomic_load_n(&sh->min_done, __ATOMIC_RELAXED); i++) {     \
		unsigned long long v;                                         \
                                                                              \
		if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))             \
			break;                                                \
		vthink(&rs, a->threads);                                      \
		__atomic_fetch_add(&sh->attempting, 1, __ATOMIC_RELAXED);     \
		if (a->ops->trylock && (i & 1)) {                             \
			while (!a->ops->trylock(a->lock, a->ctx))             \
				cpu_relax();                                  \
			tries++;                                              \
		} else {                                                      \
			a->ops->lock(a->lock, a->ctx);                        \
		}                                                             \
		__atomic_fetch_sub(&sh->attempting, 1, __ATOMIC_RELAXED);     \
		sh->owner = a->id + 1;                                        \
		if (++sh->inside != 1)                                        \
			viol++;                                               \
		v = sh->value;                                                \
		spin_iters(VALIDATE_DWELL);                                   \
		vhold(&rs, a->threads);                                       \
		sh->value = v + 1;                                            \
		spin_iters(VALIDATE_DWELL);                                   \
		if (sh->owner != a->id + 1)                                   \
			viol++;                                               \
		if (__atomic_load_n(&sh->attempting, __ATOMIC_RELAXED) ||     \
		    sh->inside != 1)                                          \
			cont++;                                               \
		sh->inside--;                                                 \
		a->ops->unlock(a->lock, a->ctx);                              \
		acq++;                                                        \
		if (viol) {                                                   \
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);     \
			break;                                                \
		}                                                             \
	}                                                                     \
	__atomic_fetch_add(&sh->violations, viol, __ATOMIC_RELAXED);          \
	__atomic_fetch_add(&sh->trylocks_ok, tries, __ATOMIC_RELAXED);        \
	__atomic_fetch_add(&sh->acquisitions, acq, __ATOMIC_RELAXED);         \
	__atomic_fetch_add(&sh->contended, cont, __ATOMIC_RELAXED);           \
	return NULL;                                                          \
}

DEFINE_VTHREAD(vthread, )
DEFINE_VTHREAD(vthread_control, NO_TSAN)

/* ---- the deliberately racy control lock ---- */

struct racy_word {
	volatile unsigned word;
};

static int racy_lock_init(void *lock, unsigned max_workers, struct arena *arena)
{
	(void)max_workers;
	(void)arena;
	((struct racy_word *)lock)->word = 0;
	return 0;
}

/* Test, then set, without an atomic: two threads can both see 0. */
static NO_TSAN void racy_lock(void *lock, void *ctx)
{
	struct racy_word *l = lock;

	(void)ctx;
	while (l->word)
		cpu_relax();
	spin_iters(VALIDATE_DWELL);
	l->word = 1;
}

static NO_TSAN void racy_unlock(void *lock, void *ctx)
{
	(void)ctx;
	((struct racy_word *)lock)->word = 0;
}

const struct lock_ops validate_racy_ops = {
	.name = "racy_tas",
	.description = "test-and-set without the atomic (validator control)",
	.size = sizeof(struct racy_word),
	.flags = LOCK_F_BROKEN | LOCK_F_SPINS,
	.init = racy_lock_init,
	.lock = racy_lock,
	.unlock = racy_unlock,
};

static struct timespec after(double seconds)
{
	struct timespec t;
	double end;

	clock_gettime(CLOCK_REALTIME, &t);
	end = (double)t.tv_sec + t.tv_nsec / 1e9 + seconds;
	t.tv_sec = (time_t)end;
	t.tv_nsec = (long)((end - (double)t.tv_sec) * 1e9);
	if (t.tv_nsec >= 1000000000L)
		t.tv_nsec = 999999999L;
	return t;
}

bool validate_lock_run(const struct lock_ops *ops, unsigned threads,
		       unsigned long iterations, double min_seconds,
		       double seconds, bool control, struct validate_report *rep)
{
	struct arena *arena = arena_create((size_t)64 << 20);
	struct vshared *sh = arena_alloc_padded(arena, sizeof(*sh));
	void *lock = lock_new(ops, arena, threads);
	pthread_t *tids = xcalloc(threads, sizeof(*tids));
	struct varg *args = xcalloc(threads, sizeof(*args));
	pthread_barrier_t gate;
	struct timespec deadline = after(seconds);

	cpu_set_t allowed;
	int cpus[CPU_SETSIZE], ncpus = 0;
	bool pin = !getenv("MEMSCALE_VALIDATE_NOPIN");

	/* Each thread on its own CPU of those allowed (round robin when
	 * there are more threads): two threads the scheduler stacks on one
	 * CPU never run at once, and a rare window needs them to. */
	if (!sched_getaffinity(0, sizeof(allowed), &allowed))
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed))
				cpus[ncpus++] = c;
	sh->min_done = min_seconds <= 0;
	pthread_barrier_init(&gate, NULL, threads);
	for (unsigned i = 0; i < threads; i++) {
		pthread_attr_t attr;
		cpu_set_t one;

		args[i] = (struct varg){ ops, lock, lock_ctx_new(ops, arena, lock, i),
					 sh, &gate, i, threads, iterations };
		pthread_attr_init(&attr);
		if (pin && ncpus) {
			CPU_ZERO(&one);
			CPU_SET(cpus[i % (unsigned)ncpus], &one);
			pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		}
		if ((errno = pthread_create(&tids[i], &attr,
					   control ? vthread_control : vthread, &args[i])))
			die_errno(1, "validate: cannot create thread");
		pthread_attr_destroy(&attr);
	}
	if (min_seconds > 0) {
		/* Threads on one CPU overlap only where the scheduler preempts
		 * one inside the lock: give the run enough slices, but look
		 * every 10 ms whether a violation already stopped it. */
		uint64_t end = now_ns() + (uint64_t)(min_seconds * 1e9);
		struct timespec tick = { 0, 10000000L };

		while (now_ns() < end && !__atomic_load_n(&sh->stop, __ATOMIC_RELAXED))
			nanosleep(&tick, NULL);
		__atomic_store_n(&sh->min_done, 1, __ATOMIC_RELAXED);
	}
	for (unsigned i = 0; i < threads; i++) {
		if (seconds > 0 && !__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
			if (pthread_timedjoin_np(tids[i], NULL, &deadline) == 0)
				continue;
			/* Time is up: threads finish the acquisition they are in. */
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
		}
		pthread_join(tids[i], NULL);
	}
	pthread_barrier_destroy(&gate);

	memset(rep, 0, sizeof(*rep));
	rep->acquisitions = sh->acquisitions;
	rep->violations = sh->violations;
	rep->lost_updates = sh->acquisitions - sh->value;
	rep->trylocks_ok = sh->trylocks_ok;
	rep->contended = sh->contended;
	rep->overlapped = rep->contended || rep->violations || rep->lost_updates;
	/* `stop` is set by the time limit or by the first violation. */
	rep->timed_out = sh->stop && !rep->violations && !rep->lost_updates;
	if (ops->destroy)
		ops->destroy(lock);
	arena_destroy(arena);
	free(tids);
	free(args);
	return rep->violations == 0 && rep->lost_updates == 0;
}

bool validate_lock(const struct lock_ops *ops, unsigned threads,
		   unsigned long iterations, struct validate_report *rep)
{
	return validate_lock_run(ops, threads, iterations, 0, 0, false, rep);
}
