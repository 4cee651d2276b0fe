/*
 * memcg.c - memcg hierarchy, page_counter charging with the per-CPU
 * charge stock, and the stats update and flush paths.
 *
 * Hierarchy: root, then a chain of depth-1 single memcgs (A, B, ...), then
 * `containers` leaves under the last one (depth 3, containers 1 is
 * root/A/B/C, Shakeel's fefc6e6631ff setup).  Worker i runs in leaf
 * i % containers and allocates on node i % nodes.
 *
 * Pages come from the page allocator's order-0 path (models/page_alloc.c:
 * per-CPU lists over one zone per node under zone->lock, mm/page_alloc.c
 * at v5.10 and v6.7, knobs pcp_batch, pcp_high, pcp_scale).
 *
 * Charging follows try_charge_memcg()/refill_stock()/page_counter_try_charge()
 * of v6.8 (mm/memcontrol.c, mm/page_counter.c at 8d59d2214c23): a worker's stock of pre-charged pages for one
 * memcg serves charges; a miss charges `charge_batch` pages up the whole
 * hierarchy with one atomic per level and stocks the rest.  Uncharge
 * bypasses the stock: one hierarchical page_counter_uncharge per gather.
 *
 * Stats paths, knob `stats`: one design per file in models/stats/
 * (`memscale list stats`; models/stats/stats.h).  This file keeps what
 * the rstat designs share: the per-CPU add, cgroup_rstat_updated() (the
 * per-CPU updated tree) on every update, and the flush; a design gives
 * its flush trigger and scope, or (v5.10_atomic) its own update path.
 * The per-CPU threshold of the rstat paths is MEMCG_CHARGE_BATCH
 * (`charge_batch`); the flush thresholds are MEMCG_CHARGE_BATCH *
 * num_online_cpus() (per memcg) and num_online_cpus() (global), with
 * the machine's online CPUs, not the number of workers.
 *
 * Every lruvec stat update is __mod_lruvec_state(): besides the memcg
 * part it updates the node (pgdat) counter through a per-CPU diff folded
 * into the node's atomic past the vmstat threshold (mm/vmstat.c,
 * calculate_normal_threshold for a nominal 64 GB node).
 *
 * Flush: the kernel's cgroup_rstat_flush() under cgroup_rstat_lock, here
 * the LC_STATS_FLUSH lock, of the whole tree (periodic flusher, global
 * variants) or of the memcg's subtree (reader side of the per-memcg
 * variants, 7d7ef0a4686a); per CPU it visits the memcgs that CPU linked
 * into its updated tree and folds all of their items.  Workers keep updating their slots while it
 * runs; the flusher never writes them: it reads each slot with a relaxed
 * atomic load and keeps its own snapshot in state_prev/events_prev (the
 * kernel's per-CPU state_prev), so every delta is folded exactly once.
 * The one exception is the per-CPU stats_updates counter, which the kernel
 * also zeroes from the flushing CPU without synchronisation; a lost
 * update there only shifts the next flush trigger, never a count.  Deltas
 * are added to the memcg and each ancestor directly, which gives the same
 * totals as rstat's pending-to-parent propagation.
 */
#include "models/memcg.h"
#include "models/internal.h"
#include "models/page_alloc.h"
#include "models/kitems.h"
#include "models/stats/stats.h"
#include "trace/tp.h"

#include <limits.h>
#include <unistd.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const stat_item_names[NR_STAT_ITEMS] = {
	"nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
	"nr_active_file", "nr_unevictable", "nr_anon_mapped",
	"nr_file_mapped", "nr_file_pages", "nr_shmem",
};
const char *const event_item_names[NR_EVENTS] = {
	"pgfault", "pgpgin", "pgpgout", "pgactivate", "pgdeactivate",
};

/* A per-CPU allocation: an offset into every worker's chunk; returns
 * the address in worker 0's chunk (the kernel's percpu pointer). */
static void *pcpu_alloc(struct model *m, size_t size)
{
	char *base = (char *)m->pcpu_chunk0 + m->pcpu_used;

	size = (size + PAD_SIZE - 1) & ~(size_t)(PAD_SIZE - 1);
	if (m->pcpu_used + size > m->pcpu_size)
		die(1, "internal error: model per-CPU chunk exhausted");
	m->pcpu_used += size;
	return base;
}

const struct lock_stat *model_worker_lock_stats(const struct model_worker *mw)
{
	return mw->lock_stats;
}

/* ---- set-up ---- */

/* lru_gen_init_lruvec() (mm/vmscan.c, v6.8), which lruvec_init() calls:
 * max_seq = MIN_NR_GENS + 1, min_seq[] = 0, the generation lists empty,
 * enabled as the knob says.  Nothing on a layout without lrugen. */
static void lru_gen_init_lruvec(struct model *m, char *pn)
{
	unsigned long *seq;

	if (!m->lay.present[PN_LRUGEN_FOLIOS])
		return;
	seq = pn_lrugen_seq(m, pn);
	seq[0] = MIN_NR_GENS + 1;
	seq[1] = seq[2] = 0;
	for (unsigned g = 0; g < PN_MAX_NR_GENS; g++)
		for (unsigned t = 0; t < 2; t++)
			for (unsigned z = 0; z < m->lay.max_nr_zones; z++)
				list_init((struct list_head *)(pn + pn_gen_list_off(&m->lay, g, t, z)));
	*(bool *)PN_AT(m, pn, PN_LRUGEN_ENABLED) = m->p.lru_gen;
}

