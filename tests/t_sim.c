/*
 * t_sim.c - the discrete-event simulator against closed forms:
 *  1. N cores, exponential think (mean a) and exponential critical
 *     section (mean s) under one FIFO lock with free hand-off is the
 *     machine-repairman queue M/M/1//N: P_k ~ N!/(N-k)! (s/a)^k and the
 *     throughput is (1 - P_0)/s.
 *  2. Cores doing nothing but an RMW on one line serialise on that line:
 *     throughput = 1 / transfer latency, whatever the core count.
 *  3. A line only read is transferred once per core, then hits.
 *  6. The regime: M/M/1//N's utilisation 1 - P_0 and mean queue
 *     sum (k-1) P_k.
 *  7. Active waiters and the 128 B pair: two cores alternating on one
 *     lock, the holder writing a list head in the lock word's sector
 *     mate twice per hold; the waiter's arrival steals the sector, so the
 *     holder's second write costs one transfer more.
 *  8. Invalidation that grows with copies: a write to a line k other
 *     cores hold costs one transfer plus inval_step_ns * (k - 1).
 * 10. What a critical section is made of (sim_costs.explain), on 7's
 *     program: the parts sum to the hold; the first list write is a
 *     transfer from the previous holder, the second one from the waiter
 *     that stole the sector; the release store takes the lock word back
 *     from the waiter; one arrival (the pending path: nobody else waits)
 *     and two RMWs per hold.  Accounting changes nothing of the run.
 * 11. qspinlock's spinners: with three cores always queued, each arrival
 *     takes the MCS path (a waiter is queued already), its two RMWs each
 *     make the queue head re-read the lock word, and after each hand-off
 *     the next queue head reads it once: three re-reads per hold, and
 *     never the pending path.
 *  9. SMT: two hyperthread siblings ping-ponging a line pay hit cost, not
 *     a transfer; beside a sibling, local work takes smt_slowdown times
 *     longer; a core without one runs at full speed.
 * 10. SMT siblings, smt_cases(): with gain g (two busy threads deliver
 *     1 + g of one), both siblings computing take 2 / (1 + g) as long
 *     per op, hits and atomics included; a sibling waiting for a lock
 *     (spinning with PAUSE) does not slow the holder, and a hand-off
 *     between siblings costs a hit; a line passed between siblings is no
 *     transfer; with no more CPUs than cores nothing changes.
 * 12. Global reclaim's memcg walk and the reclaimers: walk_cases().
 * 13. The engine's line rules: engine_rule_cases().
 */
#include <math.h>

#include "core/util.h"
#include "predict/markov.h"
#include "predict/sim.h"
#include "tap.h"

/* M/M/1//N: utilisation 1 - P_0 and mean queue sum_k (k-1) P_k. */
static void mm1n_regime(unsigned n, double a, double s, double *util, double *queue)
{
	double w = 1, sum = 1, q = 0;

	for (unsigned k = 1; k <= n; k++) {
		w *= (double)(n - k + 1) * s / a;
		sum += w;
		q += (double)(k - 1) * w;
	}
	*util = 1.0 - 1.0 / sum;
	*queue = q / sum;
}

static double mm1n_throughput(unsigned n, double a, double s)
{
	double w = 1, sum = 1;

	for (unsigned k = 1; k <= n; k++) {
		w *= (double)(n - k + 1) * s / a;
		sum += w;
	}
	return (1.0 - 1.0 / sum) / s * 1e9;
}

/* A program of one queue-lock section around cs_ns of local work. */
static void one_lock_prog(struct sim_prog *p, const char *name, double cs_ns)
{
	unsigned lk;

	sim_prog_init(p, name);
	lk = sim_lock(p, "lock", SCOPE_GLOBAL, LOCK_MODEL_QUEUE, sim_line(p, "lock", SCOPE_GLOBAL));
	sim_lock_op(p, lk);
	sim_local(p, cs_ns);
	sim_unlock_op(p, lk);
}

