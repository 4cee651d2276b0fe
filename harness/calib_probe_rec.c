/*
 * calib_probe_rec.c - how a calibration probe's repetitions are recorded
 * (calib_probe_int.h): their median, quartiles and range, the steal
 * while they ran (/proc/stat), and the flag of a probe that varies; the
 * probe files (calib_probe*.c) call it, it calls none of them.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/procstat.h"
#include "harness/calib_probe.h"
#include "harness/calib_probe_int.h"

struct spread {
	double median, q1, q3, min, max;
};

static void spread_of(double *v, size_t n, struct spread *s)
{
	gsl_sort(v, 1, n);
	s->median = gsl_stats_median_from_sorted_data(v, 1, n);
	s->q1 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.25);
	s->q3 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.75);
	s->min = v[0];
	s->max = v[n - 1];
}

/* Whole-machine CPU time from /proc/stat's first line: total and stolen
 * (by the hypervisor) jiffies; false where it cannot be read. */
bool calib_cpu_jiffies(double *total, double *steal)
{
	struct proc_cpu c;

	if (!proc_stat_cpu(&c) || c.n < 8)
		return false;
	*total = (double)proc_cpu_total(&c);
	*steal = (double)c.v[PROC_CPU_STEAL];
	return true;
}

/* Steal since the previous calib_record() (or calib_measure's start). */
static double last_total = NAN, last_steal = NAN;

double calib_steal_since_last(void)
{
	double total, steal, pct = NAN;

	if (!calib_cpu_jiffies(&total, &steal))
		return NAN;
	if (!isnan(last_total) && total > last_total)
		pct = 100 * (steal - last_steal) / (total - last_total);
	last_total = total;
	last_steal = steal;
	return pct;
}


/* A probe's repetitions v[0..n) and the steal (percent of CPU time)
 * while they ran. */
void calib_record_steal(struct calib *c, const char *probe, double *v, size_t n,
			 bool verbose, double steal)
{
	struct spread s;
	char key[160];

	spread_of(v, n, &s);
#define PUT(field)                                                        \
	do {                                                              \
		snprintf(key, sizeof(key), "%s." #field "_ns", probe);   \
		calib_set_num(c, key, s.field);                           \
	} while (0)
	PUT(median);
	PUT(q1);
	PUT(q3);
	PUT(min);
	PUT(max);
#undef PUT
	/* Probes that ran under steal, or whose repetitions differ by more
	 * than 2x, are reported as such (predict prints them again). */
	if (steal > 0) {
		snprintf(key, sizeof(key), "%s.steal_pct", probe);
		calib_set_num(c, key, steal);
	}
	if (s.min > 0 && s.max / s.min > VARIES_BOUND) {
		snprintf(key, sizeof(key), "%s.varies", probe);
		calib_set_num(c, key, s.max / s.min);
	}
	if (verbose)
		fprintf(stderr, "calibrate: %-34s median %9.2f ns  IQR [%.2f, %.2f]  "
			"range [%.2f, %.2f]%s%s\n", probe, s.median, s.q1, s.q3, s.min, s.max,
			s.min > 0 && s.max / s.min > VARIES_BOUND ? "  VARIES" : "",
			steal > 1 ? "  UNDER STEAL" : "");
}

void calib_record(struct calib *c, const char *probe, double *v, size_t n,
		   bool verbose)
{
	calib_record_steal(c, probe, v, n, verbose, calib_steal_since_last());
}

uint64_t calib_probe_scaled(const struct calib_opts *o, uint64_t n)
{
	uint64_t v = (uint64_t)((double)n * o->scale);
	return v ? v : 1;
}
