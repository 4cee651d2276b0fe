/*
 * t_access.c - the access sets (models/access.c) against what the model
 * does: one worker runs page_fault2's operations (models/access.h shape)
 * and every byte of its mem_cgroup_per_node block that changes must lie
 * in a declared write element, and every declared write element (but the
 * lock word, which returns to its unlocked value) must change.  Reads
 * cannot be seen this way; their declarations follow the same functions.
 * The access set is the steady state the recorder sees, where the LRU
 * list is never empty: so one resident page stays on it here, and an add
 * to an empty list (head->prev) or the removal of its last page is never
 * part of what is checked.
 */
#include <stdio.h>
#include <string.h>

#include "core/arena.h"
#include "locks/lock.h"
#include "models/access.h"
#include "models/memcg.h"
#include "tap.h"

#define OPS 100

static void run_ops(struct model *m, struct model_worker *mw, struct mpage **pg,
		    bool release)
{
	struct mcg *memcg = m->leaves[0];

	if (!release) {
		for (unsigned i = 0; i < OPS; i++) {
			pg[i] = model_page_alloc(mw);
			pg[i]->flags = PG_SWAPBACKED;
			model_charge(mw, pg[i], memcg);
			model_mod_lruvec_state(mw, memcg, 0, NR_ANON_MAPPED, 1);
			model_lru_add(mw, pg[i]);
		}
		model_lru_add_drain(mw);
		return;
	}
	for (unsigned i = 0; i < OPS; i++) {
		model_mod_lruvec_state(mw, memcg, 0, NR_ANON_MAPPED, -1);
		model_release(mw, pg[i]);
	}
	model_release_drain(mw);
}

static void check(const char *kernel, const char *kconfig)
{
	struct knobset *ks = knobset_new();
	struct model_params p;
	struct arena *a = arena_create((size_t)64 << 20);
	struct model *m;
	struct model_worker *mw;
	struct pn_elem e[64];
	struct mpage *pg[OPS];
	char err[256], *pn, before[4096], after[4096];
	size_t n, outside = 0, size;
	bool seen[64] = { false };
	char label[128];

	snprintf(label, sizeof(label), "%s under %s", kernel, kconfig);
	if (!knobset_set(ks, "kernel", kernel, err, sizeof(err)) ||
	    !knobset_set(ks, "kconfig", kconfig, err, sizeof(err)) ||
	    model_params_from_knobs(&p, ks))
		die(1, "test: %s", err);
	knobset_free(ks);
	p.flush_ms = 0; /* no flusher writing lruvec_stats meanwhile */
	m = model_setup(a, &p, lock_find("pthread_spin"), 1, 2 * OPS + 64);
	mw = model_worker(m, 0);
	pn = m->leaves[0]->nodeinfo[0];
	size = m->lay.sizeof_pn;
	n = pn_access_set(&m->lay, &p, access_shape_find("page_fault2"), e, 64);
	{
		/* the resident page (see above): added, never released */
		struct mpage *resident = model_page_alloc(mw);
		resident->flags = PG_SWAPBACKED;
		model_charge(mw, resident, m->leaves[0]);
		model_lru_add(mw, resident);
		model_lru_add_drain(mw);
	}
	for (int phase = 0; phase < 2; phase++) {
		memcpy(before, pn, size);
		run_ops(m, mw, pg, phase == 1);
		memcpy(after, pn, size);
		for (size_t b = 0; b < size; b++) {
			bool declared = false;

			if (before[b] == after[b])
				continue;
			for (size_t i = 0; i < n; i++)
				if (e[i].write && b >= e[i].off && b < e[i].off + e[i].size) {
					declared = true;
					seen[i] = true;
				}
			if (!declared && outside++ < 3)
				diag("%s: byte %zu changed, in no declared write element", label, b);
		}
	}
	is_int(outside, 0, "%s: every byte page_fault2 changes in the block is a declared write element",
	       label);
	for (size_t i = 0; i < n; i++)
		if (e[i].write && strcmp(e[i].name, "lruvec.lru_lock"))
			ok(seen[i], "%s: the declared write %s@%zu happens", label, e[i].name,
			   e[i].off);
	arena_destroy(a);
}

int main(void)
{
	check("70a64b7919cb", "rhel-8.3");
	check("fefc6e6631ff", "rhel-8.3");
	check("v6.9", "ubuntu-6.8");
	check("v6.11", "rhel-8.3,MEMCG_V1=n");
	check("v5.11", "rhel-8.3");  /* v5 stats: lruvec_stat[] atomics in the block */
	check("v5.10", "none");      /* pgdat lock: no lock in the block */
	return done_testing();
}
