/*
 * model_common.c - helpers the verbs of `memscale model` share: argument
 * counts, core lists, the calibration (loaded or measured), the simulator
 * configuration, the assumption overrides, and the seed pairs read from
 * the experiment files (the one place their pairs, sizes and published
 * rows are written).
 */
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "harness/expfile.h"
#include "harness/published.h"

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

static char *str_append(char *s, const char *key, const char *value)
{
	char *t = xasprintf("%s%s%s=%s", s ? s : "", s && *s ? "," : "", key, value);

	free(s);
	return t;
}

/* The knobs both sides of every pair share: [fixed], with [predict]
 * over it (lock and counter are run settings, not model knobs). */
static char *common_settings(const struct experiment *e)
{
	char *s = xstrdup("");

	for (size_t i = 0; i < e->nfixed; i++) {
		bool over = false;
		if (!strcmp(e->fixed[i].key, "lock") || !strcmp(e->fixed[i].key, "counter"))
			continue;
		for (size_t k = 0; k < e->npredict; k++)
			over |= !strcmp(e->predict[k].key, e->fixed[i].key);
		if (!over)
			s = str_append(s, e->fixed[i].key, e->fixed[i].value);
	}
	for (size_t k = 0; k < e->npredict; k++)
		s = str_append(s, e->predict[k].key, e->predict[k].value);
	return s;
}

bool model_experiment_load(const char *path, struct experiment_def *d)
{
	struct experiment *e = exp_load(path);
	struct pub_row *rows;
	size_t n = published_rows(e, &rows);
	struct seed_pair *pairs = xcalloc(n + 1, sizeof(*pairs));
	char *common = common_settings(e);
	size_t np = 0;

	memset(d, 0, sizeof(*d));
	if (!n) {
		free(pairs);
		free(common);
		published_free(rows, 0);
		exp_free(e);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pub_row *r = &rows[i];
		char *a = xasprintf("%s=%s", r->knob, r->base_value);
		char *b = xasprintf("%s=%s", r->knob, r->patch_value);
		struct seed_pair *sp = NULL;
		struct published *p;
		long v;

		if (!*r->knob || isnan(r->change_lo))
			die(EXIT_USAGE, "%s:%d: published '%s' has no A/B knob or no change "
			    "to predict", path, r->src->line, r->workload);
		for (size_t k = 0; k < np && !sp; k++)
			if (!strcmp(pairs[k].workload, r->workload) && !strcmp(pairs[k].a, a) &&
			    !strcmp(pairs[k].b, b))
				sp = &pairs[k];
		if (!sp) {
			sp = &pairs[np++];
			sp->workload = xstrdup(r->workload);
			sp->common = xstrdup(common);
			sp->a = a;
			sp->b = b;
			sp->pub = xcalloc(n, sizeof(struct published));
		} else {
			free(a);
			free(b);
		}
		p = (struct published *)&sp->pub[sp->npub++];
		p->cpus = *r->cpus && parse_long(r->cpus, 1, 65536, &v) ? (unsigned)v : 0;
		p->workers = r->src->workers && parse_long(r->src->workers, 1, 65536, &v) ?
			     (unsigned)v : 0;
		p->lo = r->change_lo;
		p->hi = r->change_hi;
		p->note = xstrdup(*r->source ? r->source : r->machine);
		if (r->src->target && !target_find(r->src->target))
			die(EXIT_USAGE, "%s:%d: published '%s': unknown target '%s' (see "
			    "'memscale list targets')", path, r->src->line, r->workload,
			    r->src->target);
		p->target = r->src->target ? xstrdup(r->src->target) : NULL;
		p->dev = r->src->role && !strcmp(r->src->role, "dev");
		/* checked by exp_load: positive numbers, with their source */
		p->base_ops_s = r->src->base_ops_s ? strtod(r->src->base_ops_s, NULL) : 0;
		p->patch_ops_s = r->src->patch_ops_s ? strtod(r->src->patch_ops_s, NULL) : 0;
		p->abs_source = r->src->abs_source ? xstrdup(r->src->abs_source) : NULL;
	}
	d->name = xstrdup(e->name);
	d->summary = xstrdup(e->description ? e->description : e->name);
	d->pairs = pairs;
	d->npairs = np;
	free(common);
	published_free(rows, n);
	exp_free(e);
	return true;
}

size_t model_experiments(struct experiment_def **out)
{
	char *pat = xasprintf("%s/*.ini", model_experiment_dir());
	struct experiment_def *v;
	size_t n = 0;
	glob_t g;

	if (glob(pat, 0, NULL, &g))
		die(EXIT_USAGE, "model: no experiment files %s (set MEMSCALE_EXPERIMENTS=DIR)", pat);
	v = xcalloc(g.gl_pathc + 1, sizeof(*v));
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (model_experiment_load(g.gl_pathv[i], &v[n]))
			n++;
	globfree(&g);
	free(pat);
	*out = v;
	return n;
}

void model_experiment_free(struct experiment_def *d)
{
	for (size_t i = 0; i < d->npairs; i++) {
		struct seed_pair *sp = (struct seed_pair *)&d->pairs[i];
		for (size_t k = 0; k < sp->npub; k++) {
			free((char *)sp->pub[k].note);
			free((char *)sp->pub[k].target);
			free((char *)sp->pub[k].abs_source);
		}
		free((void *)sp->pub);
		free((char *)sp->workload);
		free((char *)sp->common);
		free((char *)sp->a);
		free((char *)sp->b);
	}
	free((void *)d->pairs);
	free((char *)d->name);
	free((char *)d->summary);
}