static char *pn_alloc(struct model *m, struct arena *a, struct mcg *memcg,
		      unsigned nid)
{
	char *pn = arena_alloc(a, m->lay.sizeof_pn, CACHELINE);
	struct lruvec_pcpu *pc = pcpu_alloc(m, sizeof(*pc)); /* alloc_percpu */

	*(struct mcg **)PN_AT(m, pn, PN_MEMCG) = memcg;
	*(struct lruvec_pcpu **)PN_AT(m, pn, PN_STATS_PERCPU) = pc;
	*(struct mnode **)PN_AT(m, pn, PN_PGDAT) = &m->nodes[nid];
	if (!m->lay.stats_embedded)
		*(long **)PN_AT(m, pn, PN_LRUVEC_STATS) =
			arena_alloc(a, K_LRUVEC_STATS_SIZE, CACHELINE);
	for (unsigned l = 0; l < NR_LRU; l++)
		list_init(pn_list(m, pn, l));
	lru_gen_init_lruvec(m, pn);
	if (m->p.lru_lock == LRU_LOCK_LRUVEC &&
	    m->lock->init(PN_AT(m, pn, PN_LRU_LOCK), m->nworkers, a))
		die(1, "cannot initialise lock '%s' inside mem_cgroup_per_node",
		    m->lock->name);
	return pn;
}

static void memcg_init(struct model *m, struct arena *a, struct mcg *memcg,
		       struct mcg *parent, unsigned id, unsigned level)
{
	memcg->id = id;
	memcg->level = level;
	*mcg_parent_p(m, memcg) = parent;
	*pc_max(m, mcg_memory(m, memcg)) = LONG_MAX;
	*pc_parent(m, mcg_memory(m, memcg)) = parent ? mcg_memory(m, parent) : NULL;
	*pc_max(m, mcg_swap(m, memcg)) = LONG_MAX;
	*pc_field(m, mcg_memory(m, memcg), m->pc.high) = LONG_MAX;
	*pc_field(m, mcg_swap(m, memcg), m->pc.high) = LONG_MAX;
	/* kzalloc'ed apart from the memcg, per-CPU parts in the CPUs' chunks */
	*mcg_vmstats_p(m, memcg) = arena_alloc(a, sizeof(struct mcg_vmstats), PAD_SIZE);
	*mcg_vmstats_percpu_p(m, memcg) = pcpu_alloc(m, sizeof(struct mcg_pcpu));
	memcg->rstat_cpu = pcpu_alloc(m, sizeof(struct rstat_cpu));
	for (unsigned w = 0; w < m->nworkers; w++) {
		struct mcg_pcpu *statc = mcg_statc(m, memcg, w);
		/* mem_cgroup_alloc() of 9cee7e8ef3e3 */
		statc->parent = parent ? mcg_statc(m, parent, w) : NULL;
		statc->vmstats = mcg_vmstats(m, memcg);
	}
	for (unsigned n = 0; n < m->p.nodes; n++)
		memcg->nodeinfo[n] = pn_alloc(m, a, memcg, n);
}

/* model_setup's first step: the layouts the knobs name, checked against
 * each other, the items and the lock. */
static void setup_layouts(struct model *m, const struct model_params *p,
			  const struct lock_ops *lock)
{
	pc_offsets_of(&m->pc, knob_pc_layout.values[p->pc_layout].value);
	mc_offsets_of(&m->mc, knob_mc_layout.values[p->mc_layout].value);
	/* the page_counter of pc_layout in the room mem_cgroup's declaration
	 * gives `memory` (its own page_counter of the same era) */
	if (m->mc.memory + m->pc.size > m->mc.swap)
		die(EXIT_USAGE, "pc_layout %s (%zu B) does not fit struct mem_cgroup of mc_layout %s "
		    "(memory at %zu, swap at %zu)", m->pc.version, m->pc.size, m->mc.version,
		    m->mc.memory, m->mc.swap);
	m->items = kitems_for(p);
	/* v5's totals inside struct mem_cgroup: every item the model keeps
	 * must have its slot in the declared arrays */
	m->totals_in_memcg = p->stats->totals_in_memcg && m->mc.stats_inline;
	for (unsigned k = 0; m->totals_in_memcg && k < NR_STAT_ITEMS + NR_EVENTS; k++)
		if (k < NR_STAT_ITEMS ? KS(m, k) >= m->mc.nr_vmstats
				      : KE(m, k - NR_STAT_ITEMS) >= m->mc.nr_vmevents)
			die(1, "internal error: %s item %u has no slot in mem_cgroup %s's %s[]",
			    m->items->version, k, m->mc.version,
			    k < NR_STAT_ITEMS ? "vmstats" : "vmevents");
	m->lock = lock;
	{
		char why[256];
		if (model_resolve_layout(&m->lay, p, lock->size, why, sizeof(why)))
			die(EXIT_USAGE, "layout: %s", why);
	}
	if (lock->size > PAD_SIZE)
		die(EXIT_USAGE, "lock '%s' is %zu bytes; the model reserves at most %d",
		    lock->name, lock->size, PAD_SIZE);
}

/* The nodes (pgdat) and their zones, with their locks. */
static void setup_nodes(struct model *m, struct arena *a, const struct model_params *p,
			const struct lock_ops *lock, unsigned nworkers)
{
	/* num_online_cpus(): the thresholds of the kernel are set by the
	 * machine's CPUs, not by how many tasks run. */
	{
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		m->online_cpus = n > 0 ? (unsigned)n : 1;
		if (m->online_cpus < nworkers)
			m->online_cpus = nworkers;
	}
	m->node_threshold = model_node_threshold(m->online_cpus);
	m->nodes = arena_alloc(a, p->nodes * sizeof(*m->nodes), PAD_SIZE);
	m->zones = arena_alloc(a, p->nodes * sizeof(*m->zones), PAD_SIZE);
	for (unsigned n = 0; n < p->nodes; n++) {
		m->nodes[n].nid = n;
		if (p->lru_lock == LRU_LOCK_PGDAT &&
		    lock->init(m->nodes[n].lru_lock, nworkers, a))
			die(1, "cannot initialise lock '%s'", lock->name);
		m->zones[n].nid = n;
		for (unsigned o = 0; o < MODEL_MAX_ORDER; o++)
			for (unsigned t = 0; t < MODEL_MIGRATE_TYPES; t++)
				list_init(&m->zones[n].free_area[o].free_list[t]);
		if (lock->init(m->zones[n].lock, nworkers, a))
			die(1, "cannot initialise lock '%s' as zone->lock", lock->name);
	}
}

