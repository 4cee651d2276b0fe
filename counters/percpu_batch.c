/*
 * percpu_batch - memcg statistics as they were before rstat: a per-CPU
 * delta folded into a shared atomic once it passes a threshold.  Follows
 * __mod_memcg_state() in v5.10/v5.11 mm/memcontrol.c (T@6168d0da2b47):
 *
 *	x = val + this_cpu(stat[idx]);
 *	if (unlikely(abs(x) > MEMCG_CHARGE_BATCH)) {
 *		atomic_long_add(x, &memcg->vmstats[idx]);	(every ancestor)
 *		x = 0;
 *	}
 *	this_cpu(stat[idx]) = x;
 *
 * One level only (the hierarchy walk belongs to the memcg models).  The
 * threshold is the knob `threshold`: 32 (MEMCG_CHARGE_BATCH up to v6.0),
 * 64 (v6.1, 1813e51eece0) or 512 (Feng Tang's MEMCG_UPDATE_BATCH RFC,
 * Dec 2020, not merged).  Slots stay within [-thr, thr], so the shared
 * word is off by at most thr * nworkers - the bound Roman Gushchin called
 * "a large number" for 512.
 */
#include "counters/pcpu.h"

const struct knob counter_threshold_knob = {
	.name = "threshold", .owner = "counter", .type = KNOB_INT, .def = "32",
	.min = 1, .max = 1L << 20,
	.help = "per-worker fold threshold of percpu_batch and sloppy: "
		"32 = MEMCG_CHARGE_BATCH v5.x, 64 = MEMCG_CHARGE_BATCH v6.1+ "
		"(1813e51eece0), 512 = MEMCG_UPDATE_BATCH (Feng Tang RFC, "
		"not merged)",
};
REGISTER(knob, counter_threshold_knob);

#define PERCPU_BATCH_DEFAULT 32

static void batch_params(struct counter_params *p, struct knobset *ks)
{
	p->threshold = knob_int(ks, &counter_threshold_knob);
}

static int batch_init(void *c, const struct counter_params *p, struct arena *a)
{
	long thr = p->threshold ? p->threshold : PERCPU_BATCH_DEFAULT;

	if (thr < 1)
		return -22;
	return pcpu_base_init(c, p->nworkers, thr, a);
}

static void batch_add(void *c, void *ctx, long delta)
{
	pcpu_batch_add(c, ctx, delta);
}

const struct counter_ops percpu_batch_ops = {
	.name = "percpu_batch",
	.description = "per-worker delta folded into a shared atomic when "
		       "|delta| > threshold (v5.10 __mod_memcg_state)",
	.size = sizeof(struct pcpu_base),
	.ctx_size = sizeof(struct pcpu_slot),
	.flags = COUNTER_F_THRESHOLD,
	.init = batch_init,
	.ctx_init = pcpu_bind,
	.add = batch_add,
	.read = pcpu_read,
	.read_exact = pcpu_read_exact,
	.folds = pcpu_folds,
	.error_bound = pcpu_bound_thr_n,
	.threshold = pcpu_threshold,
	.params = batch_params,
};
REGISTER(counter, percpu_batch_ops);
