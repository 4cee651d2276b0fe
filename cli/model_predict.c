/*
 * model_predict.c - `memscale model predict`: the seed A/B pairs on many
 * cores next to the published changes (predict/predict.h), each published
 * row for the machine it ran on (predict/target.h) unless --target says.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "predict/predict.h"

int model_predict(struct mopts *m)
{
	const struct experiment_def *e;
	struct predict_opts po;
	struct calib c;
	int rc;

	char *name;

	model_need_args(m, 1, "EXPERIMENT");
	/* by name or by path, as every command takes an experiment */
	name = cli_experiment_name("model predict", m->args[0]);
	e = predict_find(name);
	if (!e)
		die(EXIT_USAGE, "model predict: unknown experiment '%s' (want %s)",
		    m->args[0], predict_names());
	free(name);
	model_predict_opts(m, &po);
	if (m->cpus && !strcmp(m->cpus, "published"))
		po.ncpus = 0; /* only the sizes of the published rows */
	else
		po.ncpus = model_cpu_list(m->cpus, "52,80,104,224", &po.cpus);
	model_get_calib(m, &c);
	rc = predict_run(e, &c, &po, stdout);
	if (!rc && m->sensitivity)
		model_print_sensitivity(e, &c, &po, stdout);
	calib_free(&c);
	free(po.cpus);
	return rc;
}
