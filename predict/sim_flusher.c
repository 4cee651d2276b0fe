/*
 * sim_flusher.c - the memcg stats flushers beside a simulated program
 * (sim_flusher.h): the rstat flush of kernel/cgroup/rstat.c and
 * mm/memcontrol.c (2d146aa3aa84 on; aa48e47e3906's update-path
 * queue_work()), priced from what the recording counted (models/record.h:
 * RL_FLUSH_REQ, npcpu and where each per-CPU line was written).
 */
#include "predict/sim_flusher.h"

#include <math.h>
#include <string.h>

#include "models/record.h"
#include "models/stats/stats.h"

/*
 * The stats flushers, the kernel's other actor on every rstat update path
 * (mm/memcontrol.c, kernel/cgroup/rstat.c).  Who flushes: the periodic
 * flush_memcg_stats_dwork every FLUSH_TIME (the kernel profile's
 * flush_ms), the update path where the design queues one
 * (aa48e47e3906's queue_work() every MEMCG_CHARGE_BATCH lruvec updates
 * per CPU) and readers past their design's trigger (reclaim).  At most
 * one runs at a time: the work item is pending once, later readers find
 * stats_flush_lock or stats_flush_ongoing taken and return.
 *
 * What one flush moves: cgroup_rstat_flush visits, per CPU, the memcgs on
 * that CPU's updated tree and mem_cgroup_css_rstat_flush reads its
 * per-CPU slots; the lines the owner wrote since the last flush come to
 * the flusher's CPU (a transfer each), and the owner's next write of each
 * takes it back (another).  Those lines are the recording's npcpu: the
 * distinct per-CPU lines the workload's updates write (state[], events[]
 * and the lruvec's state[] slots it uses, the per-memcg stats_updates
 * counters, the rstat_cpu links of the chain and cgroup_rstat_cpu_lock,
 * which the flush unlinks and takes); the slots nobody wrote stay in the
 * flusher's cache.  One flush: cpus x npcpu lines, back to back (no
 * overlap of the misses: a flush at least this long).  Its cost to the
 * machine is its own time, spread over the cores its kworker or reader
 * takes time from, plus the owners' transfers back.  A line its owner
 * writes outside the locks comes back in the owner's local work:
 * (npcpu + npcpu_out) x xfer_ns per core per flush.  A line it writes
 * only under an LRU lock (the lruvec's and the memcg's LRU-size slots,
 * update_lru_size() inside the lock) comes back inside that lock's
 * section: predict/sim_memcg.c adds, per hold, those lines x xfer_ns x
 * the chance a flush came since the core's previous hold
 * (memcg_flush_between: flushes a second x the gap between its holds,
 * the core's iteration over the operations a hold serves).
 *
 * How often: the periodic rate plus the requests, each worker asking
 * req_per_op times an iteration of iter_ns, but no more than one flush
 * at a time, 1 / flush_ns.  The iteration is a first run's
 * (memcg_sim_run_prog runs a design that asks twice), else the local
 * work, a lower bound.  So a design that asks on the update path flushes
 * back to back on a large machine and each core loses about 2 / cpus of
 * its time to it, and where its LRU-size slots are written under the
 * lruvec lock each hold takes them back; the periodic flusher alone,
 * every 2 s, nearly nothing.
 * Not in it: the flusher's instructions over the slots (no count), the
 * cgroup_rstat_lock holders' waits, an updater's wait for its
 * cgroup_rstat_cpu_lock while the flusher holds it, the kworker's
 * wake-up per queued work.
 */
int memcg_flusher(const struct model_params *p, unsigned cpus, unsigned npcpu,
		  unsigned npcpu_out, double req_per_op, double iter_ns, double xfer_ns,
		  struct sim_flusher *out)
{
	double per_core, cap;

	memset(out, 0, sizeof(*out));
	if (!(req_per_op >= 0) || !(iter_ns >= 0) || !(xfer_ns >= 0) || npcpu_out > npcpu)
		return -1;
	if (!p->stats || p->stats->scope == STATS_FLUSH_NONE || !cpus)
		return 0;
	if (p->flush_ms && stats_design_reads(p->stats, "flush_ms"))
		out->periodic_per_s = 1000.0 / p->flush_ms;
	if (req_per_op > 0 && iter_ns > 0)
		out->asked_per_s = (double)cpus * req_per_op / iter_ns * 1e9;
	per_core = (double)npcpu * xfer_ns;
	out->lines = (double)cpus * npcpu;
	out->flush_ns = (double)cpus * per_core;
	out->per_s = out->periodic_per_s + out->asked_per_s;
	cap = out->flush_ns > 0 ? 1e9 / out->flush_ns : INFINITY;
	if (out->per_s > cap)
		out->per_s = cap;
	out->share = out->per_s * (double)(npcpu + npcpu_out) * xfer_ns * 1e-9;
	return 0;
}

double memcg_flush_between(const struct sim_flusher *f, double gap_ns)
{
	double p = f->per_s * gap_ns * 1e-9;

	return p > 1 ? 1 : p > 0 ? p : 0;
}

unsigned memcg_pcpu_only_under(const struct model_rec *r, unsigned lock)
{
	unsigned n = 0;
	uint16_t want = (uint16_t)(2u << lock);

	for (unsigned i = 0; i < r->npcpu; i++)
		n += r->pcpu_where[i] == want;
	return n;
}
