/*
 * lkp_icl_2s.c - target profile "lkp-icl-2s-64t": 0-day's 2-socket Ice Lake, 64 threads: 70a64b7919 page_fault2 (lore ZkwKRH0Oc1S7r2LP).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target lkp_icl_2s = {
	.name = "lkp-icl-2s-64t",
	.description = "0-day's 2-socket Ice Lake, 64 threads: 70a64b7919 page_fault2 (lore ZkwKRH0Oc1S7r2LP)",
	.cpu = "Ice Lake-SP, 16 cores per socket, SKU not stated",
	.identified_by = "lore ZkwKRH0Oc1S7r2LP: '64-thr 2S ICL'",
	.sockets = 2, .nodes = 2, .cores = 32, .cpus = 64,
	.ghz = { 2.9, "stand-in: base clock of the Xeon Platinum 8375C (the Ice Lake the transfer figures come from)" },
	.xfer_ns = { C2C_ICL_LOCAL, SRC_C2C_ICL_LOCAL },
	.xfer_remote_ns = { C2C_ICL_REMOTE, SRC_C2C_ICL_REMOTE },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES_ICL, SRC_HIT_ICL },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "Ice Lake-SP figures of the Xeon Platinum 8375C",
};
REGISTER(target, lkp_icl_2s);
