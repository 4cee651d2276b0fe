/*
 * model_lock.c - `memscale model lock`: the OLS'12 birth-death lock model
 * (predict/markov.h) over a core list.
 */
#include <stdlib.h>

#include "cli/model.h"

int model_lock(struct mopts *m)
{
	struct lock_model lm;
	long *cpus;
	size_t n;
	unsigned nmax = 0, peak;
	struct lock_pred prev = { 0 };

	model_need_args(m, 0, "");
	if (!m->have_handoff && m->calib) {
		/* The model's c: one cache-line transfer, as calibrated. */
		struct calib c;
		calib_load_or_die(&c, m->calib);
		m->handoff = calib_median(&c, "xfer.atomic");
		m->have_handoff = true;
		calib_free(&c);
	}
	if (!m->have_cs || !m->have_think || !m->have_handoff)
		die(EXIT_USAGE, "model lock: need --cs, --think and --handoff NS (or --calib FILE)");
	if (m->think <= 0)
		die(EXIT_USAGE, "model lock: bad --think '%g' (want > 0 ns)", m->think);
	n = model_cpu_list(m->cpus, "1,2,4,8,16,32,52,80,104,224", &cpus);
	lm = (struct lock_model){ m->cs, m->think, m->handoff, m->kind };
	for (size_t i = 0; i < n; i++)
		if ((unsigned)cpus[i] > nmax)
			nmax = (unsigned)cpus[i];
	peak = lock_model_peak(&lm, nmax);
	printf("# %s lock: cs %g ns, think %g ns, handoff %g ns (OLS'12 birth-death model)\n",
	       lock_model_kind_name(lm.kind), lm.cs_ns, lm.think_ns, lm.handoff_ns);
	printf("%6s %14s %12s %10s %10s %8s\n", "cpus", "acq_per_sec", "per_core",
	       "speedup", "waiting", "P0");
	for (size_t i = 0; i < n; i++) {
		struct lock_pred p;
		lock_model_solve(&lm, (unsigned)cpus[i], &p);
		printf("%6ld %14.6g %12.6g %10.3f %10.3f %8.4f%s\n", cpus[i], p.acq_per_sec,
		       p.acq_per_sec / (double)cpus[i], p.speedup, p.mean_waiting, p.p_idle,
		       i && p.acq_per_sec < prev.acq_per_sec ? "  (falling)" : "");
		prev = p;
	}
	{
		struct lock_pred p;
		lock_model_solve(&lm, peak, &p);
		printf("peak: %.6g acq/s at %u cpus (within 1..%u)%s\n", p.acq_per_sec, peak,
		       nmax, peak < nmax ? "; throughput falls beyond it (collapse)" : "");
	}
	free(cpus);
	return 0;
}
