/*
 * model_validate.c - `memscale model validate`: the validation ledger over
 * every published row (predict/ledger.h), then the simulator against each
 * results directory or CSV given: one group per workload, lock and knob
 * values (measured mean per worker count against the simulated one), and
 * base vs patch groups that differ in one knob (the change measured against
 * the simulated change at the largest worker count).
 */
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/model.h"
#include "core/ab.h"
#include "core/csv.h"
#include "core/stats.h"
#include "predict/ledger.h"
#include "predict/predict.h"
#include "predict/sim_memcg.h"
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

/* One group's largest worker count, for the A/B comparison. */
struct ab_group {
	char *wl, *lock, *variant, *cfg;
	double workers, measured, simulated;
};

/* Knob settings (k=v,...) that differ between two configurations;
 * *which gets the first one that differs.  Both hold the same knobs. */
static unsigned cfg_diff(const char *a, const char *b, char *which, size_t len)
{
	char *x = xstrdup(a), *y = xstrdup(b), *s1 = NULL, *s2 = NULL;
	unsigned n = 0;
	char *p = strtok_r(x, ",", &s1), *q = strtok_r(y, ",", &s2);

	for (; p && q; p = strtok_r(NULL, ",", &s1), q = strtok_r(NULL, ",", &s2))
		if (strcmp(p, q) && n++ == 0)
			snprintf(which, len, "%s -> %s", p, strchr(q, '=') ? strchr(q, '=') + 1 : q);
	n += (p != NULL) + (q != NULL);
	free(x);
	free(y);
	return n;
}

/* Base vs patch groups that differ in one knob: the change measured at
 * the largest worker count against the simulated change there. */
static void ab_compare(const char *path, struct ab_group *g, size_t n)
{
	double sum = 0;
	unsigned pairs = 0, sign_ok = 0;

	for (size_t i = 0; i < n; i++) {
		if (!g[i].variant || strcmp(g[i].variant, "base"))
			continue;
		for (size_t j = 0; j < n; j++) {
			char which[160];
			double mc, sc;

			if (i == j || !g[j].variant || !strcmp(g[j].variant, "base") ||
			    strcmp(g[i].wl, g[j].wl) || strcmp(g[i].lock, g[j].lock) ||
			    g[i].workers != g[j].workers ||
			    cfg_diff(g[i].cfg, g[j].cfg, which, sizeof(which)) != 1)
				continue;
			if (!pairs++)
				printf("# A/B at the largest worker count: change measured vs simulated\n"
				       "%-18s %-44s %5s %10s %10s %8s %s\n", "workload", "A -> B",
				       "N", "measured", "simulated", "err(pp)", "sign");
			mc = ab_change_pct(g[i].measured, g[j].measured, false);
			sc = ab_change_pct(g[i].simulated, g[j].simulated, false);
			sum += fabs(sc - mc);
			sign_ok += (sc > 0) == (mc > 0);
			printf("%-18s %-44s %5g %+9.1f%% %+9.1f%% %+8.1f %s\n", g[i].wl, which,
			       g[i].workers, mc, sc, sc - mc, (sc > 0) == (mc > 0) ? "ok" : "NO");
		}
	}
	if (pairs)
		printf("# %s: A/B mean |error| %.1f pp over %u pairs, signs %u/%u\n", path,
		       sum / pairs, pairs, sign_ok, pairs);
}

/* One measured point of a results file against the simulator there. */
struct point {
	const char *path, *wl, *lock, *cfg;
	size_t group;
	double workers;
	size_t n;                   /* measured runs at this worker count */
	double measured, ci_lo, ci_hi; /* mean and its 95 % t interval (NAN: n < 2) */
	double simulated, band_lo, band_hi;
	char regime[PREDICT_REGIME_LEN];
};

/* The runs at `workers` of a group: mean and 95 % t interval. */
static void measured_interval(const double *xs, const double *ys, size_t n, double workers,
			      struct point *pt)
{
	double *v = xmalloc((n + 1) * sizeof(double)), sum = 0, half;

