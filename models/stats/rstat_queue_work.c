/*
 * rstat_queue_work - aa48e47e3906 (v5.15 cycle, mm/memcontrol.c and
 * mm/vmscan.c; the state 1f828223b799 applies to).  Diff read: the
 * posting of aa48e47e3906, mm/memcontrol.c index ..0a05ce5cd045, with
 * the mm/vmscan.c hunk.
 *
 * __mod_memcg_lruvec_state() counts its calls per CPU (the per-CPU
 * stats_flush_threshold) and on every MEMCG_CHARGE_BATCH-th one calls
 * queue_work(system_unbound_wq, &stats_flush_work): an atomic
 * test_and_set_bit of the one global work item's PENDING bit and, when
 * it was clear, the work runs mem_cgroup_flush_stats(), a spin_trylock
 * of stats_flush_lock and a flush of the whole tree.  Only the lruvec
 * update counts (not __mod_memcg_state, not the events).  Readers flush
 * with no threshold: shrink_node() calls mem_cgroup_flush_stats() on
 * every pass; the 2 s flush_memcg_stats_dwork runs too (flush_ms).
 *
 * Model: the kworker's flush runs on the worker that queued it (the
 * kernel runs it on another CPU of the unbound pool, which a loaded
 * machine takes from a benchmark task); the PENDING bit is cleared as
 * the work starts, as process_one_work() does.  A recording counts each
 * queuer's request (RL_FLUSH_REQ) and pauses in the flush; a prediction
 * prices the flushes beside the program (predict/sim_flusher.c).
 */
#include "models/memcg.h"
#include "models/internal.h"
#include "models/stats/stats.h"

static void queue_work_mod_state(struct model_worker *mw, struct mcg *memcg, unsigned nid,
				 enum stat_item idx, long val)
{
	struct model *m = mw->m;

	stats_rstat_mod_state(mw, memcg, nid, idx, val);
	/* __this_cpu_inc_return(stats_flush_threshold) % MEMCG_CHARGE_BATCH */
	MODEL_REC_LOCAL(m, RL_PERCPU);
	if (++mw->stats_updates % m->p.charge_batch)
		return;
	mw->stats_updates = 0;
	mw->ops.rstat_batches++;
	/* every queuer asks; N CPUs' requests past one flush at a time
	 * find the work pending (the simulator's flusher rate) */
	MODEL_REC_LOCAL(m, RL_FLUSH_REQ);
	/* queue_work(): test_and_set_bit(WORK_STRUCT_PENDING_BIT) */
	MODEL_REC(m, &m->stats_flush_work, REC_RMW);
	if (__atomic_fetch_or(&m->stats_flush_work, 1ul, __ATOMIC_ACQ_REL) & 1)
		return; /* already queued */
	/* flush_memcg_stats_work(): PENDING cleared, then the flush.
	 * Release: pairs with the acquiring fetch_or of the next queuer. */
	__atomic_store_n(&m->stats_flush_work, 0ul, __ATOMIC_RELEASE);
	model_flush(mw);
}

static const struct stats_design stats_rstat_queue_work = {
	.name = "rstat_queue_work", .commit = "aa48e47e3906",
	.description = "every 32nd lruvec update per CPU queues a whole-tree flush work; "
		       "readers flush unconditionally (v5.15 cycle)",
	.update = "per-CPU add, cgroup_rstat_updated(); lruvec updates counted per CPU, every "
		  "MEMCG_CHARGE_BATCH-th queue_work(): test_and_set_bit on the global work item, "
		  "and the work's tree flush when it was not pending",
	.trigger = "none on the read side (shrink_node flushes every pass, trylock); "
		   "the update-side work every MEMCG_CHARGE_BATCH lruvec updates per CPU",
	.walk = "none on update (cgroup_rstat_updated links ancestors once per flush)",
	.scope = STATS_FLUSH_TREE,
	.reads = (const char *const[]){ "flush_ms", NULL },
	.mod_state = queue_work_mod_state,
	.should_flush = stats_always_flush,
};
REGISTER(stats_design, stats_rstat_queue_work);
