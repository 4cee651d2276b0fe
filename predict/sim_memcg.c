/*
 * sim_memcg.c - per-iteration op programs of the memcg workloads, for the
 * many-core simulator (sim.h).  Derived from the kernel paths the model
 * workloads follow (stat updates per operation: mm/memcontrol.c at
 * 8d59d2214c23; LRU add/del under the LRU lock: mm/swap.c; charge stock,
 * page_counter walk, uncharge per gather: mm/memcontrol.c,
 * mm/page_counter.c) and from what each benchmark does per iteration
 * (will-it-scale's tests, vm-scalability's case scripts); see
 * docs/kernel-facts.md.
 *
 * Building blocks ("U" = one memcg stat update):
 *   U(item)      per-CPU add (local); for lruvec items also reads of the
 *                mem_cgroup_per_node fields memcg, lruvec_stats_percpu and
 *                lruvec.pgdat (the hot-read side of the false sharing) and
 *                the node vmstat fold every 125 updates (vmstat threshold
 *                at these machine sizes, mm/vmstat.c); then per variant:
 *     v5.10_atomic          every stats_batch+1 updates: atomic add on the
 *                           item's line of memcg->vmstats at every level
 *                           leaf..root (+ pn->lruvec_stat for lruvec items)
 *     rstat_global_noguard  every charge_batch updates: atomic add on the
 *                           global stats_flush_threshold line
 *     rstat_global          same, read only (873f64b791: no add past the
 *                           threshold; flushes are rare, see below)
 *     rstat_permemcg        per level leaf..root: the measured walk step
 *                           (probe walk.permemcg) where the calibration
 *                           has it, else 3 dependent loads (vmstats_percpu,
 *                           stats_updates, parent), each a miss with
 *                           probability walk_miss; every charge_batch:
 *                           read of that level's vmstats->stats_updates line
 *     rstat_permemcg_cached per level: the measured step (walk.cached),
 *                           else 2 local loads (statc->parent chain);
 *                           every charge_batch: the same read
 *   charge       consume_stock (local); every charge_batch pages: atomic
 *                add on page_counter.usage at every level; commit (local);
 *                U(PGPGIN)
 *   lru_add      folio batch (local); every lru_batch pages: lock the LRU
 *                lock (pgdat: one per node; lruvec: the lock word inside
 *                mem_cgroup_per_node), then per page: read lruvec.pgdat
 *                (relock check), write lists[lru], write
 *                lru_zone_size[NORMAL][lru], U(NR_LRU_BASE + lru); unlock
 *   lru_del      the same with list_del, then the uncharge of the gather:
 *                atomic sub on page_counter.usage per level and U(PGPGOUT)
 * Field offsets come from models/layout.h (pn_layout_resolve); a field's
 * line is offset / line_size, so line_size 128 models the adjacent-line
 * prefetcher pairing two lines.
 *
 * Workloads (one iteration):
 *   page_fault1/2  fault (fault_ns, + page_ns zero/copy), charge,
 *                  U(PGFAULT), U(NR_ANON_MAPPED), lru_add(anon); munmap
 *                  share: U(NR_ANON_MAPPED), lru_del(anon)
 *   page_fault3    fault_ns, U(PGFAULT), U(NR_FILE_MAPPED) twice (map and
 *                  unmap): the counter-only workload
 *   fallocate1/2   a syscall plus 2 shmem pages, each: alloc + page_ns,
 *                  charge, U(NR_FILE_PAGES), U(NR_SHMEM), lru_add(anon);
 *                  the truncate at 1 MB is amortised per page: 2 U,
 *                  lru_del
 *   tlb_flush2     one page: fault, charge, U(PGFAULT), U(NR_ANON_MAPPED);
 *                  madvise: LRU add of a one-page batch and LRU del of it
 *                  (two lock round trips per op, LKP 8d59d2214c23 profile), uncharge
 *                  per page, U(NR_ANON_MAPPED); zero-page read U(PGFAULT)
 *   malloc1        mmap + munmap (2 syscalls) and one anon page as in
 *                  page_fault1
 *   lru_shm        shmem read fault: alloc, charge, U(PGFAULT),
 *                  U(NR_FILE_PAGES), U(NR_SHMEM), lru_add(anon),
 *                  U(NR_FILE_MAPPED); nothing is freed
 *   lru_file_readtwice  page-cache read: alloc + copy, charge,
 *                  U(NR_FILE_PAGES), lru_add(file); second read: activate
 *                  batch (lock, move inactive -> active, 2 U, PGACTIVATE)
 *   aim9_page_test brk up/down (2 syscalls) with one anon page as above
 *   aim9_brk_test  brk up/down (2 syscalls), no page touched
 * Not modelled: reclaim, the periodic/threshold stats flush (one flush per
 * flush_ms is negligible against millions of updates per second), mm and
 * VMA locks (will-it-scale process mode), capacity misses except the
 * measured walk step (or, without one, the walk_miss assumption).
 */
