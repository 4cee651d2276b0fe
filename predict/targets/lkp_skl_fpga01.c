/*
 * lkp_skl_fpga01.c - target profile "lkp-skl-fpga01": 0-day's 2-socket Skylake-SP, 104 threads: 70a64b7919 page_fault2 (LKP 202405171353.b56b845), fefc6e6631 fallocate1 (LKP 202408081325.cba32176), 8d59d2214c tlb_flush2 (LKP 202401221624.cb53a8ca).
 * Every figure carries its source (predict/targets/sources.h); none comes
 * from the seeds' A/B results.
 */
#include <math.h>

#include "core/registry.h"
#include "predict/target.h"
#include "predict/targets/sources.h"

static const struct target lkp_skl_fpga01 = {
	.name = "lkp-skl-fpga01",
	.description = "0-day's 2-socket Skylake-SP, 104 threads: 70a64b7919 page_fault2 (LKP 202405171353.b56b845), fefc6e6631 fallocate1 (LKP 202408081325.cba32176), 8d59d2214c tlb_flush2 (LKP 202401221624.cb53a8ca)",
	.cpu = "Skylake-SP, 26 cores per socket, SKU not stated",
	.identified_by = "LKP 202401221624.cb53a8ca: '104 threads 2 sockets (Skylake) with 192G memory'; name lkp-skl-fpga01 from the 70a64b7919 report thread",
	.sockets = 2, .nodes = 2, .cores = 52, .cpus = 104,
	.ghz = { 2.1, "base clock of the 26-core Xeon Platinum 8170 (Intel ARK); the SKU is not confirmed by the reports" },
	.xfer_ns = { C2C_CLX_LOCAL, SRC_C2C_CLX_LOCAL },
	.xfer_remote_ns = { C2C_CLX_REMOTE, SRC_C2C_CLX_REMOTE },
	.dram_ns = { NAN, SRC_NO_DRAM },
	.atomic_cycles = { ATOMIC_CYCLES, SRC_ATOMIC },
	.hit_cycles = { HIT_CYCLES, SRC_HIT },
	.pair_bytes = { 128, SRC_PAIR_LKP },
	.stand_in = "Cascade Lake-SP transfer figures (Xeon Platinum 8275CL; Skylake-SP and Cascade Lake share core, mesh and UPI)",
};
REGISTER(target, lkp_skl_fpga01);
