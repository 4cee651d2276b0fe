/*
 * model_common.c - helpers the verbs of `memscale model` share: argument
 * counts, core lists, the calibration (loaded or measured), the simulator
 * configuration, the assumption overrides, and where the seed pairs come
 * from: the experiment files of model_experiment_dir(), read by predict/
 * (predict/seeds.c) under this machine's limits (harness/expfile.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "harness/expfile.h"

#include <unistd.h>
#include "predict/predict.h"

size_t model_cpu_list(const char *s, const char *dflt, long **out)
{
	const char *err = NULL;
	size_t n = parse_list(s ? s : dflt, 1, 4096, out, &err);

	if (!n)
		die(EXIT_USAGE, "model: bad --cpus '%s': %s (want counts 1..4096, e.g. 52,80,104,224 or 1-8)",
		    s ? s : "", err);
	return n;
}

void model_need_args(const struct mopts *m, int n, const char *what)
{
	if (m->nargs < n)
		die(EXIT_USAGE, "model %s: missing %s (see 'memscale model --help')",
		    m->action, what);
	if (m->nargs > n)
		die(EXIT_USAGE, "model %s: unexpected argument '%s'", m->action, m->args[n]);
}

void model_get_calib(const struct mopts *m, struct calib *c)
{
	struct calib_opts o;

	if (m->calib) {
		calib_load_or_die(c, m->calib);
		return;
	}
	if (access(calib_machine_path(), F_OK) == 0) {
		/* The machine's one calibration file ('model calibrate'). */
		fprintf(stderr, "model: no --calib given; using %s\n", calib_machine_path());
		calib_load_or_die(c, calib_machine_path());
		return;
	}
	fprintf(stderr, "model: no --calib given and no %s; quick calibration first...\n",
		calib_machine_path());
	calib_opts_default(&o);
	o.reps = 3;
	o.scale = 0.2;
	o.workloads = false;
	o.locks = !m->nolocks;
	calib_measure(c, &o);
}

void model_sim_cfg(const struct mopts *m, struct memcg_sim_cfg *cfg)
{
	struct knobset *ks = knobset_new();

	for (size_t i = 0; i < m->nsets; i++)
		knobset_set_arg(ks, m->sets[i]);
	memset(cfg, 0, sizeof(*cfg));
	if (model_params_from_knobs(&cfg->p, ks))
		exit(EXIT_USAGE);
	knobset_free(ks);
	cfg->line_size = m->line ? m->line : 64;
	cfg->lock_kind = m->lock_kind;
	cfg->seed = m->seed;
	/* --mode threads: the workers share one mm (models/mmlock.h) */
	cfg->p.mm_shared = m->mode && !strcmp(m->mode, "threads");
}

void model_here_costs(const struct mopts *m, const struct calib *c, struct memcg_costs *out)
{
	struct target here;
	struct target_costs tc;
	struct target_overrides ov = { m->walk_miss, m->remote_factor, m->line };

	target_here(&here, c);
	target_costs(&here, c, &ov, &tc);
	/* -f csv: stdout holds the table alone */
	target_print_params(&here, &tc, m->csv ? stderr : stdout);
	*out = tc.c;
}

void model_check_workload(const char *wl)
{
	if (!memcg_sim_known(wl)) {
		char list[512] = "";
		const char *w;
		for (size_t i = 0; (w = memcg_sim_workload_at(i)); i++) {
			if (strlen(list) + strlen(w) + 2 > sizeof(list))
				break;
			strcat(list, i ? "|" : "");
			strcat(list, w);
		}
		die(EXIT_USAGE, "model: unknown workload '%s' (want %s)", wl, list);
	}
}

void model_predict_opts(const struct mopts *m, struct predict_opts *po)
{
	/* the work reference every profile's costs come from, read (or
	 * refused) before any output */
	target_work_reference();
	memset(po, 0, sizeof(*po));
	po->iters = (uint64_t)m->iters;
	po->seed = m->seed;
	po->line_size = m->line;
	po->lock_kind = m->lock_kind;
	po->walk_miss = m->walk_miss;
	po->remote_factor = m->remote_factor;
	po->target = m->target;
	po->threads = m->mode && !strcmp(m->mode, "threads");
	po->jobs = m->jobs;
}

/* Where the experiment files are: $MEMSCALE_EXPERIMENTS, else beside the
 * binary (bin/../experiments), else ./experiments. */
const char *model_experiment_dir(void)
{
	static const char *dir;

	if (!dir)
		dir = data_dir("MEMSCALE_EXPERIMENTS", "experiments");
	return dir;
}

bool model_experiment_load(const char *path, struct experiment_def *d)
{
	return predict_experiment_load(path, exp_limits_here(), d);
}

size_t model_experiments(struct experiment_def **out)
{
	return predict_experiments(model_experiment_dir(), exp_limits_here(), out);
}

void model_experiment_free(struct experiment_def *d)
{
	predict_experiment_free(d);
}
