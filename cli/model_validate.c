/*
 * model_validate.c - `memscale model validate`: the simulator against
 * this machine's measurements (a results CSV), one group per workload,
 * lock and knob values.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "core/csv.h"
#include "predict/usl.h"

/* The result columns that describe a model configuration: every
 * registered knob the model owns (a new model knob needs no edit here). */
static const char *const *model_knob_cols(size_t *n)
{
	static const char **cols;
	static size_t ncols;

	if (!cols) {
		const struct knob **all;
		size_t nk = knob_all(&all);

		cols = xcalloc(nk + 1, sizeof(*cols));
		for (size_t i = 0; i < nk; i++)
			if (all[i]->owner && !strcmp(all[i]->owner, "model"))
				cols[ncols++] = all[i]->name;
	}
	*n = ncols;
	return cols;
}

int model_validate(struct mopts *m)
{
	const char *err = NULL;
	size_t el = 0, ngroups = 0;
	struct csv_table *t;
	int cwl, cw, cy, clock;
	struct calib c;
	struct memcg_costs base_costs;
	char **keys;
	double sum_abs = 0;
	unsigned nerr = 0;
	size_t nkc;
	const char *const *knob_cols = model_knob_cols(&nkc);

	model_need_args(m, 1, "RESULTS.csv");
	check_input_file("model validate", m->args[0], "a results CSV");
	t = csv_read_file(m->args[0], &err, &el);
	if (!t)
		die(EXIT_USAGE, "model validate: %s: line %zu: %s", m->args[0], el, err);
	cwl = csv_col(t, "workload");
	cw = csv_col(t, "workers");
	cy = csv_col(t, "ops_per_sec");
	clock = csv_col(t, "lock");
	if (cwl < 0 || cw < 0 || cy < 0)
		die(EXIT_USAGE, "model validate: %s: need columns workload, workers, ops_per_sec",
		    m->args[0]);
	model_get_calib(m, &c);
	calib_costs(&c, &base_costs);
	model_apply_overrides(m, &base_costs);
	keys = xcalloc(t->nrows + 1, sizeof(char *));

	printf("%-6s %-18s %5s %14s %14s %8s\n", "group", "workload", "N",
	       "measured", "simulated", "rel_err");
	for (size_t r = 0; r < t->nrows; r++) {
		char cfgstr[512] = "", *key;
		bool seen = false;
		struct mopts gm = *m;
		struct memcg_sim_cfg cfg;
		struct memcg_costs costs = base_costs;
		double ns1 = NAN, wmax = 0;
		const char *wl = t->rows[r][cwl];

		/* One group per (workload, lock, knob values). */
		gm.nsets = 0;
		gm.sets = xcalloc(nkc + 1, sizeof(char *));
		for (size_t k = 0; knob_cols[k]; k++) {
			int col = csv_col(t, knob_cols[k]);
			if (col < 0 || !*t->rows[r][col])
				continue;
			gm.sets[gm.nsets++] = xasprintf("%s=%s", knob_cols[k], t->rows[r][col]);
			snprintf(cfgstr + strlen(cfgstr), sizeof(cfgstr) - strlen(cfgstr),
				 "%s%s=%s", *cfgstr ? "," : "", knob_cols[k], t->rows[r][col]);
		}
		key = xasprintf("%s|%s|%s", wl, clock >= 0 ? t->rows[r][clock] : "", cfgstr);
		for (size_t g = 0; g < ngroups; g++)
			seen |= !strcmp(keys[g], key);
		if (seen || !memcg_sim_known(wl)) {
			if (!memcg_sim_known(wl) && !seen)
				fprintf(stderr, "model validate: no simulator program for workload '%s'; skipped\n", wl);
			free(key);
			for (size_t k = 0; k < gm.nsets; k++)
				free(gm.sets[k]);
			free(gm.sets);
			continue;
		}
		keys[ngroups++] = key;
		if (clock >= 0 && strstr(t->rows[r][clock], "ticket"))
			gm.lock_kind = SIM_LOCK_TICKET;
		model_sim_cfg(&gm, &cfg);
		/* The userspace model takes no real faults or system calls:
		 * its local work is what the 1-worker measurement leaves
		 * beyond the program's shared-line costs (extra_local_ns). */
		costs.fault_ns = costs.syscall_ns = 0;
		if (cfg.p.page_work != PAGE_WORK_COPY)
			costs.page_ns = 0;
		printf("# group %zu: %s lock=%s %s\n", ngroups, wl,
		       clock >= 0 ? t->rows[r][clock] : "-", cfgstr);
		/* Mean measured throughput per worker count of this group. */
		{
			double *xs = xmalloc(t->nrows * sizeof(double));
			double *ys = xmalloc(t->nrows * sizeof(double));
			double *gx, *gy;
			size_t n = 0, g;

			for (size_t q = r; q < t->nrows; q++) {
				char cs2[512] = "", *k2;
				for (size_t k = 0; knob_cols[k]; k++) {
					int col = csv_col(t, knob_cols[k]);
					if (col < 0 || !*t->rows[q][col])
						continue;
					snprintf(cs2 + strlen(cs2), sizeof(cs2) - strlen(cs2),
						 "%s%s=%s", *cs2 ? "," : "", knob_cols[k], t->rows[q][col]);
				}
				k2 = xasprintf("%s|%s|%s", t->rows[q][cwl],
					       clock >= 0 ? t->rows[q][clock] : "", cs2);
				if (!strcmp(k2, key) &&
				    parse_double(t->rows[q][cw], 1, 1e6, &xs[n]) &&
				    parse_double(t->rows[q][cy], 0, 1e300, &ys[n]))
					n++;
				free(k2);
			}
			g = usl_group_mean(xs, ys, n, &gx, &gy);
			/* Calibrate the program's missing local work from the
			 * measured 1-worker cost (a measurement, not a fit to
			 * the many-core points). */
			if (g && gx[0] == 1 && gy[0] > 0)
				ns1 = 1e9 / gy[0];
			else {
				char probe[128];
				snprintf(probe, sizeof(probe), "wl.%s", wl);
				ns1 = calib_median(&c, probe);
			}
			if (!isnan(ns1)) {
				struct sim_result r1;
				costs.extra_local_ns = 0;
				if (memcg_sim_run(wl, &cfg, &costs, 1, 2000, &r1, &err) == 0 &&
				    ns1 > r1.ns_per_op_core)
					costs.extra_local_ns = ns1 - r1.ns_per_op_core;
			}
			for (size_t i = 0; i < g; i++) {
				struct sim_result rs;
				uint64_t per = (uint64_t)m->iters / (uint64_t)gx[i];
				if (memcg_sim_run(wl, &cfg, &costs, (unsigned)gx[i],
						  per < 400 ? 400 : per, &rs, &err))
					die(1, "model validate: %s", err);
				printf("%-6zu %-18s %5g %14.6g %14.6g %+7.1f%%\n", ngroups,
				       wl, gx[i], gy[i], rs.ops_per_sec,
				       100 * (rs.ops_per_sec - gy[i]) / gy[i]);
				if (gx[i] > 1) {
					sum_abs += fabs((rs.ops_per_sec - gy[i]) / gy[i]);
					nerr++;
				}
				if (gx[i] > wmax)
					wmax = gx[i];
			}
			free(xs);
			free(ys);
			free(gx);
			free(gy);
		}
		for (size_t k = 0; k < gm.nsets; k++)
			free(gm.sets[k]);
		free(gm.sets);
	}
	if (!ngroups)
		die(EXIT_USAGE, "model validate: %s: no rows of a simulated workload", m->args[0]);
	if (nerr)
		printf("# mean |rel err| over %u multi-worker points: %.1f%%\n", nerr,
		       100 * sum_abs / nerr);
	for (size_t g = 0; g < ngroups; g++)
		free(keys[g]);
	free(keys);
	csv_free(t);
	calib_free(&c);
	return 0;
}
