/*
 * t_markov.c - the OLS'12 birth-death lock model against values worked
 * out by hand for one and two cores, plus its qualitative claims: ticket
 * locks collapse past a peak, queue locks saturate without collapsing.
 *
 * n = 1: states {0, 1}; throughput = 1 / (think + S1).
 * n = 2: a0 = 2/T, a1 = 1/T; w1 = a0 S1, w2 = w1 a1 S2; P0 = 1/(1+w1+w2);
 *        throughput = (w1/S1 + w2/S2) P0 = (2/T + 2 S1/T^2) P0;
 *        speedup = 2 P0 + P1.
 */
#include <math.h>

#include "predict/markov.h"
#include "tap.h"

static int close_to(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fabs(want);
}

static void check_small(enum lock_model_kind kind, double S1, double S2)
{
	struct lock_model m = { .cs_ns = 300, .think_ns = 2000, .handoff_ns = 120,
				.kind = kind };
	const double T = 2000;
	struct lock_pred p;
	double w1, w2, P0, thr;

	ok(close_to(lock_model_service_ns(&m, 1), S1) &&
	   close_to(lock_model_service_ns(&m, 2), S2),
	   "%s: service times S1=%g S2=%g", lock_model_kind_name(kind), S1, S2);

	lock_model_solve(&m, 1, &p);
	ok(close_to(p.acq_per_sec, 1e9 / (T + S1)),
	   "%s n=1: %.6g/s == 1/(think+S1) = %.6g/s", lock_model_kind_name(kind),
	   p.acq_per_sec, 1e9 / (T + S1));

	w1 = 2 * S1 / T;
	w2 = w1 * S2 / T;
	P0 = 1 / (1 + w1 + w2);
	thr = (2 / T + 2 * S1 / (T * T)) * P0 * 1e9;
	lock_model_solve(&m, 2, &p);
	ok(close_to(p.acq_per_sec, thr), "%s n=2: %.6g/s == closed form %.6g/s",
	   lock_model_kind_name(kind), p.acq_per_sec, thr);
	ok(close_to(p.p_idle, P0), "%s n=2: P0 %.6g == %.6g",
	   lock_model_kind_name(kind), p.p_idle, P0);
	ok(close_to(p.speedup, 2 * P0 + w1 * P0), "%s n=2: speedup %.6g",
	   lock_model_kind_name(kind), p.speedup);
}

int main(void)
{
	struct lock_model m = { .cs_ns = 100, .think_ns = 5000, .handoff_ns = 100 };
	struct lock_pred p, q;
	unsigned peak;

	/* ticket: S_k = cs + handoff k/2; queue: S_k = cs + handoff. */
	check_small(LOCK_MODEL_TICKET, 300 + 60, 300 + 120);
	check_small(LOCK_MODEL_QUEUE, 300 + 120, 300 + 120);

	m.kind = LOCK_MODEL_TICKET;
	peak = lock_model_peak(&m, 224);
	lock_model_solve(&m, peak, &p);
	lock_model_solve(&m, 224, &q);
	ok(peak > 1 && peak < 224, "ticket lock peaks inside 1..224 (at %u)", peak);
	ok(q.acq_per_sec < 0.5 * p.acq_per_sec,
	   "ticket lock collapses: %.3g/s at 224 vs %.3g/s at its peak",
	   q.acq_per_sec, p.acq_per_sec);
	ok(isfinite(q.acq_per_sec) && q.p_idle >= 0 && q.p_idle <= 1,
	   "224 cores: finite, probabilities in range");

	m.kind = LOCK_MODEL_QUEUE;
	lock_model_solve(&m, 224, &q);
	ok(fabs(q.acq_per_sec - 1e9 / 200) < 1e-6 * 1e9 / 200,
	   "queue lock saturates at 1/(cs+handoff): %.6g/s", q.acq_per_sec);
	{
		int monotone = 1;
		double prev = 0;
		for (unsigned n = 1; n <= 224; n++) {
			lock_model_solve(&m, n, &p);
			monotone &= p.acq_per_sec >= prev * (1 - 1e-12);
			prev = p.acq_per_sec;
		}
		ok(monotone, "queue lock throughput never falls with more cores");
	}
	return done_testing();
}