/* The per-CPU chunks and the memcg tree: root, the chain, the leaves. */
static void setup_memcgs(struct model *m, struct arena *a, const struct model_params *p,
			 unsigned nworkers)
{
	unsigned chain = p->depth ? p->depth - 1 : 0;

	m->nmemcg = p->depth ? 1 + chain + p->containers : 1;
	/* One per-CPU chunk per worker, far apart as the CPUs' units are. */
	m->pcpu_size = m->nmemcg * (sizeof(struct mcg_pcpu) + sizeof(struct rstat_cpu) +
				    p->nodes * sizeof(struct lruvec_pcpu) + 3 * PAD_SIZE);
	m->pcpu_off = arena_alloc(a, nworkers * sizeof(long), 8);
	for (unsigned w = 0; w < nworkers; w++) {
		char *chunk = arena_alloc(a, m->pcpu_size, PAGE_SIZE_MODEL);
		if (!w)
			m->pcpu_chunk0 = chunk;
		m->pcpu_off[w] = chunk - (char *)m->pcpu_chunk0;
	}
	m->rstat_lock = pcpu_alloc(m, sizeof(int)); /* cgroup_rstat_cpu_lock */
	/* Each struct mcg on its own lines: memory.usage is hot. */
	m->memcgs = arena_alloc(a, m->nmemcg * sizeof(struct mcg), PAD_SIZE);
	memcg_init(m, a, &m->memcgs[0], NULL, 0, 0);
	for (unsigned i = 1; i <= chain; i++)
		memcg_init(m, a, &m->memcgs[i], &m->memcgs[i - 1], i, i);
	m->leaves = arena_alloc(a, p->containers * sizeof(struct mcg *), 8);
	for (unsigned c = 0; c < p->containers; c++) {
		unsigned id = p->depth ? 1 + chain + c : 0;
		if (p->depth)
			memcg_init(m, a, &m->memcgs[id], &m->memcgs[chain], id,
				   p->depth);
		m->leaves[c] = &m->memcgs[id];
	}
	for (unsigned i = 0; i < m->nmemcg; i++) {
		struct mcg *pm = mcg_parent(m, &m->memcgs[i]);
		if (pm && !pm->nr_children++)
			pm->first_child = i;
	}
}

/* The pages (and with page_work=kernel their frames); returns the pages
 * per worker, slack included. */
static unsigned setup_pages(struct model *m, struct arena *a, const struct model_params *p,
			    unsigned nworkers, unsigned pages_per_worker)
{
	/* With more than one worker each pool grows by what a pcp list can
	 * hold (pcp->high at most), so that the pages in use plus every pcp
	 * list never exceed the node's pages: the zone always has one for a
	 * worker below its pool (the kernel's zone has plenty).  One worker
	 * needs none: a page it cannot get is one its workload does not
	 * have (its pcp list is its own), and its footprint stays the one of
	 * its pool (the calibration probes' models). */
	{
		unsigned slack = nworkers > 1 ? model_pcp_high_max(m) + p->pcp_batch : 0;

		if (pages_per_worker > UINT_MAX / 2 - slack ||
		    (uint64_t)nworkers * (pages_per_worker + slack) > UINT_MAX / 2)
			die(EXIT_USAGE, "model: %u workers x %u pages is too many pages",
			    nworkers, pages_per_worker);
		pages_per_worker += slack;
	}
	m->npages = nworkers * pages_per_worker;
	m->pages = arena_alloc(a, (size_t)m->npages * sizeof(struct mpage), CACHELINE);
	if (p->page_work == PAGE_WORK_KERNEL) {
		size_t len = (size_t)m->npages * PAGE_SIZE_MODEL;

		m->frames = arena_alloc(a, len, PAGE_SIZE_MODEL);
		/* Populate the frames now: a first touch inside the measured
		 * loop would be a page fault of our own arena, i.e. the very
		 * kernel cost this work stands in for, paid twice.  Forked
		 * workers do it again for their own frames (fork does not copy
		 * the page tables of a shared mapping): model_worker_populate. */
		if (madvise(m->frames, len, MADV_POPULATE_WRITE))
			memset(m->frames, 0, len);
	}
	return pages_per_worker;
}

/* Worker w: its lock contexts (nlocks), exact counts, buffers, and its
 * pool of pages in its node's zone. */
