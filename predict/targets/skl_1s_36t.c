/*
 * skl_1s_36t.c - target profile "skl-1s-36t": 0-day's 1-socket Skylake desktop, 36 threads: 70a64b7919 page_fault2 (lore ZkwKRH0Oc1S7r2LP).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target skl_1s_36t = {
	.name = "skl-1s-36t",
	.description = "0-day's 1-socket Skylake desktop, 36 threads: 70a64b7919 page_fault2 (lore ZkwKRH0Oc1S7r2LP)",
	.cpu = "Skylake (mesh, 18 cores), SKU not stated",
	.identified_by = "lore ZkwKRH0Oc1S7r2LP: '36-thr 1S SKL desktop'",
	.sockets = 1, .nodes = 1, .cores = 18, .cpus = 36,
	.ghz = { 2.6, "stand-in: base clock of the 18-core Core i9-7980XE (Intel ARK); the SKU is not stated" },
	.xfer_ns = { C2C_CLX_LOCAL, SRC_C2C_CLX_LOCAL },
	.xfer_remote_ns = { NAN, "not applicable: one socket, one node" },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "Cascade Lake-SP transfer figures (Xeon Platinum 8275CL; Skylake-SP and Cascade Lake share core, mesh and UPI)",
};
REGISTER(target, skl_1s_36t);
