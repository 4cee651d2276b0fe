/*
 * sim_flusher.h - the memcg stats flushers beside a simulated program
 * (predict/sim_flusher.c): how often a flush runs on a machine of `cpus`
 * CPUs, what it costs each core, and the lines it makes an owner take
 * back inside a lock section.  Follows the rstat flush of
 * kernel/cgroup/rstat.c and mm/memcontrol.c from 2d146aa3aa84 on
 * (aa48e47e3906's update-path queue_work(), the periodic
 * flush_memcg_stats_dwork, readers' flushes).
 */
#ifndef MEMSCALE_PREDICT_SIM_FLUSHER_H
#define MEMSCALE_PREDICT_SIM_FLUSHER_H

#include "predict/sim_types.h"

struct model_params;
struct model_rec;

/* How often a flush runs on a machine of `cpus` CPUs and what it costs
 * each core (struct sim_flusher, predict/sim_types.h; the model in
 * sim_flusher.c).
 *
 * p's design and flush period; npcpu: the per-CPU lines a CPU's updates
 * write that a flush takes (struct model_rec npcpu), npcpu_out those of
 * them it takes back in its local work (the others, written only under
 * one lock, it takes back inside that lock's section: priced there,
 * memcg_flush_between); req_per_op: flush requests per operation of a
 * worker (RL_FLUSH_REQ); iter_ns: the worker's iteration (a first run's,
 * else its local work, a lower bound); xfer_ns: the mean transfer from
 * the owner's CPU to the flusher's.  Zeroes *out for a design without
 * rstat flushes (v5.10's fold).  Returns 0, or -1 on a negative or NaN
 * input, or npcpu_out > npcpu.
 */
int memcg_flusher(const struct model_params *p, unsigned cpus, unsigned npcpu,
		  unsigned npcpu_out, double req_per_op, double iter_ns, double xfer_ns,
		  struct sim_flusher *out);
/* The chance that a flush came between two holds of a lock by one core:
 * flushes a second x the gap between them (ns), at most 1. */
double memcg_flush_between(const struct sim_flusher *f, double gap_ns);

/* Of recording r's per-CPU lines (npcpu), those written under `lock` and
 * nowhere else: taken back inside its section after a flush. */
unsigned memcg_pcpu_only_under(const struct model_rec *r, unsigned lock);

#endif