static void setup_worker(struct model *m, struct arena *a, const struct model_params *p,
			 unsigned w, unsigned nlocks, unsigned pages_per_worker)
{
	struct model_worker *mw = arena_alloc(a, sizeof(*mw), PAD_SIZE);

	m->workers[w] = mw;
	mw->m = m;
	mw->id = w;
	mw->nid = w % p->nodes;
	mw->memcg = m->leaves[w % p->containers];
	mw->lock_ctx = arena_alloc(a, nlocks * sizeof(void *), 8);
	for (unsigned l = 0; l < nlocks; l++) {
		void *lk = l == m->nlru_locks ? m->flush_lock : NULL;
		if (l > m->nlru_locks)
			lk = m->zones[l - m->nlru_locks - 1].lock;
		else if (!lk && p->lru_lock == LRU_LOCK_PGDAT)
			lk = m->nodes[l].lru_lock;
		else if (!lk && l >= p->nodes) {
			unsigned mid = (l - p->nodes) / p->nodes;
			lk = PN_AT(m, m->memcgs[mid].nodeinfo[(l - p->nodes) % p->nodes],
				   PN_LRU_LOCK);
		}
		/* Locks 0..nodes-1 are unused under lru_lock=lruvec. */
		mw->lock_ctx[l] = lk ? lock_ctx_new(m->lock, a, lk, w) : NULL;
	}
	mw->exact_state = arena_alloc(a, m->nmemcg * sizeof(*mw->exact_state), PAD_SIZE);
	mw->exact_events = arena_alloc(a, m->nmemcg * sizeof(*mw->exact_events), PAD_SIZE);
	mw->charged = arena_alloc(a, m->nmemcg * sizeof(long), PAD_SIZE);
	mw->uncharged = arena_alloc(a, m->nmemcg * sizeof(long), PAD_SIZE);
	mw->node_diff = arena_alloc(a, p->nodes * sizeof(*mw->node_diff), PAD_SIZE);
	mw->page_buf = arena_alloc(a, 2 * PAGE_SIZE_MODEL, PAGE_SIZE_MODEL);
	if (p->page_work == PAGE_WORK_KERNEL)
		kwork_init(&mw->kw, a, w + 1);
	list_init(&mw->pcp.list);
	/* the node's free memory starts in its zone's buddy lists */
	for (unsigned i = 0; i < pages_per_worker; i++) {
		struct mpage *pg = &m->pages[w * pages_per_worker + i];
		struct mfree_area *area = &m->zones[mw->nid].free_area[0];

		pg->owner = (uint16_t)w;
		pg->nid = (uint16_t)mw->nid;
		list_add_between(&pg->lru,
				 area->free_list[MODEL_MIGRATE_MOVABLE].prev,
				 &area->free_list[MODEL_MIGRATE_MOVABLE]);
		area->nr_free++;
		m->zones[mw->nid].managed++;
	}
}

struct model *model_setup(struct arena *a, const struct model_params *p,
			  const struct lock_ops *lock, unsigned nworkers,
			  unsigned pages_per_worker)
{
	struct model *m = arena_alloc(a, sizeof(*m), PAD_SIZE);
	unsigned nlocks;

	m->p = *p;
	setup_layouts(m, p, lock);
	m->nworkers = nworkers;
	setup_nodes(m, a, p, lock, nworkers);
	setup_memcgs(m, a, p, nworkers);
	m->flush_lock = lock_new(lock, a, nworkers);
	m->nlru_locks = p->lru_lock == LRU_LOCK_PGDAT ? p->nodes
						       : p->nodes + m->nmemcg * p->nodes;
	nlocks = m->nlru_locks + 1 + p->nodes; /* LRU locks, flush lock, zone locks */
	pages_per_worker = setup_pages(m, a, p, nworkers, pages_per_worker);
	m->workers = arena_alloc(a, nworkers * sizeof(*m->workers), 8);
	for (unsigned w = 0; w < nworkers; w++)
		setup_worker(m, a, p, w, nlocks, pages_per_worker);
	model_pcp_set_high(m);
	return m;
}

void model_worker_populate(struct model *m, unsigned w)
{
	size_t per = m->npages / m->nworkers * (size_t)PAGE_SIZE_MODEL;

	if (!m->frames)
		return;
	/* Mapping is not enough: on a VM the first write to each page can
	 * still cost a host-side fault (~10 us per page measured on the
	 * 2-vCPU development VM even after MADV_POPULATE_WRITE), so write
	 * every page once: every frame of the worker's node, since pages
	 * move between the node's workers through its zone. */
	for (unsigned v = w % m->p.nodes; v < m->nworkers; v += m->p.nodes) {
		char *f = m->frames + v * per;

		madvise(f, per, MADV_POPULATE_WRITE);
		for (size_t off = 0; off < per; off += PAGE_SIZE_MODEL)
			((volatile char *)f)[off] = 0;
	}
	/* and the worker's kernel footprint */
	kwork_spend(&m->workers[w]->kw, KWORK_LINES);
}

/* ---- page_counter (mm/page_counter.c) ---- */

/*
 * propagate_protected_usage(c, usage) of v5.10 .. v6.9 (mm/page_counter.c
 * of v5.10.13, Rtoax/linux-5.10.13; the later form, which reads
 * min_usage before the xchg, reads the same members): `if (!c->parent)
 * return;` then READ_ONCE(c->min) and atomic_long_read(&c->min_usage),
 * READ_ONCE(c->low) and atomic_long_read(&c->low_usage).  With no
 * memory.min/low set (the benchmarks set none) usage's protected part
 * stays 0 = min_usage = low_usage, so no xchg and no write to the
 * parent's children_*_usage: reads only, recorded at the pc_layout
 * offsets.  (The protection_support test of later kernels, v6.11+, is
 * true for memcg->memory, so the reads stay; its flag's read is not
 * recorded.)
 */
static void propagate_protected_usage(struct model *m, struct page_counter *c)
{
	MODEL_REC(m, pc_parent(m, c), REC_READ);
	if (!*pc_parent(m, c))
		return;
	MODEL_REC(m, pc_field(m, c, m->pc.min), REC_READ);
	MODEL_REC(m, pc_field(m, c, m->pc.min_usage), REC_READ);
	MODEL_REC(m, pc_field(m, c, m->pc.low), REC_READ);
	MODEL_REC(m, pc_field(m, c, m->pc.low_usage), REC_READ);
}

