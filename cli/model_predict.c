/*
 * model_predict.c - `memscale model predict`: the seed A/B pairs on many
 * cores next to the published changes (predict/predict.h), each published
 * row for the machine it ran on (predict/target.h) unless --target says;
 * and one question (--workload W --pair A..B --target T --cpus N), the
 * same evaluation without a published row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "core/csv.h"
#include "core/knob.h"
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
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? "|" : "", all[i].name);
		if (!strcmp(all[i].name, arg) && !d->name)
			*d = all[i];
		else
			model_experiment_free(&all[i]);
	}
	free(all);
	if (!d->name)
		die(EXIT_USAGE, "model predict: unknown experiment '%s' (want %s, or a path)",
		    arg, names);
}

/* One side of --pair: a kernel profile, or knob=value,... (on a
 * profile when it sets kernel=); checked through the knob registry now,
 * before any calibration (exit 2 on a bad name or value). */
static char *pair_side(const char *s)
{
	char *kv = strchr(s, '=') ? xstrdup(s) : xasprintf("kernel=%s", s);
	struct knobset *ks = knobset_new();

	if (!*s)
		die(EXIT_USAGE, "model predict: bad --pair side '' (want a kernel profile or "
		    "knob=value,...)");
	struct model_params mp;

	predict_apply_knobs(ks, kv, 1);
	if (model_params_from_knobs(&mp, ks) || model_knobs_check_read(&mp, ks))
		exit(EXIT_USAGE);
	knobset_free(ks);
	return kv;
}

/* The same settings, whatever their order: the knob values they give. */
static bool same_side(const char *a, const char *b)
{
	struct knobset *x = knobset_new(), *y = knobset_new();
	const struct knob **all;
	size_t n = knob_all(&all);
	bool same = true;

	predict_apply_knobs(x, a, 1);
	predict_apply_knobs(y, b, 1);
	for (size_t i = 0; i < n && same; i++)
		same = !strcmp(knob_str(x, all[i]), knob_str(y, all[i]));
	knobset_free(x);
	knobset_free(y);
	return same;
}

static void csv_pct(double v, bool last)
{
	if (isfinite(v))
		printf("%.2f%s", v, last ? "\n" : ",");
	else
		printf("nan%s", last ? "\n" : ",");
}

/* model predict --workload W --pair A..B --target T --cpus N: one question. */
static int predict_question(struct mopts *m)
{
	const char *dots = m->pair ? strstr(m->pair, "..") : NULL;
	char *a_arg, *a, *b;
	const struct target *t = NULL;
	struct seed_pair sp = { 0 };
	struct predict_opts po;
	struct predict_session ses;
	struct predict_point pt;
	struct calib c;
	long cpus;

	if (m->nargs)
		die(EXIT_USAGE, "model predict: give EXPERIMENT or --workload, not both ('%s')",
		    m->args[0]);
	if (!m->pair || !m->target || !m->cpus)
		die(EXIT_USAGE, "model predict --workload: missing %s", !m->pair ? "--pair A..B" :
		    !m->target ? "--target T" : "--cpus N");
	model_check_workload(m->workload);
	if (!dots || dots == m->pair || !dots[2])
		die(EXIT_USAGE, "model predict: bad --pair '%s' (want A..B: kernel profiles or "
		    "knob=value,... sets)", m->pair);
	a_arg = xasprintf("%.*s", (int)(dots - m->pair), m->pair);
	a = pair_side(a_arg);
	b = pair_side(dots + 2);
	free(a_arg);
	if (same_side(a, b))
		die(EXIT_USAGE, "model predict: --pair '%s': both sides are the same settings", m->pair);
	if (!parse_long(m->cpus, 1, 65536, &cpus))
		die(EXIT_USAGE, "model predict: bad --cpus '%s' (want one count 1..65536)", m->cpus);
	if (strcmp(m->target, TARGET_HERE)) {
		t = target_find(m->target);
		if (!t)
			die(EXIT_USAGE, "model predict: unknown --target '%s' (see 'memscale list targets')",
			    m->target);
		if ((unsigned long)cpus > t->cpus)
			die(EXIT_USAGE, "model predict: --cpus %ld is above %s's %u CPUs", cpus,
			    t->name, t->cpus);
	}
	model_get_calib(m, &c);
	model_predict_opts(m, &po);
	po.band = true;
	predict_session_init(&ses, &c, &po);
	if (!t && ses.here.cpus && (unsigned long)cpus > ses.here.cpus)
		die(EXIT_USAGE, "model predict: --cpus %ld is above this machine's %u CPUs", cpus,
		    ses.here.cpus);
	sp.workload = m->workload;
	sp.common = "";
	sp.a = a;
	sp.b = b;
	predict_point_eval(&ses, &sp, NULL, (unsigned)cpus, &pt);
	if (pt.tc)
		predict_print_target(&ses, &pt, m->csv ? stderr : stdout);
	if (m->csv) {
		printf("workload,base,patch,target,cpus,mode,predicted_pct,band_lo_pct,"
		       "band_hi_pct,regime\n");
		csv_field(stdout, m->workload, 0);
		csv_field(stdout, a, 0);
		csv_field(stdout, b, 0);
		csv_field(stdout, pt.t ? pt.t->name : m->target, 0);
		printf("%ld,%s,", cpus, m->mode ? m->mode : "processes");
		csv_pct(pt.pct, false);
		csv_pct(pt.band_lo, false);
		csv_pct(pt.band_hi, false);
		csv_field(stdout, pt.regime, 1);
	} else {
		printf("%-18s %-30s %-30s %-16s %5ld %-9s %+8.1f%%  band %+.1f..%+.1f%%  %s\n",
		       m->workload, a, b, pt.t ? pt.t->name : m->target, cpus,
		       m->mode ? m->mode : "processes", pt.pct, pt.band_lo, pt.band_hi, pt.regime);
	}
	predict_session_free(&ses);
	if (m->sensitivity)
		model_print_question_sensitivity(&sp, (unsigned)cpus, &c, &po,
						 m->csv ? stderr : stdout);
	calib_free(&c);
	free(a);
	free(b);
	return fflush(stdout) ? 1 : 0;
}

int model_predict(struct mopts *m)
{
	struct experiment_def ed = { 0 }, *e = &ed;
	struct predict_opts po;
	struct calib c;
	int rc;

	if (m->workload)
		return predict_question(m);
	if (m->pair || m->mode || m->csv)
		die(EXIT_USAGE, "model predict: --pair, --mode and -f go with --workload W");
	model_need_args(m, 1, "EXPERIMENT");
	load_experiment(m->args[0], e);
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
	model_experiment_free(e);
	return rc;
}
