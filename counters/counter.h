/*
 * counter.h - the counter ops table every counter scheme implements.
 *
 * Same registry pattern as locks: one scheme = one file in counters/
 * defining a `const struct counter_ops` and REGISTER(counter, <name>_ops).
 * Kernel models and workloads hold a `const struct counter_ops *` and call
 * through it, so every scheme runs the same code path:
 *
 *	struct counter_params p;
 *	counter_params_from_knobs(&p, ops, run->knobs, nworkers, run->lock);
 *	void *c = counter_new(ops, arena, &p);
 *	void *ctx = counter_ctx_new(ops, arena, c, worker);	(once per worker;
 *		counter_ctx_new_stats() also hands over the worker's lock-class
 *		statistics, for schemes that fold under a lock)
 *	ops->add(c, ctx, delta);	(only the context's owner)
 *	ops->read(c);			(anyone: O(1), may be off by error_bound)
 *	ops->read_exact(c);		(anyone: shared part + every worker's slot)
 *
 * Memory comes from the run's shared arena (process mode works).  Each
 * worker owns a context of ctx_size bytes - its "per-CPU" slot - which
 * counter_ctx_new() puts on cache lines of its own; ctx_init() records it
 * in the counter so read_exact() can sum the slots.
 *
 * Accuracy contract: let applied(t) be the sum of every delta whose add()
 * has taken effect at instant t.  Then at any instant
 *	|read() - applied| <= error_bound()
 * and once every adder has returned, read_exact() == applied.  A
 * concurrent read_exact() may transiently count a slot that is being
 * folded twice (the kernel's memcg sum has the same race; only
 * percpu_counter_sum() closes it, with the lock we do not take here).
 * counter_truth below is how tests and the `counter` workload check the
 * contract while adders run.
 */
#ifndef MEMSCALE_COUNTER_H
#define MEMSCALE_COUNTER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/knob.h"
#include "core/registry.h"
#include "core/util.h"

struct lock_ops;
struct lock_stat;

enum counter_flags {
	COUNTER_F_EXACT_READ_CHEAP = 1u << 0, /* approximate read is exact */
	COUNTER_F_USES_LOCK = 1u << 1,        /* folds under a registry lock */
	COUNTER_F_THRESHOLD = 1u << 2,        /* honours --set threshold= */
	COUNTER_F_DYNAMIC = 1u << 3,          /* honours --set threshold_limit= */
	COUNTER_F_UNBOUNDED = 1u << 4,        /* read() error has no bound */
};

/* error_bound() of a COUNTER_F_UNBOUNDED scheme. */
#define COUNTER_NO_BOUND (-1L)

/* Parameters a counter is created with. */
struct counter_params {
	unsigned nworkers;
	long threshold;              /* 0: the scheme's default */
	long limit;                  /* error budget of dynamic schemes, 0: default */
	long mem_mb;                 /* vmstat: zone size in MiB, 0: default */
	const struct lock_ops *lock; /* for schemes that fold under a lock;
				      * NULL: pthread_mutex */
};

struct counter_ops {
	const char *name;
	const char *description;
	size_t size;     /* bytes of the shared object */
	size_t ctx_size; /* bytes of per-worker context (its slot) */
	unsigned flags;

	/* Initialise an object of `size` zeroed bytes; extra storage comes
	 * from the arena.  Returns 0 or -errno. */
	int (*init)(void *c, const struct counter_params *p, struct arena *a);
	void (*destroy)(void *c); /* optional */
	/* Bind worker `worker`'s zeroed context (its slot) to the counter.
	 * `stats` is the worker's LC_NR lock-class set (locks/tracked.h) or
	 * NULL; lock-using schemes account their folds in it. */
	void (*ctx_init)(void *c, void *ctx, unsigned worker, struct arena *a,
			 struct lock_stat *stats);
	void (*add)(void *c, void *ctx, long delta);
	long (*read)(const void *c);       /* approximate, O(1) */
	long (*read_exact)(const void *c); /* shared part + every slot */
	/* Folds into the shared part so far; NULL: every add() writes the
	 * shared word (folds == adds, see counter_folds()). */
	uint64_t (*folds)(const void *c);
	/* Largest |read - applied| the scheme allows with these parameters,
	 * or COUNTER_NO_BOUND. */
	long (*error_bound)(const void *c);
	/* The per-worker threshold in effect (0: none), for reports. */
	long (*threshold)(const void *c);
	/* Optional: fill the fields of *p this scheme reads from its own
	 * knobs (declared in its file).  Called by counter_params_from_knobs. */
	void (*params)(struct counter_params *p, struct knobset *ks);
};

REGISTRY_BOUNDS(counter);

const struct counter_ops *counter_find(const char *name);
size_t counter_all(const struct counter_ops ***out);
/* "threshold,lock" style summary of the flags. */
const char *counter_flags_str(unsigned flags, char *buf, size_t len);

/*
 * Fill *p from the run's knobs through ops->params, so only the knobs the
 * scheme honours are consulted (result files list exactly the parameters
 * that shaped the run).
 */
void counter_params_from_knobs(struct counter_params *p,
			       const struct counter_ops *ops,
			       struct knobset *ks, unsigned nworkers,
			       const struct lock_ops *lock);
