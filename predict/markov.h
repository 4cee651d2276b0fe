/*
 * markov.h - birth-death Markov model of a spin lock shared by n cores,
 * after Boyd-Wickizer, Kaashoek, Morris, Zeldovich, "Non-scalable locks
 * are dangerous" (OLS 2012, section 3).
 *
 * State k = cores holding or waiting for the lock (0..n).
 *   arrival  a_k = (n - k) / think        (each non-waiting core asks after
 *                                           an exponential think time)
 *   service  s_k = 1 / (cs + h(k))         (critical section plus hand-off)
 *     ticket: h(k) = handoff * k / 2       (a release invalidates all k
 *                                           spinners; the home directory
 *                                           answers them one by one and
 *                                           the next ticket holder is on
 *                                           average half way down)
 *     queue:  h(k) = handoff               (MCS/qspinlock: the next waiter
 *                                           spins on its own line, so one
 *                                           transfer per hand-off; the
 *                                           machine-repairman M/M/1//n)
 * Assumptions: exponential think and service times (a Markov chain);
 * FIFO hand-off; all cores identical; one lock; `handoff` is the time
 * for one cache-line request to be served (calibrated by a ping-pong
 * probe, never fitted to published results).
 */
#ifndef MEMSCALE_MARKOV_H
#define MEMSCALE_MARKOV_H

#include <stddef.h>

/* A lock's hand-off discipline, here and in the simulator (predict/sim.h:
 * the one declaration): a FIFO queue (MCS, qspinlock) hands the line to
 * the next waiter; a ticket lock makes every waiter re-read it.  QUEUE
 * is 0, so a zeroed configuration simulates a queued lock. */
enum lock_model_kind { LOCK_MODEL_QUEUE, LOCK_MODEL_TICKET };

struct lock_model {
	double cs_ns;      /* critical section */
	double think_ns;   /* between release and next request */
	double handoff_ns; /* one cache-line transfer (see above) */
	enum lock_model_kind kind;
};

struct lock_pred {
	unsigned n;
	double acq_per_sec;  /* lock acquisitions per second, all cores */
	double speedup;      /* sum_k P_k (n - k): cores not waiting (OLS) */
	double mean_waiting; /* E[k] - P(k >= 1): cores spinning */
	double p_idle;       /* P_0 */
};

/* Service time in state k >= 1 (ns). */
double lock_model_service_ns(const struct lock_model *m, unsigned k);
/* Solve the chain for n cores (n >= 1); numerically safe up to n ~ 1e5. */
void lock_model_solve(const struct lock_model *m, unsigned n,
		      struct lock_pred *out);
/* Worker count in 1..nmax with the highest throughput (the peak before
 * collapse). */
unsigned lock_model_peak(const struct lock_model *m, unsigned nmax);
const char *lock_model_kind_name(enum lock_model_kind k);

#endif
