/*
 * sim_types.h - the simulator's public types: the op program (sim_prog),
 * what the hardware charges (sim_costs), the run's shape (sim_params),
 * the regime it reports (sim_result) and the holder's account
 * (sim_explain).  The model they serve is told in sim.h; split out so
 * that the simulator's own state header (sim_line.h) needs no more than
 * these and sim.h no less.
 */
#ifndef MEMSCALE_SIM_TYPES_H
#define MEMSCALE_SIM_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "predict/markov.h"

enum sim_op_kind {
	SOP_LOCAL,     /* ns of local work */
	SOP_LOCAL_EXP, /* exponential local work, mean ns */
	SOP_READ,      /* read a shared line */
	SOP_WRITE,     /* plain store to a shared line */
	SOP_RMW,       /* atomic read-modify-write on a shared line */
	SOP_LOCK,      /* acquire a lock (FIFO) */
	SOP_UNLOCK,    /* release it */
	SOP_EVERY,     /* run the next `skip` ops once every `period` iters */
};

/* The recorder's enum rec_scope (models/record.h) value for value; the
 * static asserts of predict/sim_memcg.c, which turns records into
 * programs, keep the two in step. */
enum sim_scope { SCOPE_GLOBAL, SCOPE_NODE, SCOPE_MEMCG, SCOPE_MEMCG_NODE, SCOPE_CORE,
		 /* global reclaim's memcg walk: the same instances as the
		  * line (lock) of that name with scope memcg (memcg,node),
		  * but core c at iteration i reaches container
		  * (c % containers + i) % containers's, not its own */
		 SCOPE_MEMCG_WALK, SCOPE_MEMCG_NODE_WALK };

/* a lock's kind: enum lock_model_kind of predict/markov.h */

struct sim_op {
	enum sim_op_kind kind;
	unsigned target; /* line or lock template index */
	unsigned period; /* SOP_EVERY */
	unsigned num;    /* SOP_EVERY: runs num times per period arrivals (0: once) */
	unsigned skip;   /* SOP_EVERY: ops in the block */
	double ns;       /* SOP_LOCAL* */
};

#define SIM_MAX_LINES 128
#define SIM_MAX_LOCKS 16
#define SIM_MAX_LOCAL_PARTS 16

struct sim_line_def {
	char name[40];
	enum sim_scope scope;
	int mate; /* the other 64 B half of its 128 B sector, -1: none */
};

struct sim_lock_def {
	char name[40];
	enum sim_scope scope;
	enum lock_model_kind kind;
	int line; /* template line holding the lock word */
};

/* An actor beside the program's cores that takes a share of each core's
 * time: the memcg stats flusher (predict/sim_flusher.c memcg_flusher). */
struct sim_flusher {
	double periodic_per_s; /* the periodic flusher's flushes a second */
	double asked_per_s;    /* update-path and reader requests a second,
				* machine-wide (an upper bound) */
	double per_s;          /* flushes that run: at most one at a time */
	double lines;          /* lines one flush moves: cpus x per-CPU lines */
	double flush_ns;       /* one flush, its transfers back to back */
	double share;          /* of each core's time the flushes take */
	/* The lines the owners write only under a lock, taken back inside
	 * its section after a flush (the lock with the most added work):
	 * how many, the chance a flush came since the owner's last hold,
	 * and the work each hold gains. */
	unsigned in_lock_lines;
	double in_lock_p, in_lock_ns;
	bool iter_from_run; /* the iteration a first run found, not the
			     * local work's lower bound */
};

struct sim_prog {
	char name[64];
	struct sim_op *ops;
	size_t nops, cap;
	size_t merge_floor; /* ops below this index are never merged into */
	double iter_bytes;  /* bytes one iteration touches besides its named
			     * lines (pages written, copied): the footprint that
			     * ages read copies (sim.h above); 0: none */
	size_t actor_start; /* 0, or where the reclaimer's program starts:
			     * ops [0, actor_start) are the workers', the
			     * rest the reclaimers' (sim_params.reclaimers) */
	struct sim_flusher flusher; /* priced into the workers' local work
				     * already; kept for --explain */
	/* The workers' local work per iteration outside every lock section,
	 * by part, as the builder priced it (their sum is the program's
	 * local work before SMT); kept for --explain.  n 0: not given. */
	struct sim_local_parts {
		unsigned n;
		double total; /* the local work the program got, ns */
		struct { const char *name; double ns; } part[SIM_MAX_LOCAL_PARTS];
	} local_parts;
	unsigned nlines, nlocks;
	struct sim_line_def lines[SIM_MAX_LINES];
	struct sim_lock_def locks[SIM_MAX_LOCKS];
};

struct sim_explain;

struct sim_costs {
	double xfer_ns;       /* one cache-line transfer between cores */
	double remote_factor; /* multiplier when the transfer crosses nodes */
	double hit_ns;        /* access to a line the core holds */
	double atomic_ns;     /* extra for a locked RMW */
	double handoff_ns;    /* lock hand-off to the next waiter */
	double inval_step_ns; /* a write's extra cost per copy past the first */
	double l2_keep_bytes; /* a core's L2, which read copies age out of
			       * (0: never lost to capacity) */
	bool pair_prefetch;   /* 128 B spatial prefetcher pairs sector mates */
	bool pair_rfo;        /* an RFO fill takes its mate exclusively */
	bool passive_waiters; /* ablation: waiters touch nothing (old model) */
	double smt_slowdown;  /* compute time factor while the SMT sibling
			       * computes (0: 1); 2 / (1 + gain) */
	/* Not a cost: where sim_run accounts a lock holder's time (below);
	 * NULL: nothing accounted (the default, at no cost to the run). */
	struct sim_explain *explain;
};