/* 10. SMT siblings sharing a core. */
static void smt_cases(void)
{
	const double g = 0.15, slow = 2.0 / (1.0 + g);
	struct sim_costs c = { .xfer_ns = 80, .hit_ns = 2, .atomic_ns = 8, .remote_factor = 1,
			       .handoff_ns = 50, .smt_slowdown = slow };
	struct sim_params sp = { .nodes = 1, .containers = 1, .warm_frac = 0.1, .seed = 7,
				 .iters_per_core = 20000 };
	struct sim_result solo, pair, a, b;
	const char *err = NULL;
	struct sim_prog p;
	unsigned l, lk;
	int rc;

	/* Local work, then an RMW of the core's own line (a hit after the
	 * first pass): 100 + 2 + 8 ns alone, x 2/(1+g) beside a sibling. */
	sim_prog_init(&p, "smt-compute");
	sim_local(&p, 100);
	sim_access(&p, SOP_RMW, sim_line(&p, "own", SCOPE_CORE));
	sp.ncores = 1;
	rc = sim_run(&p, &c, &sp, &solo, &err);
	sp.ncores = 2;
	sp.phys_cores = 1;
	rc |= sim_run(&p, &c, &sp, &pair, &err);
	ok(rc == 0 && fabs(solo.ns_per_op_core - 110) < 1e-6 &&
	   fabs(pair.ns_per_op_core / solo.ns_per_op_core - slow) < 1e-6,
	   "two busy siblings: %.3f ns per op vs %.3f alone (x%.4f, want 2/(1+%.2f) = %.4f)",
	   pair.ns_per_op_core, solo.ns_per_op_core, pair.ns_per_op_core / solo.ns_per_op_core,
	   g, slow);
	ok(rc == 0 && fabs(pair.ops_per_sec / solo.ops_per_sec - (1 + g)) < 1e-6,
	   "the core's two threads deliver 1 + g = %.2f of one (%.4f)", 1 + g,
	   pair.ops_per_sec / solo.ops_per_sec);
	sim_prog_free(&p);

	/* Two siblings alternating on one queue lock around 1000 ns of work:
	 * the waiter spins, so the holder's work runs at full speed; the
	 * hand-off (their shared L1) and the release store cost a hit each:
	 * 1000 + 2 + 2 ns a hold, where a slowed holder would take 1739 and
	 * a cross-core hand-off 50 ns more. */
	one_lock_prog(&p, "smt-lock", 1000);
	rc = sim_run(&p, &c, &sp, &pair, &err);
	ok(rc == 0 && fabs(1e9 / pair.ops_per_sec - 1004) < 1,
	   "siblings on one lock: %.1f ns a hold (want 1004: a waiting sibling "
	   "does not slow the holder)", rc == 0 ? 1e9 / pair.ops_per_sec : -1.0);
	sim_prog_free(&p);

	/* A line passed between siblings: hit latency, and no transfer. */
	sim_prog_init(&p, "smt-pass");
	sim_access(&p, SOP_RMW, sim_line(&p, "x", SCOPE_GLOBAL));
	rc = sim_run(&p, &c, &sp, &pair, &err);
	sp.phys_cores = 0;
	rc |= sim_run(&p, &c, &sp, &solo, &err);
	ok(rc == 0 && pair.xfer_per_op == 0 && fabs(solo.xfer_per_op - 1) < 1e-9,
	   "siblings passing a line: %.3f transfers per op (two cores: %.3f)",
	   pair.xfer_per_op, solo.xfer_per_op);
	sim_prog_free(&p);

	/* No more CPUs than physical cores: the same run, bit for bit, with
	 * or without SMT parameters. */
	sim_prog_init(&p, "smt-none");
	l = sim_line(&p, "lock", SCOPE_GLOBAL);
	lk = sim_lock(&p, "lock", SCOPE_GLOBAL, LOCK_MODEL_TICKET, l);
	sim_local_exp(&p, 300);
	sim_access(&p, SOP_READ, sim_line(&p, "shared", SCOPE_GLOBAL));
	sim_lock_op(&p, lk);
	sim_access(&p, SOP_RMW, sim_line(&p, "data", SCOPE_GLOBAL));
	sim_local_exp(&p, 100);
	sim_unlock_op(&p, lk);
	sp.ncores = 4;
	sp.phys_cores = 4;
	rc = sim_run(&p, &c, &sp, &a, &err);
	sp.phys_cores = 0;
	c.smt_slowdown = 0;
	rc |= sim_run(&p, &c, &sp, &b, &err);
	ok(rc == 0 && a.ops_per_sec == b.ops_per_sec && a.sim_ns == b.sim_ns &&
	   a.events == b.events && a.xfer_per_op == b.xfer_per_op &&
	   a.lock_wait_frac == b.lock_wait_frac,
	   "4 CPUs on 4 cores: identical with and without SMT (%.6g vs %.6g ops/s)",
	   a.ops_per_sec, b.ops_per_sec);
	sim_prog_free(&p);
}

/* 12. Global reclaim's memcg walk and the reclaimers (sim.h):
 *  - two cores in two containers, each writing its container's line x,
 *    share nothing; a walk-scoped write of the same x (the twin's
 *    instances) reaches the other container's every other iteration, so
 *    x moves between them;
 *  - with one container the walk-scoped x is the one x: the run is that
 *    of a program writing it twice;
 *  - a reclaimer core runs the actor part only, counts no operation,
 *    leaves workers that share nothing with it as they were, and does
 *    reclaimer_share of a full core's iterations. */
