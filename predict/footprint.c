/*
 * footprint.c - the footprint model of footprint.h.
 */
#include "predict/footprint.h"

#include <math.h>

int fp_locate(const struct fp_cache *c, double reuse_bytes, enum fp_model m,
	      struct fp_where *out)
{
	double l2, llc, in_l2, in_llc;

	if (!(c->l2_bytes >= 0) || !(c->llc_bytes >= 0) || c->llc_sharers == 0 ||
	    !(reuse_bytes >= 0) || !(c->l2_ns >= 0) || !(c->llc_ns >= 0) ||
	    !(c->dram_ns >= 0))
		return -1;
	l2 = c->l2_bytes;
	llc = c->llc_bytes / c->llc_sharers + (c->llc_victim ? l2 : 0);
	if (llc < l2) /* an inclusive LLC share smaller than L2 holds no more */
		llc = l2;
	in_l2 = fp_survives(l2, reuse_bytes, m);
	in_llc = fp_survives(llc, reuse_bytes, m);
	out->p_l2 = in_l2;
	out->p_llc = in_llc - in_l2;
	out->p_dram = 1 - in_llc;
	out->ns = out->p_l2 * c->l2_ns + out->p_llc * c->llc_ns + out->p_dram * c->dram_ns;
	return isfinite(out->ns) ? 0 : -1;
}
