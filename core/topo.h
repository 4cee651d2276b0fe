/*
 * topo.h - machine topology (hwloc) and the worker -> PU placement order.
 *
 * Placement "cores": within each package, one worker per physical core
 * first, then the cores' SMT siblings, then the next package (so a sweep
 * over 1..N workers stays on one socket as long as it can, like the
 * per-socket scaling plots of the seed reports).  "pus": OS order of the
 * allowed PUs.  "none": no pinning.
 */
#ifndef MEMSCALE_TOPO_H
#define MEMSCALE_TOPO_H

#include <stddef.h>

enum affinity { AFF_CORES, AFF_PUS, AFF_NONE };

struct topo {
	unsigned packages, numa_nodes, cores, pus; /* allowed ones */
	int *order_cores;  /* PU os-index placement for AFF_CORES */
	int *order_pus;    /* for AFF_PUS */
	char cpu_model[128];
};

/* Loaded once, cached. */
const struct topo *topo_get(void);
/* PU os index for worker i under the given policy, or -1 for none. */
int topo_pu_for(enum affinity aff, unsigned worker);
/* Pin the calling thread to PU os index (no-op for -1).  0 or -errno. */
int topo_pin_self(int pu);
const char *affinity_name(enum affinity a);
int affinity_parse(const char *s, enum affinity *out);

#endif
