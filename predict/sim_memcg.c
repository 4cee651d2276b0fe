/*
 * sim_memcg.c - the simulator's program of a memcg model workload,
 * recorded from the model's own execution (models/record.h): the
 * workload runs on one worker under the same model parameters, every
 * access to a line another CPU could hold is logged with its kind and
 * the LRU lock it runs under, and one iteration of the program is the
 * per-operation average of that log:
 *   - a line accessed c times in `ops` operations outside any lock is
 *     accessed floor(c/ops) times per iteration, plus c mod ops times in
 *     every ops iterations, spread evenly (an EVERY block with num);
 *   - a lock taken h times is one lock section per iteration (or h mod
 *     ops in every ops), holding, per access made inside it, that
 *     access's share of the holds the same way;
 *   - local work per iteration: the kernel's entries of the workload
 *     (struct mwl_kentry, each at its price: sim_memcg_local.c sums and
 *     names them) and each recorded kind's events outside the locks
 *     (kind_units below).
 * A line is the 64 B line of its object at the recording (memcg[Ln],
 * vmstats[Ln], pn[Ln] - the mem_cgroup_per_node block -, lruvec_stats[Ln],
 * pgdat, memscale_model for the global flush fields; Ln: levels above the
 * leaf).  With line_size 128 (the adjacent-line prefetcher) the two 64 B
 * lines of each 128 B sector of an object are sector mates (sim.h): a miss
 * on one brings the other along as a shared copy, so a waiter's arrival
 * on the lock word steals its mate from the holder.  Scopes: the leaf's
 * objects per container (and node), the ancestors' shared by all, pgdat
 * per node.
 * Each lock's sections get the work its holder did while holding it
 * (section_work): an LRU lock's rounds are its list operations, a
 * zone->lock's (the page allocator's, models/page_alloc.c) the pages one
 * rmqueue_bulk / free_pcppages_bulk moves, each round the kernel's
 * instructions per page taken or returned (kzone_ns, counted like
 * kpath_ns below; without a count its list operations and per-CPU
 * NR_FREE_PAGES updates) and its struct page lines (zone_page_line_ns);
 * the zone's own lines (free_area[0]'s head and nr_free, vm_stat) are
 * recorded lines like any other.
 * Inside each LRU lock section, as the kernel's loop runs it (mm/swap.c:
 * folios_put_refs and the folio batch adds touch every folio under the
 * lock), per LRU list operation: list_ns/2, the folio's own struct page
 * line and its own run's list neighbours (folio_line_ns below); the
 * neighbours another section put on the list are recorded lines
 * ("folio[Ln]", models/record.h model_rec_nbr), priced by their last
 * writer like any other, and the folio flag and refcount atomics are
 * recorded per-CPU work (RL_FOLIO_ATOMIC, atomic_ns).  The instruction
 * time of the kernel path inside an LRU section is kpath_ns per list
 * operation (section_work): instructions counted in a distribution
 * kernel (predict/work/kpath.ini, the one of the side's era, knob
 * kpath, a stand-in for its commit) at the list probe's time per
 * instruction.  Not in it: irqsave/restore (inside _raw_spin_lock_irqsave
 * and the unlock, which the count leaves out; no sourced cycle count).
 * Outside the locks, the same pace prices a workload's counted system-call
 * body (build_shared) and reclaim's own work per folio it frees
 * (RL_RECLAIM_FOLIO, kreclaim_ns: kswapd's folios and the workers' alike).
 * The stats flushers (periodic, update path, readers; predict/
 * sim_flusher.c): their share of each core's time, and the per-CPU lines
 * written only under a lock taken back inside its sections, from the
 * flush requests and per-CPU lines the recording counted; the flushes
 * themselves are not recorded (models/memcg.c do_flush pauses).
 * Not in the program: VMA and page-table locks (the shared mm's lines are
 * in it in threads mode, models/mmlock.c), capacity misses except the
 * measured walk step.  `memscale model program WORKLOAD` prints one,
 * `--check` compares it with a second recording (sim_memcg_check.c,
 * tests/sim_record.t).
 */
#include "predict/sim_memcg.h"
#include "predict/footprint.h"
#include "predict/kpath.h"
#include "predict/sim_flusher.h"
#include "predict/sim_memcg_local.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/record.h"
#include "models/stats/stats.h"

/* A recorded scope is cast to the simulator's (sim_line() below): the
 * two enums must agree value for value. */
#define SAME_SCOPE(s, r) _Static_assert((int)(s) == (int)(r), #s " != " #r " (models/record.h)")
SAME_SCOPE(SCOPE_GLOBAL, RS_GLOBAL);
SAME_SCOPE(SCOPE_NODE, RS_NODE);
SAME_SCOPE(SCOPE_MEMCG, RS_MEMCG);
SAME_SCOPE(SCOPE_MEMCG_NODE, RS_MEMCG_NODE);
SAME_SCOPE(SCOPE_CORE, RS_CORE_);
SAME_SCOPE(SCOPE_MEMCG_WALK, RS_MEMCG_WALK);
SAME_SCOPE(SCOPE_MEMCG_NODE_WALK, RS_MEMCG_NODE_WALK);

bool memcg_sim_known(const char *workload)
{
	const struct model_recorder *r = model_recorder();

	return r && r->known(workload);
}

const char *memcg_sim_workload_at(size_t i)
{
	const struct model_recorder *r = model_recorder();

	return r ? r->workload_at(i) : NULL;
}

int memcg_sim_record(const char *workload, const struct model_params *p,
		     struct model_rec *rec)
{
	const struct model_recorder *r = model_recorder();

	if (!r || !r->known(workload))
		return -1;
	return r->record(workload, p, MODEL_REC_WARMUP, MODEL_REC_OPS, rec) ? -1 : 0;
}

