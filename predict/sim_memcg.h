/*
 * sim_memcg.h - op programs of the memcg workloads for the simulator
 * (sim.h): one iteration of page_fault1/2/3, fallocate1/2, tlb_flush2,
 * malloc1, lru_shm, lru_file_readtwice, aim9_page_test, aim9_brk_test
 * under every variant of the userspace model (models/memcg.h knobs:
 * layout, stats, stats_batch, charge_batch, lru_batch, lru_lock,
 * containers, depth, nodes).  The programs are documented in
 * sim_memcg.c; `memscale model program WORKLOAD` prints one.
 */
#ifndef MEMSCALE_SIM_MEMCG_H
#define MEMSCALE_SIM_MEMCG_H

#include <stdbool.h>

#include "models/memcg.h"
#include "predict/sim.h"

/* Calibrated component costs (ns), from predict/calib.h. */
struct memcg_costs {
	struct sim_costs sim; /* line transfer, hit, atomic, lock hand-off */
	double fault_ns;      /* local part of one page fault (entry, alloc, pte) */
	double page_ns;       /* zeroing or copying one 4 KiB page */
	double syscall_ns;    /* one system call round trip */
	double list_ns;       /* list_add + list_del on warm lines */
	double percpu_ns;     /* one per-CPU add with threshold check */
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
};

struct memcg_sim_cfg {
	struct model_params p;
	unsigned line_size;        /* 64, or 128 for adjacent-line prefetch pairs */
	enum sim_lock_kind lock_kind;
};

/* Known workload names, NULL-terminated. */
extern const char *const memcg_sim_workloads[];
bool memcg_sim_known(const char *workload);

/* Builds the program; returns 0 or -1 (unknown workload). */
int memcg_sim_build(struct sim_prog *prog, const char *workload,
		    const struct memcg_sim_cfg *cfg, const struct memcg_costs *c);

/* Convenience: build and run on ncores; returns 0 or -1 with *err. */
int memcg_sim_run(const char *workload, const struct memcg_sim_cfg *cfg,
		  const struct memcg_costs *c, unsigned ncores,
		  uint64_t iters_per_core, struct sim_result *r, const char **err);

#endif
