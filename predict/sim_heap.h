/*
 * sim_heap.h - the event queue of the simulator (predict/sim.c): a
 * binary min-heap of (time, sequence, core), so that events due at the
 * same time are served in the order they were scheduled.  Private to
 * the simulator (static inline functions, no object of its own; its
 * state, sim_coherence.h, holds one).
 *
 * An event is one 128-bit key: the time's bits above (a double >= 0
 * orders as its bit pattern does), the sequence number and the core
 * below (SIM_HEAP_CORE_BITS for the core; sequence numbers are unique,
 * so the core never decides), compared in one unsigned comparison.
 */
#ifndef MEMSCALE_SIM_HEAP_H
#define MEMSCALE_SIM_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SIM_HEAP_CORE_BITS 24 /* cores < 2^24; sequence numbers < 2^40 */

typedef unsigned __int128 sim_event;

struct sim_heap {
	sim_event *ev; /* room for every core */
	size_t n;
	uint64_t seq;  /* the next event's sequence number */
};

static inline uint64_t sim_time_bits(double t)
{
	uint64_t u;

	memcpy(&u, &t, sizeof(u));
	return u;
}

static inline double sim_event_time(sim_event e)
{
	uint64_t u = (uint64_t)(e >> 64);
	double t;

	memcpy(&t, &u, sizeof(t));
	return t;
}

static inline unsigned sim_event_core(sim_event e)
{
	return (unsigned)((uint64_t)e & ((1u << SIM_HEAP_CORE_BITS) - 1));
}

static inline sim_event sim_event_make(struct sim_heap *h, double t, unsigned core)
{
	uint64_t lo = (h->seq++ << SIM_HEAP_CORE_BITS) | core;

	return (sim_event)sim_time_bits(t) << 64 | lo;
}

static inline void sim_heap_push(struct sim_heap *h, double t, unsigned core)
{
	size_t i = h->n++;
	sim_event e = sim_event_make(h, t, core);

	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (h->ev[parent] < e)
			break;
		h->ev[i] = h->ev[parent];
		i = parent;
	}
	h->ev[i] = e;
}

/* Puts e in hole i or below (e is due no earlier than i's parent). */
static inline void sim_heap_sift_down(struct sim_heap *h, size_t i, sim_event e)
{
	size_t n = h->n;

	for (;;) {
		size_t l = 2 * i + 1, m;
		if (l + 1 < n) /* the earlier child, without a branch */
			m = l + (size_t)(h->ev[l + 1] < h->ev[l]);
		else if (l < n)
			m = l;
		else
			break;
		if (!(h->ev[m] < e))
			break;
		h->ev[i] = h->ev[m];
		i = m;
	}
	h->ev[i] = e;
}

/* Replaces the root (the event under way) with core's next one at t. */
static inline void sim_heap_replace_top(struct sim_heap *h, double t, unsigned core)
{
	sim_heap_sift_down(h, 0, sim_event_make(h, t, core));
}

/* Drops the root. */
static inline void sim_heap_pop(struct sim_heap *h)
{
	sim_event last = h->ev[--h->n];

	if (h->n)
		sim_heap_sift_down(h, 0, last);
}

/* The time's bits of the earliest event but the root (n > 1): the
 * earlier of its children. */
static inline uint64_t sim_heap_second_bits(const struct sim_heap *h)
{
	uint64_t a = (uint64_t)(h->ev[1] >> 64);

	if (h->n > 2 && (uint64_t)(h->ev[2] >> 64) < a)
		a = (uint64_t)(h->ev[2] >> 64);
	return a;
}

#endif