	pt->n = 0;
	for (size_t i = 0; i < n; i++)
		if (xs[i] == workers) {
			v[pt->n++] = ys[i];
			sum += ys[i];
		}
	pt->measured = pt->n ? sum / (double)pt->n : NAN;
	half = stats_ci_half(v, pt->n, 0.95);
	pt->ci_lo = pt->measured - half;
	pt->ci_hi = pt->measured + half;
	free(v);
}

/* The simulations of a point: the central value, then the band (the
 * same variants as a published row's, predict_band_costs()), into v[0]
 * and v[1 + k], to run with predict_sims_run(). */
#define POINT_SIMS (1 + PREDICT_BAND_N)

static void plan_point(const char *wl, const struct memcg_sim_cfg *cfg,
		       const struct memcg_costs *costs, unsigned workers, long iters,
		       struct predict_sim *v)
{
	uint64_t per = (uint64_t)iters / workers;

	if (per < 400)
		per = 400;
	for (int k = 0; k < POINT_SIMS; k++) {
		memset(&v[k], 0, sizeof(v[k]));
		v[k].workload = wl;
		v[k].cfg = *cfg;
		v[k].ncores = workers;
		v[k].per_core = per;
		if (k)
			predict_band_costs(costs, k - 1, cfg->line_size, &v[k].c);
		else
			v[k].c = *costs;
	}
}

/* The point's simulated value, regime and band from its simulations. */
static void finish_point(const struct memcg_costs *costs, const struct predict_sim *v,
			 struct sim_result *rs, struct point *pt)
{
	for (int k = 0; k < POINT_SIMS; k++)
		if (v[k].rc)
			die(1, "model validate: %s", v[k].err);
	*rs = v[0].r;
	pt->simulated = pt->band_lo = pt->band_hi = rs->ops_per_sec;
	predict_regime_one(rs, costs, &v[0].prog, pt->regime, sizeof(pt->regime));
	for (int k = 1; k < POINT_SIMS; k++) {
		pt->band_lo = fmin(pt->band_lo, v[k].r.ops_per_sec);
		pt->band_hi = fmax(pt->band_hi, v[k].r.ops_per_sec);
	}
}

static const char *in_band(const struct point *pt)
{
	return pt->measured >= pt->band_lo && pt->measured <= pt->band_hi ? "yes" : "no";
}

#define POINT_CSV_HEADER "results,group,workload,lock,config,workers,n,measured,ci_lo,ci_hi," \
	"simulated,rel_err_pct,band_lo,band_hi,in_band,regime\n"

static void print_point(const struct point *pt, bool csv)
{
	double rel = 100 * (pt->simulated - pt->measured) / pt->measured;
	char ci[64], band[64];

	if (csv) {
		csv_field(stdout, pt->path, 0);
		csv_fieldf(stdout, 0, "%zu", pt->group);
		csv_field(stdout, pt->wl, 0);
		csv_field(stdout, pt->lock, 0);
		csv_field(stdout, pt->cfg, 0);
		csv_fieldf(stdout, 0, "%g", pt->workers);
		csv_fieldf(stdout, 0, "%zu", pt->n);
		csv_num(stdout, pt->measured, 0);
		csv_num(stdout, pt->ci_lo, 0);
		csv_num(stdout, pt->ci_hi, 0);
		csv_num(stdout, pt->simulated, 0);
		csv_num(stdout, rel, 0);
		csv_num(stdout, pt->band_lo, 0);
		csv_num(stdout, pt->band_hi, 0);
		csv_field(stdout, in_band(pt), 0);
		csv_field(stdout, pt->regime, 1);
		return;
	}
	if (isfinite(pt->ci_lo))
		snprintf(ci, sizeof(ci), "%.6g..%.6g", pt->ci_lo, pt->ci_hi);
	else
		snprintf(ci, sizeof(ci), "- (one run)");
	snprintf(band, sizeof(band), "%.6g..%.6g", pt->band_lo, pt->band_hi);
	printf("%-6zu %-18s %5g %3zu %12.6g %-27s %12.6g %+7.1f%% %-27s %-7s %s\n", pt->group,
	       pt->wl, pt->workers, pt->n, pt->measured, ci, pt->simulated, rel, band,
	       in_band(pt), pt->regime);
}