#include "predict/sim_memcg.h"

#include <stdio.h>
#include <string.h>

#include "models/kitems.h"
#include "models/layout.h"

const char *const memcg_sim_workloads[] = {
	"page_fault1", "page_fault2", "page_fault3", "fallocate1",
	"fallocate2", "tlb_flush2", "malloc1", "lru_shm",
	"lru_file_readtwice", "aim9_page_test", "aim9_brk_test", NULL,
};

bool memcg_sim_known(const char *workload)
{
	for (size_t i = 0; memcg_sim_workloads[i]; i++)
		if (!strcmp(memcg_sim_workloads[i], workload))
			return true;
	return false;
}

/* The kernel's item numbering (the kernel version's table,
 * models/kitems.h) decides which items share a line of an atomic array:
 * 8 longs per 64 B. */
enum item_kind { ITEM_EVENT, ITEM_MEMCG, ITEM_LRUVEC };

struct builder {
	struct sim_prog *p;
	const struct memcg_sim_cfg *cfg;
	const struct memcg_costs *c;
	struct pn_layout lay;
	const struct kitems *items;
	unsigned levels; /* memcgs on the walk leaf..root */
	unsigned lru_lock, pgdat_line, memcg_line, percpu_line;
};

static enum sim_scope level_scope(unsigned level)
{
	/* The leaf is per container; its ancestors are shared by all. */
	return level == 0 ? SCOPE_MEMCG : SCOPE_GLOBAL;
}

static unsigned level_line(struct builder *b, const char *what, unsigned level,
			   unsigned sub)
{
	char name[40];

	snprintf(name, sizeof(name), "%s[L%u].%u", what, level, sub);
	return sim_line(b->p, name, level_scope(level));
}

static unsigned pn_line(struct builder *b, size_t off)
{
	char name[40];

	snprintf(name, sizeof(name), "pn+%zu", off / b->cfg->line_size * b->cfg->line_size);
	return sim_line(b->p, name, SCOPE_MEMCG_NODE);
}

static size_t zone_size_off(const struct builder *b, unsigned lru)
{
	return b->lay.off[PN_LRU_ZONE_SIZE] + (b->lay.zone_normal * NR_LRU + lru) * sizeof(long);
}

