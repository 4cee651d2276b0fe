/*
 * sim.h - discrete-event simulator of N cores running a workload's
 * per-iteration op program against shared cache lines and locks.
 *
 * The model (its assumptions, all of them):
 *  - Time is continuous (ns).  Each core runs the same program over and
 *    over; one pass = one iteration = one workload operation.
 *  - LOCAL ops cost their time and touch nothing shared (per-CPU data,
 *    page copies, syscall entry).  LOCAL_EXP draws an exponential time.
 *  - Every named shared line has an owner, a version and a "shared" bit
 *    (a MESI reduction).  A read hits if the core has seen the current
 *    version; a write or RMW hits only if the core owns the line and no
 *    one else read it since.  A miss is one ownership transfer costing
 *    xfer_ns (times remote_factor when the previous owner sits on another
 *    node).  Transfers of one line are served FIFO, one at a time: the
 *    line is a single server (the directory answering requests in turn);
 *    the exception is a read of a line already shared since its last
 *    write (MESI S state), which waits for the transfer in flight but is
 *    then served from the shared copy without holding up later requests.
 *    Hits cost hit_ns, an RMW adds atomic_ns.
 *  - Locks are FIFO.  Acquiring a free lock is an RMW on its lock-word
 *    line (which may share the line with data: false sharing with a lock
 *    word is modelled).  A release with waiters hands the lock and its
 *    line to the first waiter after handoff(k): queue locks (MCS,
 *    qspinlock) a constant handoff_ns; ticket locks handoff_ns * k / 2,
 *    k = holder + waiters (the OLS'12 model, see markov.h).
 *  - EVERY blocks run once (or num times, spread evenly) in `period`
 *    arrivals at the block, per core, from a random per-core phase
 *    (per-CPU batches fold at different times on different CPUs).
 *  - Lines and locks are templates with a scope: one global instance,
 *    one per node, per memcg (container) or per memcg and node, or one
 *    per core.  Core c belongs to memcg c % containers and node
 *    c % nodes (as the userspace model places workers).
 * Not modelled: caches' capacity misses (give them as LOCAL time),
 * prefetchers (model a 128 B pair as one line), interrupts, scheduling.
 */
#ifndef MEMSCALE_SIM_H
#define MEMSCALE_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

enum sim_scope { SCOPE_GLOBAL, SCOPE_NODE, SCOPE_MEMCG, SCOPE_MEMCG_NODE, SCOPE_CORE };

enum sim_lock_kind { SIM_LOCK_QUEUE, SIM_LOCK_TICKET };

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

struct sim_line_def {
	char name[40];
	enum sim_scope scope;
};

struct sim_lock_def {
	char name[40];
	enum sim_scope scope;
	enum sim_lock_kind kind;
	int line; /* template line holding the lock word */
};

struct sim_prog {
	char name[64];
	struct sim_op *ops;
	size_t nops, cap;
	size_t merge_floor; /* ops below this index are never merged into */
	unsigned nlines, nlocks;
	struct sim_line_def lines[SIM_MAX_LINES];
	struct sim_lock_def locks[SIM_MAX_LOCKS];
};

struct sim_costs {
	double xfer_ns;       /* one cache-line transfer between cores */
	double remote_factor; /* multiplier when the transfer crosses nodes */
	double hit_ns;        /* access to a line the core holds */
	double atomic_ns;     /* extra for a locked RMW */
	double handoff_ns;    /* lock hand-off to the next waiter */
};

struct sim_params {
	unsigned ncores, nodes, containers;
	uint64_t iters_per_core; /* run length: total = ncores * this */
	double warm_frac;        /* leading fraction of iterations ignored */
	uint64_t seed;
};

struct sim_result {
	double ops_per_sec;    /* iterations per second, all cores */
	double ns_per_op_core; /* mean iteration time of one core */
	double lock_wait_frac; /* fraction of core time waiting for locks */
	double xfer_per_op;    /* line transfers per iteration */
	uint64_t events;
	double sim_ns;
};

void sim_prog_init(struct sim_prog *p, const char *name);
void sim_prog_free(struct sim_prog *p);
/* Template line by name (created on first use; the scope must agree). */
unsigned sim_line(struct sim_prog *p, const char *name, enum sim_scope scope);
unsigned sim_lock(struct sim_prog *p, const char *name, enum sim_scope scope,
		  enum sim_lock_kind kind, unsigned line);
void sim_local(struct sim_prog *p, double ns);
void sim_local_exp(struct sim_prog *p, double ns);
void sim_access(struct sim_prog *p, enum sim_op_kind kind, unsigned line);
void sim_lock_op(struct sim_prog *p, unsigned lock);
void sim_unlock_op(struct sim_prog *p, unsigned lock);
/* Opens a block run once every `period` iterations; returns its handle
 * for sim_every_end().  period 1 blocks are free. */
size_t sim_every(struct sim_prog *p, unsigned period);
/* A block run num times in every `period` arrivals, spread evenly
 * (num < period); num 1 is sim_every(). */
size_t sim_every_n(struct sim_prog *p, unsigned num, unsigned period);
/* Expected runs per iteration of op i: the product of num/period of the
 * blocks enclosing it. */
double sim_op_weight(const struct sim_prog *p, size_t i);
void sim_every_end(struct sim_prog *p, size_t handle);
/* Sum of LOCAL time per iteration (expected value). */
double sim_prog_local_ns(const struct sim_prog *p);
/* Print the program (one op a line) for documentation and debugging. */
void sim_prog_dump(const struct sim_prog *p, FILE *f);

/* Returns 0, or -1 with *err (static) on bad parameters. */
int sim_run(const struct sim_prog *p, const struct sim_costs *c,
	    const struct sim_params *sp, struct sim_result *r, const char **err);

#endif
