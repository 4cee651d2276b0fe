/*
 * sim_memcg.h - op programs of the memcg model workloads for the
 * simulator (sim.h), recorded from the model's own execution under the
 * same model parameters (models/record.h; how in sim_memcg.c):
 * every model workload `memscale list workloads` shows has one.
 * `memscale model program WORKLOAD` prints one.
 */
#ifndef MEMSCALE_SIM_MEMCG_H
#define MEMSCALE_SIM_MEMCG_H

#include <stdbool.h>
#include <stdio.h>

#include "models/memcg.h"
#include "predict/sim.h"

/* Calibrated component costs (ns), from predict/calib.h. */
struct memcg_costs {
	struct sim_costs sim; /* line transfer, hit, atomic, lock hand-off */
	double fault_ns;      /* local part of one page fault (entry, alloc, pte) */
	double page_ns;       /* copying one 4 KiB page (copy_page) */
	double clear_ns;      /* zeroing one 4 KiB page (clear_page) */
	double syscall_ns;    /* one system call round trip (0 where entry_ns
			       * holds the target's: getppid is entry only) */
	double entry_ns[MITIGATIONS_NR]; /* the target's user-kernel round trip
			       * under each era's mitigations, added to every
			       * fault and system call of a side whose kernel is
			       * of that era (knob mitigations); NAN: not known,
			       * fault_ns and syscall_ns hold this machine's */
	double list_ns;       /* list_add + list_del on warm lines */
	double percpu_ns;     /* one per-CPU add with threshold check */
	double kpath_ns[KPATH_NR]; /* the kernel's instructions per LRU list
			       * operation inside the lock, priced, for a side
			       * whose kernel is of that era (knob kpath,
			       * predict/kpath.h); replaces list_ns/2 and the
			       * per-CPU adds inside LRU sections; 0: not priced */
	double kpath_iso_ns[KPATH_NR]; /* the same for one of reclaim's
			       * isolations (RL_LIST_ISOLATE) */
	double insn_ns;       /* one kernel instruction at the list probe's
			       * pace (list_ns / its instructions): prices
			       * a workload's counted system-call bodies
			       * (predict/kpath.h body.WORKLOAD) as local
			       * work; 0: not priced */
	double kzone_ns[KPATH_NR][2]; /* the kernel's instructions inside
			       * zone->lock per page, priced: [0] one
			       * rmqueue_bulk takes, [1] one free_pcppages_bulk
			       * returns; replaces list_ns/2 per list operation
			       * and the NR_FREE_PAGES per-CPU adds there; 0:
			       * not priced */
	double kreclaim_ns[KPATH_NR]; /* the kernel's instructions per folio
			       * reclaim frees, outside the LRU and zone
			       * sections (RL_RECLAIM_FOLIO), priced; 0: not
			       * counted */
	double khold_ns[KPATH_NR]; /* the kernel's instructions per hold of an
			       * LRU or zone lock beyond its per-folio and
			       * per-page work (a lock-statistics build's
			       * lock_acquired and lock_release), priced; 0:
			       * none */
	double kfault_ns[KPATH_NR]; /* what a page fault of that era's kernel
			       * runs beyond fault_ns (a build option the
			       * fault probe's kernel lacks), priced; 0: none */
	double miss_ns;       /* one load that misses every cache */
	double walk_miss;     /* ASSUMPTION: fraction of ancestor-walk loads
			       * that miss (8d59d2214c23: "potentially 3 cache
			       * misses" per level); used only where the walk
			       * step below was not measured */
	double walk_step_ns[2]; /* measured cost of one ancestor level of the
				 * walk: [0] rstat_permemcg, [1] _cached
				 * (probes walk.permemcg, walk.cached); NAN:
				 * not measured */
	double extra_local_ns; /* added per iteration (validation: the part of
				* a measured 1-worker cost the program lacks) */
	double body_ns;       /* of extra_local_ns, the counted system-call
			       * bodies (kpath body x insn_ns; the builder
			       * sets it, for --explain's local parts) */
	/* The target's caches, for the cold folio lines of a critical
	 * section (predict/footprint.h); l2_bytes NAN: not known, and the
	 * folio lines cost an L1 hit (the program says so). */
	double l2_bytes, llc_bytes; /* per core, per socket */
	unsigned sockets;
	double dram_ns;       /* the target's sourced DRAM latency; NAN: none
			       * (then, too, the folio lines cost L1 hits: a
			       * VM's miss probe is no DRAM latency) */
	double l2_ns, llc_ns; /* the target's sourced L2 / LLC hit latency
			       * (cycles at its clock); NAN: none */
	bool llc_victim;      /* non-inclusive LLC (capacity adds to L2's) */
	bool fp_scan;         /* the footprint model's reuse as a cyclic scan
			       * (FP_SCAN) instead of uniform (FP_UNIFORM):
			       * the sensitivity band's variant */
	double cs_scale;      /* factor on the local work inside critical
			       * sections (the sensitivity band; 0: 1) */
};

