/*
 * model_program.c - `memscale model program`: print a workload's
 * simulator op program (predict/sim_memcg.h).
 */
#include <string.h>

#include "cli/model.h"

int model_program(struct mopts *m)
{
	struct memcg_sim_cfg cfg;
	struct memcg_costs costs;
	struct sim_prog p;

	model_need_args(m, 1, "WORKLOAD");
	model_check_workload(m->args[0]);
	model_sim_cfg(m, &cfg);
	memset(&costs, 0, sizeof(costs));
	if (m->calib) {
		struct calib c;
		calib_load_or_die(&c, m->calib);
		calib_costs(&c, &costs);
		calib_free(&c);
	}
	memcg_sim_build(&p, m->args[0], &cfg, &costs);
	sim_prog_dump(&p, stdout);
	sim_prog_free(&p);
	return 0;
}