static void stat_update(struct builder *b, enum item_kind kind, unsigned item)
{
	unsigned idx = kind == ITEM_EVENT ? b->items->event[item] : b->items->stat[item];
	const struct model_params *mp = &b->cfg->p;
	const struct memcg_costs *c = b->c;
	size_t blk;

	sim_local(b->p, c->percpu_ns);
	if (kind == ITEM_LRUVEC) {
		sim_access(b->p, SOP_READ, b->memcg_line);
		sim_access(b->p, SOP_READ, b->percpu_line);
		sim_access(b->p, SOP_READ, b->pgdat_line);
		sim_local(b->p, c->percpu_ns);
		blk = sim_every(b->p, 125);
		sim_access(b->p, SOP_RMW, sim_line(b->p, "pgdat.vm_stat", SCOPE_NODE));
		sim_access(b->p, SOP_RMW, sim_line(b->p, "vm_node_stat", SCOPE_GLOBAL));
		sim_every_end(b->p, blk);
	}
	switch (mp->stats) {
	case STATS_V510_ATOMIC:
		blk = sim_every(b->p, mp->stats_batch + 1);
		for (unsigned l = 0; l < b->levels; l++) {
			sim_access(b->p, SOP_RMW,
				   level_line(b, kind == ITEM_EVENT ? "vmevents" : "vmstats",
					      l, idx / 8));
			if (kind == ITEM_LRUVEC) {
				char name[40];
				snprintf(name, sizeof(name), "pn.lruvec_stat[L%u].%u", l, idx / 8);
				sim_access(b->p, SOP_RMW, sim_line(b->p, name,
					l == 0 ? SCOPE_MEMCG_NODE : SCOPE_NODE));
			}
		}
		sim_every_end(b->p, blk);
		break;
	case STATS_RSTAT_GLOBAL_NOGUARD:
	case STATS_RSTAT_GLOBAL:
		sim_local(b->p, c->percpu_ns); /* cgroup_rstat_updated + stats_updates */
		blk = sim_every(b->p, mp->charge_batch);
		sim_access(b->p, mp->stats == STATS_RSTAT_GLOBAL ? SOP_READ : SOP_RMW,
			   sim_line(b->p, "stats_flush_threshold", SCOPE_GLOBAL));
		sim_every_end(b->p, blk);
		break;
	case STATS_RSTAT_PERMEMCG:
	case STATS_RSTAT_PERMEMCG_CACHED:
		sim_local(b->p, c->percpu_ns); /* cgroup_rstat_updated */
		for (unsigned l = 0; l < b->levels; l++) {
			double step = c->walk_step_ns[mp->stats == STATS_RSTAT_PERMEMCG_CACHED];
			if (step == step) /* measured (not NAN) */
				sim_local(b->p, step);
			else if (mp->stats == STATS_RSTAT_PERMEMCG)
				sim_local(b->p, 3 * (c->sim.hit_ns + c->walk_miss * c->miss_ns));
			else
				sim_local(b->p, 2 * c->sim.hit_ns);
			blk = sim_every(b->p, mp->charge_batch);
			sim_access(b->p, SOP_READ, level_line(b, "vmstats.stats_updates", l, 0));
			sim_every_end(b->p, blk);
		}
		break;
	case STATS_NR:
		break;
	}
}

static void page_counter_walk(struct builder *b)
{
	/* try_charge returns early for root: no counters at depth 0. */
	if (b->cfg->p.depth == 0)
		return;
	for (unsigned l = 0; l < b->levels; l++)
		sim_access(b->p, SOP_RMW, level_line(b, "page_counter.usage", l, 0));
}

static void charge(struct builder *b)
{
	size_t blk;

	sim_local(b->p, b->c->percpu_ns); /* consume_stock */
	blk = sim_every(b->p, b->cfg->p.charge_batch);
	page_counter_walk(b);
	sim_every_end(b->p, blk);
	sim_local(b->p, b->c->percpu_ns); /* commit: css_get, memcg_data */
	stat_update(b, ITEM_EVENT, EV_PGPGIN);
}

static void lru_page(struct builder *b, unsigned lru, bool add)
{
	sim_access(b->p, SOP_READ, b->pgdat_line);
	sim_access(b->p, SOP_WRITE, pn_line(b, b->lay.off[PN_LISTS] + lru * 16));
	sim_local(b->p, b->c->list_ns / 2);
	sim_access(b->p, SOP_WRITE, pn_line(b, zone_size_off(b, lru)));
	stat_update(b, ITEM_LRUVEC, NR_LRU_BASE + lru);
	(void)add;
}

