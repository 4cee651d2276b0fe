/*
 * access.h - element-level access sets of the model's hot paths on a
 * struct mem_cgroup_per_node, and the audit that finds where one CPU's
 * hot read meets another CPU's hot write on a 64 B line or a 128 B pair
 * (Intel's adjacent-line prefetcher fetches pairs).
 *
 * The access set of a model workload is recorded from the model's own
 * execution (models/record.h): one worker runs the workload and every
 * access its hot paths make to its mem_cgroup_per_node block is an
 * element (a pointer, a list head lists[lru], the element
 * lru_zone_size[ZONE_NORMAL][lru], the lock word, an embedded stat
 * counter), with whether it ran under the LRU lock - the same recording
 * the simulator's program is made from.  Two classes of conflict:
 *  - read-write: a read done outside the LRU lock on a line (pair) that
 *    another CPU writes; reads under the lock of lines the lock holder
 *    owns anyway are not counted, nor is the true sharing of the lock and
 *    the lists themselves;
 *  - lock-sector: an element the lock holder accesses under the lock that
 *    a waiter takes away.  Every waiter arriving at a held qspinlock does
 *    a locked cmpxchg and xchg_tail on the lock word, and the queue head
 *    spins reading it (kernel/locking/qspinlock.c): each takes the lock
 *    word's 64 B line, so any holder access on that line (read or write)
 *    misses next time; with the L2 spatial prefetcher the pair line comes
 *    along as a shared copy, so a holder WRITE in the lock word's 128 B
 *    sector needs an ownership request (a read there still hits).  Each
 *    such conflict costs the holder up to one transfer per waiter
 *    arrival per hold (predict/sim.h models the arrivals).
 */
#ifndef MEMSCALE_MODELS_ACCESS_H
#define MEMSCALE_MODELS_ACCESS_H

#include "models/memcg.h"

/* One concrete access: bytes [off, off+size) of the block. */
struct pn_elem {
	char name[64];
	size_t off, size;
	bool write;
	bool locked;        /* under the LRU lock */
	bool lock_word;     /* the LRU lock's own word */
	const char *path;   /* the model function that does it */
};

/* A model workload whose accesses are audited. */
struct access_shape {
	const char *workload;
	const char *where;               /* where its accesses come from */
};
/* Every model workload (the recorder's list), NULL-terminated by
 * workload; `access_shapes` reads as the array. */
const struct access_shape *access_shapes_all(void);
#define access_shapes (access_shapes_all())
const struct access_shape *access_shape_find(const char *workload);

/* Makes the recordings pn_access_set reads for every access shape under
 * p (only those named in wls[0..nw), if nw; the first MODEL_REC_CACHED),
 * up to `jobs` at once. */
void pn_access_prefetch(const struct model_params *p, const char *const *wls, size_t nw,
			unsigned jobs);
/* The accesses one operation of ws makes on the block, recorded under
 * the model parameters p, placed by field into layout l.  Returns the
 * count (at most max). */
size_t pn_access_set(const struct pn_layout *l, const struct model_params *p,
		     const struct access_shape *ws, struct pn_elem *out, size_t max);

enum pn_conflict_class { PN_READ_WRITE, PN_LOCK_SECTOR };

struct pn_conflict {
	enum pn_conflict_class cls;
	unsigned unit;      /* 64 or 128 */
	size_t index;       /* line or pair */
	/* read-write: the read outside the lock and the other CPU's write;
	 * lock-sector: the holder's access (victim) and the lock word */
	struct pn_elem read, write;
};
/* Read-write: every (read, write) element pair sharing a line (unit 64)
 * or a pair (unit 128).  Lock-sector: every holder access on the lock
 * word's line (unit 64), every holder write in its sector mate (unit
 * 128).  Returns the count (at most max). */
size_t pn_audit(const struct pn_elem *e, size_t n, struct pn_conflict *out,
		size_t max);

#endif