static void walk_cases(void)
{
	struct sim_costs c = { .xfer_ns = 100, .remote_factor = 1, .hit_ns = 1,
			       .handoff_ns = 100 };
	struct sim_params sp = { .ncores = 2, .nodes = 1, .containers = 2, .warm_frac = 0.1,
				 .seed = 7, .iters_per_core = 20000 };
	struct sim_result a, b;
	const char *err = NULL;
	struct sim_prog p, q;
	int rc;

	sim_prog_init(&p, "own");
	sim_local(&p, 100);
	sim_access(&p, SOP_RMW, sim_line(&p, "x", SCOPE_MEMCG));
	rc = sim_run(&p, &c, &sp, &a, &err);
	sim_prog_init(&q, "walk");
	sim_local(&q, 100);
	sim_access(&q, SOP_RMW, sim_line(&q, "x", SCOPE_MEMCG));
	sim_access(&q, SOP_RMW, sim_line(&q, "x", SCOPE_MEMCG_WALK));
	ok(q.nlines == 2, "a walk-scoped line of a memcg line's name is a second template");
	rc |= sim_run(&q, &c, &sp, &b, &err);
	ok(rc == 0 && a.xfer_per_op < 0.01 && b.xfer_per_op > 0.5,
	   "2 containers: own lines share nothing (%.3f xfer/op), the walk reaches the other's "
	   "(%.3f xfer/op)", a.xfer_per_op, b.xfer_per_op);
	sim_prog_free(&p);

	sp.containers = 1;
	sim_prog_init(&p, "twice");
	sim_local(&p, 100);
	sim_access(&p, SOP_RMW, sim_line(&p, "x", SCOPE_MEMCG));
	sim_access(&p, SOP_RMW, sim_line(&p, "x", SCOPE_MEMCG));
	rc = sim_run(&p, &c, &sp, &a, &err);
	rc |= sim_run(&q, &c, &sp, &b, &err);
	ok(rc == 0 && a.ops_per_sec == b.ops_per_sec && a.xfer_per_op == b.xfer_per_op &&
	   a.events == b.events,
	   "1 container: the walk takes only its lruvec (%.6g vs %.6g ops/s)",
	   a.ops_per_sec, b.ops_per_sec);
	sim_prog_free(&p);
	sim_prog_free(&q);

	/* the reclaimer */
	sp.containers = 1;
	sim_prog_init(&p, "workers");
	sim_local(&p, 100);
	sim_access(&p, SOP_RMW, sim_line(&p, "w", SCOPE_CORE));
	rc = sim_run(&p, &c, &sp, &a, &err);
	sim_actor_begin(&p);
	sim_local(&p, 199);
	sim_access(&p, SOP_RMW, sim_line(&p, "z", SCOPE_GLOBAL));
	sp.reclaimers = 1;
	sp.reclaimer_share = 1;
	rc |= sim_run(&p, &c, &sp, &b, &err);
	ok(rc == 0 && a.ops_per_sec == b.ops_per_sec && a.actor_per_sec == 0,
	   "a reclaimer beside workers sharing nothing: their ops/s unchanged (%.6g vs %.6g)",
	   a.ops_per_sec, b.ops_per_sec);
	ok(fabs(b.actor_per_sec / 5e6 - 1) < 0.01,
	   "the reclaimer at full share: one 200 ns iteration after another (%.6g /s, want 5e6)",
	   b.actor_per_sec);
	sp.reclaimer_share = 1.0 / 3;
	rc = sim_run(&p, &c, &sp, &b, &err);
	ok(rc == 0 && fabs(b.actor_per_sec / (5e6 / 3) - 1) < 0.01,
	   "at share 1/3 a third of that (%.6g /s)", b.actor_per_sec);
	sp.reclaimers = 0;
	rc = sim_run(&p, &c, &sp, &b, &err);
	ok(rc == 0 && b.ops_per_sec == a.ops_per_sec && b.actor_per_sec == 0,
	   "without reclaimers the actor part does not run");
	sp.reclaimers = 1;
	sim_prog_free(&p);
	sim_prog_init(&p, "no actor");
	sim_local(&p, 100);
	rc = sim_run(&p, &c, &sp, &b, &err);
	ok(rc == -1 && err, "reclaimers without an actor part: refused (%s)", err ? err : "");
	sim_prog_free(&p);
}

/*
 * 13. The engine's line rules on cases computed by hand:
 *  - a neighbour's line last written by another core costs one transfer:
 *    two cores alternate on a lock, each hold writing its own per-core
 *    line (a hit) and a shared neighbour line the previous holder wrote
 *    last (list_add's old first folio): one transfer per hold, charged
 *    to the previous holder, xfer_ns of the hold;
 *  - read copies are lost to capacity at the footprint model's rate: one
 *    core reads line ro every iteration of iter_bytes = 4 MiB with a
 *    1 MiB L2, so its copy survives with probability 1/4 and 3/4 of the
 *    reads miss again; with an L2 of 1 B none survives;
 *  - a read-only line evicted by footprint misses again and pulls its
 *    mate: the core reads ro, then its never-written sector mate m; with
 *    the pair prefetcher every (re-)miss of ro brings m in, so m hits,
 *    without it m misses too; without aging neither misses after the
 *    first iteration;
 *  - the pair of an ownership fill (pair_rfo): two cores alternate on a
 *    queue lock whose word's sector mate is a list head the holder writes
 *    four times per hold, 1000 ns apart; the waiter arrives just after
 *    the hand-off and spins.  As a shared copy: the first write is a
 *    transfer from the previous holder, the waiter's arrival steals the
 *    sector so the second is one too, the third and fourth hit; with the
 *    release store's transfer the hold is 4000 + 100 + 100 + 1 + 1 + 100
 *    = 4302 ns.  Asked for ownership: the hand-off's fill of the lock
 *    word brings the list head with it (the first write hits), but each
 *    later write's fill takes the lock word from the spinner, whose
 *    re-read pulls the list head back: three transfers, 4000 + 1 + 300
 *    + 100 = 4401 ns.
 */