/*
 * One LRU batch operation: once every `period` iterations, `pages` pages
 * under one lock hold.  kind: 0 add, 1 del (+ uncharge of the gather),
 * 2 activate (inactive -> active).
 */
static void lru_batch_op(struct builder *b, unsigned lru, int kind,
			 unsigned period, unsigned pages)
{
	size_t blk;

	sim_local(b->p, b->c->percpu_ns); /* folio_batch_add */
	blk = sim_every(b->p, period);
	sim_lock_op(b->p, b->lru_lock);
	for (unsigned i = 0; i < pages; i++) {
		if (kind == 2) {
			lru_page(b, lru, false);
			lru_page(b, lru + 1, true);
			stat_update(b, ITEM_EVENT, EV_PGACTIVATE);
		} else {
			lru_page(b, lru, kind == 0);
		}
	}
	sim_unlock_op(b->p, b->lru_lock);
	if (kind == 1) {
		page_counter_walk(b);
		stat_update(b, ITEM_EVENT, EV_PGPGOUT);
	}
	sim_every_end(b->p, blk);
}

/* LRU batching for `ppi` pages per iteration: one batch every
 * lru_batch / ppi iterations holding that many iterations' pages. */
static void lru_batched(struct builder *b, unsigned lru, int kind, unsigned ppi)
{
	unsigned period = b->cfg->p.lru_batch / ppi;

	if (period < 1)
		period = 1;
	lru_batch_op(b, lru, kind, period, period * ppi);
}

static void anon_page(struct builder *b, double page_ns)
{
	sim_local(b->p, b->c->fault_ns + page_ns);
	charge(b);
	stat_update(b, ITEM_EVENT, EV_PGFAULT);
	stat_update(b, ITEM_LRUVEC, NR_ANON_MAPPED);   /* rmap */
	lru_batched(b, LRU_INACTIVE_ANON, 0, 1);
	stat_update(b, ITEM_LRUVEC, NR_ANON_MAPPED);   /* munmap: rmap removal */
	lru_batched(b, LRU_INACTIVE_ANON, 1, 1);
}

