/*
 * sim_memcg_local.h - the workers' local work outside the lock sections,
 * by part (sim_memcg_local.c): the terms sim_memcg.c's builder adds into
 * one local-work op, summed and named (for `model predict --explain`) in
 * one place.
 */
#ifndef MEMSCALE_SIM_MEMCG_LOCAL_H
#define MEMSCALE_SIM_MEMCG_LOCAL_H

#include "models/record.h"
#include "predict/sim_types.h"

/* The terms of the local work for recording r, gathered once by the
 * builder: the unit prices it uses (entry_ns, fault_ns, the build's
 * kfault_ns, syscall_ns, page_ns, clear_ns, atomic_ns), the work given
 * per operation whole (extra_local_ns, of which body_ns the counted
 * system-call bodies; out_list the list operations outside every lock),
 * each recorded kind's work outside the locks (kind_ns), and, once
 * priced, the stats flushers' share (flush_ns) and the local work the
 * program got (total). */
struct memcg_local_terms {
	double entry, fault_ns, kfault_ns, syscall_ns, page_ns, clear_ns, atomic_ns;
	double extra_local_ns, body_ns, out_list, flush_ns, total;
	double kind_ns[RL_NR];
};
/* The local work per operation before the recorded kinds and the
 * flushers: extra_local_ns and r's entries, each count per operation
 * times its price, and out_list. */
double memcg_local_entries(const struct model_rec *r, const struct memcg_local_terms *t);
/* Fills lp with the non-zero parts of the same terms, named. */
void memcg_local_parts(struct sim_local_parts *lp, const struct model_rec *r,
		       const struct memcg_local_terms *t);

#endif
