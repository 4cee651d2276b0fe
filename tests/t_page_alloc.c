/*
 * t_page_alloc.c - the model's page allocator (models/page_alloc.c):
 * per-CPU lists in front of a per-node zone under
 * zone->lock, on cases worked out by hand from mm/page_alloc.c:
 *   1. pcp->high from the kernel's rules: 6 * batch (v5.10) and
 *      zone_highsize() at a nominal 64 GB node (v5.14+: 24969 low
 *      watermark pages over the node's CPUs, at least 4 * batch);
 *   2. v5.10: N allocations with batch B take ceil(N/B) zone->lock holds
 *      of B pages each; frees drain B pages per hold once the list
 *      reaches high; an empty zone is not locked;
 *   3. v6.7: refills of B, 2B, then high - B pages (alloc_factor bounded
 *      by nr_pcp_alloc's max), drains of clamp(free_count, B, high - B);
 *      with the auto-tuned high each refill raises high by its batch;
 *   4. the recording counts every hold and page under the zone lock, and
 *      the simulator's program of it has the zone lock as its own lock
 *      with as many sections per operation as the recording's holds.
 */
#include <stdio.h>
#include <string.h>

#include "models/internal.h"
#include "models/memcg.h"
#include "models/record.h"
#include "predict/sim_memcg.h"
#include "tap.h"

#define NPAGES 4096

static struct model *setup(struct arena *a, const char *high, const char *scale,
			   unsigned batch)
{
	struct knobset *ks = knobset_new();
	struct model_params p;
	char err[256], b[16];
	struct model *m;

	snprintf(b, sizeof(b), "%u", batch);
	if (!knobset_set(ks, "pcp_high", high, err, sizeof(err)) ||
	    !knobset_set(ks, "pcp_scale", scale, err, sizeof(err)) ||
	    !knobset_set(ks, "pcp_batch", b, err, sizeof(err)) || model_params_from_knobs(&p, ks))
		die(1, "test: %s", err);
	knobset_free(ks);
	p.flush_ms = 0;
	m = model_setup(a, &p, lock_find("pthread_spin"), 1, NPAGES);
	/* the thresholds of a 224-CPU machine, as recordings have them */
	m->online_cpus = 224;
	model_pcp_set_high(m);
	return m;
}

static uint64_t zone_holds(const struct model_worker *mw)
{
	return model_worker_lock_stats(mw)[LC_ZONE].acquired;
}

static void test_high(void)
{
	struct arena *a = arena_create((size_t)64 << 20);
	struct model *m = setup(a, "6x_batch", "off", 63);

	is_int(m->workers[0]->pcp.high, 378, "v5.10: pcp->high = 6 * 63");
	arena_destroy(a);
	a = arena_create((size_t)64 << 20);
	m = setup(a, "wmark", "v6.7", 63);
	/* low watermark of a 64 GB node alone: min = int_sqrt(16 * 64 GiB
	 * in kB) / 4 = 8192 pages, low = 8192 + 16777216 * 10 / 10000 */
	is_int(m->workers[0]->pcp.high, 252, "wmark at 224 CPUs: 24969 / 224 = 111 < 4 * 63");
	m->online_cpus = 2;
	model_pcp_set_high(m);
	is_int(m->workers[0]->pcp.high, 12484, "wmark at 2 CPUs: 24969 / 2");
	arena_destroy(a);
}

static void test_v510(void)
{
	struct arena *a = arena_create((size_t)64 << 20);
	struct model *m = setup(a, "6x_batch", "off", 10);
	struct model_worker *mw = model_worker(m, 0);
	static struct mpage *pg[NPAGES];
	unsigned long free0 = m->zones[0].free_area[0].nr_free;
	unsigned n = 95, drains;

	is_int(mw->pcp.high, 60, "batch 10: high 60");
	for (unsigned i = 0; i < n; i++)
		pg[i] = model_page_alloc(mw);
	is_int((long)zone_holds(mw), 10, "95 allocations with batch 10: ceil(95/10) = 10 holds");
	is_int(mw->pcp.count, 5, "the pcp list keeps the 5 pages of the last refill");
	is_int((long)(free0 - m->zones[0].free_area[0].nr_free), 100,
	       "the zone gave 10 batches of 10 pages");
	/* frees from count 5: the list reaches high 60 at the 55th, then
	 * every 10 frees (each drain leaves 50) */
	for (unsigned i = 0; i < n; i++)
		model_page_free(mw, pg[i]);
	drains = 1 + (95 - 55) / 10;
	is_int((long)(zone_holds(mw) - 10), drains, "95 frees: drains at the 55th and every 10th after (%u)",
	       drains);
	is_int(mw->pcp.count, 100 - 10 * drains, "each drain returned batch pages");
	is_int((long)(free0 - m->zones[0].free_area[0].nr_free), mw->pcp.count,
	       "every page is in the zone or on the pcp list");
	/* all of the node's pages taken: an empty zone is not locked */
	{
		unsigned got = 0;
		uint64_t holds;

		while (got < NPAGES * 2 && model_page_alloc(mw))
			got++;
		holds = zone_holds(mw);
		is_int(m->zones[0].free_area[0].nr_free, 0, "the zone is empty after %u allocations", got);
		ok(!model_page_alloc(mw) && zone_holds(mw) == holds,
		   "an allocation from an empty zone fails without taking zone->lock");
	}
	arena_destroy(a);
}