/*
 * What a critical section is made of (sim_costs.explain): over the
 * measured window, per lock template, every nanosecond between a holder
 * taking the lock and its release store completing, by part, and the
 * lines it touched.  A miss is charged to the role its line's taker had
 * when it took it: for a write or a read of a line someone else wrote,
 * its last writer; for a write to a line the holder owns but others
 * read since, the last such reader.  The roles, relative to the lock
 * held: a waiter of it (an arrival's RMWs on the lock word, a spinner's
 * re-read, either one's pair prefetch of the sector mate), a holder of
 * it (the previous holders), another core outside it (or memory).  A
 * core holding two locks charges the one taken last, and after its
 * release nothing until it takes another.  The parts sum to
 * the hold time (hold_ns x holds) up to the holds cut by the window's
 * edges; the hand-off is the time between two holds, not in them.
 */
enum sim_role { SIM_ROLE_WAITER, SIM_ROLE_HOLDER, SIM_ROLE_OTHER, SIM_ROLE_N };
enum sim_part {
	SIM_PART_LOCAL,     /* LOCAL work inside the section */
	SIM_PART_HIT,       /* accesses to lines the holder had (hit_ns) */
	SIM_PART_XFER,      /* transfers: + role, three parts */
	SIM_PART_INVAL = SIM_PART_XFER + SIM_ROLE_N, /* inval_step_ns past the first copy */
	SIM_PART_BUSY,      /* waiting for a line busy with an earlier request */
	SIM_PART_ATOMIC,    /* atomic_ns of the holder's RMWs */
	SIM_PART_HANDOFF,   /* release to next holder (between holds) */
	SIM_PART_N
};
struct sim_explain {
	struct sim_explain_lock {
		uint64_t holds;         /* acquisitions in the window */
		uint64_t arrivals;      /* cores arriving while it was held */
		uint64_t pending;       /* of those, the queue lock's pending path
					 * (arriving with no waiter queued) */
		uint64_t arrival_rmws;  /* their RMWs on the lock word */
		uint64_t rereads;       /* spinners' reads of the lock word */
		uint64_t steals_word;   /* a waiter's access took the holder's
					 * exclusive copy of the lock word's line */
		uint64_t steals_mate;   /* ... of its sector mate (pair prefetch) */
		double ns[SIM_PART_N];  /* ns in the holds, by part */
		uint64_t hits[SIM_MAX_LINES];              /* per line template */
		uint64_t xfers[SIM_MAX_LINES][SIM_ROLE_N]; /* per line, by role */
		double busy_ns[SIM_MAX_LINES]; /* SIM_PART_BUSY per line */
	} lock[SIM_MAX_LOCKS];
};

struct sim_params {
	unsigned ncores, nodes, containers;
	unsigned phys_cores;     /* 0 or >= ncores: no SMT siblings */
	/* Cores past ncores, one per node (core ncores + j on node j %
	 * nodes), that run the program's actor part (sim_prog.actor_start)
	 * and count no iteration: reclaimers such as kswapd.  Each computes
	 * reclaimer_share of the time: after an iteration of d ns it idles
	 * d * (1 / share - 1) (a CPU it shares with runnable tasks; 0: 1).
	 * They have no SMT sibling and their memcg-scoped lines are the
	 * walk's.  0: none (the program may still have an actor part). */
	unsigned reclaimers;
	double reclaimer_share;
	uint64_t iters_per_core; /* run length: total = ncores * this */
	double warm_frac;        /* leading fraction of iterations ignored */
	uint64_t seed;
};

struct sim_result {
	double ops_per_sec;    /* iterations per second, all cores */
	double actor_per_sec;  /* the reclaimers' iterations per second, all of them */
	/* Set by predict/sim_memcg.c's kswapd runs (0 otherwise): the share
	 * of the reclaim calls the reclaimers took, and their rate over the
	 * workers' need in the run reported (1: a fixed point). */
	double reclaim_by_actor, actor_cover;
	/* the reclaimer's CPU share used and whether MEMSCALE_KSWAPD_SHARE
	 * set it (else MEMCG_KSWAPD_SHARE or the config's) */
	double actor_share;
	bool actor_share_from_env;
	double ns_per_op_core; /* mean iteration time of one core */
	double lock_wait_frac; /* fraction of core time waiting for locks */
	double xfer_per_op;    /* line transfers per iteration */
	uint64_t events;
	double sim_ns;
	/* The regime, over the measured window (see the model above). */
	unsigned nlocks, nlines;
	struct sim_lock_stat {
		double util;         /* busiest instance: fraction of time held */
		double mean_waiters; /* its time-averaged queue length */
		double hold_ns;      /* its mean hold per acquisition */
		double acq_per_op;   /* acquisitions (all instances) per iteration */
		unsigned instances;  /* instances taken in the measured window */
	} lock[SIM_MAX_LOCKS];
	double line_xfer_per_op[SIM_MAX_LINES]; /* per line template */
};

#endif
