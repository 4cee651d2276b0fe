/*
 * vmstat - the zone/node vmstat scheme of mm/vmstat.c: an s8 per-CPU diff
 * per item, folded into the zone counter and the global counter when it
 * passes the per-CPU stat_threshold.
 *
 * Threshold (calculate_normal_threshold(), workers standing in for
 * online CPUs, zone size from the knob vmstat_mem_mb):
 *	mem = managed_bytes / 128 MiB
 *	t   = min(125, 2 * fls(nworkers) * (1 + fls(mem)))
 * __mod_zone_page_state(): x = delta + diff; if |x| > t, add x to the zone
 * and to vm_zone_stat (two atomics) and store 0, else store x.
 * __inc_zone_state()/__dec_zone_state() (delta +1/-1) overstep: on
 * passing t they fold v + t/2 (v - t/2) and leave -t/2 (+t/2) behind, so
 * a run of increments folds after t+1 adds and then every t+1+t/2.
 * The diff never leaves [-t, t]: read() (the zone counter) is off by at
 * most t * nworkers; t <= 125 is what lets the diff be an s8.
 */
#include "counters/pcpu.h"

#include <stddef.h>

#define VMSTAT_MAX_THRESHOLD 125

static const struct knob knob_vmstat_mem = {
	.name = "vmstat_mem_mb", .owner = "counter", .type = KNOB_INT,
	.def = "16384", .min = 1, .max = 1L << 30,
	.help = "vmstat: managed memory of the modelled zone in MiB, input of "
		"calculate_normal_threshold() (mm/vmstat.c)",
};
REGISTER(knob, knob_vmstat_mem);

struct vmstat_counter {
	struct pcpu_base b; /* b.count: zone->vm_stat[item]; b.thr: t */
	long global;        /* vm_zone_stat[item] */
	char pad_[PAD_SIZE - sizeof(long)];
};

/* struct per_cpu_zonestat reduced to one item.  It starts with the
 * struct pcpu_slot every slot of counters/pcpu.h has (pcpu_bind() writes
 * its worker; pcpu_folds() reads its folds); the s8 diff lives apart from
 * the slot's long delta, which stays 0. */
struct vmstat_pcp {
	struct pcpu_slot s;
	int8_t diff;           /* vm_stat_diff[item] */
	int8_t stat_threshold;
};
_Static_assert(offsetof(struct vmstat_pcp, s) == 0,
	       "pcpu_bind() and pcpu_folds() take the context as a struct pcpu_slot");

static int fls_long(unsigned long x)
{
	return x ? (int)(sizeof(x) * 8) - __builtin_clzl(x) : 0;
}

static void vmstat_params(struct counter_params *p, struct knobset *ks)
{
	p->mem_mb = knob_int(ks, &knob_vmstat_mem);
}

static int vmstat_init(void *c, const struct counter_params *p, struct arena *a)
{
	unsigned long mem = (unsigned long)(p->mem_mb ? p->mem_mb : 16384) / 128;
	long t = 2L * fls_long(p->nworkers) * (1 + fls_long(mem));

	if (t > VMSTAT_MAX_THRESHOLD)
		t = VMSTAT_MAX_THRESHOLD;
	return pcpu_base_init(c, p->nworkers, t, a);
}

static void vmstat_ctx_init(void *c, void *ctx, unsigned worker,
			    struct arena *a, struct lock_stat *stats)
{
	struct vmstat_pcp *pcp = ctx;

	pcp->stat_threshold = (int8_t)((struct pcpu_base *)c)->thr;
	pcpu_bind(c, ctx, worker, a, stats);
}

/* zone_page_state_add(): relaxed atomics, as atomic_long_add(). */
static void vmstat_fold(struct vmstat_counter *vc, struct vmstat_pcp *pcp, long x)
{
	__atomic_fetch_add(&vc->b.count, x, __ATOMIC_RELAXED);
	__atomic_fetch_add(&vc->global, x, __ATOMIC_RELAXED);
	__atomic_store_n(&pcp->s.folds, pcp->s.folds + 1, __ATOMIC_RELAXED);
}

static void vmstat_set(struct vmstat_pcp *pcp, long x)
{
	__atomic_store_n(&pcp->diff, (int8_t)x, __ATOMIC_RELAXED);
}

static void vmstat_add(void *c, void *ctx, long delta)
{
	struct vmstat_counter *vc = c;
	struct vmstat_pcp *pcp = ctx;
	long t = pcp->stat_threshold, x;

	if (delta == 1) {			/* __inc_zone_state */
		x = pcp->diff + 1;
		if (unlikely(x > t)) {
			vmstat_fold(vc, pcp, x + t / 2);
			x = -(t / 2);
		}
	} else if (delta == -1) {		/* __dec_zone_state */
		x = pcp->diff - 1;
		if (unlikely(x < -t)) {
			vmstat_fold(vc, pcp, x - t / 2);
			x = t / 2;
		}
	} else {				/* __mod_zone_page_state */
		x = pcp->diff + delta;
		if (unlikely(labs(x) > t)) {
			vmstat_fold(vc, pcp, x);
			x = 0;
		}
	}
	vmstat_set(pcp, x);
}

static long vmstat_read_exact(const void *c)
{
	const struct pcpu_base *b = c;
	long sum = __atomic_load_n(&b->count, __ATOMIC_RELAXED);

	for (unsigned i = 0; i < b->nworkers; i++) {
		const struct vmstat_pcp *pcp = b->slot[i];
		if (pcp)
			sum += __atomic_load_n(&pcp->diff, __ATOMIC_RELAXED);
	}
	return sum;
}

const struct counter_ops vmstat_ops = {
	.name = "vmstat",
	.description = "mm/vmstat.c zone counter: s8 per-worker diff, "
		       "calculate_normal_threshold(), inc/dec overstep t/2",
	.size = sizeof(struct vmstat_counter),
	.ctx_size = sizeof(struct vmstat_pcp),
	.flags = 0,
	.init = vmstat_init,
	.ctx_init = vmstat_ctx_init,
	.add = vmstat_add,
	.read = pcpu_read,
	.read_exact = vmstat_read_exact,
	.folds = pcpu_folds,
	.error_bound = pcpu_bound_thr_n,
	.threshold = pcpu_threshold,
	.params = vmstat_params,
};
REGISTER(counter, vmstat_ops);
