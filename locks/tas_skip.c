/*
 * tas_skip - the validator's sensitivity controls: a test-and-set
 * spinlock that, once every PERIOD acquisitions of a worker, skips its
 * atomic and takes the lock by a plain test then a plain store.  Another
 * thread whose exchange lands between that load and that store is let in
 * too: a lock that is wrong rarely, as real lock bugs are (a missed
 * barrier, a lost wake-up), where the shipped controls `none` and the
 * validator's racy_tas are wrong every time.  `memscale validate` must
 * catch tas_skip1000 before it passes any lock; tas_skip10000 measures
 * how much rarer a bug the defaults still catch (docs/lock-validator.md).
 *
 * Registered as lock controls (REGISTER(lock_control, ...)), never as
 * locks: `list locks`, `validate --all`, the benchmarks and the lock
 * table never offer them; `validate --lock tas_skip1000` runs one.
 */
#include "locks/lock.h"
#include "core/util.h"

struct tas_skip_lock {
	unsigned word;            /* atomic except in the skipped acquisition */
	unsigned long period;     /* every period-th acquisition is broken */
};

struct tas_skip_ctx {
	unsigned long n;          /* this worker's acquisitions */
};

static void tas_skip_init_period(void *lock, unsigned long period)
{
	struct tas_skip_lock *l = lock;

	l->word = 0;
	l->period = period;
}

/* Workers start at different phases, so their broken acquisitions do not
 * fall on the same iteration. */
static void tas_skip_ctx_init(void *lock, void *ctx, unsigned worker)
{
	const struct tas_skip_lock *l = lock;

	((struct tas_skip_ctx *)ctx)->n = (worker * 7919ul) % l->period;
}

static void tas_skip_lock(void *lock, void *ctx)
{
	struct tas_skip_lock *l = lock;
	struct tas_skip_ctx *c = ctx;

	if (++c->n % l->period == 0) {
		/* The bug: test, then set, as two accesses.  Atomic loads and
		 * stores (so no data race for ThreadSanitizer to stop on), but
		 * no read-modify-write: mutual exclusion is what breaks. */
		while (__atomic_load_n(&l->word, __ATOMIC_ACQUIRE))
			cpu_relax();
		__atomic_store_n(&l->word, 1, __ATOMIC_RELAXED);
		return;
	}
	/* Pairs with the release store in tas_skip_unlock(). */
	while (__atomic_exchange_n(&l->word, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->word, __ATOMIC_RELAXED))
			cpu_relax();
}

static void tas_skip_unlock(void *lock, void *ctx)
{
	(void)ctx;
	__atomic_store_n(&((struct tas_skip_lock *)lock)->word, 0, __ATOMIC_RELEASE);
}

/* One control per period: its init, its ops table, its registration. */
#define TAS_SKIP_CONTROL(period, what)                                        \
	static int tas_skip##period##_init(void *lock, unsigned max_workers,  \
					   struct arena *a)                   \
	{                                                                     \
		(void)max_workers;                                            \
		(void)a;                                                      \
		tas_skip_init_period(lock, period);                           \
		return 0;                                                     \
	}                                                                     \
	const struct lock_ops tas_skip##period##_ops = {                      \
		.name = "tas_skip" #period,                                   \
		.description = "test-and-set skipping its atomic once per "   \
			       #period " acquisitions (validator " what ")",  \
		.size = sizeof(struct tas_skip_lock),                         \
		.ctx_size = sizeof(struct tas_skip_ctx),                      \
		.flags = LOCK_F_BROKEN | LOCK_F_SPINS | LOCK_F_NEEDS_CTX,     \
		.init = tas_skip##period##_init,                              \
		.ctx_init = tas_skip_ctx_init,                                \
		.lock = tas_skip_lock,                                        \
		.unlock = tas_skip_unlock,                                    \
	};                                                                    \
	REGISTER(lock_control, tas_skip##period##_ops)

TAS_SKIP_CONTROL(1000, "sensitivity control");
TAS_SKIP_CONTROL(10000, "sensitivity measurement");