/* page_counter_try_charge() (v5.10.13 .. v6.9): per level the usage
 * atomic, the read of c->max, propagate_protected_usage(), the racy
 * watermark, and c = c->parent (the word propagate_protected_usage()
 * just read: one recorded read). */
static bool page_counter_try_charge(struct model *m, struct page_counter *counter,
				    long n)
{
	struct page_counter *c;

	for (c = counter; c; c = *pc_parent(m, c)) {
		long new = __atomic_add_fetch(pc_usage(m, c), n, __ATOMIC_RELAXED);

		MODEL_REC(m, pc_usage(m, c), REC_RMW);
		MODEL_REC(m, pc_max(m, c), REC_READ);
		if (new > *pc_max(m, c)) {
			__atomic_sub_fetch(pc_usage(m, c), n, __ATOMIC_RELAXED);
			__atomic_add_fetch(pc_failcnt(m, c), 1, __ATOMIC_RELAXED);
			for (struct page_counter *u = counter; u != c; u = *pc_parent(m, u))
				__atomic_sub_fetch(pc_usage(m, u), n, __ATOMIC_RELAXED);
			return false;
		}
		propagate_protected_usage(m, c);
		/* Racy high-water mark, READ_ONCE/WRITE_ONCE as in the kernel. */
		MODEL_REC(m, pc_watermark(m, c), REC_READ);
		if (new > __atomic_load_n(pc_watermark(m, c), __ATOMIC_RELAXED)) {
			MODEL_REC(m, pc_watermark(m, c), REC_WRITE);
			__atomic_store_n(pc_watermark(m, c), new, __ATOMIC_RELAXED);
		}
	}
	return true;
}

/* page_counter_uncharge(): page_counter_cancel() per level, the usage
 * atomic and propagate_protected_usage(); c = c->parent as above. */
static void page_counter_uncharge(struct model *m, struct page_counter *counter, long n)
{
	for (struct page_counter *c = counter; c; c = *pc_parent(m, c)) {
		MODEL_REC(m, pc_usage(m, c), REC_RMW);
		__atomic_sub_fetch(pc_usage(m, c), n, __ATOMIC_RELAXED);
		propagate_protected_usage(m, c);
	}
}

/*
 * try_charge_memcg()'s done_restock loop after a charge of the
 * page_counter (mm/memcontrol.c, v5.8+ with memory.swap.high; the
 * stored copies of v5.10 try_charge() and v6.x try_charge_memcg()):
 *   do {
 *	mem_high = page_counter_read(&memcg->memory) > READ_ONCE(memcg->memory.high);
 *	swap_high = page_counter_read(&memcg->swap) > READ_ONCE(memcg->swap.high);
 *	...
 *   } while ((memcg = parent_mem_cgroup(memcg)));
 * Reads only (no memory.high is set: nothing is scheduled), at every
 * level up to the root, at the mc_layout and pc_layout offsets.  A charge
 * served by the stock (consume_stock) returns before it.
 */
static void charge_high_check(struct model *m, struct mcg *memcg)
{
	for (; memcg; memcg = model_parent_mem_cgroup(m, memcg)) {
		MODEL_REC(m, pc_usage(m, mcg_memory(m, memcg)), REC_READ);
		MODEL_REC(m, pc_field(m, mcg_memory(m, memcg), m->pc.high), REC_READ);
		MODEL_REC(m, pc_usage(m, mcg_swap(m, memcg)), REC_READ);
		MODEL_REC(m, pc_field(m, mcg_swap(m, memcg), m->pc.high), REC_READ);
	}
}

void model_drain_stock(struct model_worker *mw)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_drain_stock, mw);
	if (mw->stock_cached && mw->stock_nr)
		page_counter_uncharge(mw->m, mcg_memory(mw->m, mw->stock_cached), mw->stock_nr);
	mw->stock_nr = 0;
	mw->stock_cached = NULL;
}

static void refill_stock(struct model_worker *mw, struct mcg *memcg, unsigned n)
{
	if (mw->stock_cached != memcg) {
		model_drain_stock(mw);
		mw->stock_cached = memcg;
	}
	mw->stock_nr += n;
	if (mw->stock_nr > mw->m->p.charge_batch)
		model_drain_stock(mw);
}

/* try_charge_memcg() of one page: the stock, else the page_counter
 * for a batch whose rest refills the stock. */
static bool try_charge(struct model_worker *mw, struct mcg *memcg)
{
	unsigned batch = mw->m->p.charge_batch;

	MODEL_REC_LOCAL(mw->m, RL_PERCPU); /* consume_stock */
	if (mw->stock_cached == memcg && mw->stock_nr >= 1) {
		mw->stock_nr--; /* consume_stock */
		return true;
	}
	mw->ops.pc_charges++;
	if (!page_counter_try_charge(mw->m, mcg_memory(mw->m, memcg), batch)) {
		batch = 1;
		if (!page_counter_try_charge(mw->m, mcg_memory(mw->m, memcg), 1))
			return false;
	}
	if (batch > 1)
		refill_stock(mw, memcg, batch - 1);
	charge_high_check(mw->m, memcg);
	return true;
}

/*
 * A kernel page charged with __GFP_ACCOUNT (a page-table page:
 * GFP_PGTABLE_USER), v6.8 mm/memcontrol.c: __memcg_kmem_charge_page ->
 * obj_cgroup_charge_pages -> try_charge_memcg; freed,
 * __memcg_kmem_uncharge_page -> obj_cgroup_uncharge_pages ->
 * refill_stock (the uncharge goes to the stock, not to the
 * page_counter as a user folio's uncharge_batch does).  No
 * commit_charge events.  Not modelled: the MEMCG_KMEM and NR_PAGETABLE
 * stat updates (no such stat item in the model).  The caller uncharges
 * within the same operation (model_check counts no kernel pages).
 */
