/*
 * xeon_2s_32t.c - target profile "xeon-2s-32t": Alex Shi's 2-socket x 8-core HT machine, 32 threads: 64 dd in 32 containers (per-memcg lru_lock, early versions).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target xeon_2s_32t = {
	.name = "xeon-2s-32t",
	.description = "Alex Shi's 2-socket x 8-core HT machine, 32 threads: 64 dd in 32 containers (per-memcg lru_lock, early versions)",
	.cpu = "not stated",
	.identified_by = "Alex Shi's cover letters: '2s * 8 cores * HT'",
	.sockets = 2, .nodes = 2, .cores = 16, .cpus = 32,
	.ghz = { 2.2, "stand-in: Broadwell-EP clock (Xeon E5-2630 v4 base, Intel ARK); the CPU is not stated" },
	.xfer_ns = { C2C_BDW_LOCAL, SRC_C2C_BDW_LOCAL },
	.xfer_remote_ns = { C2C_BDW_REMOTE, SRC_C2C_BDW_REMOTE },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "CPU not stated: Broadwell-EP figures (Xeon E5-2630 v4) stand in",
};
REGISTER(target, xeon_2s_32t);