static void engine_rule_cases(void)
{
	struct sim_params sp = { .nodes = 1, .containers = 1, .warm_frac = 0.1, .seed = 7 };
	struct sim_result r;
	const char *err = NULL;
	struct sim_prog p;

	{
		struct sim_costs c = { .xfer_ns = 100, .hit_ns = 1, .remote_factor = 1,
				       .atomic_ns = 5, .handoff_ns = 5, .passive_waiters = true };
		struct sim_explain *xp = xcalloc(1, sizeof(*xp));
		unsigned wl, own, nb, lk;
		double holds;

		sim_prog_init(&p, "neighbour");
		wl = sim_line(&p, "lock", SCOPE_GLOBAL);
		own = sim_line(&p, "own", SCOPE_CORE);
		nb = sim_line(&p, "neighbour", SCOPE_GLOBAL);
		lk = sim_lock(&p, "lru_lock", SCOPE_GLOBAL, LOCK_MODEL_QUEUE, wl);
		sim_lock_op(&p, lk);
		sim_access(&p, SOP_WRITE, own);
		sim_access(&p, SOP_WRITE, nb);
		sim_local(&p, 500);
		sim_unlock_op(&p, lk);
		sim_local(&p, 10);
		sp.ncores = 2;
		sp.iters_per_core = 5000;
		c.explain = xp;
		ok(sim_run(&p, &c, &sp, &r, &err) == 0, "neighbour program runs");
		holds = (double)xp->lock[0].holds;
		ok(holds > 0 && fabs(r.line_xfer_per_op[nb] - 1) < 0.01 &&
		   fabs((double)xp->lock[0].xfers[nb][SIM_ROLE_HOLDER] / holds - 1) < 0.01,
		   "the neighbour line, last written by the other core: one transfer per hold "
		   "(%.3f), from the previous holder (%.3f)", r.line_xfer_per_op[nb],
		   (double)xp->lock[0].xfers[nb][SIM_ROLE_HOLDER] / holds);
		ok(fabs(xp->lock[0].ns[SIM_PART_XFER + SIM_ROLE_HOLDER] / holds - 100 *
			(double)(xp->lock[0].xfers[wl][SIM_ROLE_HOLDER] +
				 xp->lock[0].xfers[nb][SIM_ROLE_HOLDER]) / holds) < 0.5 &&
		   xp->lock[0].hits[own] > 0 && r.line_xfer_per_op[own] < 1e-9,
		   "each transfer from the holder costs xfer_ns; the own line hits");
		sim_prog_free(&p);
		free(xp);
	}
	{
		struct sim_costs c = { .xfer_ns = 100, .hit_ns = 1, .remote_factor = 1 };
		struct sim_result aged, cold, nopair, keep;
		unsigned ro, m;
		int rc;

		sim_prog_init(&p, "capacity");
		ro = sim_line(&p, "ro", SCOPE_GLOBAL);
		m = sim_line(&p, "mate", SCOPE_GLOBAL);
		sim_line_mate(&p, ro, m);
		sim_access(&p, SOP_READ, ro);
		sim_local(&p, 10);
		sim_access(&p, SOP_READ, m);
		sim_local(&p, 1000);
		p.iter_bytes = 4.0 * 1024 * 1024;
		sp.ncores = 1;
		sp.iters_per_core = 40000;
		c.pair_prefetch = true;
		c.l2_keep_bytes = 1024 * 1024;
		ok(sim_run(&p, &c, &sp, &aged, &err) == 0, "capacity program runs (1 MiB L2)");
		ok(fabs(aged.line_xfer_per_op[ro] - 0.75) < 0.01,
		   "a copy touched 4 MiB ago in a 1 MiB L2 survives 1 time in 4: "
		   "%.3f misses per read == 0.75", aged.line_xfer_per_op[ro]);
		c.l2_keep_bytes = 1;
		ok(sim_run(&p, &c, &sp, &cold, &err) == 0, "capacity program runs (1 B L2)");
		ok(fabs(cold.line_xfer_per_op[ro] - 1) < 1e-9 && cold.line_xfer_per_op[m] < 1e-9,
		   "the read-only line misses again every iteration (%.3f) and pulls its "
		   "mate, which then hits (%.3f)", cold.line_xfer_per_op[ro],
		   cold.line_xfer_per_op[m]);
		c.pair_prefetch = false;
		rc = sim_run(&p, &c, &sp, &nopair, &err);
		ok(rc == 0 && fabs(nopair.line_xfer_per_op[m] - 1) < 1e-9,
		   "without the pair prefetcher the mate misses too (%.3f)",
		   nopair.line_xfer_per_op[m]);
		c.pair_prefetch = true;
		c.l2_keep_bytes = 0;
		rc = sim_run(&p, &c, &sp, &keep, &err);
		ok(rc == 0 && keep.line_xfer_per_op[ro] < 1e-9 && keep.line_xfer_per_op[m] < 1e-9,
		   "without aging both hit after the first touch (%.3g, %.3g)",
		   keep.line_xfer_per_op[ro], keep.line_xfer_per_op[m]);
		c.l2_keep_bytes = -1;
		rc = sim_run(&p, &c, &sp, &keep, &err);
		ok(rc == -1 && err && strstr(err, "l2_keep_bytes"), "a negative L2 is refused: %s", err ? err : "");
		sim_prog_free(&p);
	}
	{
		struct sim_costs c = { .xfer_ns = 100, .hit_ns = 1, .remote_factor = 1,
				       .pair_prefetch = true };
		struct sim_result shared, owned;
		unsigned wl, ll, lk;

		sim_prog_init(&p, "pair-rfo");
		wl = sim_line(&p, "lock", SCOPE_GLOBAL);
		ll = sim_line(&p, "list", SCOPE_GLOBAL);
		sim_line_mate(&p, wl, ll);
		lk = sim_lock(&p, "lru_lock", SCOPE_GLOBAL, LOCK_MODEL_QUEUE, wl);
		sim_lock_op(&p, lk);
		for (int i = 0; i < 4; i++) {
			sim_access(&p, SOP_WRITE, ll);
			sim_local(&p, 1000);
		}
		sim_unlock_op(&p, lk);
		sim_local(&p, 10);
		sp.ncores = 2;
		sp.iters_per_core = 20000;
		ok(sim_run(&p, &c, &sp, &shared, &err) == 0, "pair-rfo program runs (shared pair)");
		c.pair_rfo = true;
		ok(sim_run(&p, &c, &sp, &owned, &err) == 0, "pair-rfo program runs (owned pair)");
		ok(fabs(shared.line_xfer_per_op[ll] - 2) < 0.01 &&
		   fabs(shared.lock[0].hold_ns - 4302) < 1,
		   "shared pair: two list transfers per hold (%.3f), hold %.1f ns == 4302",
		   shared.line_xfer_per_op[ll], shared.lock[0].hold_ns);
		ok(fabs(owned.line_xfer_per_op[ll] - 3) < 0.01 &&
		   fabs(owned.lock[0].hold_ns - 4401) < 1,
		   "owned pair: every list write after the arrival is a transfer (%.3f per "
		   "hold), hold %.1f ns == 4401", owned.line_xfer_per_op[ll],
		   owned.lock[0].hold_ns);
		sim_prog_free(&p);
	}
}