/*
 * Simulator vs one results CSV measured on this machine (or on the
 * machine the calibration describes): one group per (workload, lock,
 * knob values), the measured mean per worker count against the simulated
 * one.  Returns the number of groups; adds to *sum_abs / *nerr the
 * relative errors of the multi-worker points.
 */
/* The measured throughput of group `key` (first row r) per worker count,
 * its missing local work from the 1-worker cost, and its points
 * simulated together, printed, summed into *sum_abs / *nerr; the last
 * point goes to abg for the A/B comparison. */
static void simulate_group(const char *path, const struct mopts *m, const struct csv_table *t,
			   const int *cols, const char *const *knob_cols, size_t r,
			   const char *key, const struct calib *c, const struct memcg_sim_cfg *cfg,
			   struct memcg_costs *costs, const char *cfgstr, size_t ngroups,
			   struct ab_group *abg, double *sum_abs, unsigned *nerr)
{
	int cwl = cols[0], cw = cols[1], cy = cols[2], clock = cols[3], cvar = cols[4];
	const char *wl = t->rows[r][cwl], *err = NULL;
	double ns1 = NAN;

	double *xs = xmalloc(t->nrows * sizeof(double));
	double *ys = xmalloc(t->nrows * sizeof(double));
	double *gx, *gy;
	size_t n = 0, g;
	struct predict_sim *sims;

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
		ns1 = calib_median(c, probe);
	}
	if (!isnan(ns1)) {
		struct sim_result r1;
		costs->extra_local_ns = 0;
		if (memcg_sim_run(wl, cfg, costs, 1, 2000, &r1, &err) == 0 &&
		    ns1 > r1.ns_per_op_core)
			costs->extra_local_ns = ns1 - r1.ns_per_op_core;
	}
	/* the group's points simulated together, then printed */
	sims = xcalloc(g * POINT_SIMS + 1, sizeof(*sims));
	for (size_t i = 0; i < g; i++)
		plan_point(wl, cfg, costs, (unsigned)gx[i], m->iters,
			   &sims[i * POINT_SIMS]);
	predict_sims_run(sims, g * POINT_SIMS, m->jobs);
	for (size_t i = 0; i < g; i++) {
		struct sim_result rs;
		struct point pt = { .path = path, .group = ngroups, .wl = wl,
				    .lock = clock >= 0 ? t->rows[r][clock] : "-",
				    .cfg = cfgstr, .workers = gx[i] };

		measured_interval(xs, ys, n, gx[i], &pt);
		finish_point(costs, &sims[i * POINT_SIMS], &rs, &pt);
		print_point(&pt, m->csv);
		if (gx[i] > 1) {
			*sum_abs += fabs((rs.ops_per_sec - gy[i]) / gy[i]);
			(*nerr)++;
		}
		if (i + 1 == g) {
			struct ab_group *a = abg;
			a->wl = xstrdup(wl);
			a->lock = xstrdup(clock >= 0 ? t->rows[r][clock] : "");
			a->variant = cvar >= 0 ? xstrdup(t->rows[r][cvar]) : NULL;
			a->cfg = xstrdup(cfgstr);
			a->workers = gx[i];
			a->measured = gy[i];
			a->simulated = rs.ops_per_sec;
		}
	}
	predict_sims_free(sims, g * POINT_SIMS);
	free(sims);
	free(xs);
	free(ys);
	free(gx);
	free(gy);
}

/* A results CSV read and its columns checked, or one line and exit 2:
 * model_validate checks every file this way before any work. */
static struct csv_table *results_table(const char *path)
{
	const char *err = NULL;
	size_t el = 0;
	struct csv_table *t = csv_read_file(path, &err, &el);

	if (!t)
		die(EXIT_USAGE, "model validate: %s: line %zu: %s", path, el, err);
	if (csv_col(t, "workload") < 0 || csv_col(t, "workers") < 0 ||
	    csv_col(t, "ops_per_sec") < 0)
		die(EXIT_USAGE, "model validate: %s: need columns workload, workers, ops_per_sec",
		    path);
	return t;
}

