/*
 * t_models.c - the memcg model: layout offsets per kernel version, the
 * invariants after 2-worker runs of every variant combination, equal
 * flushed totals across the stats paths, each invariant check failing
 * when its state is corrupted, and every workload's op counts against
 * the op table in its header; the LRU critical section's recorded folio
 * neighbours and atomics counted by hand, and the simulator's price of a
 * neighbour line two cores write in turn.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <unistd.h>

#include "counters/counter.h"
#include "harness/harness.h"
#include "workloads/model/model_workload.h"
#include "models/layout.h"
#include "models/internal.h"
#include "models/memcg.h"
#include "models/stats/stats.h"
#include "models/record.h"
#include "predict/predict.h"
#include "predict/sim_memcg.h"
#include "tap.h"

static struct kconfig kc(const char *s)
{
	struct kconfig c;
	char why[256];

	if (kconfig_parse(s, &c, why, sizeof(why)))
		die(1, "test: kconfig %s: %s", s, why);
	return c;
}

/* The compiler-derived offsets (models/layout_decls.inc) under LRU_GEN=n,
 * ZSWAP=y, five zones (the rhel-8.3 bundle) against the offsets worked out
 * by hand for that configuration; the v6.11 ones against a 6.18 kernel's
 * BTF (pahole -C mem_cgroup_per_node). */
static void test_layouts(void)
{
	struct pn_layout l;
	struct kconfig rhel = kc("rhel-8.3");

	pn_layout_resolve(&l, LAYOUT_V69, rhel, 4);
	is_int(l.sizeof_pn, 1488, "v6.9 sizeof 1488");
	is_int(l.off[PN_LISTS], 0, "v6.9 lruvec at 0");
	is_int(l.off[PN_LRU_LOCK], 80, "v6.9 lru_lock at 80");
	is_int(l.off[PN_PGDAT], 136, "v6.9 lruvec.pgdat at 136");
	is_int(l.off[PN_STATS_PERCPU], 152, "v6.9 lruvec_stats_percpu at 152");
	is_int(l.off[PN_LRUVEC_STATS], 160, "v6.9 lruvec_stats embedded at 160");
	is_int(l.size[PN_LRUVEC_STATS], 1056, "v6.9 lruvec_stats 1056 B");
	is_int(l.off[PN_LRU_ZONE_SIZE], 1216, "v6.9 lru_zone_size at 1216");
	is_int(l.off[PN_ITER], 1416, "v6.9 iter at 1416");
	is_int(l.off[PN_SHRINKER_INFO], 1432, "v6.9 shrinker_info at 1432");
	is_int(l.off[PN_TREE_NODE], 1440, "v6.9 tree_node at 1440");
	is_int(l.off[PN_MEMCG], 1480, "v6.9 memcg at 1480");

	pn_layout_resolve(&l, LAYOUT_V610, rhel, 4);
	is_int(l.sizeof_pn, 440, "v6.10 sizeof 440");
	is_int(l.off[PN_LRUVEC_STATS], 160, "v6.10 lruvec_stats pointer at 160");
	is_int(l.off[PN_LRU_ZONE_SIZE], 168, "v6.10 lru_zone_size at 168");
	is_int(l.off[PN_LRU_ZONE_SIZE] + (l.zone_normal * NR_LRU + LRU_INACTIVE_ANON) * 8, 248,
	       "v6.10 lru_zone_size[NORMAL][INACTIVE_ANON] at 248");
	is_int(l.off[PN_ITER], 368, "v6.10 iter at 368");
	is_int(l.off[PN_SHRINKER_INFO], 384, "v6.10 shrinker_info at 384");
	is_int(l.off[PN_TREE_NODE], 392, "v6.10 tree_node at 392");
	is_int(l.off[PN_USAGE_IN_EXCESS], 416, "v6.10 usage_in_excess at 416");
	is_int(l.off[PN_ON_TREE], 424, "v6.10 on_tree at 424");
	is_int(l.off[PN_MEMCG], 432, "v6.10 memcg at 432");

	pn_layout_resolve(&l, LAYOUT_FIXED, rhel, 4);
	is_int(l.sizeof_pn, 440, "fixed sizeof 440");
	is_int(l.off[PN_MEMCG], 0, "fixed memcg at 0");
	is_int(l.off[PN_STATS_PERCPU], 8, "fixed lruvec_stats_percpu at 8");
	is_int(l.off[PN_LRUVEC_STATS], 16, "fixed lruvec_stats at 16");
	is_int(l.off[PN_SHRINKER_INFO], 24, "fixed shrinker_info at 24");
	is_int(l.off[PN_TREE_NODE], 32, "fixed tree_node at 32");
	is_int(l.off[PN_USAGE_IN_EXCESS], 56, "fixed usage_in_excess at 56");
	is_int(l.off[PN_ON_TREE], 64, "fixed on_tree at 64");
	is_int(l.off[PN_LISTS], 72, "fixed lruvec at 72");
	is_int(l.off[PN_LRU_LOCK], 152, "fixed lru_lock at 72+80");
	is_int(l.off[PN_LRU_ZONE_SIZE], 224, "fixed lru_zone_size at 224");
	is_int(l.off[PN_ITER], 424, "fixed iter at 424");

	pn_layout_resolve(&l, LAYOUT_FIXED_PADDED, rhel, 4);
	is_int(l.off[PN_LISTS], 72, "fixed_padded, MEMCG_V1=y: lruvec at 72 (6.18 BTF)");
	is_int(l.off[PN_PAD2], 256, "fixed_padded, MEMCG_V1=y: _pad2_ at 256 (6.18 BTF)");
	is_int(l.off[PN_LRU_ZONE_SIZE], 256, "fixed_padded: lru_zone_size at 256 (6.18 BTF)");
	is_int(l.off[PN_ITER], 456, "fixed_padded: iter at 456 (6.18 BTF)");
	is_int(l.sizeof_pn, 512, "fixed_padded: sizeof 512 (6.18 BTF)");
	pn_layout_resolve(&l, LAYOUT_FIXED_PADDED, kc("rhel-8.3,MEMCG_V1=n"), 4);
	is_int(l.off[PN_LISTS], 64, "fixed_padded, MEMCG_V1=n: lruvec starts line 1 (_pad1_)");
	is_int(l.sizeof_pn % 64, 0, "fixed_padded size is whole lines");
	ok(l.off[PN_MEMCG] / 64 != l.off[PN_LISTS] / 64,
	   "fixed_padded: memcg and lists on different lines");

	pn_layout_resolve(&l, LAYOUT_V610, rhel, 8);
	ok(!l.lock_grew, "an 8-byte lock fits the kernel's slot (padding before anon_cost)");
	is_int(l.off[PN_MEMCG], 432, "v6.10 memcg stays at 432 with an 8-byte lock");

	pn_layout_resolve(&l, LAYOUT_V610, rhel, 40);
	ok(l.lock_grew, "a 40-byte lock is flagged as growing the layout");
	is_int(l.off[PN_LRU_LOCK], 80, "grown lock keeps the kernel offset");
	is_int(l.off[PN_COSTS], 120, "fields after a grown lock shift");
	is_int(l.off[PN_MEMCG], 432 + 32, "v6.10 memcg shifts by the extra 32 B");

	/* options that move fields */
	pn_layout_resolve(&l, LAYOUT_V610, kc("rhel-8.3,ZONE_DMA=n"), 4);
	is_int(l.zone_normal, 1, "ZONE_DMA=n: ZONE_NORMAL is zone 1");
	is_int(l.size[PN_LRU_ZONE_SIZE], 4 * 5 * 8, "ZONE_DMA=n: four zones");
	pn_layout_resolve(&l, LAYOUT_V610, kc("rhel-8.3,ZSWAP=n"), 4);
	is_int(l.off[PN_STATS_PERCPU], 144, "ZSWAP=n: lruvec is 144 B, the pointer at 144");
	pn_layout_resolve(&l, LAYOUT_V610, kc("rhel-8.3,LRU_GEN=y"), 4);
	ok(l.present[PN_LRUGEN] && l.off[PN_PGDAT] > l.off[PN_LRUGEN] &&
	   !l.present[PN_MM_STATE], "LRU_GEN=y: lrugen before pgdat, no mm_state");
	pn_layout_resolve(&l, LAYOUT_V610, kc("rhel-8.3,LRU_GEN=y,LRU_GEN_WALKS_MMU=y"), 4);
	ok(l.present[PN_MM_STATE], "LRU_GEN_WALKS_MMU=y: mm_state present");
	pn_layout_resolve(&l, LAYOUT_V5_10, rhel, 4);
	ok(!l.present[PN_LRU_LOCK] && l.stats_embedded, "v5.10: no lru_lock in lruvec, stat atomics inside");
	pn_layout_resolve(&l, LAYOUT_V5_11, rhel, 4);
	is_int(l.off[PN_LRU_LOCK], 80, "v5.11: lru_lock after lists[]");
}

