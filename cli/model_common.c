/*
 * model_common.c - helpers the verbs of `memscale model` share: argument
 * counts, core lists, the calibration (loaded or measured), the simulator
 * configuration and the assumption overrides.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
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
	fprintf(stderr, "model: no --calib given; quick calibration first...\n");
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
}

void model_here_costs(const struct mopts *m, const struct calib *c, struct memcg_costs *out)
{
	struct target here;
	struct target_costs tc;
	struct target_overrides ov = { m->walk_miss, m->remote_factor, m->line };

	target_here(&here, c);
	target_costs(&here, c, &ov, &tc);
	target_print_params(&here, &tc, stdout);
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
	memset(po, 0, sizeof(*po));
	po->iters = (uint64_t)m->iters;
	po->line_size = m->line;
	po->lock_kind = m->lock_kind;
	po->walk_miss = m->walk_miss;
	po->remote_factor = m->remote_factor;
	po->target = m->target;
}
