/*
 * sim_coherence.h - the simulator's run-time state (cores, lines, locks)
 * and the coherence protocol its accesses follow (sim_coherence.c):
 * shared by sim.c, which schedules the cores and runs the locks, and
 * sim_coherence.c, which prices each access.  Private to the simulator.
 * The model both follow is told in sim.h.
 */
#ifndef MEMSCALE_SIM_COHERENCE_H
#define MEMSCALE_SIM_COHERENCE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "predict/sim_heap.h"
#include "predict/sim_types.h"

/* ---- run-time state ---- */
/* ---- run-time state ---- */

struct line_st {
	double free_at;    /* the line serves one transfer at a time */
	uint32_t version;  /* bumped by every write */
	int owner;         /* last writer, -1: memory */
	bool shared;       /* read by a non-owner since the last write */
	unsigned nsharers; /* non-owners holding the current version */
	int mate;          /* instance of its sector mate, -1: none */
	int lock;          /* lock instance whose word lives here, -1: none */
	unsigned tmpl;     /* its template, for the per-line statistics */
	/* sim_costs.explain only: the lock instances the last writer and
	 * the last reader sharing it waited for / held then (-1: none). */
	int own_wait, own_hold, share_wait, share_hold;
};

struct lock_st {
	int holder;
	unsigned head, n; /* FIFO of waiting cores in q[] */
	unsigned *q;
	unsigned line;    /* instance of its lock-word line */
	unsigned tmpl;    /* its template */
	enum lock_model_kind kind;
	bool front_pending; /* queue lock: the first waiter took the pending
			     * path (it arrived with nobody waiting) */
	/* Regime statistics over the measured window. */
	double acq_t;     /* when the holder took it */
	double n_since;   /* when n last changed */
	double held_ns, queue_ns_sum;
	uint64_t acqs;
};

struct core_st {
	size_t pc, pc0, pc_end; /* its part of the program: [pc0, pc_end) */
	bool actor;          /* a reclaimer (sim_params.reclaimers) */
	double iter_t0;      /* a reclaimer: when its iteration began */
	uint64_t iter;
	unsigned memcg, node, phys;
	int sibling;         /* the other thread of its physical core, -1: none */
	double busy_from;    /* computing from then on (INFINITY: waiting for a
			      * lock, spinning with PAUSE) */
	uint64_t rng;
	double wait_start;
	int waiting, holding; /* lock instance waited for / taken last, -1 */
	unsigned sidx[SCOPE_MEMCG_NODE_WALK + 1]; /* scope_fill */
};

struct sim {
	const struct sim_prog *p;
	const struct sim_costs *c;
	const struct sim_params *sp;
	struct core_st *cores;
	struct line_st *lines;
	struct lock_st *locks;
	uint32_t *seen;        /* ncores x nline_inst: version last seen */
	uint64_t *touched;     /* ncores x nline_inst: the core's iteration at
				* its last touch (NULL: copies never age) */
	uint32_t *every_cnt;   /* cores x nevery: every_op's state per EVERY op */
	size_t nevery;         /* EVERY ops in the program */
	unsigned *line_base, *lock_base;
	struct op_inst { unsigned base, scope; } *opi; /* per op: its target's
				* first instance and scope (core_st.sidx); an
				* EVERY op's base is its every_cnt slot */
	size_t nline_inst;
	unsigned n;            /* cores: ncores workers, then the reclaimers */
	uint64_t actor_done;   /* reclaimer iterations in the measured window */
	struct sim_heap q;      /* the cores' next events (sim_heap.h) */
	uint64_t done, target, warm, events, xfers, xfers_warm;
	uint64_t line_xfers[SIM_MAX_LINES]; /* per template, measured window */
	double t_warm, t_end, wait_ns;
	bool stop;
	bool root_live;         /* heap[0] is the running core's next event */
	struct sim_explain *xp; /* sim_costs.explain */
};

static inline uint64_t rng_next(uint64_t *x)
{
	/* xorshift64* */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545F4914F6CDD1DULL;
}

static inline double rng_unit(uint64_t *x)
{
	return (double)(rng_next(x) >> 11) * (1.0 / 9007199254740992.0);
}

/* The factor on core c's compute at t: smt_slowdown while its sibling
 * computes, 1 while the sibling waits for a lock (it spins with PAUSE) or
 * when it has none.  Read when the work starts: a sibling that begins or
 * ends a wait part-way through does not change work already under way. */
static inline double smt_factor(const struct sim *s, unsigned c, double t)
{
	const struct core_st *k = &s->cores[c];

	if (k->sibling < 0 || !(s->cores[k->sibling].busy_from <= t))
		return 1.0;
	return s->c->smt_slowdown;
}

/* A line passed between the two threads of one core stays in their
 * shared L1/L2: a hit-level latency, no coherence transfer. */
static inline bool sibling_pass(const struct sim *s, const struct line_st *ln, unsigned c)
{
	return ln->owner >= 0 && ln->owner != (int)c &&
	       s->cores[ln->owner].phys == s->cores[c].phys;
}

static inline bool measuring(const struct sim *s)
{
	return s->done >= s->warm;
}

/* The explain record of the lock core c holds, or NULL (not holding,
 * or outside the measured window). */
static struct sim_explain_lock *held_rec(const struct sim *s, unsigned c)
{
	int h = s->cores[c].holding;

	if (h < 0 || !measuring(s))
		return NULL;
	return &s->xp->lock[s->locks[h].tmpl];
}

/* ---- the accesses (sim_coherence.c) ---- */

/* One access by core c to line instance li issued at t (a read, write or
 * RMW); returns its completion time. */
double sim_access_line(struct sim *s, unsigned li, unsigned c, double t, enum sim_op_kind kind);
/* The access, then, for a write, the spinners' answer to it. */
double sim_touch_line(struct sim *s, unsigned li, unsigned c, double t, enum sim_op_kind kind);
/* Core `writer` wrote line li at t: a lock word's spinners read it again. */
void sim_spinners_reread(struct sim *s, unsigned li, unsigned writer, double t);
/* Lock instance li's word goes to core w at t, handed over by its holder. */
void sim_word_handed(struct sim *s, unsigned li, unsigned w, double t);

#endif
