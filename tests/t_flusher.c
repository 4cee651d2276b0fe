/*
 * t_flusher.c - the stats flushers the simulator prices beside a memcg
 * program (predict/sim_flusher.c memcg_flusher): their rate, each core's
 * share and the chance a flush came between two holds computed by hand,
 * and what the recording gives them (models/record.h RL_FLUSH_REQ, npcpu
 * and pcpu_where) for aa48e47e3906, whose update
 * path queues a flush every MEMCG_CHARGE_BATCH lruvec updates, and for
 * v6.7, whose update path asks for none.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/knob.h"
#include "core/util.h"
#include "harness/harness.h"
#include "models/memcg.h"
#include "models/record.h"
#include "models/stats/stats.h"
#include "predict/sim_flusher.h"
#include "predict/sim_memcg.h"
#include "tap.h"

/* p from kernel profile `k` at depth 2, one node. */
static void params_of(struct model_params *p, const char *k)
{
	struct knobset *ks = knobset_new();
	char err[256];

	if (!knobset_set(ks, "kernel", k, err, sizeof(err)) || model_params_from_knobs(p, ks))
		die(1, "test: %s", err);
	knobset_free(ks);
	p->depth = 2;
	p->nodes = 1;
}

/*
 * The flushers by hand (predict/sim_flusher.c memcg_flusher): 5 per-CPU
 * lines, 47 ns a transfer.  One flush on 52 CPUs moves 260 lines in
 * 12220 ns and costs each core 2 x 5 x 47 = 470 ns.  The periodic
 * flusher alone (2 s): 0.5 flushes a second, 2.35e-7 of a core.  With
 * one request per 8 operations of at least 2000 ns on 52 CPUs (3.25e6
 * asked a second), one flush at a time: 1e9 / 12220 a second, 2/52 of
 * each core.  On 2 CPUs the requests (125000 a second) are under the
 * cap (1e9 / 470): 125000.5 x 470e-9.  v5.10 has no rstat flush.
 */
static void test_flusher(void)
{
	struct model_params p;
	struct sim_flusher f;
	int rc;

	params_of(&p, "70a64b7919cb");
	is_int(p.flush_ms, 2000, "70a64b7919cb: the 2 s flusher");
	rc = memcg_flusher(&p, 52, 5, 5, 0, 1000, 47, &f);
	ok(!rc && f.lines == 260 && f.flush_ns == 12220 &&
	   f.per_s == 0.5 && fabs(f.share - 2.35e-7) < 1e-12,
	   "periodic alone: 260 lines, 12220 ns, 0.5/s, share 2.35e-7 (%g)", f.share);
	rc = memcg_flusher(&p, 52, 5, 5, 0.125, 2000, 47, &f);
	ok(!rc && fabs(f.asked_per_s - 3.25e6) < 1e-3 &&
	   fabs(f.per_s - 1e9 / 12220) < 1e-6 && fabs(f.share - 2.0 / 52) < 1e-12,
	   "52 CPUs asking: one flush at a time, 2/52 of each core (%g)", f.share);
	rc = memcg_flusher(&p, 2, 5, 5, 0.125, 2000, 47, &f);
	ok(!rc && fabs(f.per_s - 125000.5) < 1e-6 &&
	   fabs(f.share - 125000.5 * 470e-9) < 1e-12,
	   "2 CPUs: every request runs (%g a second, share %g)", f.per_s, f.share);
	ok(memcg_flusher(&p, 2, 5, 5, -1, 2000, 47, &f) == -1 &&
	   memcg_flusher(&p, 2, 5, 5, 0, NAN, 47, &f) == -1, "a negative or NaN input is refused");
	/* 9659 flushes a second: a gap of 110 us between a core's holds has
	 * had one (capped at 1), one of 50 us one with chance 0.48295 */
	f.per_s = 9659;
	ok(memcg_flush_between(&f, 110e3) == 1 && fabs(memcg_flush_between(&f, 50e3) - 0.48295) < 1e-12,
	   "a flush between two holds: 1 after 110 us, 0.48295 after 50 us");
	f.per_s = 0;
	ok(memcg_flush_between(&f, 50e3) == 0, "no flusher, no chance");
	ok(memcg_flusher(&p, 52, 5, 6, 0, 1000, 47, &f) == -1, "more lines outside than in all refused");
	rc = memcg_flusher(&p, 52, 5, 2, 0, 1000, 47, &f);
	ok(!rc && fabs(f.share - 0.5 * 7 * 47e-9) < 1e-15,
	   "3 of 5 lines come back under a lock: each core's share counts the other 2 (%g)", f.share);
	params_of(&p, "v5.10");
	rc = memcg_flusher(&p, 52, 5, 5, 0.125, 2000, 47, &f);
	ok(!rc && f.share == 0 && f.per_s == 0,
	   "v5.10: no rstat flusher");
}

/*
 * What the recording gives the flusher.  aa48e47e3906 queues a flush
 * every MEMCG_CHARGE_BATCH (32) lruvec updates per CPU: page_fault2 makes
 * 4 an operation (NR_ANON_MAPPED and the LRU size, up at the fault and
 * down at munmap), so 4 / 32 = 0.125 requests an operation.  v6.7
 * asks on no update (its readers flush past the threshold; page_fault2
 * has no reader).  Both write per-CPU lines a flush takes: the leaf's
 * state[] and events[] slots, the lruvec slots, the rstat links and lock.
 */
static void test_flush_requests(void)
{
	const char *k[] = { "aa48e47e3906", "v6.7" };

	for (unsigned i = 0; i < ARRAY_SIZE(k); i++) {
		struct model_params p;
		const struct model_rec *r;
		double req;

		params_of(&p, k[i]);
		r = model_rec_cached("page_fault2", &p, MODEL_REC_WARMUP, MODEL_REC_OPS);
		if (!r) {
			ok(0, "%s: page_fault2 recorded", k[i]);
			continue;
		}
		req = (double)r->local[RL_FLUSH_REQ] / (double)r->ops;
		if (i == 0)
			ok(fabs(req - 0.125) < 0.005, "%s: flush requests per page_fault2 "
			   "operation: its 4 lruvec updates / 32 (%.4f)", k[i], req);
		else
			ok(req == 0, "%s: no flush asked on the update path (%.4f)", k[i], req);
		ok(r->npcpu >= 5 && r->npcpu < REC_MAX_PCPU, "%s: per-CPU lines a flush takes "
		   "(%u)", k[i], r->npcpu);
		/* update_lru_size() under the lruvec lock writes the LRU-size
		 * slots of the lruvec's and the memcg's per-CPU state */
		unsigned under = 0, out = 0;
		for (unsigned l = 0; l < r->npcpu; l++) {
			under += r->pcpu_where[l] > 1 && !(r->pcpu_where[l] & 1);
			out += r->pcpu_where[l] & 1;
		}
		ok(under >= 1 && under + out == r->npcpu, "%s: %u written only under a lock, "
		   "%u outside", k[i], under, out);
	}
}

int main(void)
{
	test_flusher();
	test_flush_requests();
	return done_testing();
}
