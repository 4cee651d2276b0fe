/*
 * throwaway - a scratch design to show the tests pick up a new file
 * (issue 22 item 3); removed in the next commit.  Follows 873f64b791a2.
 */
#include "models/internal.h"
#include "models/stats/stats.h"
#include "models/kitems.h"

static void throwaway_updated(struct model_worker *mw, struct mcg *memcg, long val)
{
	(void)memcg;
	stats_global_updated(mw, val, true);
}

/* broken on purpose: the memcg slot gets every update twice */
static void throwaway_mod_state(struct model_worker *mw, struct mcg *memcg, unsigned nid,
				enum stat_item idx, long val)
{
	pcpu_add(&mcg_statc(mw->m, memcg, mw->id)->state[KS(mw->m, idx)], val);
	stats_rstat_mod_state(mw, memcg, nid, idx, val);
}

static const struct stats_design stats_throwaway = {
	.name = "throwaway", .commit = "873f64b791a2",
	.description = "scratch design (a copy of rstat_global)",
	.update = "as rstat_global", .trigger = "as rstat_global", .walk = "none",
	.scope = STATS_FLUSH_TREE,
	.reads = (const char *const[]){ "flush_ms", NULL },
	.mod_state = throwaway_mod_state,
	.updated = throwaway_updated,
	.should_flush = stats_global_should_flush,
};
REGISTER(stats_design, stats_throwaway);
