/*
 * model_sim.c - `memscale model sim`: simulate one memcg workload
 * configuration (predict/sim_memcg.h) over a core list.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cli/model.h"

int model_sim(struct mopts *m)
{
	struct memcg_sim_cfg cfg;
	struct memcg_costs costs;
	struct calib c;
	long *cpus;
	size_t n;
	double base = 0;

	model_need_args(m, 1, "WORKLOAD");
	model_check_workload(m->args[0]);
	model_sim_cfg(m, &cfg);
	n = model_cpu_list(m->cpus, "1,2,4,8,16,32,52,80,104,224", &cpus);
	model_get_calib(m, &c);
	model_here_costs(m, &c, &costs);
	calib_free(&c);
	{
		/* Speed-up is against one simulated core. */
		struct sim_result r1;
		const char *err = NULL;
		if (memcg_sim_run(m->args[0], &cfg, &costs, 1, 4000, &r1, &err))
			die(1, "model sim: %s", err);
		base = r1.ops_per_sec;
	}
	printf("%6s %14s %12s %10s %10s %10s\n", "cpus", "ops_per_sec", "per_core",
	       "speedup", "lock_wait", "xfer/op");
	for (size_t i = 0; i < n; i++) {
		struct sim_result r;
		const char *err = NULL;
		uint64_t per = (uint64_t)m->iters / (uint64_t)cpus[i];

		if (memcg_sim_run(m->args[0], &cfg, &costs, (unsigned)cpus[i],
				  per < 400 ? 400 : per, &r, &err))
			die(1, "model sim: %s", err);
		printf("%6ld %14.6g %12.6g %10.2f %9.1f%% %10.2f\n", cpus[i], r.ops_per_sec,
		       r.ops_per_sec / (double)cpus[i], r.ops_per_sec / base,
		       100 * r.lock_wait_frac, r.xfer_per_op);
		fflush(stdout);
	}
	free(cpus);
	return 0;
}
