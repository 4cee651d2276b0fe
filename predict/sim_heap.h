/*
 * sim_heap.h - the event queue of the simulator (predict/sim.c): a
 * binary min-heap of (time, sequence, core), so that events due at the
 * same time are served in the order they were scheduled.  Private to
 * sim.c (static inline functions, no object of its own).
 */
#ifndef MEMSCALE_SIM_HEAP_H
#define MEMSCALE_SIM_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct sim_event {
	double t;
	uint64_t seq;
	unsigned core;
};

struct sim_heap {
	struct sim_event *ev; /* room for every core */
	size_t n;
	uint64_t seq;         /* the next event's sequence number */
};

/* a is due before b: earlier, or as early and scheduled first. */
static inline int sim_ev_before(const struct sim_event *a, const struct sim_event *b)
{
	return (a->t < b->t) | ((a->t == b->t) & (a->seq < b->seq));
}

static inline void sim_heap_push(struct sim_heap *h, double t, unsigned core)
{
	size_t i = h->n++;
	struct sim_event e = { t, h->seq++, core };

	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (sim_ev_before(&h->ev[parent], &e))
			break;
		h->ev[i] = h->ev[parent];
		i = parent;
	}
	h->ev[i] = e;
}

/* Puts e in hole i or below (e is due no earlier than i's parent). */
static inline void sim_heap_sift_down(struct sim_heap *h, size_t i, struct sim_event e)
{
	size_t n = h->n;

	for (;;) {
		size_t l = 2 * i + 1, m;
		if (l + 1 < n) /* the earlier child, without a branch */
			m = l + (size_t)sim_ev_before(&h->ev[l + 1], &h->ev[l]);
		else if (l < n)
			m = l;
		else
			break;
		if (!sim_ev_before(&h->ev[m], &e))
			break;
		h->ev[i] = h->ev[m];
		i = m;
	}
	h->ev[i] = e;
}

/* Replaces the root (the event under way) with core's next one at t. */
static inline void sim_heap_replace_top(struct sim_heap *h, double t, unsigned core)
{
	struct sim_event e = { t, h->seq++, core };

	sim_heap_sift_down(h, 0, e);
}

/* Drops the root. */
static inline void sim_heap_pop(struct sim_heap *h)
{
	struct sim_event last = h->ev[--h->n];

	if (h->n)
		sim_heap_sift_down(h, 0, last);
}

#endif