/* Allocate (padded) and initialise a counter; dies if init fails. */
void *counter_new(const struct counter_ops *ops, struct arena *a,
		  const struct counter_params *p);
/* Allocate worker `worker`'s context on its own lines and bind it. */
void *counter_ctx_new(const struct counter_ops *ops, struct arena *a,
		      void *c, unsigned worker);
/* Same, with the worker's lock-class statistics (w->lock_stats, may be
 * NULL): folds under a lock are counted in its LC_COUNTER_FOLD entry. */
void *counter_ctx_new_stats(const struct counter_ops *ops, struct arena *a,
			    void *c, unsigned worker, struct lock_stat *stats);
/* Folds so far; `adds` is what the caller did (used when ops->folds is
 * NULL, i.e. every add is a shared update). */
uint64_t counter_folds(const struct counter_ops *ops, const void *c,
		       uint64_t adds);

/* The knob every COUNTER_F_THRESHOLD scheme reads (percpu_batch.c). */
extern const struct knob counter_threshold_knob;

/* ---- ground truth for accuracy checks (counters/truth.c) ----
 *
 * The true value of a counter at the instant a concurrent reader reads it
 * is unknowable without stopping the adders.  Each adder therefore
 * publishes, after every add(), its running sums of positive and of
 * negative deltas (both only grow).  A reader brackets its read() between
 * two passes over those sums: for every adder,
 *	pos(before) <= pos(at the read) <= pos(after) + dpos
 *	neg(before) <= neg(at the read) <= neg(after) + dneg
 * (the slack is the one add() per adder that may have taken effect
 * before the read without being published at the second pass; dpos and
 * dneg are the largest positive and |negative| deltas used), so the
 * applied value lies in [lo, hi] with
 *	lo = sum(pos_before) - sum(neg_after) - n * dneg
 *	hi = sum(pos_after) - sum(neg_before) + n * dpos.
 * The observed error of that sample is the distance from read() to
 * [lo, hi]: an error that certainly happened, never an overestimate, so
 * "observed <= bound" is a sound check.  The width hi - lo says how tight
 * the sample was (wide when adders ran a lot during the window).
 *
 * Ordering: the adder's release store of its sums pairs with the reader's
 * acquire loads, so sums seen in the first pass imply their folds are
 * visible to read().  The converse (a fold seen by read() implies the
 * previous add's sums are visible in the second pass) holds on TSO (x86)
 * for the relaxed kernel-style folds; on weakly ordered CPUs a sample
 * could be too tight by the adds in flight.
 */
struct counter_truth_slot {
	long pos;     /* sum of positive deltas added (single writer) */
	long neg;     /* sum of |negative deltas| added (single writer) */
	uint64_t ops; /* add() calls completed */
	char pad_[PAD_SIZE - 2 * sizeof(long) - sizeof(uint64_t)];
} cacheline_aligned;

struct counter_truth {
	unsigned n;
	long dpos, dneg; /* largest positive / |negative| delta adders use */
	struct counter_truth_slot *slot; /* n slots, one per adder */
};

struct counter_truth *counter_truth_new(struct arena *a, unsigned n,
					long dpos, long dneg);

/* Adder side: publish one completed add() (release, pairs with the
 * acquire loads in counter_truth_sample()). */
static inline void counter_truth_add(struct counter_truth_slot *s, long d)
{
	if (d >= 0)
		__atomic_store_n(&s->pos, s->pos + d, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&s->neg, s->neg - d, __ATOMIC_RELEASE);
	__atomic_store_n(&s->ops, s->ops + 1, __ATOMIC_RELAXED);
}

/* Sum of every adder's published deltas (exact once adders stopped). */
long counter_truth_sum(const struct counter_truth *t);
uint64_t counter_truth_ops(const struct counter_truth *t);

/* One bracketed sample of read(); returns the observed error (>= 0) and
 * the bracket width in *width. */
long counter_truth_sample(const struct counter_truth *t,
			  const struct counter_ops *ops, const void *c,
			  long *width);

/*
 * A reader thread (not a worker): every `sleep_us` it takes one bracketed
 * sample, then times a burst of read() and read_exact() calls.  It sleeps
 * between samples so that on a machine with as many workers as CPUs it
 * steals little time from them.  Its state must live in the arena when
 * the adders are processes (the thread runs in the parent and reads the
 * shared mapping).
 */
struct counter_reader {
	const struct counter_ops *ops;
	const void *c;
	const struct counter_truth *t;
	unsigned sleep_us;
	int stop;      /* set by counter_reader_stop() */
	bool running;
	pthread_t thread;
	/* results */
	uint64_t samples;
	long max_error;    /* largest observed error */
	long max_width;    /* widest bracket seen */
	uint64_t reads, read_ns;        /* timed read() calls and their time */
	uint64_t exact_reads, exact_ns; /* timed read_exact() calls */
};

/* Returns 0 or an errno from pthread_create. */
int counter_reader_start(struct counter_reader *r,
			 const struct counter_ops *ops, const void *c,
			 const struct counter_truth *t, unsigned sleep_us);
/* Stops and joins the reader (no-op when not running). */
void counter_reader_stop(struct counter_reader *r);

/* Time `n` read() (exact = false) or read_exact() calls; ns per call. */
double counter_time_reads(const struct counter_ops *ops, const void *c,
			  bool exact, unsigned n);

#endif
