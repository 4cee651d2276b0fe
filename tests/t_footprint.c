/*
 * t_footprint.c - the footprint model (predict/footprint.h) on cases
 * computed by hand: a reuse inside L2 hits it, one of twice the LLC share
 * finds the line in the LLC with probability 1/2 - L2/(2 share) under
 * uniform reuse and never under a scan, a victim LLC adds L2's capacity,
 * page_fault2's struct-page reuse (128 MB) goes to DRAM, and nonsense is
 * refused.
 */
#include <math.h>

#include "predict/footprint.h"
#include "tap.h"

#define MB (1024.0 * 1024.0)

int main(void)
{
	struct fp_cache c = { .l2_bytes = 1 * MB, .llc_bytes = 32 * MB, .llc_sharers = 16,
			      .llc_victim = false, .l2_ns = 5, .llc_ns = 20, .dram_ns = 90 };
	struct fp_where w = { 0 };
	int rc;

	rc = fp_locate(&c, 0.5 * MB, FP_UNIFORM, &w);
	ok(rc == 0 && w.p_l2 == 1 && w.ns == 5,
	   "reuse inside L2: an L2 hit (%.2f ns)", w.ns);
	/* LLC share 2 MB; reuse 4 MB: in L2 1/4, in LLC 2/4. */
	rc = fp_locate(&c, 4 * MB, FP_UNIFORM, &w);
	ok(rc == 0 && fabs(w.p_l2 - 0.25) < 1e-12 &&
	   fabs(w.p_llc - 0.25) < 1e-12 && fabs(w.p_dram - 0.5) < 1e-12 &&
	   fabs(w.ns - (0.25 * 5 + 0.25 * 20 + 0.5 * 90)) < 1e-9,
	   "uniform reuse of 4 MB: L2 %.2f, LLC %.2f, DRAM %.2f, %.2f ns",
	   w.p_l2, w.p_llc, w.p_dram, w.ns);
	rc = fp_locate(&c, 4 * MB, FP_SCAN, &w);
	ok(rc == 0 && w.p_dram == 1 && w.ns == 90,
	   "a scan of 4 MB past a 2 MB share: DRAM");
	rc = fp_locate(&c, 1.5 * MB, FP_SCAN, &w);
	ok(rc == 0 && w.p_llc == 1,
	   "a scan of 1.5 MB: in the 2 MB LLC share, not in the 1 MB L2");
	c.llc_victim = true; /* share 2 MB + L2 1 MB */
	rc = fp_locate(&c, 3 * MB, FP_SCAN, &w);
	ok(rc == 0 && w.p_llc == 1,
	   "victim LLC: L2 and the LLC share add up (3 MB fits)");
	c.llc_victim = false;
	rc = fp_locate(&c, 128 * MB, FP_UNIFORM, &w);
	ok(rc == 0 && w.p_dram > 0.98,
	   "page_fault2's 128 MB between fault and free: struct page from DRAM (%.3f)",
	   w.p_dram);
	c.llc_sharers = 0;
	rc = fp_locate(&c, 1 * MB, FP_UNIFORM, &w);
	ok(rc == -1, "no LLC sharers: refused");
	c.llc_sharers = 16;
	rc = fp_locate(&c, NAN, FP_UNIFORM, &w);
	ok(rc == -1, "NaN reuse: refused");
	rc = fp_locate(&c, -1, FP_UNIFORM, &w);
	ok(rc == -1, "negative reuse: refused");
	return done_testing();
}
