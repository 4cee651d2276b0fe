/*
 * model_predict.c - `memscale model predict`: the seed A/B pairs on many
 * cores next to the published changes (predict/predict.h), each published
 * row for the machine it ran on (predict/target.h) unless --target says.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "predict/predict.h"

/* EXPERIMENT: a path to an experiment file, or the name of one in the
 * experiment directory; it must have [published] rows (the pairs). */
static void load_experiment(const char *arg, struct experiment_def *d)
{
	struct experiment_def *all;
	size_t n;
	char names[1024] = "";

	if (strchr(arg, '/') || strstr(arg, ".ini")) {
		check_input_file("model predict", arg, "an experiment file");
		if (!model_experiment_load(arg, d))
			die(EXIT_USAGE, "model predict: %s has no [published] rows (nothing to "
			    "predict)", arg);
		return;
	}
	n = model_experiments(&all);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(all[i].name, arg) && !d->name)
			*d = all[i];
		else
			model_experiment_free(&all[i]);
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? "|" : "", all[i].name ? all[i].name : "");
	}
	free(all);
	if (!d->name)
		die(EXIT_USAGE, "model predict: unknown experiment '%s' (want %s, or a path)",
		    arg, names);
}

int model_predict(struct mopts *m)
{
	struct experiment_def ed = { 0 }, *e = &ed;
	struct predict_opts po;
	struct calib c;
	int rc;

	model_need_args(m, 1, "EXPERIMENT");
	load_experiment(m->args[0], e);
	model_predict_opts(m, &po);
	if (m->cpus && !strcmp(m->cpus, "published"))
		po.ncpus = 0; /* only the sizes of the published rows */
	else
		po.ncpus = model_cpu_list(m->cpus, "52,80,104,224", &po.cpus);
	model_get_calib(m, &c);
	rc = predict_run(e, &c, &po, stdout);
	calib_free(&c);
	free(po.cpus);
	model_experiment_free(e);
	return rc;
}
