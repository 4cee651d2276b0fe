/*
 * validate.h - correctness validators for the primitives, in the spirit
 * of Concurrency Kit's regressions/ck_spinlock/validate: they fail by
 * return value (and the CLI by exit status), never only by a message.
 */
#ifndef MEMSCALE_VALIDATE_H
#define MEMSCALE_VALIDATE_H

#include <stdbool.h>
#include <stdio.h>

#include "../locks/lock.h"

struct validate_report {
	unsigned long long acquisitions;
	unsigned long long violations;   /* overlapping owners seen */
	unsigned long long lost_updates; /* expected - final shared count */
	unsigned long long trylocks_ok;  /* acquisitions through trylock */
};

/*
 * Mutual-exclusion check: `threads` threads each take the lock
 * `iterations` times (alternate iterations through trylock where the lock
 * supports it), and inside the lock update shared words non-atomically
 * and check that nobody else is inside.  Returns true when exclusion held.
 */
bool validate_lock(const struct lock_ops *ops, unsigned threads,
		   unsigned long iterations, struct validate_report *rep);

#endif