bool model_kmem_charge_page(struct model_worker *mw, struct mcg *memcg)
{
	MODEL_REC_ENTRY(mw->m, model_kmem_charge_page, mw, memcg);
	return try_charge(mw, memcg);
}

void model_kmem_uncharge_page(struct model_worker *mw, struct mcg *memcg)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_kmem_uncharge_page, mw, memcg);
	MODEL_REC_LOCAL(mw->m, RL_PERCPU); /* refill_stock */
	refill_stock(mw, memcg, 1);
}

bool model_charge(struct model_worker *mw, struct mpage *pg, struct mcg *memcg)
{
	MODEL_REC_ENTRY(mw->m, model_charge, mw, pg, memcg);
	mw->ops.charges++;
	if (!try_charge(mw, memcg))
		return false;
	/* commit_charge: folio->memcg_data, then the charge statistics */
	pg->memcg = memcg;
	MODEL_REC_LOCAL(mw->m, RL_PERCPU); /* css_get, memcg_data */
	mw->charged[memcg->id]++;
	model_count_event(mw, memcg, EV_PGPGIN, 1);
	mcg_statc(mw->m, memcg, mw->id)->nr_page_events++;
	return true;
}

void model_uncharge_pages(struct model_worker *mw, struct mpage **pages,
			  unsigned n)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_uncharge_pages, mw, pages, n);
	unsigned i = 0;

	while (i < n) {
		struct mcg *memcg = pages[i]->memcg;
		unsigned nr = 0;

		for (; i < n && pages[i]->memcg == memcg; i++)
			nr++;
		/* uncharge_batch() */
		page_counter_uncharge(mw->m, mcg_memory(mw->m, memcg), nr);
		model_count_event(mw, memcg, EV_PGPGOUT, nr);
		mcg_statc(mw->m, memcg, mw->id)->nr_page_events += nr;
		mw->uncharged[memcg->id] += nr;
		mw->ops.uncharges++;
		mw->ops.pages_uncharged += nr;
	}
}

/* Reclaim's tail (models/lru.c and models/lru_gen.c isolate): after the
 * lock is dropped, isolated page cache pages leave the page cache
 * (NR_FILE_PAGES), are uncharged in gathers and freed. */
void model_reclaim_free(struct model_worker *mw, struct mpage **iso, unsigned n)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_reclaim_free, mw, iso, n);
	for (unsigned i = 0; i < n; i++) {
		MODEL_REC_LOCAL(mw->m, RL_RECLAIM_FOLIO);
		model_mod_lruvec_state(mw, iso[i]->memcg, iso[i]->nid, NR_FILE_PAGES, -1);
	}
	model_uncharge_pages(mw, iso, n);
	for (unsigned i = 0; i < n; i++)
		model_page_free_reclaimed(mw, iso[i]);
	mw->ops.reclaimed += n;
}

/* ---- stats ---- */

static void rstat_lock_cpu(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			cpu_relax();
}
static void rstat_unlock_cpu(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

/*
 * cgroup_rstat_updated(memcg->css.cgroup, cpu) (kernel/cgroup/rstat.c):
 * the fast path is one read of this CPU's rstat_cpu->updated_next; the
 * first update after a flush takes the CPU's cgroup_rstat_cpu_lock and
 * links the memcg and its ancestors until one already linked.  The
 * flusher unlinks under the same lock (do_flush).
 */
static void cgroup_rstat_updated(struct model_worker *mw, struct mcg *memcg)
{
	struct model *m = mw->m;
	int *lock;

	MODEL_REC_LOCAL(m, RL_PERCPU); /* this CPU's updated_next */
	/* A flush unlinks the whole chain under the CPU's lock: the next
	 * update here writes each link and the lock again (npcpu). */
	if (MODEL_REC_ON(m)) {
		for (struct mcg *c = memcg; c; c = mcg_parent(m, c))
			MODEL_REC_PCPU(m, &MODEL_PCPU(m, c->rstat_cpu, mw->id)->updated_next);
		MODEL_REC_PCPU(m, MODEL_PCPU(m, m->rstat_lock, mw->id));
	}
	if (__atomic_load_n(&MODEL_PCPU(m, memcg->rstat_cpu, mw->id)->updated_next,
			    __ATOMIC_RELAXED))
		return;
	lock = MODEL_PCPU(m, m->rstat_lock, mw->id);
	rstat_lock_cpu(lock);
	for (struct mcg *c = memcg; c; c = mcg_parent(m, c)) {
		struct rstat_cpu *rc = MODEL_PCPU(m, c->rstat_cpu, mw->id);
		if (rc->updated_next)
			break;
		/* the parent, or the memcg itself at the root (list end) */
		__atomic_store_n(&rc->updated_next, mcg_parent(m, c) ? mcg_parent(m, c) : c,
				 __ATOMIC_RELAXED);
	}
	rstat_unlock_cpu(lock);
}

/* memcg_rstat_updated(): only the flush trigger differs per design
 * (models/stats/). */
static void memcg_rstat_updated(struct model_worker *mw, struct mcg *memcg, long val)
{
	val = stats_labs(val);
	if (!val)
		return;
	cgroup_rstat_updated(mw, memcg);
	if (mw->m->p.stats->updated)
		mw->m->p.stats->updated(mw, memcg, val);
}

/* __mod_node_page_state(): a per-CPU diff folded into the node's atomic
 * past the vmstat threshold (mm/vmstat.c). */
static void mod_node_state(struct model_worker *mw, struct mnode *pgdat,
			   enum stat_item idx, long val)
{
	long *diff = &mw->node_diff[pgdat->nid][idx], x = *diff + val;

	MODEL_REC_LOCAL(mw->m, RL_PERCPU);
	if (stats_labs(x) > mw->m->node_threshold) {
		MODEL_REC(mw->m, &pgdat->vm_stat[idx], REC_RMW);
		__atomic_add_fetch(&pgdat->vm_stat[idx], x, __ATOMIC_RELAXED);
		x = 0;
	}
	*diff = x;
}

/* Access set (bytes of the per-node block per call): models/access.c,
 * checked against this code by tests/t_access.c. */
void model_mod_lruvec_state(struct model_worker *mw, struct mcg *memcg,
			    unsigned nid, enum stat_item idx, long val)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_mod_lruvec_state, mw, memcg, nid, idx, val);
	struct model *m = mw->m;
	char *pn = memcg->nodeinfo[nid];
	struct mnode *pgdat = pn_pgdat(m, pn);

	/* mem_cgroup_lruvec(): lruvec->pgdat is read on every lookup */
	MODEL_REC(m, PN_AT(m, pn, PN_PGDAT), REC_READ);
	MODEL_REC(m, PN_AT(m, pn, PN_MEMCG), REC_READ);
	MODEL_REC(m, PN_AT(m, pn, PN_STATS_PERCPU), REC_READ);
	if (unlikely(pgdat != &m->nodes[nid]))
		die(1, "model: lruvec->pgdat corrupted");
	mod_node_state(mw, pgdat, idx, val); /* __mod_lruvec_state's node part */
	memcg = pn_memcg(m, pn);          /* lruvec_memcg() */
	mw->exact_state[memcg->id][idx] += val;
	mw->ops.stat_updates++;
	/* every version adds to memcg->vmstats_percpu->state[] (v5: reads
	 * it first): the pointer's load from struct mem_cgroup, in every
	 * design's memcg part alike */
	MODEL_REC(m, mcg_vmstats_percpu_p(m, memcg), REC_READ);

	(m->p.stats->mod_state ? m->p.stats->mod_state : stats_rstat_mod_state)(mw, memcg, nid,
										  idx, val);
}