static void test_v67(void)
{
	struct arena *a = arena_create((size_t)64 << 20);
	struct model *m = setup(a, "wmark", "v6.7", 63);
	struct model_worker *mw = model_worker(m, 0);
	static struct mpage *pg[NPAGES];
	unsigned n = 63 + 126 + 189 + 189;

	for (unsigned i = 0; i < n; i++)
		pg[i] = model_page_alloc(mw);
	is_int((long)zone_holds(mw), 4, "v6.7: refills of 63, 126, 189, 189 pages (max_nr_alloc 252 - 63)");
	is_int(mw->pcp.count, 0, "the 567 allocations used them all");
	for (unsigned i = 0; i < n; i++)
		model_page_free(mw, pg[i]);
	/* the list reaches 252 at the 252nd free (free_count 252: clamp to
	 * 189), again at the 441st */
	is_int((long)zone_holds(mw) - 4, 2, "567 frees: two drains of clamp(free_count, 63, 189)");
	is_int(mw->pcp.count, 567 - 2 * 189, "each drained 189 pages");
	arena_destroy(a);
}

/* v6.7's auto-tuned pcp->high: every refill raises it by its batch
 * (from high_min 252 towards high_max 16777216 / 8 / 224 = 9362), so a
 * run of frees as long as the run of allocations fits on the list. */
static void test_auto(void)
{
	struct arena *a = arena_create((size_t)64 << 20);
	struct model *m = setup(a, "auto", "v6.7", 63);
	struct model_worker *mw = model_worker(m, 0);
	static struct mpage *pg[4000];
	unsigned n = 63 + 126 + 252 + 504 + 1008 + 2016;

	is_int(mw->pcp.high_max, 9362, "high_max at 224 CPUs: 64 GB / 8 / 224");
	for (unsigned i = 0; i < n; i++)
		pg[i] = model_page_alloc(mw);
	is_int((long)zone_holds(mw), 6, "refills of 63 .. 2016 pages, each doubling");
	is_int(mw->pcp.high, 252 + 63 + 126 + 252 + 504 + 1008 + 2016,
	       "each refill raised pcp->high by its batch");
	for (unsigned i = 0; i < n; i++)
		model_page_free(mw, pg[i]);
	is_int((long)zone_holds(mw), 6, "the %u frees fit under the raised high: no drain", n);
	is_int(mw->pcp.count, n, "all on the pcp list");
	arena_destroy(a);
}

/* A recorded workload: its zone lock holds and pages, and the program's
 * zone lock sections against them. */
