/*
 * markov.c - the OLS'12 birth-death lock model; the equations and
 * assumptions are in markov.h.
 *
 * Balance: P_k a_k = P_{k+1} s_{k+1}, so P_k = P_0 prod_{i<k} a_i/s_{i+1}.
 * The products overflow for a few hundred cores, so they are kept as
 * logarithms and normalised with the log-sum-exp trick.
 */
#include "predict/markov.h"

#include <math.h>
#include <stdlib.h>

#include "core/util.h"

const char *lock_model_kind_name(enum lock_model_kind k)
{
	return k == LOCK_MODEL_TICKET ? "ticket" : "queue";
}

double lock_model_service_ns(const struct lock_model *m, unsigned k)
{
	if (m->kind == LOCK_MODEL_TICKET)
		return m->cs_ns + m->handoff_ns * (double)k / 2.0;
	return m->cs_ns + m->handoff_ns;
}

void lock_model_solve(const struct lock_model *m, unsigned n,
		      struct lock_pred *out)
{
	double *lw = xmalloc((n + 1) * sizeof(double));
	double max = 0, norm = 0, thr = 0, spd = 0, ek = 0;

	lw[0] = 0;
	for (unsigned k = 0; k < n; k++) {
		/* a_k / s_{k+1} = ((n-k)/think) * service(k+1) */
		double ratio = (double)(n - k) / m->think_ns *
			       lock_model_service_ns(m, k + 1);
		lw[k + 1] = lw[k] + log(ratio);
		if (lw[k + 1] > max)
			max = lw[k + 1];
	}
	for (unsigned k = 0; k <= n; k++)
		norm += exp(lw[k] - max);
	for (unsigned k = 0; k <= n; k++) {
		double p = exp(lw[k] - max) / norm;
		if (k >= 1)
			thr += p / lock_model_service_ns(m, k);
		spd += p * (double)(n - k);
		ek += p * (double)k;
	}
	out->n = n;
	out->p_idle = exp(lw[0] - max) / norm;
	out->acq_per_sec = thr * 1e9;
	out->speedup = spd;
	out->mean_waiting = ek - (1.0 - out->p_idle);
	free(lw);
}

unsigned lock_model_peak(const struct lock_model *m, unsigned nmax)
{
	unsigned best = 1;
	double best_thr = -1;

	for (unsigned n = 1; n <= nmax; n++) {
		struct lock_pred p;
		lock_model_solve(m, n, &p);
		if (p.acq_per_sec > best_thr * (1 + 1e-12)) {
			best_thr = p.acq_per_sec;
			best = n;
		}
	}
	return best;
}
