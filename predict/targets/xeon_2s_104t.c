/*
 * xeon_2s_104t.c - target profile "xeon-2s-104t": Alex Shi's 2-socket x 26-core HT machine, 104 threads: 208 dd in 104 containers (per-memcg lru_lock v11-v18).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target xeon_2s_104t = {
	.name = "xeon-2s-104t",
	.description = "Alex Shi's 2-socket x 26-core HT machine, 104 threads: 208 dd in 104 containers (per-memcg lru_lock v11-v18)",
	.cpu = "not stated (26 cores per socket: Skylake-SP or Cascade Lake-SP)",
	.identified_by = "per-memcg lru_lock v11-v18 cover letters: '2s*26cores*HT box'",
	.sockets = 2, .nodes = 2, .cores = 52, .cpus = 104,
	.ghz = { 2.1, "stand-in: 26-core Skylake-SP clock (Xeon Platinum 8170 base, Intel ARK)" },
	.xfer_ns = { C2C_CLX_LOCAL, SRC_C2C_CLX_LOCAL },
	.xfer_remote_ns = { C2C_CLX_REMOTE, SRC_C2C_CLX_REMOTE },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "CPU not stated: Cascade Lake-SP figures (Xeon Platinum 8275CL) stand in",
};
REGISTER(target, xeon_2s_104t);
