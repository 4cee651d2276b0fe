/*
 * sloppy - the sloppy counter of Boyd-Wickizer et al., "An Analysis of
 * Linux Scalability to Many Cores" (OSDI'10, section 4.3), used there for
 * dentry, vfsmount and dst_entry reference counts.
 *
 * One central counter plus, per core, a count of spare references:
 *  - acquire V: take V from the local spares when there are enough,
 *    otherwise add V to the central counter;
 *  - release V: add V to the local spares; when they exceed the threshold
 *    (knob `threshold`) give them all back to the central counter.
 * Invariant: central = in use + sum(spares).  read() is the central
 * counter, which over-counts by the spares: 0 <= read - true <= thr *
 * nworkers.  Here add(+V) acquires and add(-V) releases; the slot holds
 * -spares so that the exact value is, as for every scheme, the shared
 * part plus the sum of the slots.  Central updates count as folds.
 */
#include "counters/pcpu.h"

static void sloppy_params(struct counter_params *p, struct knobset *ks)
{
	p->threshold = knob_int(ks, &counter_threshold_knob);
}

static int sloppy_init(void *c, const struct counter_params *p, struct arena *a)
{
	long thr = p->threshold ? p->threshold : 32;

	if (thr < 1)
		return -22;
	return pcpu_base_init(c, p->nworkers, thr, a);
}

static void sloppy_add(void *c, void *ctx, long v)
{
	struct pcpu_base *b = c;
	struct pcpu_slot *s = ctx;
	long spare = -s->delta;

	if (v > 0) {
		if (spare >= v) {
			pcpu_slot_set(s, -(spare - v));
			return;
		}
		pcpu_fold(b, s, v);
	} else if (v < 0) {
		spare -= v;
		if (spare > b->thr) {
			pcpu_fold(b, s, -spare);
			spare = 0;
		}
		pcpu_slot_set(s, -spare);
	}
}

const struct counter_ops sloppy_ops = {
	.name = "sloppy",
	.description = "sloppy counter (Boyd-Wickizer et al., OSDI'10): central "
		       "count + per-worker spare references up to threshold",
	.size = sizeof(struct pcpu_base),
	.ctx_size = sizeof(struct pcpu_slot),
	.flags = COUNTER_F_THRESHOLD,
	.init = sloppy_init,
	.ctx_init = pcpu_bind,
	.add = sloppy_add,
	.read = pcpu_read,
	.read_exact = pcpu_read_exact,
	.folds = pcpu_folds,
	.error_bound = pcpu_bound_thr_n,
	.threshold = pcpu_threshold,
	.params = sloppy_params,
};
REGISTER(counter, sloppy_ops);