/* The lock and the pointers really live at the layout's offsets. */
static void test_lock_in_block(void)
{
	for (int id = 0; id < LAYOUT_NR_DECLARED; id++)
		for (int v = 0; v < 2; v++) {
			struct arena *a = arena_create((size_t)64 << 20);
			struct model_params p;
			struct model *m;
			struct mcg *leaf;
			char *pn;

			model_params_default(&p);
			p.layout = (enum pn_layout_id)id;
			p.lru_lock = v ? LRU_LOCK_LRUVEC : LRU_LOCK_PGDAT;
			if (v && (id == LAYOUT_V5_3 || id == LAYOUT_V5_10)) {
				arena_destroy(a);
				continue; /* no lru_lock in that lruvec */
			}
			m = model_setup(a, &p, lock_find("pthread_spin"), 2, 8);
			leaf = m->leaves[0];
			pn = leaf->nodeinfo[0];
			ok((uintptr_t)pn % 64 == 0 && pn_memcg(m, pn) == leaf &&
			   pn_pgdat(m, pn) == &m->nodes[0] &&
			   pn_stats_percpu(m, pn) != NULL &&
			   (char *)lru_lock_of(m, leaf, 0).lock ==
				   (v ? pn + m->lay.off[PN_LRU_LOCK] : m->nodes[0].lru_lock),
			   "%s lru_lock=%s: block 64 B aligned, pointers and lock at their offsets",
			   pn_layout_names[id], v ? "lruvec" : "pgdat");
			arena_destroy(a);
		}
}

/* ---- every variant combination, 2 workers, through the harness ---- */

static int run_wl(const char *wl, const char *lock, enum run_mode mode,
		  unsigned nworkers, const char *const *sets, struct result *res)
{
	struct harness_opts o;
	struct knobset *ks = knobset_new();
	int st;

	for (; sets && *sets; sets++)
		knobset_set_arg(ks, *sets);
	harness_defaults(&o);
	o.wl = workload_find(wl);
	o.lock = lock_find(lock);
	o.counter = counter_find("percpu_batch");
	o.knobs = ks;
	o.seconds = 0.04;
	o.sample_ms = 20;
	o.warmup = 0;
	o.mode = mode;
	o.aff = AFF_NONE;
	o.arena_size = (size_t)1 << 30;
	st = harness_run_one(&o, nworkers, 0, res);
	knobset_free(ks);
	return st;
}

static void test_combinations(void)
{
	static const char *const layouts[] = { "v6.9", "v6.10", "fixed", "fixed_padded" };
	const struct stats_design **stats;
	size_t nstats = stats_design_all(&stats);
	static const char *const lru_locks[] = { "pgdat", "lruvec" };
	unsigned failed = 0, runs = 0, k = 0;

	for (unsigned a = 0; a < ARRAY_SIZE(layouts); a++)
		for (unsigned b = 0; b < nstats; b++)
			for (unsigned c = 0; c < ARRAY_SIZE(lru_locks); c++, k++) {
				char s[8][64];
				const char *sets[9];
				struct result res;
				int st;

				snprintf(s[0], 64, "layout=%s", layouts[a]);
				snprintf(s[1], 64, "stats=%s", stats[b]->name);
				snprintf(s[2], 64, "lru_lock=%s", lru_locks[c]);
				/* vary the rest so every value meets every variant */
				snprintf(s[3], 64, "containers=%u", 1 + k % 3);
				snprintf(s[4], 64, "nodes=%u", 1 + k % 2);
				snprintf(s[5], 64, "charge_batch=%s", k % 2 ? "32" : "64");
				snprintf(s[6], 64, "lru_batch=%s", k % 4 < 2 ? "15" : "31");
				/* the periodic flusher is read by the designs listing it (the
				 * v5.10 fold does not read its period: refused) */
				snprintf(s[7], 64, "flush_ms=%u", k % 3 ? 1 : 0);
				for (unsigned i = 0; i < 8; i++)
					sets[i] = s[i];
				sets[stats_design_reads(stats[b], "flush_ms") ? 8 : 7] = NULL;
				st = run_wl(k % 2 ? "lru_file_readtwice" : "page_fault2",
					    k % 5 ? "qspinlock" : "pthread_mutex",
					    k % 7 ? MODE_THREADS : MODE_PROCESSES, 2, sets, &res);
				runs++;
				if (st) {
					failed++;
					diag("failed: %s %s %s %s %s", s[0], s[1], s[2], s[3], s[4]);
				}
				result_free(&res);
			}
	is_int(failed, 0, "invariants hold after 2-worker runs of all %u layout x stats x lru_lock combinations",
	       runs);
}

/* ---- same op sequence, same flushed totals, whatever the stats path ---- */

