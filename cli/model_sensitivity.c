/*
 * model_sensitivity.c - `model predict EXPERIMENT --sensitivity` and
 * `model predict --workload ... --sensitivity`: every measured input
 * (predict/sensitivity.h) doubled alone, in this machine's calibration
 * (target "here") and in the work reference (every profile) alike, and the change
 * it makes to the prediction of each published row (or of the one
 * question); an input that moves none says why it is not used.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "predict/predict.h"
#include "predict/sensitivity.h"

#define SENS_FACTOR 2.0
#define SENS_NONE_PP 0.05 /* a change below this is no change */

/* The published rows of e, each predicted with calibration c. */
static size_t eval_rows(const struct experiment_def *e, const struct calib *c,
			const struct predict_opts *po, double *pct,
			const struct target **tgt)
{
	struct predict_session ses;
	size_t n = 0;

	predict_session_init(&ses, c, po);
	for (size_t i = 0; i < e->npairs; i++) {
		const struct seed_pair *sp = &e->pairs[i];
		for (size_t k = 0; k < sp->npub; k++) {
			struct predict_point pt;
			unsigned cpus = sp->pub[k].cpus;
			if (!cpus) {
				/* A row that states no size: its machine's, as
				 * predict_run does. */
				predict_point_eval_target(&ses, &sp->pub[k], &pt);
				cpus = pt.t ? pt.t->cpus : 0;
			}
			if (!cpus) {
				pct[n] = NAN;
				if (tgt)
					tgt[n] = NULL;
				n++;
				continue;
			}
			predict_point_eval(&ses, sp, &sp->pub[k], cpus, &pt);
			pct[n] = pt.pct;
			if (tgt)
				tgt[n] = pt.t;
			n++;
		}
	}
	predict_session_free(&ses);
	return n;
}

/* Why input `in` moved no prediction on the nt targets t (NULL
 * entries: no target): the first target that does not read it
 * (sens_unused_reason), else the programs weigh it alike on both sides
 * (`not_weighed` says whose program). */
static void why_unused(const struct calib *c, const struct target *const *t, size_t nt,
		       const struct sens_input *in, const char *not_weighed, char *why,
		       size_t len)
{
	char reason[400] = "";

	for (size_t r = 0; r < nt && !*reason; r++)
		if (t[r])
			sens_unused_reason(c, t[r], in, SENS_FACTOR, reason, sizeof(reason));
	if (*reason)
		snprintf(why, len, "unused: %s", reason);
	else
		snprintf(why, len, "read, but %s by %.2f pp (both sides pay it alike)",
			 not_weighed, SENS_NONE_PP);
}

void model_print_sensitivity(const struct experiment_def *e, const struct calib *c,
			     const struct predict_opts *po, FILE *out)
{
	size_t rows = 0, n;
	double *base, *pert;
	const struct target **tgt;

	for (size_t i = 0; i < e->npairs; i++)
		for (size_t k = 0; k < e->pairs[i].npub; k++)
			rows++;
	if (!rows) {
		fprintf(out, "# sensitivity: %s has no published rows\n", e->name);
		return;
	}
	base = xcalloc(rows, sizeof(double));
	pert = xcalloc(rows, sizeof(double));
	tgt = xcalloc(rows, sizeof(*tgt));
	n = eval_rows(e, c, po, base, tgt);
	fprintf(out, "# sensitivity of %s over its %zu published rows: each measured input "
		"x%.0f alone, change of predicted_pct (pp)\n", e->name, n, SENS_FACTOR);
	fprintf(out, "# %-20s %-18s %9s %9s %s\n", "input", "parameter", "mean|d|",
		"max|d|", "row of the largest change, or why the input is not used");
	for (const struct sens_input *in = sens_inputs; in->probe; in++) {
		struct calib cp;
		double sum = 0, max = 0;
		size_t at = 0, finite = 0;
		char why[512] = "";

		struct calib wp;
		struct predict_opts q = *po;

		/* the input in both calibrations a prediction may read: this
		 * machine's (target "here") and the work reference (profiles) */
		sens_scaled_copy(c, in, SENS_FACTOR, &cp);
		sens_scaled_copy(target_work_reference(), in, SENS_FACTOR, &wp);
		q.work = &wp;
		eval_rows(e, &cp, &q, pert, NULL);
		calib_free(&cp);
		calib_free(&wp);
		for (size_t r = 0; r < n; r++) {
			double d = pert[r] - base[r];
			if (!isfinite(d))
				continue;
			finite++;
			sum += fabs(d);
			if (fabs(d) >= max) {
				max = fabs(d);
				at = r;
			}
		}
		if (finite && max >= SENS_NONE_PP) {
			size_t r = 0;
			for (size_t i = 0; i < e->npairs; i++)
				for (size_t k = 0; k < e->pairs[i].npub; k++, r++)
					if (r == at)
						snprintf(why, sizeof(why), "%s, published row %zu "
							 "(%+.1f -> %+.1f %%)", e->pairs[i].workload,
							 k + 1, base[at], pert[at]);
		} else {
			why_unused(c, tgt, n, in, "no row's program weighs it enough to move "
				   "its change", why, sizeof(why));
		}
		fprintf(out, "# %-20s %-18s %9.2f %9.2f %s\n", in->probe, in->param,
			finite ? sum / (double)finite : NAN, finite ? max : NAN, why);
	}
	free(base);
	free(pert);
	free(tgt);
}

static double eval_question(const struct seed_pair *sp, unsigned cpus,
			    const struct calib *c, const struct predict_opts *po,
			    const struct target **t)
{
	struct predict_session ses;
	struct predict_point pt;
	double pct;

	predict_session_init(&ses, c, po);
	predict_point_eval(&ses, sp, NULL, cpus, &pt);
	pct = pt.pct;
	if (t)
		*t = pt.t;
	predict_session_free(&ses);
	return pct;
}

void model_print_question_sensitivity(const struct seed_pair *sp, unsigned cpus,
				      const struct calib *c, const struct predict_opts *po,
				      FILE *out)
{
	struct predict_opts q = *po;
	const struct target *t = NULL;
	double base;

	q.band = false; /* the change of the point prediction only */
	base = eval_question(sp, cpus, c, &q, &t);
	fprintf(out, "# sensitivity of %s %s..%s at %u CPUs (predicted %+.2f %%): each "
		"measured input x%.0f alone, change of predicted_pct (pp)\n", sp->workload,
		sp->a, sp->b, cpus, base, SENS_FACTOR);
	fprintf(out, "# %-20s %-18s %9s %s\n", "input", "parameter", "d", "prediction, or why the input is not used");
	for (const struct sens_input *in = sens_inputs; in->probe; in++) {
		struct calib cp;
		double pert, d;
		char why[512] = "";

		struct calib wp;
		struct predict_opts qw = q;

		sens_scaled_copy(c, in, SENS_FACTOR, &cp);
		sens_scaled_copy(target_work_reference(), in, SENS_FACTOR, &wp);
		qw.work = &wp;
		pert = eval_question(sp, cpus, &cp, &qw, NULL);
		calib_free(&cp);
		calib_free(&wp);
		d = pert - base;
		if (isfinite(d) && fabs(d) >= SENS_NONE_PP)
			snprintf(why, sizeof(why), "%+.2f -> %+.2f %%", base, pert);
		else
			why_unused(c, &t, 1, in, "the program does not weigh it enough to move "
				   "the change", why, sizeof(why));
		fprintf(out, "# %-20s %-18s %+9.2f %s\n", in->probe, in->param, d, why);
	}
}
