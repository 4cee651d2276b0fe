/*
 * seeds.c - the seed pairs the predictions and the ledger ask about, read
 * from the experiment files (exp/expfile.h) a layer below: a pair per
 * (workload, A, B, build) of an experiment's [published] rows, the rows
 * themselves (struct published_row, copied as they are), and the
 * settings both sides share.  See predict.h.
 */
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "exp/expfile.h"
#include "predict/predict.h"
#include "predict/target.h"

static char *seeds_append(char *s, const char *key, const char *value)
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
			s = seeds_append(s, e->fixed[i].key, e->fixed[i].value);
	}
	for (size_t k = 0; k < e->npredict; k++)
		s = seeds_append(s, e->predict[k].key, e->predict[k].value);
	return s;
}

/* The pair of row r in pairs[0..*np), added when new: its workload, A
 * and B, and both sides' knobs, the row's build=KNOB:VALUE over common
 * (a published kernel's own build is the row's, not the experiment's). */
static struct seed_pair *pair_of(struct seed_pair *pairs, size_t *np, size_t nrows,
				 const struct published_row *r, const char *common)
{
	char *a = xasprintf("%s=%s", r->knob, r->base_value);
	char *b = xasprintf("%s=%s", r->knob, r->patch_value);
	char *both = xstrdup(common);
	struct seed_pair *sp;

	if (r->build) {
		char *knob = xstrdup(r->build), *colon = strchr(knob, ':');

		*colon = '\0'; /* the reader checked KNOB:VALUE */
		both = seeds_append(both, knob, colon + 1);
		free(knob);
	}
	for (size_t k = 0; k < *np; k++)
		if (!strcmp(pairs[k].workload, r->workload) && !strcmp(pairs[k].a, a) &&
		    !strcmp(pairs[k].b, b) && !strcmp(pairs[k].common, both)) {
			free(a);
			free(b);
			free(both);
			return &pairs[k];
		}
	sp = &pairs[(*np)++];
	sp->workload = xstrdup(r->workload);
	sp->common = both;
	sp->a = a;
	sp->b = b;
	sp->pub = xcalloc(nrows, sizeof(struct published_row));
	return sp;
}

bool predict_experiment_load(const char *path, const struct exp_limits *lim,
			     struct experiment_def *d)
{
	struct experiment *e = exp_read(path, lim);
	size_t n = e->npublished;
	struct seed_pair *pairs;
	char *common;
	size_t np = 0;

	memset(d, 0, sizeof(*d));
	if (!n) {
		exp_free(e);
		return false;
	}
	pairs = xcalloc(n + 1, sizeof(*pairs));
	common = common_settings(e);
	for (size_t i = 0; i < n; i++) {
		const struct published_row *r = &e->published[i];
		struct seed_pair *sp;

		if (!*r->knob || isnan(r->lo))
			die(EXIT_USAGE, "%s:%d: published '%s' has no A/B knob or no change "
			    "to predict", path, r->line, r->workload);
		sp = pair_of(pairs, &np, n, r, common);
		if (r->target && !target_find(r->target))
			die(EXIT_USAGE, "%s:%d: published '%s': unknown target '%s' (see "
			    "'memscale list targets')", path, r->line, r->workload,
			    r->target);
		((struct published_row *)sp->pub)[sp->npub++] = *r;
	}
	d->name = e->name;
	d->summary = e->description ? e->description : e->name;
	d->pairs = pairs;
	d->npairs = np;
	d->exp = e;
	d->common = common;
	return true;
}

size_t predict_experiments(const char *dir, const struct exp_limits *lim,
			   struct experiment_def **out)
{
	char *pat = xasprintf("%s/*.ini", dir);
	struct experiment_def *v;
	size_t n = 0;
	glob_t g;

	if (glob(pat, 0, NULL, &g))
		die(EXIT_USAGE, "model: no experiment files %s (set MEMSCALE_EXPERIMENTS=DIR)", pat);
	v = xcalloc(g.gl_pathc + 1, sizeof(*v));
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (predict_experiment_load(g.gl_pathv[i], lim, &v[n]))
			n++;
	globfree(&g);
	free(pat);
	*out = v;
	return n;
}

void predict_experiment_free(struct experiment_def *d)
{
	for (size_t i = 0; i < d->npairs; i++) {
		struct seed_pair *sp = (struct seed_pair *)&d->pairs[i];

		free((void *)sp->pub);
		free((char *)sp->workload);
		free((char *)sp->common);
		free((char *)sp->a);
		free((char *)sp->b);
	}
	free((void *)d->pairs);
	free((char *)d->common);
	exp_free(d->exp);
	memset(d, 0, sizeof(*d));
}