static void test_recorded(void)
{
	struct knobset *ks = knobset_new();
	struct memcg_sim_cfg cfg = { .cpus = 52, .line_size = 64 };
	static const struct memcg_costs zero;
	struct model_rec *r = xcalloc(1, sizeof(*r));
	struct sim_prog prog;
	char err[256];
	int z = -1;
	double sections = 0;

	if (!knobset_set(ks, "kernel", "v5.10", err, sizeof(err)) ||
	    model_params_from_knobs(&cfg.p, ks))
		die(1, "test: %s", err);
	knobset_free(ks);
	if (memcg_sim_record("page_fault2", &cfg.p, r))
		die(1, "test: no recording of page_fault2");
	for (unsigned i = 0; i < r->nlocks; i++)
		if (!strcmp(r->lines[r->lock_line[i]].obj, "zone"))
			z = (int)i;
	ok(z >= 0, "page_fault2 under v5.10 takes zone->lock");
	if (z < 0) {
		free(r);
		return;
	}
	is_int(r->pcp_high, 378, "recorded with pcp->high 378");
	/* every hold moves a batch: rmqueue_bulk and free_pcppages_bulk of
	 * 63 pages (the first refill of the window may be partial) */
	ok(r->local_in[z][RL_BUDDY_PAGE] >= 62 * r->holds[z] &&
	   r->local_in[z][RL_BUDDY_PAGE] <= 63 * r->holds[z],
	   "63 pages per zone->lock hold (%llu pages, %llu holds)",
	   (unsigned long long)r->local_in[z][RL_BUDDY_PAGE], (unsigned long long)r->holds[z]);
	/* a refilled page: two list operations and its struct page (cold);
	 * a drained one: one list operation, its, its buddy's and its
	 * order-1 buddy's struct page (at hand: unlinked, prefetched, or
	 * freed in the same batch with free memory) */
	ok(r->local_in[z][RL_LIST] + r->local_in[z][RL_PAGE_LINE] + r->local_in[z][RL_PAGE_HOT] ==
	   3 * r->local_in[z][RL_BUDDY_PAGE] + (r->local_in[z][RL_BUDDY_PAGE] - r->local_in[z][RL_PAGE_LINE]),
	   "three list operations or struct page lines per refilled page, four per drained one");
	ok(r->local_in[z][RL_PAGE_HOT] == 3 * (r->local_in[z][RL_BUDDY_PAGE] - r->local_in[z][RL_PAGE_LINE]),
	   "a cold struct page line per refilled page, three at hand per drained one");
	is_int((long)r->local[RL_PAGE_FAR], 0, "with free memory no line of a far page");
	ok(r->local_in[z][RL_PERCPU] > 0 && r->local_in[z][RL_PERCPU] <= r->local_in[z][RL_BUDDY_PAGE],
	   "NR_FREE_PAGES per-CPU updates under the zone lock: one per drained page, one per refill");
	if (memcg_sim_build_from(&prog, "page_fault2", r, &cfg, &zero))
		die(1, "test: no program");
	{
		double *w = sim_prog_weights(&prog);

		for (size_t i = 0; i < prog.nops; i++)
			if (prog.ops[i].kind == SOP_LOCK &&
			    !strcmp(prog.locks[prog.ops[i].target].name, "lock zone+1152"))
				sections += w[i];
		free(w);
	}
	ok(sections > 0 && sections - (double)r->holds[z] / (double)r->ops < 1e-9 &&
	   (double)r->holds[z] / (double)r->ops - sections < 1e-9,
	   "the program's zone lock sections per iteration equal the recording's holds "
	   "per operation (%.6f)", sections);
	{
		bool own = false;
		for (unsigned i = 0; i < prog.nlocks; i++)
			own |= !strcmp(prog.locks[i].name, "lock zone+1152");
		ok(own && prog.nlocks >= 2, "the zone lock is a lock of its own beside the LRU lock");
	}
	sim_prog_free(&prog);
	free(r);
}

/* A node that reclaim keeps full (lru_file_readtwice, v5.10): each page
 * reclaim drains to the buddy lists (recorded with the reclaim calls,
 * r->actor) reads the order-1 buddy of any page of the node
 * (RL_PAGE_FAR); its own and its buddy's lines stay at hand. */
static void test_full_node(void)
{
	struct knobset *ks = knobset_new();
	struct model_params p;
	struct model_rec *whole = xcalloc(1, sizeof(*whole)), *r;
	char err[256];
	int z = -1;

	if (!knobset_set(ks, "kernel", "v5.10", err, sizeof(err)) || model_params_from_knobs(&p, ks))
		die(1, "test: %s", err);
	knobset_free(ks);
	if (memcg_sim_record("lru_file_readtwice", &p, whole) || !whole->actor)
		die(1, "test: no recording of lru_file_readtwice with its reclaim calls");
	is_int((long)whole->local[RL_PAGE_FAR], 0, "the reader's own part frees nothing");
	r = whole->actor;
	for (unsigned i = 0; i < r->nlocks; i++)
		if (!strcmp(r->lines[r->lock_line[i]].obj, "zone"))
			z = (int)i;
	ok(z >= 0, "lru_file_readtwice's reclaim under v5.10 takes zone->lock");
	if (z >= 0) {
		uint64_t drained = r->local_in[z][RL_BUDDY_PAGE] - r->local_in[z][RL_PAGE_LINE];

		ok(drained > 0 && r->local_in[z][RL_PAGE_FAR] == drained,
		   "one far struct page line per page drained (%llu of %llu)",
		   (unsigned long long)r->local_in[z][RL_PAGE_FAR], (unsigned long long)drained);
		ok(r->local_in[z][RL_PAGE_HOT] == 2 * drained, "two at hand per page drained");
		is_int((long)(r->local[RL_PAGE_FAR] - r->local_in[z][RL_PAGE_FAR]), 0,
		       "no far line outside the zone lock");
	}
	free(whole->actor);
	free(whole);
}

int main(void)
{
	test_high();
	test_v510();
	test_v67();
	test_auto();
	test_recorded();
	test_full_node();
	done_testing();
}
