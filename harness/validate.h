/*
 * validate.h - correctness validators for the primitives, in the spirit
 * of Concurrency Kit's regressions/ck_spinlock/validate: they fail by
 * return value (and the CLI by exit status), never only by a message.
 */
#ifndef MEMSCALE_VALIDATE_H
#define MEMSCALE_VALIDATE_H

#include <stdbool.h>
#include <stdio.h>

#include "locks/lock.h"

struct validate_report {
	unsigned long long acquisitions;
	unsigned long long violations;   /* overlapping owners seen */
	unsigned long long lost_updates; /* expected - final shared count */
	unsigned long long trylocks_ok;  /* acquisitions through trylock */
	unsigned long long contended;    /* acquisitions that saw another
					  * thread attempting the lock (or
					  * inside it) across the dwell */
	bool overlapped;                 /* threads were at the lock together:
					  * the run had the power to fail */
	bool timed_out;                  /* stopped by the time limit */
};

/*
 * Mutual-exclusion check: `threads` threads each take the lock
 * `iterations` times (alternate iterations through trylock where the lock
 * supports it), and inside the lock update shared words non-atomically
 * and check that nobody else is inside.  Returns true when exclusion held.
 */
bool validate_lock(const struct lock_ops *ops, unsigned threads,
		   unsigned long iterations, struct validate_report *rep);
/*
 * The same, lasting at least `min_seconds` (threads go on past
 * `iterations` until then) and stopped after `seconds` (0: no limit) with
 * the acquisitions done so far.  `control`: the lock is a broken control, expected to fail
 * (its run is not instrumented by ThreadSanitizer, which would stop on the
 * very races the validator is meant to catch).
 */
bool validate_lock_run(const struct lock_ops *ops, unsigned threads,
		       unsigned long iterations, double min_seconds,
		       double seconds, bool control, struct validate_report *rep);
/* The deliberately racy control: test-and-set without the atomic (not
 * registered; the other control is the registered lock `none`). */
extern const struct lock_ops validate_racy_ops;

/* ---- counters (validate_counter.c) ---- */
struct counter_ops;
struct counter_params;

struct counter_validate_report {
	unsigned long long adds;
	long truth;        /* sum of every delta the threads added */
	long exact;        /* read_exact() after the threads stopped */
	long approx;       /* read() after the threads stopped */
	long bound;        /* error_bound(), or COUNTER_NO_BOUND */
	long max_error;    /* largest error a concurrent reader observed */
	unsigned long long samples; /* reader samples */
	unsigned long long folds;
};

/*
 * Accuracy check: `threads` threads each add `iterations` known deltas
 * (units and sizes up to 7, both signs) while a reader thread samples
 * read(); then read_exact() must equal the sum of the deltas and both
 * the final and every observed read() error must be within the bound.
 * `p` gives the scheme's parameters (its nworkers is replaced by
 * `threads`); NULL: defaults.
 */
bool validate_counter(const struct counter_ops *ops,
		      const struct counter_params *p, unsigned threads,
		      unsigned long iterations,
		      struct counter_validate_report *rep);
/* The counters' broken control: a shared word added without an atomic
 * (lost updates under overlap); not registered. */
extern const struct counter_ops validate_racy_counter_ops;

#endif