/* The rstat designs' memcg part of __mod_memcg_lruvec_state(): this CPU's
 * memcg and lruvec slots, then memcg_rstat_updated(). */
void stats_rstat_mod_state(struct model_worker *mw, struct mcg *memcg, unsigned nid,
			   enum stat_item idx, long val)
{
	MODEL_REC_ENTRY_VOID(mw->m, stats_rstat_mod_state, mw, memcg, nid, idx, val);
	struct model *m = mw->m;
	struct lruvec_pcpu *pc = MODEL_PCPU(m, pn_stats_percpu(m, memcg->nodeinfo[nid]), mw->id);
	struct mcg_pcpu *statc = mcg_statc(m, memcg, mw->id);

	MODEL_REC_LOCAL(m, RL_PERCPU);
	MODEL_REC_LOCAL(m, RL_PERCPU);
	MODEL_REC_PCPU(m, &statc->state[KS(m, idx)]);
	MODEL_REC_PCPU(m, &pc->state[KS(m, idx)]);
	pcpu_add(&statc->state[KS(m, idx)], val);
	pcpu_add(&pc->state[KS(m, idx)], val);
	memcg_rstat_updated(mw, memcg, val);
}

void model_count_event(struct model_worker *mw, struct mcg *memcg,
		       enum event_item ev, long n)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_count_event, mw, memcg, ev, n);
	struct mcg_pcpu *statc = mcg_statc(mw->m, memcg, mw->id);

	mw->exact_events[memcg->id][ev] += n;
	mw->ops.events++;
	/* every version adds to memcg->vmstats_percpu->events[]: the
	 * pointer's load from struct mem_cgroup */
	MODEL_REC(mw->m, mcg_vmstats_percpu_p(mw->m, memcg), REC_READ);
	MODEL_REC_LOCAL(mw->m, RL_PERCPU);
	if (mw->m->p.stats->count_event) {
		mw->m->p.stats->count_event(mw, memcg, ev, n);
		return;
	}
	MODEL_REC_PCPU(mw->m, &statc->events[KE(mw->m, ev)]);
	pcpu_add(&statc->events[KE(mw->m, ev)], n);
	memcg_rstat_updated(mw, memcg, n);
}

/* ---- flush ---- */

static void fold_slot(long *cur, long *prev, unsigned n, long *dst_of_level[],
		      unsigned levels)
{
	for (unsigned i = 0; i < n; i++) {
		long v = pcpu_read(&cur[i]), d = v - prev[i];

		if (!d)
			continue;
		prev[i] = v;
		for (unsigned l = 0; l < levels; l++)
			dst_of_level[l][i] += d;
	}
}

/*
 * Flush of `root`'s subtree (the whole tree for the global variants and
 * the periodic flusher; 7d7ef0a4686a flushes a memcg's subtree on the read
 * side).  Per CPU, only memcgs that CPU linked into its updated tree are
 * visited and unlinked under the CPU's cgroup_rstat_cpu_lock, as
 * cgroup_rstat_updated_list() does; the final flush (workers stopped)
 * folds every slot.
 */