/* t: path's table, read and checked (results_table); freed here */
static size_t validate_csv(const char *path, struct csv_table *t, struct mopts *m,
			   struct calib *cp, double *sum_abs_out, unsigned *nerr_out)
{
	size_t ngroups = 0;
	int cwl, cw, cy, clock, cvar;
	struct ab_group *abg;
	struct calib c = *cp;
	struct memcg_costs base_costs;
	char **keys;
	double sum_abs = 0;
	unsigned nerr = 0;
	size_t nkc;
	const char *const *knob_cols = model_knob_cols(&nkc);

	cwl = csv_col(t, "workload");
	cw = csv_col(t, "workers");
	cy = csv_col(t, "ops_per_sec");
	clock = csv_col(t, "lock");
	cvar = csv_col(t, "variant");
	abg = xcalloc(t->nrows + 1, sizeof(*abg));
	if (!m->csv)
		printf("# results %s\n", path);
	model_here_costs(m, &c, &base_costs);
	keys = xcalloc(t->nrows + 1, sizeof(char *));

	if (!m->csv)
		printf("%-6s %-18s %5s %3s %12s %-27s %12s %8s %-27s %-7s %s\n", "group",
		       "workload", "N", "n", "measured", "95% interval", "simulated",
		       "rel_err", "band (simulated)", "in band", "regime (simulated)");
	for (size_t r = 0; r < t->nrows; r++) {
		char cfgstr[512] = "", *key;
		bool seen = false;
		struct mopts gm = *m;
		struct memcg_sim_cfg cfg;
		struct memcg_costs costs = base_costs;
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
			/* Said once per workload and file: the first row of it. */
			bool first = true;
			for (size_t q = 0; q < r && first; q++)
				first = strcmp(t->rows[q][cwl], wl) != 0;
			if (!memcg_sim_known(wl) && first)
				fprintf(stderr, "model validate: %s: no simulator program for workload '%s'; skipped\n",
					path, wl);
			free(key);
			for (size_t k = 0; k < gm.nsets; k++)
				free(gm.sets[k]);
			free(gm.sets);
			continue;
		}
		keys[ngroups++] = key;
		if (clock >= 0 && strstr(t->rows[r][clock], "ticket"))
			gm.lock_kind = LOCK_MODEL_TICKET;
		model_sim_cfg(&gm, &cfg);
		/* The userspace model takes no real faults or system calls:
		 * its local work is what the 1-worker measurement leaves
		 * beyond the program's shared-line costs (extra_local_ns). */
		costs.fault_ns = costs.syscall_ns = 0;
		for (int e = 0; e < MITIGATIONS_NR; e++)
			costs.entry_ns[e] = NAN;
		/* ... and runs its own list and per-CPU code inside its
		 * locks, not the kernel's: list_ns/2 per list operation */
		for (int e = 0; e < KPATH_NR; e++)
			costs.kpath_ns[e] = costs.kzone_ns[e][0] = costs.kzone_ns[e][1] =
				costs.kfault_ns[e] = costs.khold_ns[e] = 0;
		costs.insn_ns = 0;
		if (cfg.p.page_work != PAGE_WORK_COPY)
			costs.page_ns = costs.clear_ns = 0;
		if (!m->csv)
			printf("# group %zu: %s lock=%s %s\n", ngroups, wl,
			       clock >= 0 ? t->rows[r][clock] : "-", cfgstr);
		{
			int cols[] = { cwl, cw, cy, clock, cvar };

			simulate_group(path, m, t, cols, knob_cols, r, key, &c, &cfg, &costs, cfgstr,
				       ngroups, &abg[ngroups - 1], &sum_abs, &nerr);
		}
		for (size_t k = 0; k < gm.nsets; k++)
			free(gm.sets[k]);
		free(gm.sets);
	}
	if (nerr)
		fprintf(m->csv ? stderr : stdout, "# %s: mean |rel err| over %u multi-worker "
			"points: %.1f%%\n", path, nerr, 100 * sum_abs / nerr);
	else
		fprintf(m->csv ? stderr : stdout, "# %s: no rows of a simulated workload\n", path);
	if (!m->csv)
		ab_compare(path, abg, ngroups);
	for (size_t g = 0; g < ngroups; g++) {
		free(abg[g].wl);
		free(abg[g].lock);
		free(abg[g].variant);
		free(abg[g].cfg);
	}
	free(abg);
	for (size_t g = 0; g < ngroups; g++)
		free(keys[g]);
	free(keys);
	csv_free(t);
	*sum_abs_out += sum_abs;
	*nerr_out += nerr;
	return ngroups;
}

