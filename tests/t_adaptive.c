/*
 * t_adaptive.c - the interval harness/adaptive.c repeats A/B sets against:
 * Welch's 95 % interval of the change in % of the base mean, against a
 * value worked out independently (numerical integration of Student's t
 * density, bisection for the 0.975 quantile), and its edge cases.
 */
#include "harness/adaptive.h"
#include "tap.h"

#include <math.h>

int main(void)
{
	/* base {10, 12}: mean 11, sd sqrt(2); patch {13, 15, 17}: mean 15, sd 2.
	 * change 4/11 = 36.3636 %; se = sqrt(2/2 + 4/3) = 1.527525;
	 * Welch df = 5.4444 / (1 + 0.8889) = 2.882353, t(0.975, df) =
	 * 3.2572081; interval 36.3636 -+ 3.2572081 * 1.527525 / 11 * 100 =
	 * [-8.8679, +81.5952] %. */
	double b[] = { 10, 12 }, p[] = { 13, 15, 17 }, lo, hi, c;

	c = adaptive_change_ci(b, 2, p, 3, &lo, &hi);
	ok(fabs(c - 36.363636) < 1e-4, "change %.6f %% (want 36.363636)", c);
	ok(fabs(lo - -8.867887) < 1e-3, "interval low %.6f (want -8.867887)", lo);
	ok(fabs(hi - 81.595160) < 1e-3, "interval high %.6f (want 81.595160)", hi);

	/* one run on a side: no interval */
	c = adaptive_change_ci(b, 1, p, 3, &lo, &hi);
	ok(isnan(lo) && isnan(hi) && fabs(c - (15 - 10) / 10.0 * 100) < 1e-9,
	   "one base run: change %.3g, no interval", c);
	/* no spread: a point interval */
	{
		double x[] = { 5, 5, 5 }, y[] = { 6, 6 };
		c = adaptive_change_ci(x, 3, y, 2, &lo, &hi);
		ok(lo == c && hi == c && fabs(c - 20) < 1e-9, "no spread: interval [%g, %g]", lo, hi);
	}
	/* base mean 0: no change */
	{
		double z[] = { 0, 0 };
		c = adaptive_change_ci(z, 2, p, 3, &lo, &hi);
		ok(isnan(c) && isnan(lo), "base mean 0: no change");
	}
	return done_testing();
}
