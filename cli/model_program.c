/*
 * model_program.c - `memscale model program`: print a workload's
 * simulator op program (predict/sim_memcg.h), recorded from the model;
 * --check compares its per-operation access counts with a second
 * recording of the model and exits 1 when one differs.
 */
#include <string.h>

#include "cli/model.h"
#include "models/record.h"
#include "predict/sim_memcg_check.h"

int model_program(struct mopts *m)
{
	struct memcg_sim_cfg cfg;
	struct memcg_costs costs;
	struct sim_prog p;

	model_need_args(m, 1, "WORKLOAD");
	model_check_workload(m->args[0]);
	model_sim_cfg(m, &cfg);
	if (m->check) {
		int bad = memcg_sim_check(m->args[0], &cfg, stdout);

		printf("%s: %s\n", m->args[0], bad ? "program and model differ" :
		       "program and model agree on every shared-line access");
		return bad ? 1 : 0;
	}
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
	{
		/* the kernel's entries the local work is priced from */
		const struct model_rec *r = model_rec_cached(m->args[0], &cfg.p,
							     MODEL_REC_WARMUP, MODEL_REC_OPS);
		if (r)
			printf("kernel entries per iteration: faults %g, syscalls %g, "
			       "page copies %g, pages zeroed %g, private atomics %g\n",
			       r->faults, r->syscalls, r->copies, r->clears, r->private_atomics);
		if (memcg_sim_has_actor(r))
			printf("global reclaim: %.4f reclaim calls (%u-page isolations) per operation; "
			       "kswapd, one per node at %.2f of a CPU (MEMCG_KSWAPD_SHARE), takes the "
			       "share f of them found by the simulator (model predict --explain), the "
			       "workers' direct reclaim the rest (the workers' part above: f = 0)\n",
			       (double)r->actor->ops / (double)r->ops, SWAP_CLUSTER_MAX,
			       MEMCG_KSWAPD_SHARE);
		/* the per-CPU work done with a lock held: the simulator's lock
		 * sections pay it (predict/sim_memcg.c); a reclaim call's apart */
		for (const struct model_rec *part = r; part; part = part == r ? r->actor : NULL)
			for (unsigned i = 0; i < part->nlocks; i++)
				if (part->holds[i]) {
					char name[64];
					double h = (double)part->holds[i];

					memcg_sim_line_name(part, part->lock_line[i], 64, name,
							    sizeof(name));
					printf("%sinside lock %s%s, per hold: percpu adds %.2f, "
					       "walk.permemcg levels %.2f, walk.cached levels %.2f\n",
					       part == r ? "" : "reclaim call: ", name,
					       part->lines[part->lock_line[i]].scope >= RS_MEMCG_WALK
						       ? " [global reclaim's memcg walk]" : "",
					       (double)part->local_in[i][RL_PERCPU] / h,
					       (double)part->local_in[i][RL_WALK_PERMEMCG] / h,
					       (double)part->local_in[i][RL_WALK_CACHED] / h);
				}
	}
	return 0;
}
