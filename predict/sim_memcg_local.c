/*
 * sim_memcg_local.c - the workers' local work outside the lock sections,
 * by part: each term sim_memcg.c's build_part adds into the one local-work
 * op of an iteration (kernel entry, fault handling, a build's extra per
 * fault, system calls and their counted bodies, page copies and clears,
 * private atomics, list operations and per-CPU work outside the locks,
 * the stats flushers' share): their sum before the kinds and the
 * flushers (memcg_local_entries, what the builder runs) and their names
 * for `model predict --explain`, from one set of terms.
 */
#include "predict/sim_memcg_local.h"

/* The outside-the-locks work of each recorded kind (RL_LIST is priced
 * apart as out_list; the page allocator's kinds occur under zone->lock
 * only, and cost nothing outside). */
static const char *const kind_name[RL_NR] = {
	[RL_PERCPU] = "per-CPU adds x percpu_ns",
	[RL_WALK_PERMEMCG] = "ancestor walk levels, parent_mem_cgroup()",
	[RL_WALK_CACHED] = "ancestor walk levels, statc->parent",
	[RL_FOLIO_ATOMIC] = "folio atomics x atomic_ns",
	[RL_RECLAIM_FOLIO] = "reclaimed folios x kreclaim_ns",
};

/* One part; a part of 0 ns is left out.  At most 10 terms of the
 * builder's own, 5 kinds and the flushers: SIM_MAX_LOCAL_PARTS. */
static void part(struct sim_local_parts *lp, const char *name, double ns)
{
	if (!(ns != 0) || !name || lp->n >= SIM_MAX_LOCAL_PARTS)
		return;
	lp->part[lp->n].name = name;
	lp->part[lp->n].ns = ns;
	lp->n++;
}

double memcg_local_entries(const struct model_rec *r, const struct memcg_local_terms *t)
{
	return t->extra_local_ns + r->faults * (t->fault_ns + t->entry + t->kfault_ns) +
	       r->syscalls * (t->syscall_ns + t->entry) + r->copies * t->page_ns +
	       r->clears * t->clear_ns + r->private_atomics * t->atomic_ns + t->out_list;
}

void memcg_local_parts(struct sim_local_parts *lp, const struct model_rec *r,
		       const struct memcg_local_terms *t)
{
	lp->n = 0;
	lp->total = t->total;
	part(lp, "kernel entry (faults + system calls) x entry_ns",
	     (r->faults + r->syscalls) * t->entry);
	part(lp, "faults x fault_ns", r->faults * t->fault_ns);
	part(lp, "faults x kfault_ns (the build's extra)", r->faults * t->kfault_ns);
	part(lp, "system calls x syscall_ns", r->syscalls * t->syscall_ns);
	part(lp, "system-call bodies (kbody x insn_ns)", t->body_ns);
	part(lp, "measured local work (validation)", t->extra_local_ns - t->body_ns);
	part(lp, "page copies x page_ns", r->copies * t->page_ns);
	part(lp, "page clears x clear_ns", r->clears * t->clear_ns);
	part(lp, "private atomics x atomic_ns", r->private_atomics * t->atomic_ns);
	part(lp, "list operations outside the locks", t->out_list);
	for (unsigned k = 0; k < RL_NR; k++)
		part(lp, kind_name[k], t->kind_ns[k]);
	part(lp, "stats flushers' share", t->flush_ns);
}
