/*
 * shakeel_52cpu.c - target profile "shakeel-52cpu": the 52-CPU single-node machine of fefc6e6631ff's message (Shakeel Butt).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target shakeel_52cpu = {
	.name = "shakeel-52cpu",
	.description = "the 52-CPU single-node machine of fefc6e6631ff's message (Shakeel Butt)",
	.cpu = "not stated",
	.identified_by = "fefc6e6631ff commit message: 'single node, 52 CPU machine'",
	.sockets = 1, .nodes = 1, .cores = 26, .cpus = 52,
	.ghz = { 2.1, "stand-in: clock of a 26-core Skylake-SP (Xeon Platinum 8170 base, Intel ARK); the CPU is not stated" },
	.xfer_ns = { C2C_CLX_LOCAL, SRC_C2C_CLX_LOCAL },
	.xfer_remote_ns = { NAN, "not applicable: one socket, one node" },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "CPU not stated: Skylake/Cascade Lake-SP figures (Xeon Platinum 8275CL) stand in",
};
REGISTER(target, shakeel_52cpu);