/* A results directory's CSVs: DIR/results.csv and DIR/<sub>/results.csv. */
static size_t results_csvs(const char *dir, char ***out)
{
	size_t n = 0, cap = 16;
	char **v = xcalloc(cap, sizeof(char *));
	struct dirent **ents = NULL;
	struct stat st;
	char *top = xasprintf("%s/results.csv", dir);
	int ne;

	if (!stat(top, &st))
		v[n++] = top;
	else
		free(top);
	ne = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < ne; i++) {
		char *f = xasprintf("%s/%s/results.csv", dir, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && !stat(f, &st)) {
			if (n + 1 >= cap) {
				cap *= 2;
				v = realloc(v, cap * sizeof(char *));
				if (!v)
					die(1, "out of memory");
			}
			v[n++] = f;
		} else {
			free(f);
		}
		free(ents[i]);
	}
	free(ents);
	*out = v;
	return n;
}

int model_validate(struct mopts *m)
{
	struct predict_opts po;
	struct calib c;
	double sum_abs = 0;
	unsigned nerr = 0;
	struct experiment_def *defs;
	size_t ndefs;
	int rc;

	/* Bad paths and bad files are found before any work: every results
	 * CSV is read and checked here, and validated from these tables. */
	struct results_file { char *path; struct csv_table *t; } *files = NULL;
	size_t nfiles = 0;

	for (int i = 0; i < m->nargs; i++) {
		struct stat st;
		char **csvs;
		size_t n;

		if (stat(m->args[i], &st))
			die_errno(EXIT_USAGE, "model validate: cannot read '%s'", m->args[i]);
		if (!S_ISDIR(st.st_mode)) {
			check_input_file("model validate", m->args[i], "a results CSV or directory");
			csvs = xcalloc(1, sizeof(*csvs));
			csvs[0] = xstrdup(m->args[i]);
			n = 1;
		} else if (!(n = results_csvs(m->args[i], &csvs))) {
			die(EXIT_USAGE, "model validate: '%s' is a directory without a results.csv "
			    "in it or its subdirectories (want a results CSV or directory)", m->args[i]);
		}
		files = realloc(files, (nfiles + n) * sizeof(*files));
		if (!files)
			die(1, "out of memory");
		for (size_t k = 0; k < n; k++)
			files[nfiles++] = (struct results_file){ csvs[k], results_table(csvs[k]) };
		free(csvs);
	}
	ndefs = model_experiments(&defs);
	model_get_calib(m, &c);
	model_predict_opts(m, &po);
	/* -f csv: one table on stdout, the ledger's or, with results given,
	 * the measured points' */
	if (!m->csv || !m->nargs)
		rc = predict_ledger(defs, ndefs, &c, &po, m->csv, stdout);
	else {
		rc = 0;
		fputs(POINT_CSV_HEADER, stdout);
	}
	for (size_t i = 0; i < nfiles; i++) {
		validate_csv(files[i].path, files[i].t, m, &c, &sum_abs, &nerr);
		free(files[i].path);
	}
	free(files);
	/* this machine's calibration serves target "here" (the results
	 * given) and this cross-check; the profiles read the work reference */
	target_work_crosscheck(&c, m->csv ? stderr : stdout);
	if (nerr)
		fprintf(m->csv ? stderr : stdout, "# results given: mean |rel err| over %u "
			"multi-worker points: %.1f%% (costs: this machine's calibration)\n",
			nerr, 100 * sum_abs / nerr);
	if (m->csv && m->nargs && fflush(stdout))
		die_errno(1, "model validate: write");
	calib_free(&c);
	for (size_t i = 0; i < ndefs; i++)
		model_experiment_free(&defs[i]);
	free(defs);
	return rc;
}
