/*
 * sim_memcg_local.h - the workers' local work outside the lock sections,
 * by part (sim_memcg_local.c): the terms sim_memcg.c's builder priced into
 * one local-work op, named for `model predict --explain`.
 */
#ifndef MEMSCALE_SIM_MEMCG_LOCAL_H
#define MEMSCALE_SIM_MEMCG_LOCAL_H

#include "models/record.h"
#include "predict/sim_types.h"

/* The builder's prices and terms for recording r: the unit prices it
 * used (entry_ns, fault_ns, the build's kfault_ns, syscall_ns, page_ns,
 * clear_ns, atomic_ns), the counted bodies and the validation's measured
 * work per operation (body_ns, extra_ns), the list operations outside
 * every lock (out_list), each recorded kind's work outside the locks
 * (kind_ns), the stats flushers' share (flush_ns) and the local work the
 * program got (total), all per operation. */
struct memcg_local_terms {
	double entry, fault_ns, kfault_ns, syscall_ns, page_ns, clear_ns, atomic_ns;
	double body_ns, extra_ns, out_list, flush_ns, total;
	double kind_ns[RL_NR];
};
/* Fills lp with the non-zero parts: each count of r per operation times
 * its price, and the terms given whole. */
void memcg_local_parts(struct sim_local_parts *lp, const struct model_rec *r,
		       const struct memcg_local_terms *t);

#endif