int memcg_sim_build(struct sim_prog *prog, const char *workload,
		    const struct memcg_sim_cfg *cfg, const struct memcg_costs *c)
{
	struct builder b = { .p = prog, .cfg = cfg, .c = c };
	const struct model_params *mp = &cfg->p;

	if (!memcg_sim_known(workload))
		return -1;
	sim_prog_init(prog, workload);
	{
		char why[256];
		if (model_resolve_layout(&b.lay, mp, 4, why, sizeof(why)))
			die(EXIT_USAGE, "layout: %s", why);
	}
	b.items = kitems_for(mp);
	b.levels = mp->depth + 1;
	b.memcg_line = pn_line(&b, b.lay.off[PN_MEMCG]);
	b.percpu_line = pn_line(&b, b.lay.off[PN_STATS_PERCPU]);
	b.pgdat_line = pn_line(&b, b.lay.off[PN_PGDAT]);
	if (mp->lru_lock == LRU_LOCK_LRUVEC)
		b.lru_lock = sim_lock(prog, "lruvec->lru_lock", SCOPE_MEMCG_NODE,
				      cfg->lock_kind, pn_line(&b, b.lay.off[PN_LRU_LOCK]));
	else
		b.lru_lock = sim_lock(prog, "pgdat->lru_lock", SCOPE_NODE, cfg->lock_kind,
				      sim_line(prog, "pgdat.lru_lock", SCOPE_NODE));
	sim_local(prog, c->extra_local_ns);

	if (!strcmp(workload, "page_fault1")) {
		anon_page(&b, c->page_ns);
	} else if (!strcmp(workload, "page_fault2")) {
		anon_page(&b, c->page_ns);
	} else if (!strcmp(workload, "page_fault3")) {
		sim_local(prog, c->fault_ns);
		stat_update(&b, ITEM_EVENT, EV_PGFAULT);
		stat_update(&b, ITEM_LRUVEC, NR_FILE_MAPPED);
		stat_update(&b, ITEM_LRUVEC, NR_FILE_MAPPED);
	} else if (!strcmp(workload, "fallocate1") || !strcmp(workload, "fallocate2")) {
		sim_local(prog, c->syscall_ns);
		for (int i = 0; i < 2; i++) {
			sim_local(prog, c->fault_ns + c->page_ns);
			charge(&b);
			stat_update(&b, ITEM_LRUVEC, NR_FILE_PAGES);
			stat_update(&b, ITEM_LRUVEC, NR_SHMEM);
			stat_update(&b, ITEM_LRUVEC, NR_FILE_PAGES);
			stat_update(&b, ITEM_LRUVEC, NR_SHMEM);
		}
		lru_batched(&b, LRU_INACTIVE_ANON, 0, 2);
		lru_batched(&b, LRU_INACTIVE_ANON, 1, 2);
	} else if (!strcmp(workload, "tlb_flush2")) {
		sim_local(prog, c->fault_ns + c->syscall_ns);
		charge(&b);
		stat_update(&b, ITEM_EVENT, EV_PGFAULT);
		stat_update(&b, ITEM_LRUVEC, NR_ANON_MAPPED);
		lru_batch_op(&b, LRU_INACTIVE_ANON, 0, 1, 1); /* lru_add_drain */
		stat_update(&b, ITEM_LRUVEC, NR_ANON_MAPPED);
		lru_batch_op(&b, LRU_INACTIVE_ANON, 1, 1, 1); /* release_pages */
		sim_local(prog, c->fault_ns);                 /* zero-page read */
		stat_update(&b, ITEM_EVENT, EV_PGFAULT);
	} else if (!strcmp(workload, "malloc1") || !strcmp(workload, "aim9_page_test")) {
		sim_local(prog, 2 * c->syscall_ns);
		anon_page(&b, 0);
	} else if (!strcmp(workload, "lru_shm")) {
		sim_local(prog, c->fault_ns + c->page_ns);
		charge(&b);
		stat_update(&b, ITEM_EVENT, EV_PGFAULT);
		stat_update(&b, ITEM_LRUVEC, NR_FILE_PAGES);
		stat_update(&b, ITEM_LRUVEC, NR_SHMEM);
		lru_batched(&b, LRU_INACTIVE_ANON, 0, 1);
		stat_update(&b, ITEM_LRUVEC, NR_FILE_MAPPED);
	} else if (!strcmp(workload, "lru_file_readtwice")) {
		sim_local(prog, c->fault_ns + 2 * c->page_ns);
		charge(&b);
		stat_update(&b, ITEM_LRUVEC, NR_FILE_PAGES);
		lru_batched(&b, LRU_INACTIVE_FILE, 0, 1);
		lru_batched(&b, LRU_INACTIVE_FILE, 2, 1);
	} else { /* aim9_brk_test */
		sim_local(prog, 2 * c->syscall_ns);
	}
	return 0;
}

int memcg_sim_run(const char *workload, const struct memcg_sim_cfg *cfg,
		  const struct memcg_costs *c, unsigned ncores,
		  uint64_t iters_per_core, struct sim_result *r, const char **err)
{
	struct sim_prog prog;
	struct sim_params sp = {
		.ncores = ncores, .nodes = cfg->p.nodes, .containers = cfg->p.containers,
		.iters_per_core = iters_per_core, .warm_frac = 0.2, .seed = 1,
	};
	int rc;

	if (memcg_sim_build(&prog, workload, cfg, c)) {
		*err = "unknown workload";
		return -1;
	}
	if (sp.nodes > ncores)
		sp.nodes = ncores;
	rc = sim_run(&prog, &c->sim, &sp, r, err);
	sim_prog_free(&prog);
	return rc;
}
