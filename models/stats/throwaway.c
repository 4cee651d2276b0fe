/*
 * throwaway - a scratch design to show the tests pick up a new file
 * (issue 22 item 3); removed in the next commit.  Follows 873f64b791a2.
 */
#include "models/internal.h"
#include "models/stats/stats.h"

static void throwaway_updated(struct model_worker *mw, struct mcg *memcg, long val)
{
	(void)memcg;
	stats_global_updated(mw, val, true);
}

static const struct stats_design stats_throwaway = {
	.name = "throwaway", .commit = "873f64b791a2",
	.description = "scratch design (a copy of rstat_global)",
	.update = "as rstat_global", .trigger = "as rstat_global", .walk = "none",
	.scope = STATS_FLUSH_TREE,
	.reads = (const char *const[]){ "flush_ms", NULL },
	.updated = throwaway_updated,
	.should_flush = stats_global_should_flush,
};
REGISTER(stats_design, stats_throwaway);
