/*
 * sources.h - the published figures the target profiles share, each
 * with its source, written once for the profiles in predict/targets/.
 *
 * Core-to-core transfer: nviennot/core-to-core-latency (GitHub), which
 * pins two threads and times compare-exchange ping-pong; its figures are
 * one-way (round trip / 2), the same quantity as memscale's xfer.atomic
 * probe and the simulator's xfer_ns.  README medians, or medians read
 * from the per-CPU result matrices (results/<CPU>.csv) where the README
 * gives none.
 * No figure here comes from the seeds' A/B results.
 */
#ifndef MEMSCALE_TARGET_SOURCES_H
#define MEMSCALE_TARGET_SOURCES_H

/* Cascade Lake-SP (same core, mesh and UPI as Skylake-SP and Cooper Lake). */
#define C2C_CLX_LOCAL 47.0
#define C2C_CLX_REMOTE 134.0
#define SRC_C2C_CLX_LOCAL "nviennot/core-to-core-latency README, single socket: Xeon Platinum 8275CL (Cascade Lake, AWS c5.metal) median 47 ns"
#define SRC_C2C_CLX_REMOTE "nviennot/core-to-core-latency README, dual socket: Xeon Platinum 8275CL median 134 ns (2.8x)"

/* Ice Lake-SP. */
#define C2C_ICL_LOCAL 51.0
#define C2C_ICL_REMOTE 108.0
#define SRC_C2C_ICL_LOCAL "nviennot/core-to-core-latency README, single socket: Xeon Platinum 8375C (Ice Lake, AWS c6i.metal) median 51 ns"
#define SRC_C2C_ICL_REMOTE "nviennot/core-to-core-latency README, dual socket: Xeon Platinum 8375C median 108 ns (2.1x)"

/* Broadwell-EP, 10 cores (E5-2630 v4). */
#define C2C_BDW_LOCAL 39.0
#define C2C_BDW_REMOTE 118.0
#define SRC_C2C_BDW_LOCAL "nviennot/core-to-core-latency results/Dual Intel(R) Xeon(R) CPU E5-2630 v4 @ 2.20GHz.csv: same-socket pairs about 34-43 ns, median read as 39 ns"
#define SRC_C2C_BDW_REMOTE "same CSV: cross-socket pairs about 105-126 ns, median read as 118 ns (README: E5-2695 v4 118 ns)"

/* Sandy Bridge-EP (E5-2690, same die family as the E5-2630). */
#define C2C_SNB_LOCAL 32.0
#define C2C_SNB_REMOTE 115.0
#define SRC_C2C_SNB_LOCAL "nviennot/core-to-core-latency results/Dual Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz.csv (Sandy Bridge-EP): same-socket pairs about 24-47 ns, median read as 32 ns"
#define SRC_C2C_SNB_REMOTE "same CSV: cross-socket pairs about 100-170 ns, median read as 115 ns"

/* Locked read-modify-write, uncontended (reciprocal throughput). */
#define ATOMIC_CYCLES 18.0
#define SRC_ATOMIC "uops.info: LOCK INC m32 measured 18 cycles (Alder Lake-P page), LOCK ADD m32 17.6 cycles (Broadwell, IACA 3.0); the same 18 cycles taken for every Intel core here (per-generation values not read)"

/* L1 data cache load-to-use. */
#define HIT_CYCLES 4.0
#define HIT_CYCLES_ICL 5.0
#define SRC_HIT "Intel 64 and IA-32 Architectures Optimization Reference Manual: L1D load-to-use 4 cycles (simple addressing; Sandy Bridge to Skylake)"
#define SRC_HIT_ICL "Intel 64 and IA-32 Architectures Optimization Reference Manual: Ice Lake (Sunny Cove) L1D 48 KiB, 5 cycles"

/* Adjacent-line (spatial) prefetch: pairs of 64 B lines in 128 B chunks. */
#define SRC_PAIR "Intel Optimization Reference Manual: the L2 spatial prefetcher completes every line fetched into L2 with its pair line of the 128-byte aligned chunk (Sandy Bridge onwards), a BIOS option on by default"
#define SRC_PAIR_LKP "LKP confirmed 'MLC Spatial Prefetcher - enabled' on this machine (lore ZlgaA/g070SWWa2b, 70a64b7919 thread); " SRC_PAIR

#define SRC_NO_DRAM "no sourced figure read for this machine's DRAM latency"

#endif