int main(void)
{
	struct sim_costs zero = { .remote_factor = 1 };
	struct sim_params sp = { .nodes = 1, .containers = 1, .warm_frac = 0.1,
				 .seed = 42 };
	struct sim_result r;
	const char *err = NULL;
	struct sim_prog p;
	unsigned l, lk;
	int rc;

	/* 1. M/M/1//N. */
	sim_prog_init(&p, "mm1n");
	l = sim_line(&p, "lock", SCOPE_GLOBAL);
	lk = sim_lock(&p, "lock", SCOPE_GLOBAL, LOCK_MODEL_QUEUE, l);
	sim_local_exp(&p, 1000);
	sim_lock_op(&p, lk);
	sim_local_exp(&p, 250);
	sim_unlock_op(&p, lk);
	{
		/* Tolerance: each case simulates 400k lock cycles; the
		 * throughput estimate of this regenerative process has a
		 * relative standard error well under 0.5%, so 3% is about
		 * six standard errors yet catches any modelling mistake
		 * (a missing hand-off queue changes it by 20% or more). */
		static const unsigned ns[] = { 1, 2, 4, 8, 16 };
		for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
			double want = mm1n_throughput(ns[i], 1000, 250);
			struct lock_model m = { 250, 1000, 0, LOCK_MODEL_QUEUE };
			struct lock_pred lp;

			sp.ncores = ns[i];
			sp.iters_per_core = 400000 / ns[i];
			rc = sim_run(&p, &zero, &sp, &r, &err);
			ok(rc == 0, "M/M/1//%u simulation runs", ns[i]);
			ok(fabs(r.ops_per_sec / want - 1) < 0.03,
			   "M/M/1//%u: simulated %.4g/s vs analytic %.4g/s", ns[i],
			   r.ops_per_sec, want);
			{
				double u, q;
				mm1n_regime(ns[i], 1000, 250, &u, &q);
				ok(r.nlocks == 1 && fabs(r.lock[0].util - u) < 0.03 &&
				   fabs(r.lock[0].mean_waiters - q) < 0.03 * (q > 1 ? q : 1),
				   "M/M/1//%u regime: utilisation %.3f (analytic %.3f), "
				   "queue %.3f (analytic %.3f)", ns[i], r.lock[0].util, u,
				   r.lock[0].mean_waiters, q);
				ok(fabs(r.lock[0].hold_ns / 250 - 1) < 0.03,
				   "M/M/1//%u mean hold %.1f ns == 250", ns[i],
				   r.lock[0].hold_ns);
			}
			lock_model_solve(&m, ns[i], &lp);
			ok(fabs(lp.acq_per_sec / want - 1) < 1e-9,
			   "markov queue model with zero hand-off is M/M/1//%u", ns[i]);
		}
	}
	sim_prog_free(&p);

	/* 2. Ping-pong: one line, RMW only. */
	{
		struct sim_costs c = { .xfer_ns = 80, .remote_factor = 1 };
		static const unsigned ns[] = { 2, 3, 8 };

		sim_prog_init(&p, "pingpong");
		l = sim_line(&p, "x", SCOPE_GLOBAL);
		sim_access(&p, SOP_RMW, l);
		for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
			sp.ncores = ns[i];
			sp.iters_per_core = 20000;
			ok(sim_run(&p, &c, &sp, &r, &err) == 0, "ping-pong runs");
			ok(fabs(r.ops_per_sec / (1e9 / 80) - 1) < 1e-3,
			   "%u cores ping-ponging: %.4g/s = 1/transfer (%.4g/s)",
			   ns[i], r.ops_per_sec, 1e9 / 80);
			ok(fabs(r.xfer_per_op - 1) < 1e-3, "one transfer per op (%.3f)",
			   r.xfer_per_op);
		}
		/* One core keeps the line: no transfers after the first. */
		sp.ncores = 1;
		c.hit_ns = 1;
		ok(sim_run(&p, &c, &sp, &r, &err) == 0 && r.xfer_per_op == 0,
		   "single core: line stays local");
		sim_prog_free(&p);
	}

	/* 3. Read-mostly line: shared after one transfer per core. */
	{
		struct sim_costs c = { .xfer_ns = 100, .hit_ns = 1, .remote_factor = 1 };

		sim_prog_init(&p, "reader");
		l = sim_line(&p, "ro", SCOPE_GLOBAL);
		sim_local(&p, 50);
		sim_access(&p, SOP_READ, l);
		sp.ncores = 4;
		sp.iters_per_core = 10000;
		ok(sim_run(&p, &c, &sp, &r, &err) == 0, "reader runs");
		ok(r.xfer_per_op == 0, "readers hit after warm-up (%.4f)", r.xfer_per_op);
		ok(fabs(r.ops_per_sec / (4e9 / 51) - 1) < 1e-3,
		   "4 readers scale linearly: %.4g/s", r.ops_per_sec);
		sim_prog_free(&p);
	}

	/* 4. EVERY blocks run once in `period` arrivals, nested ones too. */
	{
		struct sim_costs c = { .remote_factor = 1 };
		size_t outer, inner;

		sim_prog_init(&p, "every");
		sim_local(&p, 1);
		outer = sim_every(&p, 5);
		sim_local(&p, 10);
		inner = sim_every(&p, 2);
		sim_local(&p, 100);
		sim_every_end(&p, inner);
		sim_every_end(&p, outer);
		sim_local(&p, 1); /* must not merge into the closed block */
		/* 1 + 10/5 + 100/10 + 1 = 14 ns per iteration */
		ok(fabs(sim_prog_local_ns(&p) - 14) < 1e-9, "expected local time %.3f == 14",
		   sim_prog_local_ns(&p));
		sp.ncores = 1;
		sp.iters_per_core = 10000;
		rc = sim_run(&p, &c, &sp, &r, &err);
		ok(rc == 0 && fabs(r.ns_per_op_core - 14) < 0.01,
		   "simulated iteration time %.3f ns == 14", r.ns_per_op_core);
		sim_prog_free(&p);
	}

	/* 4b. A block run 3 times in 8 arrivals, spread evenly: any 6400
	 * arrivals (the measured 80 % of 8000) run it exactly 2400 times,
	 * 1 + 8 x 3/8 = 4 ns per iteration. */
	{
		struct sim_costs c = { .remote_factor = 1 };
		size_t b;

		sim_prog_init(&p, "every_n");
		sim_local(&p, 1);
		b = sim_every_n(&p, 3, 8);
		sim_local(&p, 8);
		sim_every_end(&p, b);
		sp.ncores = 1;
		sp.iters_per_core = 8000;
		rc = sim_run(&p, &c, &sp, &r, &err);
		ok(rc == 0 && fabs(r.ns_per_op_core - 4) < 1e-9,
		   "3 in 8 arrivals: iteration time %.6f ns == 4", r.ns_per_op_core);
		sim_prog_free(&p);
	}

	/* 4c. Shared ops per worker iteration: each access, lock and unlock
	 * weighted by its blocks, local work and the actor part left out:
	 * 1 + 3 x 3/8 = 2.125. */
	{
		unsigned ln, lkk;
		size_t b;

		sim_prog_init(&p, "shared_ops");
		ln = sim_line(&p, "x", SCOPE_GLOBAL);
		lkk = sim_lock(&p, "l", SCOPE_GLOBAL, LOCK_MODEL_QUEUE, ln);
		sim_local(&p, 5);
		sim_access(&p, SOP_READ, ln);
		b = sim_every_n(&p, 3, 8);
		sim_lock_op(&p, lkk);
		sim_access(&p, SOP_WRITE, ln);
		sim_unlock_op(&p, lkk);
		sim_every_end(&p, b);
		sim_actor_begin(&p);
		sim_access(&p, SOP_RMW, ln);
		ok(fabs(sim_prog_shared_ops(&p) - 2.125) < 1e-12,
		   "shared ops per iteration %.4f == 2.125", sim_prog_shared_ops(&p));
		sim_prog_free(&p);
	}

	/* 7. A waiter steals the holder's sector. */
	{
		struct sim_costs c = { .xfer_ns = 100, .hit_ns = 1, .remote_factor = 1 };
		struct sim_result pair, nopair, passive;
		unsigned wl, ll;

		sim_prog_init(&p, "sector");
		wl = sim_line(&p, "lock", SCOPE_GLOBAL);
		ll = sim_line(&p, "list", SCOPE_GLOBAL);
		sim_line_mate(&p, wl, ll);
		lk = sim_lock(&p, "lru_lock", SCOPE_GLOBAL, LOCK_MODEL_QUEUE, wl);
		sim_lock_op(&p, lk);
		sim_access(&p, SOP_WRITE, ll);
		sim_local(&p, 1000);
		sim_access(&p, SOP_WRITE, ll);
		sim_unlock_op(&p, lk);
		sim_local(&p, 10);
		sp.ncores = 2;
		sp.iters_per_core = 20000;
		c.pair_prefetch = true;
		ok(sim_run(&p, &c, &sp, &pair, &err) == 0, "sector program runs (pair prefetch)");
		c.pair_prefetch = false;
		ok(sim_run(&p, &c, &sp, &nopair, &err) == 0, "sector program runs (no pairing)");
		c.pair_prefetch = true;
		c.passive_waiters = true;
		ok(sim_run(&p, &c, &sp, &passive, &err) == 0, "sector program runs (passive)");
		/* Hold without pairing: list miss 100 + 1000 + list hit 1 +
		 * unlock miss 100 (the waiter's RMWs took the lock word). */
		ok(fabs(nopair.lock[0].hold_ns - 1201) < 1,
		   "no pairing: hold %.1f ns == 1201", nopair.lock[0].hold_ns);
		ok(fabs(nopair.line_xfer_per_op[ll] - 1) < 0.01,
		   "no pairing: list head moves once per hold (%.3f)",
		   nopair.line_xfer_per_op[ll]);
		ok(fabs(pair.line_xfer_per_op[ll] - 2) < 0.01,
		   "pairing: the waiter's arrival costs the holder one more list "
		   "transfer (%.3f per hold)", pair.line_xfer_per_op[ll]);
		/* The second list write was a hit (1 ns), now a transfer. */
		ok(fabs(pair.lock[0].hold_ns - nopair.lock[0].hold_ns - 99) < 1,
		   "pairing turns the holder's list hit into a transfer: %.1f - %.1f ns",
		   pair.lock[0].hold_ns, nopair.lock[0].hold_ns);
		ok(fabs(pair.line_xfer_per_op[wl] - 2) < 0.01,
		   "lock word: the arrival's RMW and the holder's unlock (%.3f)",
		   pair.line_xfer_per_op[wl]);
		ok(fabs(passive.line_xfer_per_op[ll] - 1) < 0.01 &&
		   fabs(passive.lock[0].hold_ns - 1102) < 1,
		   "passive waiters steal nothing: list %.3f per hold, hold %.1f ns == 1102",
		   passive.line_xfer_per_op[ll], passive.lock[0].hold_ns);
		ok(pair.lock[0].util > 0.98 && pair.lock[0].mean_waiters > 0.95 &&
		   pair.lock[0].mean_waiters < 1.0,
		   "two cores on one lock: saturated (utilisation %.3f, queue %.3f)",
		   pair.lock[0].util, pair.lock[0].mean_waiters);
		sim_prog_free(&p);
	}

	/* 10. The composition of 7's critical section. */
	{
		struct sim_costs c = { .xfer_ns = 100, .hit_ns = 1, .remote_factor = 1,
				       .atomic_ns = 5, .handoff_ns = 5, .pair_prefetch = true };
		struct sim_explain *xp = xcalloc(1, sizeof(*xp));
		struct sim_result plain, acc;
		unsigned wl, ll;
		double sum = 0, holds;
		const struct sim_explain_lock *e = &xp->lock[0];

		sim_prog_init(&p, "sector-explain");
		wl = sim_line(&p, "lock", SCOPE_GLOBAL);
		ll = sim_line(&p, "list", SCOPE_GLOBAL);
		sim_line_mate(&p, wl, ll);
		lk = sim_lock(&p, "lru_lock", SCOPE_GLOBAL, LOCK_MODEL_QUEUE, wl);
		sim_lock_op(&p, lk);
		sim_access(&p, SOP_WRITE, ll);
		sim_local(&p, 1000);
		sim_access(&p, SOP_WRITE, ll);
		sim_unlock_op(&p, lk);
		sim_local(&p, 10);
		sp.ncores = 2;
		sp.iters_per_core = 20000;
		ok(sim_run(&p, &c, &sp, &plain, &err) == 0, "sector program runs");
		c.explain = xp;
		ok(sim_run(&p, &c, &sp, &acc, &err) == 0, "sector program runs (explain)");
		ok(acc.ops_per_sec == plain.ops_per_sec && acc.lock[0].hold_ns == plain.lock[0].hold_ns,
		   "accounting changes nothing: %.6g == %.6g ops/s", acc.ops_per_sec,
		   plain.ops_per_sec);
		holds = (double)e->holds;
		for (int k = 0; k < SIM_PART_HANDOFF; k++)
			sum += e->ns[k];
		ok(holds > 0 && fabs(sum / holds - acc.lock[0].hold_ns) < 0.01 * acc.lock[0].hold_ns,
		   "the parts sum to the hold: %.2f vs %.2f ns", sum / holds, acc.lock[0].hold_ns);
		ok(fabs(e->ns[SIM_PART_LOCAL] / holds - 1000) < 1e-6,
		   "local: 1000 ns per hold (%.3f)", e->ns[SIM_PART_LOCAL] / holds);
		ok(fabs((double)e->xfers[ll][SIM_ROLE_HOLDER] / holds - 1) < 0.01 &&
		   fabs((double)e->xfers[ll][SIM_ROLE_WAITER] / holds - 1) < 0.01 &&
		   e->xfers[ll][SIM_ROLE_OTHER] == 0 && e->hits[ll] == 0,
		   "list: one transfer from the previous holder, one from the waiter's steal "
		   "per hold (%.3f, %.3f)", (double)e->xfers[ll][SIM_ROLE_HOLDER] / holds,
		   (double)e->xfers[ll][SIM_ROLE_WAITER] / holds);
		ok(fabs((double)e->xfers[wl][SIM_ROLE_WAITER] / holds - 1) < 0.01,
		   "the release store takes the lock word back from the waiter (%.3f per hold)",
		   (double)e->xfers[wl][SIM_ROLE_WAITER] / holds);
		ok(fabs(e->ns[SIM_PART_XFER + SIM_ROLE_WAITER] / holds - 200) < 2 &&
		   fabs(e->ns[SIM_PART_XFER + SIM_ROLE_HOLDER] / holds - 100) < 1,
		   "transfers: 200 ns per hold by the waiter, 100 by the previous holder "
		   "(%.1f, %.1f)", e->ns[SIM_PART_XFER + SIM_ROLE_WAITER] / holds,
		   e->ns[SIM_PART_XFER + SIM_ROLE_HOLDER] / holds);
		ok(fabs(e->ns[SIM_PART_HANDOFF] / holds - 5) < 0.1,
		   "hand-off 5 ns per hold, between holds (%.2f)", e->ns[SIM_PART_HANDOFF] / holds);
		ok(fabs((double)e->arrivals / holds - 1) < 0.01 &&
		   fabs((double)e->arrival_rmws / holds - 2) < 0.02 &&
		   fabs((double)e->pending / holds - 1) < 0.01 && e->rereads == 0,
		   "one arrival per hold (pending path), two RMWs, no spinner re-read "
		   "(%.3f, %.3f, %.3f, %.3f)", (double)e->arrivals / holds,
		   (double)e->arrival_rmws / holds, (double)e->pending / holds,
		   (double)e->rereads / holds);
		ok(fabs((double)e->steals_mate / holds - 1) < 0.01 &&
		   fabs((double)e->steals_word / holds - 1) < 0.01,
		   "the arrival steals the holder's lock word and its sector mate once per hold "
		   "(%.3f, %.3f)", (double)e->steals_word / holds, (double)e->steals_mate / holds);
		sim_prog_free(&p);

		/* 11. Three cores: the MCS queue head's re-reads. */
		one_lock_prog(&p, "qspin3", 1000);
		sim_local(&p, 10);
		sp.ncores = 3;
		ok(sim_run(&p, &c, &sp, &acc, &err) == 0, "three-core lock program runs");
		holds = (double)e->holds;
		ok(holds > 0 && fabs((double)e->rereads / holds - 3) < 0.01 &&
		   e->pending == 0 && fabs((double)e->arrivals / holds - 1) < 0.01,
		   "three cores: 3 re-reads per hold (%.3f), 1 arrival (%.3f), no pending path "
		   "(%llu)", (double)e->rereads / holds, (double)e->arrivals / holds,
		   (unsigned long long)e->pending);
		sim_prog_free(&p);
		free(xp);
	}

	/* 8. Invalidating k copies.  One iteration per core: every core
	 * reads x (core 0 from memory, the others then share it), works
	 * 1000 ns, writes x.  Core 0's write meets k = n - 1 other copies;
	 * the later writes meet only the previous writer's. */
	{
		static const unsigned ns[] = { 2, 4, 8, 16 };
		struct sim_costs c = { .xfer_ns = 100, .hit_ns = 1, .remote_factor = 1 };

		sim_prog_init(&p, "sharers");
		l = sim_line(&p, "x", SCOPE_GLOBAL);
		sim_access(&p, SOP_READ, l);
		sim_local(&p, 1000);
		sim_access(&p, SOP_WRITE, l);
		for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
			struct sim_result flat, curve;
			struct sim_params one = sp;

			one.ncores = ns[i];
			one.iters_per_core = 1;
			one.warm_frac = 0;
			c.inval_step_ns = 0;
			ok(sim_run(&p, &c, &one, &flat, &err) == 0, "sharers (%u) run", ns[i]);
			c.inval_step_ns = 7;
			ok(sim_run(&p, &c, &one, &curve, &err) == 0, "sharers (%u) run", ns[i]);
			ok(fabs(curve.sim_ns - flat.sim_ns - 7.0 * (ns[i] - 2)) < 1e-6,
			   "write meeting %u other copies costs 7 ns x %u more (%.1f vs %.1f ns)",
			   ns[i] - 1, ns[i] - 2, curve.sim_ns, flat.sim_ns);
			/* reads end at 100 (core 0) and 200, core 0 writes at
			 * 1100, the others queue behind it one transfer each. */
			ok(fabs(flat.sim_ns - (1000 + 100.0 * (ns[i] + 1))) < 1e-6,
			   "%u cores: flat invalidations end at %.1f ns", ns[i], flat.sim_ns);
		}
		sim_prog_free(&p);
	}

	/* 9. SMT siblings. */
	{
		struct sim_costs c = { .xfer_ns = 80, .hit_ns = 2, .remote_factor = 1,
				       .smt_slowdown = 1.5 };
		struct sim_params smt = sp;

		sim_prog_init(&p, "smt-pingpong");
		l = sim_line(&p, "x", SCOPE_GLOBAL);
		sim_access(&p, SOP_RMW, l);
		smt.ncores = 2;
		smt.phys_cores = 1;
		smt.iters_per_core = 20000;
		rc = sim_run(&p, &c, &smt, &r, &err);
		ok(rc == 0 && fabs(r.ops_per_sec / (1e9 / 2) - 1) < 1e-3,
		   "two siblings ping-pong at hit cost: %.4g/s == %.4g/s", r.ops_per_sec, 1e9 / 2);
		smt.phys_cores = 0;
		rc = sim_run(&p, &c, &smt, &r, &err);
		ok(rc == 0 && fabs(r.ops_per_sec / (1e9 / 80) - 1) < 1e-3,
		   "two cores ping-pong at transfer cost: %.4g/s", r.ops_per_sec);
		sim_prog_free(&p);

		sim_prog_init(&p, "smt-local");
		sim_local(&p, 100);
		smt.ncores = 3;
		smt.phys_cores = 2; /* cores 0 and 2 share a physical core */
		rc = sim_run(&p, &c, &smt, &r, &err);
		ok(rc == 0 &&
		   fabs(r.ops_per_sec / (1e9 / 150 * 2 + 1e9 / 100) - 1) < 1e-3,
		   "3 threads on 2 cores: two at 150 ns, one at 100 ns (%.4g/s)", r.ops_per_sec);
		smt.ncores = 5;
		rc = sim_run(&p, &c, &smt, &r, &err);
		ok(rc == -1 && err && strstr(err, "SMT"),
		   "more than two threads per core refused: %s", err ? err : "");
		sim_prog_free(&p);
	}

	/* 5. A deadlocking program is reported, not hung. */
	sim_prog_init(&p, "deadlock");
	l = sim_line(&p, "l", SCOPE_GLOBAL);
	lk = sim_lock(&p, "l", SCOPE_GLOBAL, LOCK_MODEL_QUEUE, l);
	sim_lock_op(&p, lk);
	sp.ncores = 2;
	err = NULL;
	rc = sim_run(&p, &zero, &sp, &r, &err);
	ok(rc == -1 && err && strstr(err, "deadlock"), "deadlock detected: %s",
	   err ? err : "");
	sim_prog_free(&p);
	smt_cases();
	walk_cases();
	engine_rule_cases();
	return done_testing();
}
