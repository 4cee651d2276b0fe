/*
 * bench_sim - speed of the discrete-event simulator (predict/sim.c): the
 * events per second it processes, and the wall time of one run, on a
 * program shaped like the LRU path of page_fault2 at 52, 104 and 224
 * cores: local work, a per-CPU stat line, then a queue lock whose word
 * shares a 128 B sector with the list head the holder writes for each of
 * a 31-folio batch, with active waiters and the pair prefetcher on.
 * The last row runs 224 cores again with the hold accounting on
 * (sim_costs.explain, what `model predict --explain` asks for).
 * Prints the figures; asserts nothing about them (timings on a shared
 * machine are noisy).  Environment: BENCH_SIM_ITERS (iterations per core,
 * default 2000).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/util.h"
#include "predict/sim.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void build(struct sim_prog *p)
{
	unsigned word, list, zone, stat, lk;
	size_t every;

	sim_prog_init(p, "lru-batch");
	word = sim_line(p, "lru_lock", SCOPE_MEMCG_NODE);
	list = sim_line(p, "lists[]", SCOPE_MEMCG_NODE);
	zone = sim_line(p, "lru_zone_size", SCOPE_MEMCG_NODE);
	stat = sim_line(p, "percpu_stats", SCOPE_CORE);
	sim_line_mate(p, word, list);
	lk = sim_lock(p, "lru_lock", SCOPE_MEMCG_NODE, LOCK_MODEL_QUEUE, word);
	sim_local_exp(p, 900);
	sim_access(p, SOP_RMW, stat);
	every = sim_every(p, 31);
	sim_lock_op(p, lk);
	for (int i = 0; i < 31; i++) {
		sim_access(p, SOP_WRITE, list);
		sim_access(p, SOP_RMW, zone);
		sim_local(p, 20);
	}
	sim_unlock_op(p, lk);
	sim_every_end(p, every);
}

int main(void)
{
	static const unsigned cores[] = { 52, 104, 224 };
	const char *env = getenv("BENCH_SIM_ITERS");
	struct sim_costs c = { .xfer_ns = 45, .remote_factor = 2.8, .hit_ns = 1.8,
			       .atomic_ns = 8, .handoff_ns = 45, .pair_prefetch = true };
	struct sim_prog p;
	struct sim_explain *xp = xcalloc(1, sizeof(*xp));

	build(&p);
	printf("simulator: %s program, %zu ops, active waiters, 128 B pair prefetch\n",
	       p.name, p.nops);
	printf("%6s %12s %10s %12s %8s %8s\n", "cores", "events", "wall_s",
	       "events/s", "util", "queue");
	for (size_t i = 0; i <= ARRAY_SIZE(cores); i++) {
		bool explain = i == ARRAY_SIZE(cores);
		struct sim_params sp = { .ncores = explain ? 224 : cores[i], .nodes = 2,
					 .containers = 1,
					 .iters_per_core = env ? strtoull(env, NULL, 10) : 2000,
					 .warm_frac = 0.1, .seed = 1 };
		struct sim_result r;
		const char *err = NULL;
		double t0 = now_s(), wall;

		c.explain = explain ? xp : NULL;
		if (sim_run(&p, &c, &sp, &r, &err)) {
			fprintf(stderr, "bench_sim: %s\n", err);
			return 1;
		}
		wall = now_s() - t0;
		printf("%6u %12llu %10.3f %12.3g %8.3f %8.2f%s\n", sp.ncores,
		       (unsigned long long)r.events, wall, (double)r.events / wall,
		       r.lock[0].util, r.lock[0].mean_waiters, explain ? "  (explain)" : "");
	}
	free(xp);
	sim_prog_free(&p);
	return 0;
}
