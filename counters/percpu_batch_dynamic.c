/*
 * percpu_batch_dynamic - percpu_batch (v5.10 __mod_memcg_state, see
 * percpu_batch.c) with the threshold derived from the number of workers,
 * the alternative raised in the MEMCG_UPDATE_BATCH thread (Feng Tang,
 * Dec 2020: "it could be dynamically calculated according to memcg limit
 * and number of CPUs").
 *
 * Formula:  thr = clamp(threshold_limit / nworkers, 1, 512)
 *
 * Why: the objection to a fixed 512 was its worst-case error,
 * 512 * nr_cpus pages (Roman Gushchin: "a large number").  The error of a
 * batch scheme is thr * nworkers, so dividing a fixed error budget by the
 * worker count keeps that product under the budget at every size, while
 * small machines - where the budget allows it - get the big batch and its
 * fewer shared updates.  The cap 512 is Feng Tang's value (2 MB THP =
 * 512 pages: a larger batch no longer halves the folds of huge-page
 * charges); the floor 1 keeps the scheme a batch scheme when the budget
 * is smaller than the worker count (then the bound is nworkers).
 * The default budget, 16384, is MEMCG_CHARGE_BATCH(64) * 256 CPUs: the
 * staleness v6.8's rstat flush threshold already tolerates on a 256-CPU
 * machine.  Examples: 2..32 workers -> 512, 64 -> 256, 256 -> 64.
 */
#include "counters/pcpu.h"

#define DYN_CAP 512
#define DYN_DEFAULT_LIMIT 16384

static const struct knob knob_threshold_limit = {
	.name = "threshold_limit", .owner = "counter", .type = KNOB_INT,
	.def = "16384", .min = 1, .max = 1L << 30,
	.help = "percpu_batch_dynamic: worst-case error budget; threshold = "
		"clamp(threshold_limit / workers, 1, 512); 16384 = "
		"MEMCG_CHARGE_BATCH(64) x 256 CPUs, v6.8's flush threshold",
};
REGISTER(knob, knob_threshold_limit);

static void dyn_params(struct counter_params *p, struct knobset *ks)
{
	p->limit = knob_int(ks, &knob_threshold_limit);
}

static int dyn_init(void *c, const struct counter_params *p, struct arena *a)
{
	long limit = p->limit ? p->limit : DYN_DEFAULT_LIMIT;
	long thr;

	if (limit < 1 || !p->nworkers)
		return -22;
	thr = limit / (long)p->nworkers;
	if (thr > DYN_CAP)
		thr = DYN_CAP;
	if (thr < 1)
		thr = 1;
	return pcpu_base_init(c, p->nworkers, thr, a);
}

static void dyn_add(void *c, void *ctx, long delta)
{
	pcpu_batch_add(c, ctx, delta);
}

const struct counter_ops percpu_batch_dynamic_ops = {
	.name = "percpu_batch_dynamic",
	.description = "percpu_batch with threshold = clamp(threshold_limit / "
		       "workers, 1, 512): error kept under a fixed budget",
	.size = sizeof(struct pcpu_base),
	.ctx_size = sizeof(struct pcpu_slot),
	.flags = COUNTER_F_DYNAMIC,
	.init = dyn_init,
	.ctx_init = pcpu_bind,
	.add = dyn_add,
	.read = pcpu_read,
	.read_exact = pcpu_read_exact,
	.folds = pcpu_folds,
	.error_bound = pcpu_bound_thr_n,
	.threshold = pcpu_threshold,
	.params = dyn_params,
};
REGISTER(counter, percpu_batch_dynamic_ops);
