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
 *  - A write or RMW to a line that k other cores hold copies of pays one
 *    transfer plus inval_step_ns for each copy past the first
 *    (inval_step_ns = 0: a flat invalidation).  The copies are counted
 *    per line: every read miss by a core that had no current copy adds
 *    one, a write resets them.
 *    inval_step_ns comes from the target profile's inval_step_cycles
 *    (predict/target.c line_costs), each with its source; none is
 *    sourced yet, so every target prices a flat invalidation.
 *  - Two 64 B lines may be declared the halves of one 128 B sector
 *    (sim_line_mate).  With pair_prefetch (the L2 spatial prefetcher)
 *    every fill of one half into the requester's L2 brings the other in
 *    as a shared copy: a read miss, an ownership request (RFO), a
 *    capacity re-miss (below) or a lock hand-off alike, and a half never
 *    written comes from memory.  Intel's Optimization Reference Manual
 *    describes the L2 spatial prefetcher as completing each line brought
 *    into L2 with the other line of its 128-byte aligned pair, whatever
 *    the request that brought it (sources.ini pair_spatial).  The fill
 *    is asynchronous, at no cost to the requester, but the other half's
 *    owner loses exclusivity, so its next write to it is an
 *    invalidation (one transfer).
 *    With pair_rfo (the target's pair_rfo fact, sources.ini
 *    pair_rfo_intel) the pair of an ownership fill (a write or RMW miss,
 *    or the lock word taken at a hand-off) is itself asked for
 *    ownership, as Intel's L2 prefetches of store data are RFOs: every
 *    other copy of the other half is invalidated and the requester owns
 *    it.  When that half holds a lock word, its spinners re-read it (the
 *    rule for a write to the word's line, below), and their read fills
 *    pull the requester's half back to shared: a holder writing the
 *    lock word's sector mate while a waiter spins pays a transfer per
 *    write.  Without pair_rfo every pair fill is a shared copy.
 *  - Read copies are lost to capacity (l2_keep_bytes > 0 and the
 *    program's iter_bytes > 0): a core that reads a line it holds a
 *    shared copy of, last touched i iterations ago, has touched
 *    D = i x iter_bytes other bytes since; the copy is still in its L2
 *    with the footprint model's probability min(1, C / D), C its L2
 *    (predict/footprint.h, FP_UNIFORM: each byte touched since equally
 *    likely to have displaced it), drawn per read from the core's random
 *    stream.  A lost copy misses again: a read miss priced as a transfer
 *    (the line comes back from the LLC or its owner) that pairs its
 *    sector mate by the rule above.  The owner's own (exclusive or
 *    modified) copy is not aged: only read copies are.
 *  - Locks are FIFO.  Acquiring a free lock is an RMW on its lock-word
 *    line (which may share the line with data: false sharing with a lock
 *    word is modelled).  A release with waiters hands the lock and its
 *    line to the first waiter after handoff(k): queue locks (MCS,
 *    qspinlock) a constant handoff_ns; ticket locks handoff_ns * k / 2,
 *    k = holder + waiters (the OLS'12 model, see markov.h).
 *  - Waiters are active (unless passive_waiters): a core arriving at a
 *    held queue lock does what qspinlock's slow path does to the lock
 *    word (v6.9 include/asm-generic/qspinlock.h queued_spin_lock, then
 *    kernel/locking/qspinlock.c queued_spin_lock_slowpath): a failed
 *    locked cmpxchg, then, with nobody waiting, the pending bit
 *    (queued_fetch_set_pending_acquire), else xchg_tail (two RMWs either
 *    way); at a ticket lock, the ticket fetch-and-add (one RMW).
 *    Spinners read the lock word: of a queue lock the pending waiter
 *    (atomic_cond_read_acquire on lock->locked) and the MCS queue head
 *    (atomic_cond_read_acquire on lock->val; the others spin on their
 *    own MCS nodes, per-core lines), so two while a pending waiter waits
 *    with a queue behind it, else one; every waiter of a ticket lock.
 *    After any write to the lock word's line by another core (an
 *    arrival, or the holder writing data that shares the line), each
 *    spinner re-reads it, making it shared again and, with
 *    pair_prefetch, pulling its sector mate.  The release and the new
 *    holder's locking store are covered by handoff(k); after them the
 *    spinners left (the queue head, still spinning or just told by the
 *    MCS hand-off next->locked = 1) read the word once more at the
 *    hand-off's end.  The MCS hand-off's own store goes to a per-core
 *    node line and is not simulated.  The re-reads are issued at the
 *    write's completion time, which may lie slightly ahead of the event
 *    being processed; the line's FIFO server keeps them in order.
 *  - EVERY blocks run once (or num times, spread evenly) in `period`
 *    arrivals at the block, per core, from a random per-core phase
 *    (per-CPU batches fold at different times on different CPUs).
 *  - Lines and locks are templates with a scope: one global instance,
 *    one per node, per memcg (container) or per memcg and node, or one
 *    per core.  Core c belongs to memcg c % containers and node
 *    c % nodes (as the userspace model places workers).  The walk
 *    scopes (global reclaim's memcg walk, shrink_node_memcgs()) name a
 *    container's line as another template does, by the same name, and
 *    share its instances; core c at iteration i reaches container
 *    (c % containers + i) % containers's (all of them in turn).
 *  - SMT: with phys_cores < ncores, core c runs on physical core
 *    c % phys_cores: the first phys_cores cores get a core each, the rest
 *    are their second hyperthreads (c and c + phys_cores share a core, as
 *    Linux numbers the CPUs of these Intel machines: every core's first
 *    thread, then every core's second; will-it-scale fills cores first).
 *    A sibling sits on its core's node, (c % phys_cores) % nodes.
 *    ncores <= phys_cores is one thread per core, exactly as without SMT.
 *    Siblings share L1 and L2: a line passes between them at hit cost
 *    (hit_ns, not slowed), counted as no transfer, and a queue lock's
 *    hand-off to the sibling costs hit_ns instead of handoff_ns.
 *    A core computes smt_slowdown times slower while its sibling computes
 *    (the two share one pipeline: with an SMT gain g, two busy threads
 *    deliver 1 + g of one, so smt_slowdown = 2 / (1 + g)): its LOCAL
 *    work and its hit and atomic costs.  Line transfers and the hand-off
 *    are memory latency, not slowed.  A sibling waiting for a lock does
 *    not slow it: the kernel's spinners spin with cpu_relax(), PAUSE on
 *    x86 (v6.9 arch/x86/include/asm/vdso/processor.h: rep_nop(); the
 *    qspinlock waits of kernel/locking/qspinlock.c go through
 *    smp_cond_load_*(), a cpu_relax() loop in include/asm-generic/
 *    barrier.h), which Intel recommends in spin-wait loops
 *    on Hyper-Threading processors because it leaves the core's
 *    resources to the other thread (SDM Vol. 3A 8.10.6.1; from Skylake
 *    on a PAUSE lasts up to 140 cycles, Optimization Reference Manual,
 *    "Pause Latency in Skylake Microarchitecture").  The factor is taken
 *    when the work or access starts, from the sibling's state then (a
 *    sibling handed the lock computes from the hand-off's end); a wait
 *    that begins or ends part-way through does not rescale work under
 *    way.
 *  - sim_result carries the regime: per lock template the busiest
 *    instance's utilisation (time held / time measured), its mean queue
 *    and hold time, and per line template the transfers per iteration,
 *    all over the measured (post-warm-up) window.
 * Not modelled: capacity misses of lines a core owns (give them as LOCAL
 * time), prefetchers other than the 128 B pair, interrupts, scheduling.
 */
#ifndef MEMSCALE_SIM_H
#define MEMSCALE_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "predict/sim_types.h"

/* Name of a part ("local", "hit", "xfer_waiter", ...). */
const char *sim_part_name(enum sim_part part);

void sim_prog_init(struct sim_prog *p, const char *name);
void sim_prog_free(struct sim_prog *p);
/* Template line by name and scope (created on first use; a name has one
 * scope, or two where one is the other's walk scope). */
unsigned sim_line(struct sim_prog *p, const char *name, enum sim_scope scope);
unsigned sim_lock(struct sim_prog *p, const char *name, enum sim_scope scope,
		  enum lock_model_kind kind, unsigned line);
/* Declares lines a and b the two 64 B halves of one 128 B sector (same
 * scope; each line has at most one mate). */
void sim_line_mate(struct sim_prog *p, unsigned a, unsigned b);
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
/* Expected runs per iteration of every op: w[i] is the product of
 * num/period of the blocks enclosing op i.  A new array of p->nops
 * values (at least one); free() it. */
double *sim_prog_weights(const struct sim_prog *p);
void sim_every_end(struct sim_prog *p, size_t handle);
/* Ends the workers' program: what follows is the reclaimers'
 * (sim_prog.actor_start). */
void sim_actor_begin(struct sim_prog *p);
/* Sum of LOCAL time per iteration (expected value). */
double sim_prog_local_ns(const struct sim_prog *p);
/* Shared ops (line accesses, lock and unlock) of one worker iteration
 * (expected value): about the events an iteration costs sim_run. */
double sim_prog_shared_ops(const struct sim_prog *p);
/* Print the program (one op a line) for documentation and debugging. */
void sim_prog_dump(const struct sim_prog *p, FILE *f);

/* A walk-scoped line's (lock's) twin: the template of the same name
 * (on the twin line) whose scope its walk scope shares instances with;
 * -1: none, or not a walk template. */
int sim_line_twin(const struct sim_prog *p, unsigned line);
int sim_lock_twin(const struct sim_prog *p, unsigned lock);

/* Instances of a scope's template in a run of sp. */
unsigned sim_scope_count(const struct sim_params *sp, enum sim_scope s);
/* NULL, or why sim_run refuses the program, costs and parameters. */
const char *sim_params_check(const struct sim_prog *p, const struct sim_costs *c,
			     const struct sim_params *sp);

/* Returns 0, or -1 with *err (static) on bad parameters. */
int sim_run(const struct sim_prog *p, const struct sim_costs *c,
	    const struct sim_params *sp, struct sim_result *r, const char **err);

#endif