static void sequence(struct model *m)
{
	struct model_worker *mw = model_worker(m, 0);
	struct mpage *held[512];
	unsigned n = 0;

	for (unsigned round = 0; round < 7; round++) {
		for (unsigned i = 0; i < 37 + round * 29; i++) {
			struct mpage *pg = model_page_alloc(mw);
			struct mcg *memcg = m->leaves[(i / 5) % m->p.containers];

			pg->flags = PG_SWAPBACKED * (i % 3 != 0);
			model_count_event(mw, memcg, EV_PGFAULT, 1);
			model_charge(mw, pg, memcg);
			model_mod_lruvec_state(mw, memcg, 0, NR_ANON_MAPPED, 1);
			model_lru_add(mw, pg);
			held[n++] = pg;
			if (i % 4 == 0)
				model_activate(mw, pg);
			model_tick(mw);
		}
		model_lru_add_drain(mw);
		for (unsigned i = 0; i < n; i += 2) {
			model_mod_lruvec_state(mw, held[i]->memcg, 0, NR_ANON_MAPPED, -1);
			model_release(mw, held[i]);
		}
		model_release_drain(mw);
		for (unsigned i = 1, j = 0; i < n; i += 2)
			held[j++] = held[i];
		n /= 2;
		if (round == 3)
			model_flush(mw); /* a mid-sequence flush must not change totals */
	}
}

static void test_stats_paths_agree(void)
{
	long want[NR_STAT_ITEMS + NR_EVENTS][4];
	bool all_same = true;

	const struct stats_design **d;
	size_t nd = stats_design_all(&d);

	for (size_t v = 0; v < nd; v++) {
		struct arena *a = arena_create((size_t)256 << 20);
		struct model_params p;
		struct model *m;
		char msg[256];
		int st;

		model_params_default(&p);
		p.stats = d[v];
		p.containers = 3;
		p.depth = 4;
		p.flush_ms = 0;
		m = model_setup(a, &p, lock_find("qspinlock"), 1, 600);
		sequence(m);
		st = model_check(m, msg, sizeof(msg));
		is_int(st, 0, "stats=%s: invariants after the sequence %s", d[v]->name, msg);
		for (unsigned k = 0; k < NR_STAT_ITEMS + NR_EVENTS; k++)
			for (unsigned c = 0; c < 4; c++) {
				const struct mcg *memcg = c < 3 ? m->leaves[c] : &m->memcgs[0];
				long got = k < NR_STAT_ITEMS
					? model_memcg_stat(m, memcg, (enum stat_item)k)
					: model_memcg_event(m, memcg, (enum event_item)(k - NR_STAT_ITEMS));
				if (v == 0)
					want[k][c] = got;
				else if (got != want[k][c])
					all_same = false;
			}
		arena_destroy(a);
	}
	ok(want[NR_ANON_MAPPED][3] > 0 && want[NR_STAT_ITEMS + EV_PGACTIVATE][3] > 0,
	   "the sequence moves anon-mapped and activations (root: %ld, %ld)",
	   want[NR_ANON_MAPPED][3], want[NR_STAT_ITEMS + EV_PGACTIVATE][3]);
	ok(all_same, "all %zu stats designs give identical flushed totals", nd);
}

/* ---- each invariant can fail ---- */

static void test_corruption(void)
{
	static const char *const names[CORRUPT_NR] = { "LRU list", "page_counter usage",
						       "flushed stats",
						       "LRU list cycle (bounded walk)",
						       "LRU list wild pointer" };
	const struct workload *wl = workload_find("page_fault2");
	struct mwl_counts got, want;
	bool has;

	for (int c = 0; c < CORRUPT_NR; c++) {
		struct knobset *ks = knobset_new();
		int st;

		mwl_test_corruption = c;
		st = mwl_drive(wl, ks, lock_find("qspinlock"), 1, 300, &got, &want, &has);
		mwl_test_corruption = -1;
		is_int(st, 1, "corrupted %s is caught", names[c]);
		knobset_free(ks);
	}
	{
		/* A lock without mutual exclusion is refused before anything runs. */
		struct knobset *ks = knobset_new();
		is_int(mwl_drive(wl, ks, lock_find("none"), 2, 300, &got, &want, &has), 2,
		       "a model workload refuses the lock 'none' (exit 2)");
		knobset_free(ks);
	}
	{
		struct knobset *ks = knobset_new();
		is_int(mwl_drive(wl, ks, lock_find("qspinlock"), 1, 300, &got, &want, &has), 0,
		       "the same run uncorrupted passes");
		knobset_free(ks);
	}
}

/* ---- op tables ---- */

static bool close_to(double a, double b) { return fabs(a - b) <= 1e-9 * (1 + fabs(b)); }

static void test_op_tables(void)
{
	static const char *const wls[] = { "page_fault1", "page_fault2", "page_fault3",
		"fallocate1", "fallocate2", "tlb_flush2", "malloc1", "lru_shm",
		"aim9_page_test", "aim9_brk_test" };
	static const char *const batches[] = { "15", "31" };

	for (unsigned i = 0; i < ARRAY_SIZE(wls); i++)
		for (unsigned b = 0; b < 2; b++) {
			struct knobset *ks = knobset_new();
			struct mwl_counts g, w;
			bool has = false;
			char set[32];
			int st;

			snprintf(set, sizeof(set), "lru_batch=%s", batches[b]);
			knobset_set_arg(ks, set);
			/* whole munmap/truncate cycles for every table */
			st = mwl_drive(workload_find(wls[i]), ks, lock_find("qspinlock"), 1,
				       !strncmp(wls[i], "aim9", 4) ? 3 :
				       !strncmp(wls[i], "page_fault", 10) ||
				       !strcmp(wls[i], "lru_shm") ? MWL_WIS_PAGES : 512,
				       &g, &w, &has);
			ok(st == 0 && has &&
			   close_to(g.charges, w.charges) && close_to(g.uncharges, w.uncharges) &&
			   close_to(g.lru_add, w.lru_add) && close_to(g.lru_del, w.lru_del) &&
			   close_to(g.stat_updates, w.stat_updates) &&
			   close_to(g.events, w.events) && close_to(g.lock_acq, w.lock_acq),
			   "%s %s: op counts match the header's table", wls[i], set);
			if (!close_to(g.events, w.events) || !close_to(g.lock_acq, w.lock_acq) ||
			    !close_to(g.stat_updates, w.stat_updates) ||
			    !close_to(g.uncharges, w.uncharges))
				diag("got ch %g unch %g add %g del %g st %g ev %g lk %g; want %g %g %g %g %g %g %g",
				     g.charges, g.uncharges, g.lru_add, g.lru_del, g.stat_updates,
				     g.events, g.lock_acq, w.charges, w.uncharges, w.lru_add,
				     w.lru_del, w.stat_updates, w.events, w.lock_acq);
			knobset_free(ks);
		}
}

