/*
 * t_stats.c - every statistic in core/stats.c against values worked out by
 * hand (in the comments) for small fixed samples, the Welch p-value
 * against an independent computation, the published AIM9 rows of Alex
 * Shi's lru_lock thread, and the report lines' exact field widths.
 */
#include "core/stats.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int near(double got, double want, double tol, const char *what)
{
	int r = ok(fabs(got - want) <= tol, "%s = %.9g (want %.9g)", what, got, want);
	return r;
}

/* Captures what f(...) prints into a heap string. */
#define CAPTURE(buf, call)                                                    \
	do {                                                                  \
		size_t len_;                                                  \
		FILE *f = open_memstream(&(buf), &len_);                      \
		call;                                                         \
		fclose(f);                                                    \
	} while (0)

int main(void)
{
	/*
	 * A = {2,4,4,4,5,5,7,9}: n = 8, sum = 40, amean = 5.
	 * squared deviations: 9,1,1,1,0,0,4,16 -> sum 32.
	 * population stddev (LKP) = sqrt(32/8) = 2.
	 * sample stddev (mmtests) = sqrt(32/7) = 2.1380899353.
	 * CoeffVar = 100 * 2.1380899353 / 5 = 42.761798706.
	 * Hmean: sum(1/x) over 1260ths = 630 + 3*315 + 2*252 + 180 + 140
	 *        = 2399/1260, so Hmean = 8*1260/2399 = 4.2017507295.
	 * BHmean-50: k = floor(8*50/100) = 4 best = {9,7,5,5}:
	 *        (35 + 45 + 63 + 63)/315 = 206/315 -> 4*315/206 = 6.1165048544.
	 * BHmean-95: k = floor(7.6) = 7, drop the 2:
	 *        (140 + 180 + 2*252 + 3*315)/1260 = 1769/1260 -> 8820/1769
	 *        = 4.9858677219.  BHmean-99: k = floor(7.92) = 7, the same.
	 * BAmean-50 (lower is better): the 4 smallest {2,4,4,4} -> 3.5.
	 * Median = (4 + 5)/2 = 4.5.
	 * CI95: t(0.975, 7) = 2.364624 (table), s/sqrt(n) = 2.13809/2.82843
	 *        = 0.755929, half-width = 1.787492.
	 */
	static const double a[] = { 4, 2, 9, 4, 5, 4, 7, 5 }; /* unsorted */
	double a_copy[8];
	struct stats_summary s;

	memcpy(a_copy, a, sizeof(a));
	near(stats_min(a, 8), 2, 0, "Min");
	near(stats_max(a, 8), 9, 0, "Max");
	near(stats_amean(a, 8), 5, 1e-12, "Amean");
	near(stats_hmean(a, 8), 10080.0 / 2399, 1e-9, "Hmean");
	near(stats_stddev(a, 8), 2.1380899353, 1e-9, "Stddev (sample)");
	near(stats_coeffvar(a, 8), 42.761798706, 1e-8, "CoeffVar");
	near(stats_pop_stddev(a, 8), 2, 1e-12, "LKP population stddev");
	near(stats_median(a, 8), 4.5, 0, "Median");
	near(stats_bmean(a, 8, 50, true), 1260.0 / 206, 1e-9, "BHmean-50");
	near(stats_bmean(a, 8, 95, true), 8820.0 / 1769, 1e-9, "BHmean-95");
	near(stats_bmean(a, 8, 99, true), 8820.0 / 1769, 1e-9, "BHmean-99 = BHmean-95");
	near(stats_bmean(a, 8, 50, false), 3.5, 1e-12, "BAmean-50 (lower is better)");
	near(stats_ci_half(a, 8, 0.95), 1.787492, 1e-5, "CI95 half-width");
	ok(!memcmp(a, a_copy, sizeof(a)), "statistics leave the caller's array alone");
	stats_summarise(a, 8, true, &s);
	ok(s.n == 8 && s.hmean == stats_hmean(a, 8) && s.bhmean50 == stats_bmean(a, 8, 50, true),
	   "stats_summarise agrees with the single functions");

	/*
	 * mmtests' k = max(1, floor(n*P/100)): with n = 12 (AIM9
	 * ITERATIONS) BHmean-95 and -99 both take k = 11 and BHmean-50 k = 6,
	 * which is why Alex's 95 and 99 rows are equal.  Samples 1..12:
	 * BHmean-50 = Hmean{12..7} = 6/(1/12+1/11+1/10+1/9+1/8+1/7)
	 *           = 6/0.65321067 = 9.18540...;  BHmean-95 = Hmean{12..2}.
	 */
	{
		double x[12], inv = 0;
		for (int i = 0; i < 12; i++)
			x[i] = i + 1;
		for (int i = 2; i <= 12; i++)
			inv += 1.0 / i;
		near(stats_bmean(x, 12, 95, true), 11 / inv, 1e-9, "n=12: BHmean-95 uses 11 samples");
		near(stats_bmean(x, 12, 99, true), 11 / inv, 1e-9, "n=12: BHmean-99 uses 11 samples");
		near(stats_bmean(x, 12, 50, true), 6 / (1.0/12 + 1.0/11 + 1.0/10 + 1.0/9 + 1.0/8 + 1.0/7),
		     1e-9, "n=12: BHmean-50 uses 6 samples");
		near(stats_bmean(x, 1, 50, true), 1, 0, "n=1: k is at least 1");
	}

	/* Edge cases as mmtests and LKP define them. */
	{
		static const double z[] = { 3, 0, 5 }, one[] = { 7 };
		near(stats_hmean(z, 3), -1, 0, "Hmean with a sample <= 0 is -1");
		ok(isnan(stats_stddev(one, 1)), "Stddev of one sample is NaN");
		near(stats_pop_stddev(one, 1), -1, 0, "LKP stddev of one sample is -1");
		ok(isnan(stats_ci_half(one, 1, 0.95)), "no CI from one sample");
	}

	/*
	 * Percentages.  pdiff(new, base) = new*100/base - 100;
	 * pndiff(new, base) = 100 - new*100/base (Stddev, CoeffVar).
	 * Alex Shi's averaged AIM9 rows (lru_lock thread, 2019):
	 *   Hmean page_test 34355.4 -> 35810.9: 35810.9*100/34355.4 - 100
	 *     = 3581090/34355.4 - 100 = 104.23659 - 100 = 4.23659 -> "4.24%"
	 *   Stddev page_test 319.757 -> 223.324: 100 - 22332.4/319.757
	 *     = 100 - 69.84179 = 30.15821: positive although the spread only
	 *     shrank -- the sign pitfall behind his "5%~50%".
	 *   CoeffVar = 100*319.757/34355.4 = 0.930730 vs the published mean
	 *     of per-container ratios 0.93125 (the mean of ratios is not the
	 *     ratio of means, so they agree to about 0.001 only).
	 *   brk_test Hmean 95470 -> 97769.6: 9776960/95470 - 100 = 2.408715.
	 */
	near(stats_pdiff(35810.9, 34355.4), 4.23659, 1e-5, "AIM9 page_test Hmean %");
	near(stats_pndiff(223.324, 319.757), 30.15821, 1e-5, "AIM9 page_test Stddev % (pndiff)");
	near(stats_mm_row_pct(MM_STDDEV, 223.324, 319.757), 30.15821, 1e-5,
	     "Stddev row uses pndiff");
	near(stats_mm_row_pct(MM_HMEAN, 35810.9, 34355.4), 4.23659, 1e-5, "Hmean row uses pdiff");
	near(100 * 319.757 / 34355.4, 0.93125, 1e-3, "AIM9 CoeffVar = 100*Stddev/mean");
	near(stats_pdiff(97769.6, 95470), 2.408715, 1e-5, "AIM9 brk_test Hmean %");
	near(stats_pdiff(5, 5), 0, 0, "pdiff equal -> 0");
	near(stats_pdiff(0, 5), 0, 0, "pdiff new == 0 -> 0");
	near(stats_pdiff(5, 0), 100, 0, "pdiff base == 0 -> 100");
	near(stats_pndiff(0, 5), 100, 0, "pndiff new == 0 -> 100");
	near(stats_pndiff(5, 0), -99, 0, "pndiff base == 0 -> -99");
	/* LKP: 100*(1.351e8 - 2.131e8)/2.131e8 = -36.6026 (lru-shm report). */
	near(stats_lkp_change(1.351e8, 2.131e8), -36.6026, 1e-4, "LKP %change");
	near(stats_lkp_change(1, 0), 1e102, 1e90, "LKP %change zero base -> 1e-100");

	/*
	 * Welch: a = 1..5, b = 2,4,..,10.  means 3 and 6, sample variances
	 * 2.5 and 10; se^2 = 2.5/5 + 10/5 = 2.5, t = -3/sqrt(2.5) = -1.897367;
	 * df = 2.5^2/(0.5^2/4 + 2^2/4) = 6.25/1.0625 = 5.882353.
	 * p = 0.107531 (R: t.test(1:5, seq(2,10,2)) prints p-value = 0.1075;
	 * also Simpson integration of the t density, 2e5 steps: 0.1075312).
	 */
	{
		static const double x[] = { 1, 2, 3, 4, 5 }, y[] = { 2, 4, 6, 8, 10 };
		double t, df;
		near(stats_welch_p(x, 5, y, 5, &t, &df), 0.1075312, 1e-6, "Welch p-value");
		near(t, -1.8973666, 1e-6, "Welch t");
		near(df, 5.8823529, 1e-6, "Welch-Satterthwaite df");
		ok(isnan(stats_welch_p(x, 1, y, 5, NULL, NULL)), "Welch needs 2 samples a side");
		/*
		 * mmtests 2019: Hmeans 5/(137/60) = 2.189781 and 2.189781*2 =
		 * 4.379562, t = 2.189781/sqrt(2.5) = 1.384939, df = 8,
		 * p = 0.2034660 (same integration) -> not significant at 0.10.
		 */
		near(stats_mmtests_p(x, 5, y, 5), 0.2034660, 1e-6, "mmtests 2019 Hmean t-test p");
		ok(stats_mmtests_p(x, 5, y, 5) >= MMTESTS_SIGNIFICANT_P, "... not significant");
	}

	/* ---- report lines, byte for byte ---- */
	{
		char *out;
		double v = 35810.9, pct = stats_pdiff(35810.9, 34355.4);
		bool sig = true;

		/* A row in the format of mmtests' PrintGeneric.pm (827b444a), the
		 * page_test Hmean of Alex Shi's AIM9 table (Message-ID
		 * 1566294517-86418-1-git-send-email-alex.shi@linux.alibaba.com). */
		CAPTURE(out, stats_mm_print_row(f, "Hmean", "page_test", 9, 34355.4, 1,
						&v, &pct, &sig));
		is_str(out, "Hmean     page_test    34355.40 (   0.00%)    35810.90 *   4.24%*\n",
		       "mmtests Hmean row, significant");
		free(out);
		sig = false;
		v = 223.324;
		pct = stats_mm_row_pct(MM_STDDEV, 223.324, 319.757);
		CAPTURE(out, stats_mm_print_row(f, "Stddev", "page_test", 9, 319.757, 1,
						&v, &pct, &sig));
		is_str(out, "Stddev    page_test      319.76 (   0.00%)      223.32 (  30.16%)\n",
		       "mmtests Stddev row, inverted sign");
		free(out);
		{
			const char *names[] = { "5.3-rc4-vanilla", "5.3-rc4-lru_lock" };
			CAPTURE(out, stats_mm_print_header(f, 9, 2, names));
			is_str(out,
			       /* 9 + 1 + 9 columns of row labels, then each name
				* right-aligned in its 23-column kernel field. */
			       "                                   5.3-rc4                5.3-rc4\n"
			       "                                   vanilla               lru_lock\n",
			       "mmtests header split after -rcN");
			free(out);
		}

		/* Two lines of LKP's report 202401221624.cb53a8ca-oliver.sang@intel.com. */
		CAPTURE(out, stats_lkp_print_row(f, "vm-scalability.throughput", 2.131e8,
						 0.01e8, 1.351e8, 0.01e8));
		is_str(out, " 2.131e+08           -36.6%  1.351e+08        vm-scalability.throughput\n",
		       "LKP row, no +-");
		free(out);
		/* base 0.18/19.87 prints 0.01 and gives +1887.0%; 20% and 203%
		 * relative stddev show as "+- 20%" and "+-203%". */
		CAPTURE(out, stats_lkp_print_row(f, "perf-sched.sch_delay.max.ms",
						 0.18 / 19.87, 0.2 * 0.18 / 19.87,
						 0.18, 2.03 * 0.18));
		is_str(out, "      0.01 \u00b1 20%   +1887.0%       0.18 \u00b1203%  perf-sched.sch_delay.max.ms\n",
		       "LKP row with +- columns");
		free(out);
		CAPTURE(out, stats_lkp_print_row(f, "mpstat.cpu.all.sys%", 10.0, 0, 13.5, 0));
		/* The change field keeps its 11 columns, a blank for the '%'. */
		is_str(out, "     10.00            +3.5       13.50        mpstat.cpu.all.sys%\n",
		       "LKP absolute change for a key ending in %%");
		free(out);
		CAPTURE(out, stats_lkp_print_row(f, "x.ops", 41008, 41008 * 0.019, 27776, 0));
		is_str(out, "     41008           -32.3%      27776        x.ops\n",
		       "LKP %%10d values, +- hidden at 1.9%%");
		free(out);

		/* Shakeel's table (52-CPU machine, fallocate1 and page_fault3). */
		CAPTURE(out, (stats_table_print_header(f),
			      stats_table_print_row(f, "fallocate1", 1031081, 1431291),
			      stats_table_print_row(f, "page_fault3", 28641143, 28673950)));
		is_str(out, "Testcase        base        with-patch\n\n"
			    "fallocate1      1031081     1431291  (38.81 %)\n"
			    "page_fault3     28641143    28673950 ( 0.11 %)\n",
		       "Shakeel-style table widths");
		free(out);
	}
	return done_testing();
}
