/*
 * shakeel_80cpu.c - target profile "shakeel-80cpu": the 80-CPU two-node machine of fefc6e6631ff's message (Shakeel Butt).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target shakeel_80cpu = {
	.name = "shakeel-80cpu",
	.description = "the 80-CPU two-node machine of fefc6e6631ff's message (Shakeel Butt)",
	.cpu = "not stated",
	.identified_by = "fefc6e6631ff commit message: 'dual node, 80 CPU machine'",
	.sockets = 2, .nodes = 2, .cores = 40, .cpus = 80,
	.ghz = { 2.1, "stand-in: clock of a Skylake-SP (Xeon Platinum 8170 base, Intel ARK); the CPU is not stated" },
	.xfer_ns = { C2C_CLX_LOCAL, SRC_C2C_CLX_LOCAL },
	.xfer_remote_ns = { C2C_CLX_REMOTE, SRC_C2C_CLX_REMOTE },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "CPU not stated: Skylake/Cascade Lake-SP figures (Xeon Platinum 8275CL) stand in",
};
REGISTER(target, shakeel_80cpu);