struct memcg_sim_cfg {
	struct model_params p;
	unsigned line_size;        /* 64, or 128: the adjacent-line prefetcher
				    * pairs each 64 B line with its sector mate */
	enum lock_model_kind lock_kind;
	unsigned phys_cores;       /* physical cores of the target (0: one per CPU);
				    * CPUs past them are SMT siblings */
	unsigned cpus;             /* the CPUs simulated (sizes the LLC share;
				    * 0: one) */
	double kswapd_share;       /* kswapd's share of its CPU (0: MEMCG_KSWAPD_SHARE) */
	double ops_budget;         /* > 0: a run's shared ops at most about this
				    * (memcg_sim_run_prog); 0: no bound */
	uint64_t ops_min_per_core; /* ... but never fewer iterations per core */
	uint64_t seed;             /* the simulator's draws (sim_params.seed); 0: 1 */
	double iter_ns;            /* > 0: a worker's iteration time from a first
				    * run (the flushers' rate and the gap between
				    * a core's holds); 0: its local work, a lower
				    * bound (memcg_sim_run_prog's second pass) */
};

/*
 * kswapd (mm/vmscan.c kswapd() -> balance_pgdat(), one thread per node,
 * woken below the low watermark and reclaiming to the high one) runs for
 * a workload with global reclaim (the recording's reclaim calls apart,
 * models/record.h rec->actor) as one reclaimer core per node
 * (sim_params.reclaimers) running the recorded reclaim call.  Its CPU is
 * one of the node's, which runs two dd readers (case-lru-file-readtwice:
 * nr_task = nr_cpu tasks of two dd each): ASSUMPTION, kswapd is a
 * SCHED_NORMAL kernel thread at nice 0 always runnable under this load,
 * so CFS gives the three equal weights a third each.  (The reader on that
 * CPU keeps its whole CPU in the simulation: 1 / (3 x CPUs per node) of
 * the throughput, under 2% on every target.)  MEMSCALE_KSWAPD_SHARE
 * overrides it (sensitivity runs; 0 < share <= 1).
 */
#define MEMCG_KSWAPD_SHARE (1.0 / 3)

/* A struct page line of any page of a node that reclaim keeps full, read
 * under zone->lock (RL_PAGE_FAR): its expected cost, and in *where
 * (unless NULL) where the footprint model finds it (p_dram NAN: the
 * target has no cache sizes, and it is priced as a transfer from
 * another CPU of the node, or a hit). */
struct fp_where;
double memcg_zone_far_line_ns(const struct memcg_sim_cfg *cfg, const struct memcg_costs *c,
			      struct fp_where *where);

/* Does recording r have reclaim calls a reclaimer can take over? */
bool memcg_sim_has_actor(const struct model_rec *r);

struct model_rec;

/* Model workloads with a program: by name, and the i-th (NULL past the
 * last). */
bool memcg_sim_known(const char *workload);
const char *memcg_sim_workload_at(size_t i);

/* Records `workload` under p (one worker; 0, or -1 for an unknown one). */
int memcg_sim_record(const char *workload, const struct model_params *p,
		     struct model_rec *rec);
/* Name of recorded line `line` as the program has it (64 B line or
 * 128 B pair). */
void memcg_sim_line_name(const struct model_rec *r, unsigned line,
			 unsigned line_size, char *buf, size_t len);
/* The program of a recording. */
int memcg_sim_build_from(struct sim_prog *prog, const char *workload,
			 const struct model_rec *r, const struct memcg_sim_cfg *cfg,
			 const struct memcg_costs *c);

/* Builds the program; returns 0 or -1 (unknown workload). */
int memcg_sim_build(struct sim_prog *prog, const char *workload,
		    const struct memcg_sim_cfg *cfg, const struct memcg_costs *c);

/* Convenience: build and run on ncores; returns 0 or -1 with *err. */
int memcg_sim_run(const char *workload, const struct memcg_sim_cfg *cfg,
		  const struct memcg_costs *c, unsigned ncores,
		  uint64_t iters_per_core, struct sim_result *r, const char **err);
/* The same, handing the program that ran to the caller (prog, which then
 * frees it with sim_prog_free) when it returns 0: its line names are
 * those of r's line statistics. */
/* The physical cores a run of ncores workers has SMT siblings on
 * (sim_params.phys_cores): cfg->phys_cores where the workers reach past
 * them, at most two a core, and the cores split evenly over the run's
 * nodes; else 0 (no siblings). */
unsigned memcg_sim_smt_phys(const struct memcg_sim_cfg *cfg, unsigned ncores);
int memcg_sim_run_prog(const char *workload, const struct memcg_sim_cfg *cfg,
		       const struct memcg_costs *c, unsigned ncores,
		       uint64_t iters_per_core, struct sim_result *r, const char **err,
		       struct sim_prog *prog);

#endif