/* ---- fold frequencies against the kernel's arithmetic ----
 * v5.10 __mod_memcg_state()/__mod_memcg_lruvec_state() fold a per-CPU
 * delta x into the atomics once |x| > B and restart from 0 (T@6168d0da2b47
 * mm/memcontrol.c).  A ±1 item that goes up R times (faults) and down R
 * times (munmap) from 0 folds floor(R/(B+1)) times each way and ends at 0,
 * in the memcg part and again in the lruvec part; a monotonic event folds
 * floor(N/(B+1)) times in N increments.  will-it-scale maps R = 32768
 * pages per task. */
static void test_fold_counts(void)
{
	static const unsigned batches[] = { 32, 512 };
	static const char *const wls[] = { "page_fault1", "page_fault2" };
	const unsigned R = MWL_WIS_PAGES, cycles = 2, N = cycles * R;

	for (unsigned w = 0; w < ARRAY_SIZE(wls); w++)
		for (unsigned b = 0; b < ARRAY_SIZE(batches); b++) {
			struct knobset *ks = knobset_new();
			struct mwl_counts g, want;
			bool has;
			char set[40];
			double per_m = 1e6 / N, B1 = batches[b] + 1;
			double item = 2.0 * floor(R / B1) * cycles * per_m;
			double ev = floor(N / B1) * per_m;

			knobset_set_arg(ks, "stats=v5.10_atomic");
			snprintf(set, sizeof(set), "stats_batch=%u", batches[b]);
			knobset_set_arg(ks, set);
			is_int(mwl_drive(workload_find(wls[w]), ks, lock_find("qspinlock"), 1,
					 N, &g, &want, &has), 0, "%s %s runs", wls[w], set);
			ok(close_to(g.folds_memcg[NR_ANON_MAPPED] * 1e6, item) &&
			   close_to(g.folds_lruvec[NR_ANON_MAPPED] * 1e6, item),
			   "%s %s: NR_ANON_MAPPED folds %.1f (memcg) and %.1f (lruvec) "
			   "per million ops, kernel %.1f", wls[w], set,
			   g.folds_memcg[NR_ANON_MAPPED] * 1e6,
			   g.folds_lruvec[NR_ANON_MAPPED] * 1e6, item);
			ok(close_to(g.folds_memcg[NR_STAT_ITEMS + EV_PGFAULT] * 1e6, ev),
			   "%s %s: PGFAULT folds %.1f per million ops, kernel %.1f",
			   wls[w], set, g.folds_memcg[NR_STAT_ITEMS + EV_PGFAULT] * 1e6, ev);
			if (batches[b] == 512)
				ok(item > 3000, "batch 512 folds a ±1 item (%.0f per million; "
				   "a 256-page region never did)", item);
			knobset_free(ks);
		}
}

/* ---- kernel-sized stats memory, subtree flushes ---- */
static void test_stats_memory(void)
{
	struct arena *a = arena_create((size_t)64 << 20);
	struct model_params p;
	struct model *m;
	struct mcg *l0, *l1;
	long n;

	ok(offsetof(struct mcg_pcpu, stats_updates_tail) == 1216,
	   "memcg_vmstats_percpu is 1216 B before 8d59d2214c's trailing counter "
	   "(9cee7e8ef3e3's size), got %zu", offsetof(struct mcg_pcpu, stats_updates_tail));
	ok(offsetof(struct mcg_pcpu, state) == 24 &&
	   offsetof(struct mcg_pcpu, stats_updates_tail) / 64 != 0,
	   "the cached walk fields share line 0; 8d59d2214c's counter is on another line");
	{
		struct mc_offsets o;

		mc_offsets_of(&o, "isolated");
		ok(o.css_parent / 64 != 0 && o.vmstats / 64 != o.css_parent / 64 &&
		   o.vmstats_percpu / 64 != o.vmstats / 64 && o.memory / 64 != o.css_parent / 64 &&
		   (o.memory + PC_MAX_BYTES) <= o.swap && o.swap + PC_MAX_BYTES <= o.vmstats,
		   "mc_layout isolated: css.cgroup, css.parent, memory, swap, vmstats and "
		   "vmstats_percpu on lines of their own");
		mc_offsets_of(&o, "v6.8");
		ok(o.css_parent == 192 && o.memory == 256 && o.swap == 448 && !o.parent_via_counter,
		   "mc_layout v6.8: css.parent 192 (L3), memory 256 (L4, internode-aligned), "
		   "swap 448; parent_mem_cgroup() by css.parent (got %zu %zu %zu)",
		   o.css_parent, o.memory, o.swap);
		mc_offsets_of(&o, "4df910620beb");
		ok(o.css_parent == 192 && o.memory == 208 && o.swap == 320 && o.parent_via_counter,
		   "mc_layout 4df910620beb: memory.usage at 208 on css.parent's line L3; "
		   "parent_mem_cgroup() by memory.parent (got %zu %zu %zu)",
		   o.css_parent, o.memory, o.swap);
	}
	model_params_default(&p);
	p.depth = 2;
	p.containers = 2;
	m = model_setup(a, &p, lock_find("qspinlock"), 2, 8);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	is_int(m->online_cpus, n > 2 ? n : 2, "flush thresholds use the online CPUs");
	l0 = m->leaves[0];
	l1 = m->leaves[1];
	{
		char *s0 = (char *)mcg_statc(m, l0, 0), *s1 = (char *)mcg_statc(m, l0, 1);
		ok(!(s0 >= (char *)l0 && s0 < (char *)(l0 + 1)) && s1 != s0 &&
		   (char *)mcg_statc(m, l1, 0) - s0 == (char *)mcg_statc(m, l1, 1) - s1,
		   "per-CPU stats live in per-CPU chunks, apart from the memcg, at one "
		   "offset per CPU");
	}
	model_mod_lruvec_state(model_worker(m, 0), l0, 0, NR_SHMEM, 5);
	model_mod_lruvec_state(model_worker(m, 1), l1, 0, NR_SHMEM, 7);
	model_flush_subtree(model_worker(m, 0), l0);
	ok(model_memcg_stat(m, l0, NR_SHMEM) == 5 && model_memcg_stat(m, l1, NR_SHMEM) == 0,
	   "a subtree flush folds its own subtree only (leaf 0: %ld, leaf 1: %ld)",
	   model_memcg_stat(m, l0, NR_SHMEM), model_memcg_stat(m, l1, NR_SHMEM));
	model_flush(model_worker(m, 1));
	ok(model_memcg_stat(m, l1, NR_SHMEM) == 7 && model_memcg_stat(m, &m->memcgs[0],
								     NR_SHMEM) == 12,
	   "the root flush folds the rest (root %ld)", model_memcg_stat(m, &m->memcgs[0],
									 NR_SHMEM));
	model_mod_lruvec_state(model_worker(m, 1), l1, 0, NR_SHMEM, 1);
	ok(MODEL_PCPU(m, l1->rstat_cpu, 1)->updated_next == mcg_parent(m, l1) &&
	   MODEL_PCPU(m, l1->rstat_cpu, 0)->updated_next == NULL,
	   "cgroup_rstat_updated links the memcg on the updating CPU only");
	arena_destroy(a);
}

