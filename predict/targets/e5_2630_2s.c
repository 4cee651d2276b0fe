/*
 * e5_2630_2s.c - target profile "e5-2630-2s": Alex Shi's 2-socket x 6-core E5-2630 with HT, 24 threads: per-memcg lru_lock AIM9 page_test / brk_test (00/14, 2019-08-20).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target e5_2630_2s = {
	.name = "e5-2630-2s",
	.description = "Alex Shi's 2-socket x 6-core E5-2630 with HT, 24 threads: per-memcg lru_lock AIM9 page_test / brk_test (00/14, 2019-08-20)",
	.cpu = "Intel Xeon E5-2630 (Sandy Bridge-EP, 6 cores, 2.3 GHz)",
	.identified_by = "Alex Shi, [PATCH 00/14] per memcg lru_lock: 'my 2 socket * 6 cores E5-2630 platform'",
	.sockets = 2, .nodes = 2, .cores = 12, .cpus = 24,
	.ghz = { 2.3, "Intel ARK, Xeon E5-2630 base clock" },
	.xfer_ns = { C2C_SNB_LOCAL, SRC_C2C_SNB_LOCAL },
	.xfer_remote_ns = { C2C_SNB_REMOTE, SRC_C2C_SNB_REMOTE },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "Sandy Bridge-EP transfer figures of the Xeon E5-2690 (same die family)",
};
REGISTER(target, e5_2630_2s);
