/*
 * bdw_2s_40t.c - target profile "bdw-2s-40t": Daniel Jordan's 2-socket x 10-core x 2 HT Broadwell, 40 threads: modified case-lru-file-readtwice (per-memcg lru_lock v18).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target bdw_2s_40t = {
	.name = "bdw-2s-40t",
	.description = "Daniel Jordan's 2-socket x 10-core x 2 HT Broadwell, 40 threads: modified case-lru-file-readtwice (per-memcg lru_lock v18)",
	.cpu = "Broadwell-EP, 10 cores per socket, SKU not stated",
	.identified_by = "per-memcg lru_lock v18 thread: '2P x 10C x 2HT Broadwell'",
	.sockets = 2, .nodes = 2, .cores = 20, .cpus = 40,
	.ghz = { 2.2, "stand-in: Xeon E5-2630 v4 base clock (a 10-core Broadwell-EP, Intel ARK)" },
	.xfer_ns = { C2C_BDW_LOCAL, SRC_C2C_BDW_LOCAL },
	.xfer_remote_ns = { C2C_BDW_REMOTE, SRC_C2C_BDW_REMOTE },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "Broadwell-EP figures of the Xeon E5-2630 v4 (10 cores)",
};
REGISTER(target, bdw_2s_40t);