/* lru_gen=on (models/lru_gen.c): the sequence's folios live on the
 * generation lists, the classic lists and lru_zone_size stay untouched,
 * the invariants hold, and a folio unlinked from a generation list
 * behind nr_pages' back is caught. */
static void test_lru_gen(void)
{
	struct arena *a = arena_create((size_t)256 << 20);
	struct model_params p;
	struct model *m;
	char msg[256], why[128];
	long classic = 0, gen_pages = 0;
	int st;
	char *pn;
	struct list_head *victim = NULL;

	model_params_default(&p);
	p.layout = LAYOUT_V69;
	if (kconfig_parse("ubuntu-6.8", &p.kconfig, why, sizeof(why)))
		die(1, "kconfig ubuntu-6.8: %s", why);
	p.lru_gen = true;
	p.containers = 2;
	p.flush_ms = 0;
	m = model_setup(a, &p, lock_find("qspinlock"), 1, 600);
	sequence(m);
	st = model_check(m, msg, sizeof(msg));
	is_int(st, 0, "lru_gen=on: invariants after the sequence %s", msg);
	for (unsigned c = 0; c < m->p.containers; c++) {
		pn = m->leaves[c]->nodeinfo[0];
		for (unsigned l = 0; l < NR_LRU; l++)
			classic += !list_empty(pn_list(m, pn, l)) + (*pn_zone_size(m, pn, l) != 0);
		for (unsigned g = 0; g < PN_MAX_NR_GENS; g++)
			for (unsigned t = 0; t < 2; t++) {
				struct list_head *h = (struct list_head *)
					(pn + pn_gen_list_off(&m->lay, g, t, m->lay.zone_normal));
				gen_pages += *(long *)(pn + pn_gen_size_off(&m->lay, g, t, m->lay.zone_normal));
				if (!list_empty(h))
					victim = h;
			}
	}
	ok(classic == 0 && gen_pages > 0, "lru_gen=on: no classic list or lru_zone_size used, "
	   "%ld folios on generation lists", gen_pages);
	if (victim)
		list_del(victim->next);
	st = model_check(m, msg, sizeof(msg));
	ok(victim && st != 0 && strstr(msg, "MGLRU"), "a folio unlinked behind nr_pages is caught: %s", msg);
	arena_destroy(a);
}

/* ---- the LRU critical section: folio neighbours and atomics ---- */

/* Recorded writes of line obj+off under lock lk (-1: none such line). */
static long rec_writes(const struct model_rec *r, const char *obj, size_t off, unsigned lk)
{
	for (unsigned l = 0; l < r->nlines; l++)
		if (!strcmp(r->lines[l].obj, obj) && r->lines[l].off == off)
			return (long)r->n[l][REC_WRITE][lk + 1];
	return 0;
}

/*
 * One worker adds 93 pages in three lru_add sections of 31 (runs R1, R2,
 * R3), then releases them in the order added, three sections again.  By
 * hand: list_add's old first folio is another run's only in the first
 * add of sections 2 and 3 (section 1 finds the list empty): 2 writes of
 * folio[L0]+0.  The list, head first, is R3 R2 R1; the release takes R1
 * from the tail: each folio's next is the head, its prev the next folio
 * of R1, but for R1's last whose prev is R2's first (another run), and
 * likewise R2's last: 2 writes of folio[L0]+128, none of +256.  Atomics
 * under the lock: 2 per add (folio_test_clear_unevictable,
 * folio_set_lru), 1 per delete but the first of a section (its
 * folio_ref_sub_and_test runs before the lock is taken): 186 + 90.
 */
static void test_folio_neighbours(void)
{
	struct arena *a = arena_create((size_t)256 << 20);
	struct model_rec *r = xcalloc(1, sizeof(*r));
	struct model_params p;
	struct model *m;
	struct model_worker *mw;
	struct mpage *pg[93];
	int lk = -1;

	model_params_default(&p);
	p.lru_batch = 31;
	p.containers = 1;
	p.nodes = 1;
	p.flush_ms = 0;
	p.lru_gen = false;
	m = model_setup(a, &p, lock_find("qspinlock"), 1, 600);
	mw = model_worker(m, 0);
	model_rec_clear(r);
	m->rec = r;
	for (unsigned i = 0; i < 93; i++) {
		pg[i] = model_page_alloc(mw);
		pg[i]->flags = PG_SWAPBACKED;
		model_charge(mw, pg[i], m->leaves[0]);
		model_lru_add(mw, pg[i]);
	}
	for (unsigned i = 0; i < r->nlocks; i++)
		if (!strncmp(r->lines[r->lock_line[i]].obj, "pn[", 3))
			lk = (int)i;
	ok(lk >= 0 && r->holds[lk] == 3, "three lru_add sections under the LRU lock");
	if (lk < 0)
		goto out;
	is_int(rec_writes(r, "folio[L0]", 0, (unsigned)lk), 2,
	       "list_add: another run's first folio in sections 2 and 3");
	is_int((long)r->local_in[lk][RL_FOLIO_ATOMIC], 186, "two flag atomics per add");
	for (unsigned i = 0; i < 93; i++)
		model_release(mw, pg[i]);
	ok(r->holds[lk] == 6, "three release sections");
	is_int(rec_writes(r, "folio[L0]", 128, (unsigned)lk), 2,
	       "list_del: another run's prev folio at R1's and R2's end");
	is_int(rec_writes(r, "folio[L0]", 256, (unsigned)lk), 0, "list_del: next is the head");
	is_int((long)r->local_in[lk][RL_FOLIO_ATOMIC], 186 + 90,
	       "a refcount atomic per delete under the lock, the first outside");
	is_int((long)(r->local[RL_FOLIO_ATOMIC] - r->local_in[lk][RL_FOLIO_ATOMIC]), 0,
	       "no folio atomic recorded outside the lock");
out:
	m->rec = NULL;
	free(r->pg_run);
	free(r);
	arena_destroy(a);
}

/*
 * The simulator's price of such a neighbour: one LRU lock section per
 * iteration writing folio[L0]+0 once (a recording made by hand).  Two
 * cores that always want the lock take it in turn (a queue lock), so
 * each section finds the line last written by the other core: one
 * transfer per iteration.  One core: never.
 */