static void do_flush(struct model *m, struct model_worker *mw, struct mcg *root)
{
	uint64_t t0 = now_ns(), updates;
	void *ctx;
	bool paused;

	if (__atomic_exchange_n(&m->flush_ongoing, 1, __ATOMIC_ACQUIRE))
		return; /* stats_flush_ongoing: someone else is at it */
	/* Flushes are not part of a recorded program (models/record.h). */
	paused = model_rec_pause(m->rec);
	/* The final flush (mw == NULL, workers stopped) borrows worker 0's
	 * context: queue locks need one. */
	ctx = (mw ? mw : m->workers[0])->lock_ctx[m->nlru_locks];
	tracked_lock(m->lock, m->flush_lock, ctx,
		     mw ? &mw->lock_stats[LC_STATS_FLUSH] : NULL);
	for (unsigned i = 0; i < m->nmemcg; i++) {
		struct mcg *memcg = &m->memcgs[i];
		long *st[MODEL_MAX_DEPTH + 2], *ev[MODEL_MAX_DEPTH + 2];
		unsigned levels = 0;

		if (root && !memcg_in_subtree(m, memcg, root))
			continue;
		for (struct mcg *mi = memcg; mi; mi = mcg_parent(m, mi), levels++) {
			st[levels] = mcg_vmstats(m, mi)->state;
			ev[levels] = mcg_vmstats(m, mi)->events;
		}
		for (unsigned w = 0; w < m->nworkers; w++) {
			struct mcg_pcpu *statc = mcg_statc(m, memcg, w);
			struct rstat_cpu *rc = MODEL_PCPU(m, memcg->rstat_cpu, w);
			int *lock = MODEL_PCPU(m, m->rstat_lock, w);
			bool linked;

			rstat_lock_cpu(lock);
			linked = rc->updated_next != NULL;
			__atomic_store_n(&rc->updated_next, NULL, __ATOMIC_RELAXED);
			rstat_unlock_cpu(lock);
			if (!linked && mw)
				continue; /* nothing updated here since the last flush */
			/* mem_cgroup_css_rstat_flush(): every item of the CPU */
			fold_slot(statc->state, statc->state_prev, K_MEMCG_NR_STAT, st, levels);
			fold_slot(statc->events, statc->events_prev, K_NR_MEMCG_EVENTS, ev, levels);
			__atomic_store_n(&statc->stats_updates, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&statc->stats_updates_tail, 0, __ATOMIC_RELAXED);
			for (unsigned n = 0; n < m->p.nodes; n++) {
				struct lruvec_pcpu *pc = MODEL_PCPU(m,
					pn_stats_percpu(m, memcg->nodeinfo[n]), w);
				unsigned lv = 0;
				long *lst[MODEL_MAX_DEPTH + 2];
				for (struct mcg *mi = memcg; mi; mi = mcg_parent(m, mi))
					lst[lv++] = pn_lruvec_stats(m, mi->nodeinfo[n]);
				fold_slot(pc->state, pc->state_prev, K_NR_NODE_STAT, lst, lv);
			}
		}
		if (__atomic_load_n(&mcg_vmstats(m, memcg)->stats_updates, __ATOMIC_RELAXED))
			__atomic_store_n(&mcg_vmstats(m, memcg)->stats_updates, 0, __ATOMIC_RELAXED);
	}
	updates = __atomic_exchange_n(&m->stats_flush_threshold, 0, __ATOMIC_RELAXED);
	if (mw)
		mw->ops.flushes++;
	tracked_unlock(m->lock, m->flush_lock, ctx,
		       mw ? &mw->lock_stats[LC_STATS_FLUSH] : NULL);
	model_rec_resume(m->rec, paused);
	/* Release: pairs with the acquiring exchange of the next flusher. */
	__atomic_store_n(&m->flush_ongoing, 0, __ATOMIC_RELEASE);
	trace_stats_flush(mw ? mw->id : 0, now_ns() - t0, updates);
}

void model_flush(struct model_worker *mw)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_flush, mw);
	if (mw->m->p.stats->scope != STATS_FLUSH_NONE)
		do_flush(mw->m, mw, &mw->m->memcgs[0]);
}

void model_flush_subtree(struct model_worker *mw, struct mcg *memcg)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_flush_subtree, mw, memcg);
	if (mw->m->p.stats->scope != STATS_FLUSH_NONE)
		do_flush(mw->m, mw, memcg);
}

void model_flush_if_needed(struct model_worker *mw, struct mcg *memcg)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_flush_if_needed, mw, memcg);
	struct model *m = mw->m;

	if (!m->p.stats->should_flush || !m->p.stats->should_flush(m, memcg))
		return;
	MODEL_REC_LOCAL(m, RL_FLUSH_REQ); /* a reader's flush */
	/* per-memcg designs: the subtree (7d7ef0a4686a); global: all */
	do_flush(m, mw, m->p.stats->scope == STATS_FLUSH_SUBTREE ? memcg : &m->memcgs[0]);
}

void model_tick(struct model_worker *mw)
{
	MODEL_REC_ENTRY_VOID(mw->m, model_tick, mw);
	struct model *m = mw->m;
	uint64_t now, next;

	if (++mw->tick & 63 || !m->p.flush_ms || m->p.stats->scope == STATS_FLUSH_NONE)
		return;
	now = now_ns();
	next = __atomic_load_n(&m->next_flush_ns, __ATOMIC_RELAXED);
	if (!next) {
		/* First tick of the run: arm the periodic flush. */
		__atomic_compare_exchange_n(&m->next_flush_ns, &next,
					    now + m->p.flush_ms * 1000000ull, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
		return;
	}
	/* flush_memcg_stats_dwork: whichever worker wins the cmpxchg runs it. */
	if (now >= next &&
	    __atomic_compare_exchange_n(&m->next_flush_ns, &next,
					now + m->p.flush_ms * 1000000ull, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED) &&
	    (!m->p.stats->periodic_checks_trigger ||
	     m->p.stats->should_flush(m, &m->memcgs[0])))
		do_flush(m, mw, &m->memcgs[0]);
}

void model_final_flush(struct model *m)
{
	if (m->p.stats->final_flush)
		m->p.stats->final_flush(m);
	else
		do_flush(m, NULL, NULL);
}