void memcg_sim_line_name(const struct model_rec *r, unsigned line,
			 unsigned line_size, char *buf, size_t len)
{
	snprintf(buf, len, "%s+%zu", r->lines[line].obj,
		 r->lines[line].off / line_size * line_size);
}

static unsigned prog_line(struct sim_prog *p, const struct model_rec *r,
			  unsigned line, unsigned line_size)
{
	char name[40];

	(void)line_size; /* programs name 64 B lines; 128 B pairs are mates */
	memcg_sim_line_name(r, line, 64, name, sizeof(name));
	return sim_line(p, name, (enum sim_scope)r->lines[line].scope);
}

/* The 128 B sectors: every two recorded lines of one object in one
 * sector are mates (the recorder keeps one entry per 64 B line). */
static void pair_sectors(struct sim_prog *p, const struct model_rec *r)
{
	for (unsigned a = 0; a < r->nlines; a++)
		for (unsigned b = a + 1; b < r->nlines; b++) {
			const struct rec_line *la = &r->lines[a], *lb = &r->lines[b];
			unsigned pa, pb;

			if (strcmp(la->obj, lb->obj) || la->scope != lb->scope ||
			    la->off / 128 != lb->off / 128 || la->off == lb->off)
				continue;
			pa = prog_line(p, r, a, 64);
			pb = prog_line(p, r, b, 64);
			if (p->lines[pa].mate < 0 && p->lines[pb].mate < 0)
				sim_line_mate(p, pa, pb);
		}
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* `count` accesses in `per` arrivals: floor(count/per) every arrival,
 * the rest spread evenly over a block of period per/g. */
static void emit_rate(struct sim_prog *p, enum sim_op_kind kind, unsigned line,
		      uint64_t count, uint64_t per)
{
	uint64_t q = count / per, rem = count % per;

	for (uint64_t i = 0; i < q; i++)
		sim_access(p, kind, line);
	if (rem) {
		uint64_t g = gcd64(rem, per);
		size_t blk = sim_every_n(p, (unsigned)(rem / g), (unsigned)(per / g));

		sim_access(p, kind, line);
		sim_every_end(p, blk);
	}
}

/*
 * The order a line's accesses are issued in, in a stretch of the program
 * (one iteration outside the locks, one round of a lock section): the
 * reads that did not follow a write of the line first, then its writes
 * and atomics, then the reads that followed one (model_rec.warm).  So a
 * page_counter read after its atomic add is the hit it is in the kernel,
 * not a miss and an upgrade, and a read that comes first still finds the
 * line where the last writer left it.
 */
enum issue_slot { IS_COLD_READ, IS_WRITE, IS_RMW, IS_WARM_READ, IS_NR };
static const enum sim_op_kind op_of_slot[IS_NR] = { SOP_READ, SOP_WRITE, SOP_RMW, SOP_READ };

/* The accesses of line l at place `place` (0 outside, 1 + lock) in slot. */
static uint64_t slot_count(const struct model_rec *r, unsigned l, unsigned place,
			   enum issue_slot slot)
{
	uint64_t reads = r->n[l][REC_READ][place], warm = r->warm[l][place];

	if (warm > reads)
		warm = reads;
	switch (slot) {
	case IS_COLD_READ: return reads - warm;
	case IS_WRITE: return r->n[l][REC_WRITE][place];
	case IS_RMW: return r->n[l][REC_RMW][place];
	case IS_WARM_READ: return warm;
	default: return 0;
	}
}

/* The footprint model's reuse: uniform, or a scan in the band's variant */
static enum fp_model fp_model_of(const struct memcg_costs *c)
{
	return c->fp_scan ? FP_SCAN : FP_UNIFORM;
}

/*
 * The target's caches as one core sees them (predict/footprint.h): its
 * L2, its share of its socket's LLC among the cores simulated there.
 * False without cache sizes and a sourced DRAM latency (the lines
 * priced with them then cost an L1 hit or a transfer, as each caller
 * says).
 */
static bool target_caches(const struct memcg_sim_cfg *cfg, const struct memcg_costs *c,
			  struct fp_cache *fc)
{
	unsigned cpus = cfg->cpus ? cfg->cpus : 1, cores = cpus, sharers;

	if (!(c->l2_bytes > 0 && c->llc_bytes > 0 && c->dram_ns > 0))
		return false;
	if (cfg->phys_cores && cfg->phys_cores < cores)
		cores = cfg->phys_cores;
	sharers = cores / (c->sockets ? c->sockets : 1);
	*fc = (struct fp_cache){
		.l2_bytes = c->l2_bytes, .llc_bytes = c->llc_bytes,
		.llc_sharers = sharers ? sharers : 1,
		.llc_victim = c->llc_victim,
		.l2_ns = c->l2_ns > 0 ? c->l2_ns : c->sim.hit_ns,
		.llc_ns = c->llc_ns > 0 ? c->llc_ns : c->sim.hit_ns,
		.dram_ns = c->dram_ns };
	return true;
}

/*
 * The folio lines one LRU list operation touches under the lock, beyond
 * list_ns/2 (the measured, L1-hot list probe) and what the recording
 * has as program lines, as mm/swap.c's loops run
 * (folio_batch_move_lru -> lruvec_add_folio -> list_add at the head;
 * folios_put_refs / __page_cache_release -> lruvec_del_folio ->
 * list_del), `per_hold` operations per lock section, adds and deletes
 * taken as half each (the region workloads' steady state):
 *   - the folio's own struct page line.  An add finds it where the
 *     footprint model (predict/footprint.h) puts a line last touched
 *     when the folio was faulted, on average per_hold/2 operations
 *     earlier (the per-CPU batch fills between the fault and the lock):
 *     `op_bytes` = 4 KiB written per operation plus 4 KiB read per page
 *     copy, at the target's L2, its share of the LLC and DRAM.  A delete
 *     finds it hot: the unmap or truncate loop touched the struct page
 *     just before (zap_pte_range's folio_remove_rmap_ptes, a gather of
 *     at most a few hundred pages), so an L1 hit.
 *   - the neighbours of the folio's own run (list_add's old first folio
 *     when this section added it; list_del's neighbours of the same
 *     run): this CPU's hot lines, an L1 hit each.  The other neighbours
 *     - another section's, so on a lruvec several CPUs feed another
 *     CPU's - are recorded lines, "folio[Ln]" (models/record.h
 *     model_rec_nbr): `nbr_rec` of them per operation, priced by the
 *     simulator by their last writer.  An add writes one neighbour, a
 *     delete two: 1.5 per operation, less nbr_rec, are the hits.
 * The flag and refcount atomics are recorded too (RL_FOLIO_ATOMIC,
 * atomic_ns each).  Without cache sizes, a sourced DRAM latency or
 * sourced L2/LLC latencies, the own line costs an L1 hit (no VM probe
 * stands in for a target's memory; the ledger prints which was used).
 * The instructions of the kernel path are priced apart (kpath_ns,
 * section_work); irqsave/restore are not (no sourced cycle count of
 * pushf/cli/popf found).
 */
static double folio_line_ns(const struct model_rec *r, const struct memcg_sim_cfg *cfg,
			    const struct memcg_costs *c, unsigned per_hold, double nbr_rec)
{
	double hit = c->sim.hit_ns, own_add = hit, op_bytes, nbr_hits;
	struct fp_cache fc;
	struct fp_where w;

	if (per_hold < 1)
		per_hold = 1;
	op_bytes = 4096.0 * (1 + r->copies) + 64;
	if (target_caches(cfg, c, &fc) &&
	    !fp_locate(&fc, op_bytes * per_hold / 2.0, fp_model_of(c), &w))
		own_add = w.ns;
	nbr_hits = 1.5 - nbr_rec;
	if (nbr_hits < 0)
		nbr_hits = 0;
	/* own line: half the operations adds (located), half deletes (hot) */
	return 0.5 * (own_add + hit) + nbr_hits * hit;
}

/* The recorded neighbour-line writes (model_rec_nbr's "folio[Ln]"
 * lines) made while holding lock lk. */
static uint64_t nbr_writes(const struct model_rec *r, unsigned lk)
{
	uint64_t n = 0;

	for (unsigned l = 0; l < r->nlines; l++)
		if (!strncmp(r->lines[l].obj, "folio[", 6))
			n += r->n[l][REC_WRITE][lk + 1];
	return n;
}

/*
 * One lock section, interleaved as the kernel's loop runs it: the
 * section is `steps` rounds (one per list operation: the folio loop of
 * folio_batch_move_lru / folios_put_refs), each doing its share of every
 * recorded access and of the in-lock work.  A waiter that steals the
 * lock word's sector mate between two rounds therefore costs the holder
 * an ownership request at its next write there; grouped by line instead,
 * all writes to a line would run back to back and only the first, which
 * misses anyway (the previous holder wrote it), would meet a steal.
 * Whole accesses per hold are spread over the rounds (Bresenham); the
 * fraction left over is one EVERY block in the last round.
 */
static void lock_section(struct sim_prog *p, const struct model_rec *r,
			 unsigned lk, unsigned lock, unsigned line_size, double local_ns,
			 unsigned steps)
{
	uint64_t h = r->holds[lk];

	if (steps < 1)
		steps = 1;
	sim_lock_op(p, lock);
	for (unsigned j = 0; j < steps; j++) {
		for (unsigned l = 0; l < r->nlines; l++)
			for (unsigned k = 0; k < IS_NR; k++) {
				uint64_t n = slot_count(r, l, lk + 1, k), q = n / h;
				uint64_t here = q * (j + 1) / steps - q * j / steps;
				unsigned line;

				if (!n)
					continue;
				line = prog_line(p, r, l, line_size);
				for (uint64_t i = 0; i < here; i++)
					sim_access(p, op_of_slot[k], line);
				if (j == steps - 1 && n % h)
					emit_rate(p, op_of_slot[k], line, n % h, h);
			}
		if (local_ns > 0)
			sim_local(p, local_ns / steps);
	}
	sim_unlock_op(p, lock);
}

/* Is lock lk of the recording a zone->lock (its word in a "zone")? */
static bool is_zone_lock(const struct model_rec *r, unsigned lk)
{
	return !strcmp(r->lines[r->lock_line[lk]].obj, "zone");
}

/* The chance that another CPU of this CPU's node wrote a line of the
 * node's pages last: (n-1)/n, n the CPUs simulated per node. */
static double node_foreign(const struct memcg_sim_cfg *cfg)
{
	unsigned nodes = cfg->p.nodes ? cfg->p.nodes : 1, cpus = cfg->cpus ? cfg->cpus : 1;
	unsigned per_node = cpus / nodes ? cpus / nodes : 1;

	return (double)(per_node - 1) / per_node;
}

/*
 * A struct page line the page allocator touches under zone->lock and
 * this CPU did not just touch (models/page_alloc.c: a page
 * rmqueue_bulk takes from the buddy lists; a drained page and its buddy
 * were touched just before the lock: RL_PAGE_HOT, an L1 hit).  Pages pass through the
 * node's buddy lists, which every CPU of the node shares: the line was
 * last written by another CPU of the node with probability (n-1)/n, n
 * the CPUs per node (a transfer), else by this CPU about a pcp list's
 * worth of pages earlier (pcp->high pages of op_bytes each, located by
 * the footprint model as folio_line_ns does; an L1 hit without the
 * target's cache sizes and latencies).
 */
static double zone_page_line_ns(const struct model_rec *r, const struct memcg_sim_cfg *cfg,
				const struct memcg_costs *c)
{
	double foreign = node_foreign(cfg), own = c->sim.hit_ns;
	double op_bytes = 4096.0 * (1 + r->copies) + 64;
	struct fp_cache fc;
	struct fp_where w;

	if (target_caches(cfg, c, &fc) &&
	    !fp_locate(&fc, op_bytes * (r->pcp_high ? r->pcp_high : 1), fp_model_of(c), &w))
		own = w.ns;
	return foreign * c->sim.xfer_ns + (1 - foreign) * own;
}

/*
 * A struct page line of any page of a node that reclaim keeps full
 * (RL_PAGE_FAR: buddy_merge_likely()'s order-1 buddy in
 * free_pcppages_bulk, models/page_alloc.c).  Its page is in use by any
 * CPU of the node, or free; nothing ties it to this CPU's recent work.
 * So it is located by the footprint model (predict/footprint.h) as a
 * line of the node's whole struct page array, MODEL_STRUCT_PAGE_BYTES
 * per page of the nominal MODEL_NODE_BYTES node (1 GiB), uniform reuse
 * (a scan in the sensitivity band's variant): with a few tens of MB of
 * cache, a DRAM access with probability above 0.9.  Without the target's
 * caches: another CPU of the node wrote it last (a transfer) with
 * probability (n-1)/n, as zone_page_line_ns.
 */
double memcg_zone_far_line_ns(const struct memcg_sim_cfg *cfg, const struct memcg_costs *c,
			      struct fp_where *where)
{
	double foreign = node_foreign(cfg);
	double array = (double)(MODEL_NODE_BYTES / PAGE_SIZE_MODEL) * MODEL_STRUCT_PAGE_BYTES;
	struct fp_cache fc;
	struct fp_where w;

	if (target_caches(cfg, c, &fc) && !fp_locate(&fc, array, fp_model_of(c), &w)) {
		if (where)
			*where = w;
		return w.ns;
	}
	if (where)
		*where = (struct fp_where){ .p_dram = NAN, .ns = NAN };
	return foreign * c->sim.xfer_ns + (1 - foreign) * c->sim.hit_ns;
}

/*
 * The rounds of lock lk's sections and the work inside one, from what
 * the recording did while holding that lock:
 *   - an LRU lock (and any other): a round per list operation, at most
 *     a folio batch (MODEL_MAX_BATCH); each the kernel's instructions
 *     per folio inside the section (kpath_ns: predict/kpath.h, its stat
 *     updates' per-CPU adds included; reclaim's isolations at
 *     kpath_iso_ns), else list_ns/2, plus the folio lines
 *     (folio_line_ns);
 *   - a zone->lock: a round per page moved (rmqueue_bulk /
 *     free_pcppages_bulk, at most ZONE_MAX_ROUNDS); the kernel's
 *     instructions per page taken and per page returned (kzone_ns, its
 *     NR_FREE_PAGES adds included), else list_ns/2 per list operation,
 *     plus the struct page lines (zone_page_line_ns, memcg_zone_far_line_ns);
 * and for either, each per-CPU add and walk level done under it (the
 * stat updates of update_lru_size() and their memcg_rstat_updated()
 * walk, zone->lock's NR_FREE_PAGES updates) at its probe's figure,
 * unit[kind].
 */
#define ZONE_MAX_ROUNDS 512
static void section_work(const struct model_rec *r, const struct memcg_sim_cfg *cfg,
			 const struct memcg_costs *c, const double *unit, unsigned lk,
			 unsigned *steps, double *in_lock)
{
	uint64_t h = r->holds[lk];
	const uint64_t *in = r->local_in[lk];
	double priced = 0;

	double kpath_ns = c->kpath_ns[cfg->p.kpath], iso_ns = c->kpath_iso_ns[cfg->p.kpath];
	const double *kz = c->kzone_ns[cfg->p.kpath];
	bool zone = is_zone_lock(r, lk);
	bool kpath = zone ? kz[0] > 0 && kz[1] > 0 : kpath_ns > 0;

	*steps = 1;
	*in_lock = 0;
	if (!h)
		return;
	/* the kernel path's count holds a section's stat updates (an LRU
	 * section's lru_size and lruvec stats, a zone section's
	 * NR_FREE_PAGES): its per-CPU adds are in the count, not priced
	 * again */
	for (unsigned k = 0; k < RL_NR; k++)
		if (k != RL_LIST && !(kpath && k == RL_PERCPU))
			priced += (double)in[k] * unit[k];
	if (zone) {
		if (in[RL_BUDDY_PAGE] >= h)
			*steps = (unsigned)((in[RL_BUDDY_PAGE] + h / 2) / h);
		if (*steps > ZONE_MAX_ROUNDS)
			*steps = ZONE_MAX_ROUNDS;
		/* the pages taken are the ones whose struct page line
		 * rmqueue_bulk records (RL_PAGE_LINE), the rest of the pages
		 * moved were returned */
		uint64_t took = in[RL_PAGE_LINE] < in[RL_BUDDY_PAGE] ? in[RL_PAGE_LINE]
								  : in[RL_BUDDY_PAGE];
		double work = kpath ? (double)took * kz[0] + (double)(in[RL_BUDDY_PAGE] - took) * kz[1]
				    : (double)in[RL_LIST] * c->list_ns / 2;

		*in_lock = (work + (double)in[RL_PAGE_LINE] * zone_page_line_ns(r, cfg, c) +
			    (double)in[RL_PAGE_FAR] * memcg_zone_far_line_ns(cfg, c, NULL) +
			    (double)in[RL_PAGE_HOT] * c->sim.hit_ns + priced) / (double)h +
			   (kpath ? c->khold_ns[cfg->p.kpath] : 0);
		return;
	}
	if (in[RL_LIST] >= h)
		*steps = (unsigned)((in[RL_LIST] + h / 2) / h);
	if (*steps > MODEL_MAX_BATCH)
		*steps = MODEL_MAX_BATCH;
	*in_lock = priced / (double)h;
	if (in[RL_LIST]) {
		/* reclaim's isolations (a subset of the list operations)
		 * at their own count: isolate_lru_folios updates the stats
		 * once per batch */
		uint64_t iso = in[RL_LIST_ISOLATE] < in[RL_LIST] ? in[RL_LIST_ISOLATE] : in[RL_LIST];

		*in_lock += (double)in[RL_LIST] / (double)h *
			    folio_line_ns(r, cfg, c, *steps,
					  (double)nbr_writes(r, lk) / (double)in[RL_LIST]);
		*in_lock += kpath ? ((double)(in[RL_LIST] - iso) * kpath_ns + (double)iso * iso_ns) /
					    (double)h + c->khold_ns[cfg->p.kpath]
				  : (double)in[RL_LIST] / (double)h * c->list_ns / 2;
	}
}

/* The mean transfer from an owner's CPU to the flusher's: the owners
 * spread over the target's sockets, those on another socket at
 * remote_factor. */
static double flusher_xfer_ns(const struct memcg_sim_cfg *cfg, const struct memcg_costs *c)
{
	unsigned s = c->sockets ? c->sockets : 1, cpus = cfg->cpus ? cfg->cpus : 1;
	double rf = c->sim.remote_factor > 1 ? c->sim.remote_factor : 1;

	if (s > cpus)
		s = cpus;
	return c->sim.xfer_ns * (1 + (1 - 1.0 / s) * (rf - 1));
}

/* The flushers beside the workers' (or the reclaimers') part of prog
 * built from recording r (per: its operations): each core's share into
 * its local work *local_io, the lines taken back under a lock into that
 * lock's work per hold, in_lock_of[lock]; prog->flusher keeps the
 * workers' for --explain (predict/sim_flusher.c). */
static int price_flushers(struct sim_prog *prog, const struct model_rec *r,
			  const struct memcg_sim_cfg *cfg, const struct memcg_costs *c,
			  double per, double *local_io, double *in_lock_of)
{
	double local = *local_io;
	struct sim_flusher fl;
	double xf = flusher_xfer_ns(cfg, c);
	/* the workers' iteration: a first run's, else its local work */
	double iter = !prog->actor_start && cfg->iter_ns > local ? cfg->iter_ns : local;
	unsigned under[REC_MAX_LOCKS], out = r->npcpu;

	/* a line written only under one lock comes back in its section,
	 * every other one in the owner's local work */
	for (unsigned i = 0; i < r->nlocks; i++)
		out -= under[i] = memcg_pcpu_only_under(r, i);
	if (memcg_flusher(&cfg->p, cfg->cpus ? cfg->cpus : 1, r->npcpu, out,
			  (double)r->local[RL_FLUSH_REQ] / per, iter, xf, &fl))
		return -1;
	fl.iter_from_run = iter > local;
	local *= 1 + fl.share;
	for (unsigned i = 0; i < r->nlocks; i++) {
		unsigned n = under[i];
		double p, add;

		if (!n || !r->holds[i])
			continue;
		/* the gap between a core's holds: its iteration over
		 * the operations one hold serves */
		p = memcg_flush_between(&fl, iter * per / (double)r->holds[i]);
		add = n * p * xf;
		in_lock_of[i] += add;
		if (add > fl.in_lock_ns) {
			fl.in_lock_ns = add;
			fl.in_lock_lines = n;
			fl.in_lock_p = p;
		}
	}
	if (!prog->actor_start) /* the workers' part: for --explain */
		prog->flusher = fl;
	*local_io = local;
	return 0;
}

/* Test-only negative control: MEMSCALE_SIM_MUTATE=1 drops the first
 * access of every program (or adds one to a program without any), which
 * `model program --check` must catch. */
static bool mutate(void)
{
	const char *e = getenv("MEMSCALE_SIM_MUTATE");

	return e && *e == '1';
}

/* One part of a program (the workers', or the reclaimers' after
 * sim_actor_begin) from one recording, appended to prog. */
/*
 * The price of one recorded event of each kind but RL_LIST, in the lock
 * section whose lock was held when the model did it, else outside (the
 * page allocator's kinds occur under zone->lock only: section_work).
 *
 * A walk level's probe (harness/calib_probe.c: the model's own walk,
 * depth 5 minus depth 1, its lines where the kernel footprint leaves
 * them; not measured: for 8d59d2214c23 three dependent loads that miss
 * with probability walk_miss, for 9cee7e8ef3e3 two hits) times everything
 * one level does.  The recording prices part of that apart: the level's
 * per-CPU add is an RL_PERCPU, and 8d59d2214c23's loads of
 * memcg->vmstats_percpu and css.parent are RL_WALK_PERMEMCG_READS
 * recorded reads of the memcg's lines (mc_layout offsets), priced as L1
 * hits or, where another CPU wrote the line, as transfers.  So the unit
 * is the probe less those (at least 0): the loop and the loads' capacity
 * misses, which stay local.  9cee7e8ef3e3's level reads only this CPU's
 * struct: its probe less the per-CPU add.
 */
static void kind_units(const struct memcg_sim_cfg *cfg, const struct memcg_costs *c,
		       double unit[RL_NR])
{
	double step = c->walk_step_ns[0];

	if (step != step) /* not measured */
		step = 3 * (c->sim.hit_ns + c->walk_miss * c->miss_ns);
	unit[RL_PERCPU] = c->percpu_ns;
	/* a locked RMW of the folio's own struct page line (this CPU's) */
	unit[RL_FOLIO_ATOMIC] = c->sim.atomic_ns;
	/* reclaim's own work on a folio it frees, outside the locks
	 * (kswapd's reclaim calls as the workers' direct ones) */
	unit[RL_RECLAIM_FOLIO] = c->kreclaim_ns[cfg->p.kpath];
	unit[RL_WALK_PERMEMCG] = step - c->percpu_ns - RL_WALK_PERMEMCG_READS * c->sim.hit_ns;
	if (!(unit[RL_WALK_PERMEMCG] > 0))
		unit[RL_WALK_PERMEMCG] = 0;
	unit[RL_WALK_CACHED] = c->walk_step_ns[1];
	if (unit[RL_WALK_CACHED] != unit[RL_WALK_CACHED])
		unit[RL_WALK_CACHED] = 2 * c->sim.hit_ns;
	unit[RL_WALK_CACHED] -= c->percpu_ns;
	if (!(unit[RL_WALK_CACHED] > 0))
		unit[RL_WALK_CACHED] = 0;
}

static int build_part(struct sim_prog *prog, const struct model_rec *r,
		      const struct memcg_sim_cfg *cfg, const struct memcg_costs *c)
{
	double per = (double)r->ops, local, cs_scale;
	double in_lock_of[REC_MAX_LOCKS] = { 0 }, unit[RL_NR] = { 0 };
	unsigned steps_of[REC_MAX_LOCKS] = { 0 };
	unsigned ls = cfg->line_size ? cfg->line_size : 64;
	bool dropped = !mutate();
	struct memcg_local_terms t = { .entry = c->entry_ns[cfg->p.mitigations],
		.fault_ns = c->fault_ns, .kfault_ns = c->kfault_ns[cfg->p.kpath],
		.syscall_ns = c->syscall_ns, .page_ns = c->page_ns, .clear_ns = c->clear_ns,
		.atomic_ns = c->sim.atomic_ns, .extra_local_ns = c->extra_local_ns,
		.body_ns = c->body_ns };

	cs_scale = c->cs_scale > 0 ? c->cs_scale : 1;
	kind_units(cfg, c, unit);
	/* Per lock: its rounds per section and its in-lock work (see
	 * section_work); list operations outside every lock stay outside. */
	{
		uint64_t list_in = 0;

		for (unsigned i = 0; i < r->nlocks; i++) {
			section_work(r, cfg, c, unit, i, &steps_of[i], &in_lock_of[i]);
			in_lock_of[i] *= cs_scale;
			list_in += r->local_in[i][RL_LIST];
		}
		t.out_list = (double)(r->local[RL_LIST] - list_in) / per * c->list_ns / 2;
	}
	if (!isfinite(t.entry))
		t.entry = 0; /* fault_ns and syscall_ns hold this machine's */
	local = memcg_local_entries(r, &t);
	for (unsigned k = 0; k < RL_NR; k++) {
		uint64_t outside = r->local[k];

		if (k == RL_LIST)
			continue;
		for (unsigned i = 0; i < r->nlocks; i++)
			outside -= r->local_in[i][k];
		local += t.kind_ns[k] = (double)outside / per * unit[k];
	}
	t.flush_ns = -local;
	if (price_flushers(prog, r, cfg, c, per, &local, in_lock_of))
		return -1;
	t.flush_ns += local;
	t.total = local;
	if (!prog->actor_start) /* the workers' part: for --explain */
		memcg_local_parts(&prog->local_parts, r, &t);
	sim_local(prog, local);
	for (unsigned l = 0; l < r->nlines; l++)
		for (unsigned k = 0; k < IS_NR; k++) {
			uint64_t n = slot_count(r, l, 0, k);
			if (n && !dropped) {
				dropped = true; /* the negative control */
				n--;
			}
			if (n)
				emit_rate(prog, op_of_slot[k], prog_line(prog, r, l, ls), n, r->ops);
		}
	if (!dropped) /* nothing to drop: the control adds an access */
		sim_access(prog, SOP_READ, sim_line(prog, "mutant+0", SCOPE_GLOBAL));
	if (ls == 128)
		pair_sectors(prog, r);
	for (unsigned i = 0; i < r->nlocks; i++) {
		char name[40];
		unsigned line = prog_line(prog, r, r->lock_line[i], ls), lock;
		uint64_t q = r->holds[i] / r->ops, rem = r->holds[i] % r->ops;

		snprintf(name, sizeof(name), "lock %s", prog->lines[line].name);
		lock = sim_lock(prog, name, prog->lines[line].scope, cfg->lock_kind, line);
		for (uint64_t h = 0; h < q; h++)
			lock_section(prog, r, i, lock, ls, in_lock_of[i], steps_of[i]);
		if (rem) {
			uint64_t g = gcd64(rem, r->ops);
			size_t blk = sim_every_n(prog, (unsigned)(rem / g),
						 (unsigned)(r->ops / g));
			lock_section(prog, r, i, lock, ls, in_lock_of[i], steps_of[i]);
			sim_every_end(prog, blk);
		}
	}
	return 0;
}

static uint64_t scaled_count(uint64_t n, double w)
{
	return (uint64_t)llround((double)n * w);
}

/*
 * The workers' recording when the reclaimers take the share f of the
 * reclaim calls: the recording r without its reclaim calls plus 1 - f of
 * them (r->actor, counted over the same window), line by line and lock
 * by lock.  Not in it: the pages the reclaimers free reach the workers
 * through rmqueue_bulk() a little more often than the recorded direct
 * reclaim's do (those freed first in a walk stay on the reclaimer's own
 * pcp list: pcp->high of MODEL_WALK_PAGES, 9% at v5.10's 378 of 4096).
 */
static int merge_direct(struct model_rec *m, const struct model_rec *r, double w)
{
	const struct model_rec *a = r->actor;
	int lock_of[REC_MAX_LOCKS];

	memcpy(m, r, sizeof(*m));
	m->actor = NULL;
	m->pg_run = NULL; /* r's: not the merge's to keep or free */
	m->pg_nrun = 0;
	for (unsigned lk = 0; lk < a->nlocks; lk++) {
		const struct rec_line *ln = &a->lines[a->lock_line[lk]];
		int l = model_rec_line_of(m, ln->obj, ln->off, ln->scope), i;

		if (l < 0 || (i = model_rec_lock_of(m, (unsigned)l)) < 0)
			return -1;
		lock_of[lk] = i;
		m->holds[i] += scaled_count(a->holds[lk], w);
		for (unsigned k = 0; k < RL_NR; k++) {
			uint64_t x = scaled_count(a->local_in[lk][k], w);

			m->local_in[i][k] += x;
			m->local[k] += x; /* local[] counts the in-lock part too */
		}
	}
	/* the part outside every lock, rounded on its own (local[] never
	 * falls below the sum of local_in[]) */
	for (unsigned k = 0; k < RL_NR; k++) {
		uint64_t out = a->local[k];

		for (unsigned lk = 0; lk < a->nlocks; lk++)
			out -= a->local_in[lk][k];
		m->local[k] += scaled_count(out, w);
	}
	for (unsigned l = 0; l < a->nlines; l++) {
		int ml = model_rec_line_of(m, a->lines[l].obj, a->lines[l].off, a->lines[l].scope);

		if (ml < 0)
			return -1;
		for (unsigned lk = 0; lk <= a->nlocks; lk++) {
			unsigned at = lk ? (unsigned)lock_of[lk - 1] + 1 : 0;

			for (unsigned k = 0; k < REC_NKIND; k++)
				m->n[ml][k][at] += scaled_count(a->n[l][k][lk], w);
			m->warm[ml][at] += scaled_count(a->warm[l][lk], w);
		}
	}
	m->unknown += a->unknown;
	return 0;
}

bool memcg_sim_has_actor(const struct model_rec *r)
{
	return r && r->actor && r->actor->ops;
}

/* The program with the reclaimers taking the share f of the reclaim
 * calls: the workers' part, then (a recording with reclaim calls apart)
 * the reclaimers' part, one reclaim call an iteration (no kernel entry
 * and no extra local work: kswapd is a kernel thread). */
static int build_shared(struct sim_prog *prog, const char *workload, const struct model_rec *r,
			const struct memcg_sim_cfg *cfg, const struct memcg_costs *c, double f)
{
	struct model_rec *m;
	struct memcg_costs ca = *c;
	int rc;
	double body = c->insn_ns > 0 ? kpath_body(kpath_reference(), cfg->p.kpath, workload, NULL)
				     : NAN;

	/* the workload's system calls beyond their entry, counted
	 * (predict/kpath.h body.WORKLOAD): the workers' local work */
	ca.body_ns = 0;
	if (body > 0) {
		ca.body_ns = body * c->insn_ns;
		ca.extra_local_ns += ca.body_ns;
	}
	c = &ca;
	sim_prog_init(prog, workload);
	/* the footprint that ages read copies (sim.h): each page zeroed
	 * writes 4 KiB, each page copied reads 4 KiB and writes 4 KiB */
	prog->iter_bytes = 4096.0 * (r->clears + 2 * r->copies);
	if (!memcg_sim_has_actor(r))
		return build_part(prog, r, cfg, c);
	m = xcalloc(1, sizeof(*m));
	rc = merge_direct(m, r, 1 - f);
	if (!rc)
		rc = build_part(prog, m, cfg, c);
	free(m);
	if (rc)
		return rc;
	sim_actor_begin(prog);
	ca.extra_local_ns = ca.body_ns = 0; /* kswapd: no body, no extra local work */
	return build_part(prog, r->actor, cfg, &ca);
}

int memcg_sim_build_from(struct sim_prog *prog, const char *workload,
			 const struct model_rec *r, const struct memcg_sim_cfg *cfg,
			 const struct memcg_costs *c)
{
	return build_shared(prog, workload, r, cfg, c, 0);
}

int memcg_sim_build(struct sim_prog *prog, const char *workload,
		    const struct memcg_sim_cfg *cfg, const struct memcg_costs *c)
{
	const struct model_rec *r = model_rec_cached(workload, &cfg->p, MODEL_REC_WARMUP,
						     MODEL_REC_OPS);

	if (!r)
		return -1;
	return memcg_sim_build_from(prog, workload, r, cfg, c);
}

/* MEMSCALE_KSWAPD_SHARE, read once: the simulations of one command run
 * on several threads (--jobs), and a bad value must end the command with
 * one line, not one per thread.  0: not set. */
static pthread_once_t kswapd_env_once = PTHREAD_ONCE_INIT;
static double kswapd_env_share;

static void read_kswapd_env(void)
{
	const char *e = getenv("MEMSCALE_KSWAPD_SHARE");
	char *end;
	double x;

	if (!e || !*e)
		return;
	x = strtod(e, &end);
	if (*end || !(x > 0 && x <= 1))
		die(EXIT_USAGE, "MEMSCALE_KSWAPD_SHARE: '%s' is not a share in (0, 1]", e);
	kswapd_env_share = x;
}

static double kswapd_share_override(void)
{
	pthread_once(&kswapd_env_once, read_kswapd_env);
	return kswapd_env_share;
}

/*
 * Global reclaim with kswapd: one reclaimer core per node beside the
 * workers, each at kswapd's CPU share, and the workers' direct reclaim
 * covering what kswapd does not, found in two runs.  Run 1: the workers
 * do every reclaim call (f = 0) while kswapd runs too; kswapd's rate K
 * (reclaim calls per second, all nodes) against the workers' need D
 * (operations per second x the recording's reclaim calls per operation)
 * gives f = min(1, K / D), kswapd's share of the reclaim.  Run 2, the
 * result: the workers do 1 - f of the calls (predict/sim_memcg.c
 * merge_direct), kswapd the rest; where K > D it keeps the node above
 * its high watermark part of the time and sleeps the rest
 * (kswapd_try_to_sleep), so its CPU share is scaled by D / K.
 * r->reclaim_by_actor is f; r->actor_cover what run 2's K / D is (1: a
 * fixed point).
 */
static int run_with_kswapd(struct sim_prog *prog, const char *workload,
			   const struct model_rec *rec, const struct memcg_sim_cfg *cfg,
			   const struct memcg_costs *c, const struct sim_costs *sc,
			   struct sim_params *sp, struct sim_result *r, const char **err)
{
	double env_share = kswapd_share_override();
	double share = env_share > 0 ? env_share
		       : cfg->kswapd_share > 0 ? cfg->kswapd_share : MEMCG_KSWAPD_SHARE;
	double calls = (double)rec->actor->ops / (double)rec->ops, need, f;
	int rc;

	sp->reclaimers = sp->nodes;
	sp->reclaimer_share = share;
	rc = sim_run(prog, sc, sp, r, err);
	if (rc)
		return rc;
	need = r->ops_per_sec * calls;
	f = need > 0 ? fmin(1, r->actor_per_sec / need) : 1;
	if (f >= 1 && r->actor_per_sec > 0)
		sp->reclaimer_share = share * need / r->actor_per_sec;
	sim_prog_free(prog);
	if (build_shared(prog, workload, rec, cfg, c, f)) {
		*err = "kswapd: the merged program does not fit";
		return -1;
	}
	rc = sim_run(prog, sc, sp, r, err);
	if (rc)
		return rc;
	r->actor_share = share;
	r->actor_share_from_env = env_share > 0;
	r->reclaim_by_actor = f;
	need = r->ops_per_sec * calls;
	r->actor_cover = need > 0 ? r->actor_per_sec / need : 0;
	return 0;
}

int memcg_sim_run(const char *workload, const struct memcg_sim_cfg *cfg,
		  const struct memcg_costs *c, unsigned ncores,
		  uint64_t iters_per_core, struct sim_result *r, const char **err)
{
	struct sim_prog prog;
	int rc = memcg_sim_run_prog(workload, cfg, c, ncores, iters_per_core, r, err, &prog);

	if (rc == 0)
		sim_prog_free(&prog);
	return rc;
}

unsigned memcg_sim_smt_phys(const struct memcg_sim_cfg *cfg, unsigned ncores)
{
	unsigned nodes = cfg->p.nodes > ncores ? ncores : cfg->p.nodes; /* as the run's */

	/* the cores must split evenly over the nodes, as sim.h needs */
	if (cfg->phys_cores && cfg->phys_cores < ncores && ncores <= 2 * cfg->phys_cores &&
	    nodes && cfg->phys_cores % nodes == 0)
		return cfg->phys_cores;
	return 0;
}

int memcg_sim_run_prog(const char *workload, const struct memcg_sim_cfg *cfg,
		       const struct memcg_costs *c, unsigned ncores,
		       uint64_t iters_per_core, struct sim_result *r, const char **err,
		       struct sim_prog *out)
{
	struct sim_prog prog;
	struct sim_params sp = {
		.ncores = ncores, .nodes = cfg->p.nodes, .containers = cfg->p.containers,
		.iters_per_core = iters_per_core, .warm_frac = 0.2,
		.seed = cfg->seed ? cfg->seed : 1,
	};
	int rc;

	const struct model_rec *rec0 = model_rec_cached(workload, &cfg->p, MODEL_REC_WARMUP,
							MODEL_REC_OPS);

	if (!rec0 || build_shared(&prog, workload, rec0, cfg, c, 0)) {
		*err = "unknown workload";
		return -1;
	}
	if (sp.nodes > ncores)
		sp.nodes = ncores;
	/* An iteration of thousands of kernel entries (an AIM9 call) is
	 * thousands of small ones: as many of those as the small
	 * operations' runs have, not as many calls. */
	{
		const struct model_rec *rec = model_rec_cached(workload, &cfg->p, MODEL_REC_WARMUP,
							     MODEL_REC_OPS);
		double e = rec ? rec->faults + rec->syscalls : 1;
		if (e > 1.5)
			sp.iters_per_core = (uint64_t)((double)iters_per_core / e) + 20;
	}
	/* The run sized by its shared ops, not only its iterations: an
	 * iteration of m shared ops costs m events, and its time is the sum
	 * of m random parts, so the estimate's noise goes with the ops
	 * simulated, cores x iterations x m.  Bounded by ops_budget, at
	 * least ops_min_per_core iterations per core. */
	if (cfg->ops_budget > 0) {
		double cap = cfg->ops_budget / ((double)ncores * sim_prog_shared_ops(&prog));

		if (cap < (double)cfg->ops_min_per_core)
			cap = (double)cfg->ops_min_per_core;
		if ((double)sp.iters_per_core > cap)
			sp.iters_per_core = (uint64_t)cap;
	}
	{
		struct sim_costs sc = c->sim;
		struct memcg_sim_cfg again = *cfg;

		sc.pair_prefetch = cfg->line_size == 128;
		sp.phys_cores = memcg_sim_smt_phys(cfg, ncores);
		for (int pass = 0;; pass++) {
			if (memcg_sim_has_actor(rec0))
				rc = run_with_kswapd(&prog, workload, rec0, &again, c, &sc, &sp, r, err);
			else
				rc = sim_run(&prog, &sc, &sp, r, err);
			/* A design that asks for flushes: once more with the
			 * iteration this run found (memcg_flusher's rate and
			 * the gap between a core's holds), not its lower bound */
			if (rc || pass || !(prog.flusher.asked_per_s > 0) || !(r->ops_per_sec > 0))
				break;
			again.iter_ns = 1e9 * ncores / r->ops_per_sec;
			sim_prog_free(&prog);
			if (build_shared(&prog, workload, rec0, &again, c, 0)) {
				*err = "unknown workload";
				return -1;
			}
		}
	}
	if (rc == 0)
		*out = prog;
	else
		sim_prog_free(&prog);
	return rc;
}