static void test_neighbour_transfer(void)
{
	struct model_rec *r = xcalloc(1, sizeof(*r));
	struct memcg_sim_cfg cfg = { .cpus = 2, .line_size = 64, .lock_kind = LOCK_MODEL_QUEUE };
	struct memcg_costs c = { .sim = { .xfer_ns = 50, .remote_factor = 1, .hit_ns = 1,
					  .atomic_ns = 5, .handoff_ns = 50 },
				 .list_ns = 4, .walk_step_ns = { NAN, NAN },
				 .l2_bytes = NAN, .dram_ns = NAN };
	int lock_l, folio_l;

	model_params_default(&cfg.p);
	cfg.p.containers = 1;
	cfg.p.nodes = 1;
	model_rec_clear(r);
	lock_l = model_rec_line_of(r, "pn[L0]", 64, RS_MEMCG_NODE);
	folio_l = model_rec_line_of(r, "folio[L0]", 0, RS_MEMCG_NODE);
	model_rec_lock_of(r, (unsigned)lock_l);
	r->ops = 1000;
	r->holds[0] = 1000;
	r->n[folio_l][REC_WRITE][1] = 1000;
	r->local[RL_LIST] = r->local_in[0][RL_LIST] = 1000;
	for (unsigned cores = 1; cores <= 2; cores++) {
		struct sim_prog prog;
		struct sim_params sp = { .ncores = cores, .nodes = 1, .containers = 1,
					 .iters_per_core = 20000, .warm_frac = 0.2, .seed = 1 };
		struct sim_result res;
		const char *err = NULL;
		unsigned line;

		cfg.cpus = cores;
		if (memcg_sim_build_from(&prog, "hand", r, &cfg, &c) ||
		    sim_run(&prog, &c.sim, &sp, &res, &err)) {
			ok(0, "%u core(s): program runs (%s)", cores, err ? err : "build");
			continue;
		}
		line = sim_line(&prog, "folio[L0]+0", SCOPE_MEMCG_NODE);
		if (cores == 1)
			ok(res.line_xfer_per_op[line] < 1e-9, "one core: the neighbour line stays (%.3f)",
			   res.line_xfer_per_op[line]);
		else
			ok(fabs(res.line_xfer_per_op[line] - 1) < 0.02,
			   "two cores in turn: one transfer of the neighbour line per add (%.3f)",
			   res.line_xfer_per_op[line]);
		sim_prog_free(&prog);
	}
	free(r);
}

/* The work of the first "  local X ns" step of sim_prog_dump after the
 * first line starting with `after` (NULL: from the top), NAN if none. */
static double local_after(const struct sim_prog *prog, const char *after)
{
	char *buf = NULL, *at;
	size_t len = 0;
	double ns = NAN;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NAN;
	sim_prog_dump(prog, f);
	fclose(f);
	at = after ? strstr(buf, after) : buf;
	if (at && (at = strstr(at, "\n  local ")))
		ns = strtod(at + strlen("\n  local "), NULL);
	free(buf);
	return ns;
}

/* The work printed in a program's first lock section. */
static double section_local(const struct sim_prog *prog)
{
	return local_after(prog, "\n  lock ");
}

/* The hand-made recordings' machine: one core, one container and node,
 * L1 hits free, no caches (so no line costs anything), a queue lock. */
static void hand_costs(struct memcg_costs *c, struct memcg_sim_cfg *cfg)
{
	*cfg = (struct memcg_sim_cfg){ .cpus = 1, .line_size = 64, .lock_kind = LOCK_MODEL_QUEUE };
	c->sim = (struct sim_costs){ .xfer_ns = 50, .remote_factor = 1, .hit_ns = 0,
				     .atomic_ns = 5, .handoff_ns = 50 };
	c->list_ns = 4;
	c->percpu_ns = 1;
	c->walk_step_ns[0] = c->walk_step_ns[1] = NAN;
	c->l2_bytes = c->dram_ns = NAN;
	model_params_default(&cfg->p);
	cfg->p.containers = 1;
	cfg->p.nodes = 1;
}

struct hold_case {
	enum kpath_era era;
	bool counted;
	double want;
	const char *what;
};

/* A recording made by hand: one lock at obj+off, one hold per operation
 * with per_hold[kind] of each kind inside it; one core, hit 0, no
 * caches, so no line costs anything.  Builds its program for each case
 * (the kernel path's counts of `counts`, zeroed where the case has none)
 * and checks its first lock section's work per hold. */
static void check_holds(const char *obj, unsigned off, enum rec_scope scope,
			const uint64_t per_hold[RL_NR], const struct memcg_costs *counts,
			const struct hold_case *cases, size_t n, const char *what)
{
	struct model_rec *r = xcalloc(1, sizeof(*r));
	struct memcg_sim_cfg cfg;
	struct memcg_costs c = *counts;
	int lock_l;

	hand_costs(&c, &cfg);
	model_rec_clear(r);
	lock_l = model_rec_line_of(r, obj, off, scope);
	model_rec_lock_of(r, (unsigned)lock_l);
	r->ops = 1000;
	r->holds[0] = 1000;
	for (unsigned k = 0; k < RL_NR; k++)
		r->local[k] = r->local_in[0][k] = per_hold[k] * r->ops;
	for (size_t i = 0; i < n; i++) {
		struct memcg_costs ci = c;
		struct sim_prog prog;
		double got;

		cfg.p.kpath = cases[i].era;
		if (!cases[i].counted) {
			memset(ci.kpath_ns, 0, sizeof(ci.kpath_ns));
			memset(ci.kzone_ns, 0, sizeof(ci.kzone_ns));
		}
		if (memcg_sim_build_from(&prog, "hand", r, &cfg, &ci)) {
			ok(0, "%s: program builds", cases[i].what);
			continue;
		}
		got = section_local(&prog);
		ok(fabs(got - cases[i].want) < 0.05, "%s, %s = %.1f ns (%.2f)", what,
		   cases[i].what, cases[i].want, got);
		sim_prog_free(&prog);
	}
	free(r);
}

/*
 * The kernel path's instructions in an LRU section (predict/kpath.h), by
 * hand: 3 list operations per hold, 2 of them reclaim's isolations: a
 * hold's work is 1 x kpath_ns + 2 x kpath_iso_ns of the side's era;
 * without a count, 3 x list_ns / 2; the per-CPU adds inside (4 per hold)
 * are the count's, priced only without it.
 */
static void test_kpath_section(void)
{
	static const struct hold_case cases[] = {
		{ KPATH_V6_12, true, 100 + 2 * 10, "v6.12: 1 x 100 + 2 x 10" },
		{ KPATH_V5_10, true, 200 + 2 * 20, "v5.10: 1 x 200 + 2 x 20" },
		{ KPATH_V6_12, false, 3 * 4 / 2.0 + 4 * 1, "no count: 3 x list_ns/2 + 4 per-CPU adds" },
	};
	const uint64_t per_hold[RL_NR] = { [RL_LIST] = 3, [RL_LIST_ISOLATE] = 2, [RL_PERCPU] = 4 };
	const struct memcg_costs counts = {
		.kpath_ns = { [KPATH_V5_10] = 200, [KPATH_V6_12] = 100 },
		.kpath_iso_ns = { [KPATH_V5_10] = 20, [KPATH_V6_12] = 10 } };

	check_holds("pn[L0]", 64, RS_MEMCG_NODE, per_hold, &counts, cases,
		    sizeof(cases) / sizeof(cases[0]), "a hold's kernel work");
}

