/*
 * footprint.h - where a cache line is found when a core touches it again
 * after touching D other bytes: the footprint model behind the cold
 * struct-page line of a folio freed long after its fault (page_fault2's
 * 128 MB region per process passes between the two touches), the
 * ancestor walk's loads and every other access whose cost depends on
 * what the core did since.
 *
 * A level of capacity C (bytes this core can keep there: its private L2;
 * its share of the socket's LLC, the LLC divided by the cores using it,
 * plus the L2 where the LLC is a victim cache, as Skylake-SP's onwards)
 * still holds the line with probability
 *   uniform reuse (FP_UNIFORM):  min(1, C / D)
 *   LRU over a cyclic scan (FP_SCAN): 1 if D <= C, else 0
 * The first is the independent-reference approximation (each of the D
 * bytes equally likely to have displaced it); the second the worst case
 * of a strict scan larger than the cache.  Predictions use the first and
 * put the second into their sensitivity band.  The expected cost is the
 * latency of the first level that holds it (L2, LLC, DRAM).
 */
#ifndef MEMSCALE_FOOTPRINT_H
#define MEMSCALE_FOOTPRINT_H

#include <stdbool.h>

enum fp_model { FP_UNIFORM, FP_SCAN };

struct fp_cache {
	double l2_bytes;       /* per core */
	double llc_bytes;      /* per socket */
	unsigned llc_sharers;  /* cores of the socket that use the LLC (>= 1) */
	bool llc_victim;       /* non-inclusive victim LLC: its capacity adds to L2's */
	double l2_ns, llc_ns, dram_ns; /* load-to-use latency of each level */
};

struct fp_where {
	double p_l2, p_llc, p_dram; /* probabilities, summing to 1 */
	double ns;                  /* expected cost of the access */
};

/* Returns 0, or -1 on parameters that make no sense (negative sizes,
 * no sharers, NaN). */
/* The chance a byte survives `reuse` bytes touched since in a cache of
 * `capacity` bytes under model m (1 if they fit). */
static inline double fp_survives(double capacity, double reuse, enum fp_model m)
{
	if (reuse <= capacity)
		return 1;
	return m == FP_SCAN ? 0 : capacity / reuse;
}

int fp_locate(const struct fp_cache *c, double reuse_bytes, enum fp_model m,
	      struct fp_where *out);

#endif
