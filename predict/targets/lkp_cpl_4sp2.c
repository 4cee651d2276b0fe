/*
 * lkp_cpl_4sp2.c - target profile "lkp-cpl-4sp2": 0-day's 4-socket Cooper Lake, 224 threads: 8d59d2214c lru-shm and fallocate1, and the 9cee7e8ef3 fix (LKP 202401221624.cb53a8ca, lore ZbDJsfsZt2ITyo61).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target lkp_cpl_4sp2 = {
	.name = "lkp-cpl-4sp2",
	.description = "0-day's 4-socket Cooper Lake, 224 threads: 8d59d2214c lru-shm and fallocate1, and the 9cee7e8ef3 fix (LKP 202401221624.cb53a8ca, lore ZbDJsfsZt2ITyo61)",
	.cpu = "Intel Xeon Platinum 8380H @ 2.90GHz (Cooper Lake), 28 cores per socket",
	.identified_by = "LKP 202401221624.cb53a8ca: '224 threads 4 sockets Intel(R) Xeon(R) Platinum 8380H CPU @ 2.90GHz (Cooper Lake) with 192G memory'",
	.sockets = 4, .nodes = 4, .cores = 112, .cpus = 224,
	.ghz = { 2.9, "the report's CPU string: 8380H @ 2.90GHz (base clock)" },
	.xfer_ns = { C2C_CLX_LOCAL, SRC_C2C_CLX_LOCAL },
	.xfer_remote_ns = { C2C_CLX_REMOTE, SRC_C2C_CLX_REMOTE },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR },
	.stand_in = "Cascade Lake-SP transfer figures (Xeon Platinum 8275CL, 2 sockets); Cooper Lake uses the Cascade Lake core and mesh, its 4 sockets are fully connected by UPI (one hop), so the 2-socket figure is used for every cross-socket pair",
};
REGISTER(target, lkp_cpl_4sp2);