/*
 * The kernel path's instructions in a zone->lock section, by hand: per
 * hold rmqueue_bulk takes 3 pages (3 struct page lines recorded) and
 * free_pcppages_bulk returns 2 (5 pages moved), 8 list operations and
 * one NR_FREE_PAGES per-CPU add; the page lines cost nothing here: a
 * hold's work is 3 x the era's per page taken + 2 x its per page
 * returned; without a count, 8 x list_ns / 2 + the per-CPU add.
 */
static void test_kzone_section(void)
{
	static const struct hold_case cases[] = {
		{ KPATH_V6_12, true, 3 * 30 + 2 * 40, "v6.12: 3 x 30 + 2 x 40" },
		{ KPATH_V5_10, true, 3 * 60 + 2 * 80, "v5.10: 3 x 60 + 2 x 80" },
		{ KPATH_V6_12, false, 8 * 4 / 2.0 + 1, "no count: 8 x list_ns/2 + 1 per-CPU add" },
	};
	const uint64_t per_hold[RL_NR] = { [RL_PAGE_LINE] = 3, [RL_BUDDY_PAGE] = 5, [RL_LIST] = 8,
					   [RL_PERCPU] = 1 };
	const struct memcg_costs counts = {
		.kzone_ns = { [KPATH_V5_10] = { 60, 80 }, [KPATH_V6_12] = { 30, 40 } } };

	check_holds("zone", 1152, RS_NODE, per_hold, &counts, cases,
		    sizeof(cases) / sizeof(cases[0]), "a zone hold's kernel work");
}

/*
 * A far struct page line under zone->lock (RL_PAGE_FAR: a full node's
 * order-1 buddy, predict/sim_memcg.c memcg_zone_far_line_ns), by hand: two per
 * hold beside two list operations (no kernel count: 2 x list_ns / 2 =
 * 4 ns), so the hold is 4 ns and the two lines:
 *   - one CPU, no caches: its own line, an L1 hit (0 here);
 *   - 4 CPUs on the node, no caches: another CPU's with chance 3/4, a
 *     transfer of 50 ns: 2 x 37.5 = 75 ns;
 *   - 4 CPUs with caches (L2 1 MiB at 5 ns, LLC 32 MiB inclusive at 20 ns
 *     shared by the 4, DRAM 100 ns) against the 1 GiB struct page array
 *     of the 64 GB node: L2 1/1024, LLC 8/1024 - 1/1024, DRAM the rest:
 *     2 x (5 + 7 x 20 + 1016 x 100) / 1024 = 198.72 ns;
 *   - the same under the band's scan reuse (fp_scan): 1 GiB passes
 *     through every level, so DRAM: 2 x 100 ns.
 */
static void test_zone_far_line(void)
{
	static const struct { unsigned cpus; bool caches; double want; const char *what; } cases[] = {
		{ 1, false, 4, "one CPU, no caches: 4 + two hits" },
		{ 4, false, 4 + 75, "4 CPUs, no caches: 4 + 2 x 3/4 x 50" },
		{ 4, true, 4 + 2 * (5 + 7 * 20 + 1016 * 100) / 1024.0,
		  "4 CPUs with caches: 4 + 2 x 99.36" },
		{ 4, true, 4 + 2 * 100, "the band's scan reuse: 1 GiB passes every cache, 4 + 2 x 100" },
	};
	struct model_rec *r = xcalloc(1, sizeof(*r));

	model_rec_clear(r);
	model_rec_lock_of(r, (unsigned)model_rec_line_of(r, "zone", 1152, RS_NODE));
	r->ops = r->holds[0] = 1000;
	r->local[RL_PAGE_FAR] = r->local_in[0][RL_PAGE_FAR] = 2000;
	r->local[RL_BUDDY_PAGE] = r->local_in[0][RL_BUDDY_PAGE] = 2000;
	r->local[RL_LIST] = r->local_in[0][RL_LIST] = 2000;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct memcg_costs c = { 0 };
		struct memcg_sim_cfg cfg;
		struct sim_prog prog;
		double got = NAN;

		hand_costs(&c, &cfg);
		cfg.cpus = cases[i].cpus;
		c.fp_scan = i == 3;
		if (cases[i].caches) {
			c.l2_bytes = 1 << 20;
			c.llc_bytes = 32 << 20;
			c.l2_ns = 5;
			c.llc_ns = 20;
			c.dram_ns = 100;
			c.sockets = 1;
		}
		if (!memcg_sim_build_from(&prog, "hand", r, &cfg, &c)) {
			got = section_local(&prog);
			sim_prog_free(&prog);
		}
		ok(fabs(got - cases[i].want) < 0.05, "far struct page lines: %s = %.2f ns (%.2f)",
		   cases[i].what, cases[i].want, got);
	}
	free(r);
}

/*
 * The sensitivity band's variants (predict/predict.h PREDICT_BAND_N): the
 * cost variants scale, k = 4 turns the pair fill's request type over and
 * touches nothing else, k = 5 makes the footprint a scan; each of the
 * last two is left out, the costs untouched, where it cannot matter (no
 * pair fills at 64-byte lines, no footprint without the target's caches).
 */
static void test_band_variants(void)
{
	struct memcg_costs base = { .fault_ns = 100, .percpu_ns = 2, .l2_bytes = 1 << 20,
				    .llc_bytes = 32 << 20, .dram_ns = 90, .insn_ns = 0.2 }, c;

	base.sim.pair_rfo = true;
	base.kfault_ns[KPATH_V5_10_LOCK_STAT] = 10;
	is_int(PREDICT_BAND_N, 6, "six band variants");
	ok(predict_band_costs(&base, 0, 128, &c) && c.fault_ns == 50 && c.sim.pair_rfo && !c.fp_scan,
	   "k = 0: local work x0.5 only");
	ok(predict_band_costs(&base, 1, 128, &c) && c.insn_ns == 0.4 &&
	   c.kfault_ns[KPATH_V5_10_LOCK_STAT] == 20 && c.percpu_ns == 2,
	   "k = 1: the counted bodies' pace and a build's extra per fault x2 with the local work");
	ok(predict_band_costs(&base, 3, 128, &c) && c.percpu_ns == 3 && c.cs_scale == 1.5 &&
	   c.fault_ns == 100 && c.insn_ns == 0.2 && c.kfault_ns[KPATH_V5_10_LOCK_STAT] == 10 &&
	   c.sim.pair_rfo && !c.fp_scan, "k = 3: shared-path work x1.5 only");
	ok(predict_band_costs(&base, 4, 128, &c) && !c.sim.pair_rfo && c.fault_ns == 100 &&
	   c.percpu_ns == 2 && !c.fp_scan, "k = 4: the pair fill's request type turned over, nothing else");
	ok(!predict_band_costs(&base, 4, 64, &c) && !memcmp(&c, &base, sizeof(c)),
	   "k = 4 at 64-byte lines (no pair fills): left out, the costs as they were");
	base.sim.pair_rfo = false;
	ok(predict_band_costs(&base, 4, 128, &c) && c.sim.pair_rfo,
	   "k = 4 turns a read pair fill into an ownership one");
	ok(predict_band_costs(&base, 5, 128, &c) && c.fp_scan && !c.sim.pair_rfo && c.fault_ns == 100,
	   "k = 5: the footprint as a scan, nothing else");
	base.l2_bytes = NAN;
	ok(!predict_band_costs(&base, 5, 128, &c) && !memcmp(&c, &base, sizeof(c)),
	   "k = 5 without the target's caches: left out, the costs as they were");
}

/*
 * Reclaim's own work on each folio it frees (RL_RECLAIM_FOLIO, outside
 * every lock; predict/kpath.h reclaim), by hand: 2 folios freed per
 * operation at 25 ns each (the era's kreclaim_ns) lengthen the work
 * outside the locks by 50 ns; the other era's count is not read; the
 * lock's section is not touched.
 */
static void test_reclaim_folio(void)
{
	struct model_rec *r = xcalloc(1, sizeof(*r));
	struct memcg_sim_cfg cfg;
	struct memcg_costs c = { 0 };
	double out[3], in[3];

	hand_costs(&c, &cfg);
	cfg.p.kpath = KPATH_V5_10;
	model_rec_clear(r);
	model_rec_lock_of(r, (unsigned)model_rec_line_of(r, "pgdat", 0, RS_NODE));
	r->ops = 1000;
	r->holds[0] = 1000;
	r->local[RL_LIST] = r->local_in[0][RL_LIST] = 1000;
	r->local[RL_RECLAIM_FOLIO] = 2000;
	for (int i = 0; i < 3; i++) {
		struct sim_prog prog;

		memset(c.kreclaim_ns, 0, sizeof(c.kreclaim_ns));
		if (i == 1)
			c.kreclaim_ns[KPATH_V5_10] = 25;
		if (i == 2)
			c.kreclaim_ns[KPATH_V6_12] = 25;
		out[i] = in[i] = NAN;
		if (!memcg_sim_build_from(&prog, "hand", r, &cfg, &c)) {
			out[i] = local_after(&prog, NULL); /* outside every lock */
			in[i] = section_local(&prog);
			sim_prog_free(&prog);
		}
	}
	ok(fabs(out[1] - out[0] - 50) < 0.01, "2 folios freed x kreclaim_ns 25 = 50 ns outside the "
	   "locks (%.2f)", out[1] - out[0]);
	ok(fabs(out[2] - out[0]) < 0.01, "another era's reclaim count is not read (%.2f)",
	   out[2] - out[0]);
	ok(fabs(in[1] - in[0]) < 0.01, "the lock section is not lengthened (%.2f)", in[1] - in[0]);
	free(r);

	/* the recorder marks each folio reclaim frees, outside the locks:
	 * lru_file_readtwice reads a page an operation into a full memory,
	 * so in steady state reclaim frees one (its calls apart, rec->actor) */
	struct model_params p;
	const struct model_rec *rr;
	uint64_t freed = 0, inside = 0;

	model_params_default(&p);
	rr = model_rec_cached("lru_file_readtwice", &p, MODEL_REC_WARMUP, MODEL_REC_OPS);
	for (const struct model_rec *x = rr; x; x = x == rr ? rr->actor : NULL) {
		freed += x->local[RL_RECLAIM_FOLIO];
		for (unsigned i = 0; i < x->nlocks; i++)
			inside += x->local_in[i][RL_RECLAIM_FOLIO];
	}
	ok(rr && freed > 0.9 * (double)rr->ops && freed < 1.1 * (double)rr->ops,
	   "lru_file_readtwice: %llu folios freed by reclaim in %llu operations",
	   (unsigned long long)freed, rr ? (unsigned long long)rr->ops : 0ULL);
	is_int((long)inside, 0, "none of them inside a lock");
}

/*
 * bench_window: a prediction of the benchmark records only what its timer
 * covers.  lru_shm's usemem times its reads; its munmap (at exit) and the
 * case script's rm come after.  Recorded as memscale's loop, an
 * operation is one LRU add and, at the truncation, one delete: 2 list
 * operations; in the benchmark's window, the add alone, and no page goes
 * back to the zone.  A workload whose benchmark times its whole loop
 * (tlb_flush2) records the same either way.
 */
static void test_bench_window(void)
{
	const char *wl[] = { "lru_shm", "tlb_flush2" };

	for (unsigned w = 0; w < ARRAY_SIZE(wl); w++) {
		struct model_params p;
		double list[2], lru_holds[2];

		model_params_default(&p);
		for (int b = 0; b < 2; b++) {
			const struct model_rec *r;

			p.bench_window = b;
			r = model_rec_cached(wl[w], &p, MODEL_REC_WARMUP, MODEL_REC_OPS);
			list[b] = lru_holds[b] = NAN;
			if (!r)
				continue;
			list[b] = lru_holds[b] = 0; /* under the LRU locks, per operation */
			for (unsigned i = 0; i < r->nlocks; i++)
				if (strcmp(r->lines[r->lock_line[i]].obj, "zone")) {
					list[b] += (double)r->local_in[i][RL_LIST] / (double)r->ops;
					lru_holds[b] += (double)r->holds[i] / (double)r->ops;
				}
		}
		if (w == 0) {
			ok(fabs(list[0] - 2) < 0.01, "lru_shm, the whole loop: 2 LRU list "
			   "operations per operation (%.4f)", list[0]);
			ok(fabs(list[1] - 1) < 0.01, "lru_shm, usemem's window: the add alone "
			   "(%.4f)", list[1]);
			ok(lru_holds[1] < 0.55 * lru_holds[0], "and about half the LRU lock holds "
			   "(%.4f of %.4f per operation)", lru_holds[1], lru_holds[0]);
		} else {
			ok(list[0] == list[1] && lru_holds[0] == lru_holds[1],
			   "tlb_flush2: the same recording either way (%.4f, %.4f list "
			   "operations)", list[0], list[1]);
		}
	}
}

int main(void)
{
	test_folio_neighbours();
	test_neighbour_transfer();
	test_kpath_section();
	test_kzone_section();
	test_zone_far_line();
	test_band_variants();
	test_reclaim_folio();
	test_bench_window();
	test_layouts();
	test_lock_in_block();
	test_stats_paths_agree();
	test_lru_gen();
	test_corruption();
	test_op_tables();
	test_fold_counts();
	test_stats_memory();
	test_combinations();
	return done_testing();
}
