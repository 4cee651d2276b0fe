/*
 * cmd_model.c - `memscale model ...`: calibrated extrapolation models.
 *
 *   calibrate   run the probes, write a calibration file (models/calib.h)
 *   fit usl     Universal Scalability Law fit of measured data (usl.h)
 *   lock        OLS'12 birth-death lock model over a core list (markov.h)
 *   sim         simulate one memcg workload configuration (sim_memcg.h)
 *   program     print a workload's op program
 *   predict     seed A/B pairs on many cores vs the published changes, each
 *               for a target machine (predict/target.h)
 *   validate    the ledger: every published row (predict/ledger.h), then
 *               the simulator vs any results directories or CSVs given
 */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/csv.h"
#include "core/topo.h"
#include "harness/calib_probe.h"
#include "predict/ledger.h"
#include "predict/markov.h"
#include "predict/predict.h"
#include "predict/sim_memcg.h"
#include "predict/target.h"
#include "predict/usl.h"

static int model_main(int argc, char **argv);

const struct subcommand model_cmd = {
	.name = "model",
	.summary = "calibrated models: calibrate, fit usl, lock, sim, predict, validate",
	.usage =
	"model calibrate [--out FILE] [--quick] [--reps N] [--no-locks] [--no-workloads]\n"
	"       model fit usl DATA [--holdout K] [--where KEY=VALUE]... [--y COLUMN]\n"
	"       model lock --cs NS --think NS (--handoff NS | --calib FILE)\n"
	"                 [--kind ticket|queue] [--cpus LIST]\n"
	"       model sim WORKLOAD --cpus LIST [--set KEY=VALUE]... [--calib FILE]\n"
	"                 [--line 64|128] [--lock-kind queue|ticket] [--iters N]\n"
	"       model program WORKLOAD [--set KEY=VALUE]... [--line 64|128]\n"
	"       model predict EXPERIMENT [--cpus LIST] [--calib FILE] [--target NAME]\n"
	"                 [--line 64|128] [--iters N] [--walk-miss F] [--remote-factor X]\n"
	"       model validate [RESULTS_DIR|RESULTS.csv]... [--calib FILE] [--target NAME]\n"
	"\n"
	"calibrate  measures cache-line transfer (ping-pong), atomics, loads,\n"
	"           per-CPU adds, list ops, page copy and fault, syscalls, every\n"
	"           lock's uncontended and hand-off cost and (when they exist)\n"
	"           the kernel-model workloads' 1-worker cost; repeated probes\n"
	"           report median, quartiles and range.  Default file: stdout.\n"
	"fit usl    DATA is a results CSV (columns workers, ops_per_sec; rows\n"
	"           with equal workers are averaged; --where filters) or a plain\n"
	"           file of 'N throughput' lines.  --holdout K fits all but the\n"
	"           last K worker counts and reports the error on them.\n"
	"lock       throughput and collapse point of a ticket (handoff grows\n"
	"           with waiters) or queue lock (constant handoff).\n"
	"sim, predict, validate: --walk-miss F (fraction of 8d59d2214c's\n"
	"           ancestor-walk loads that miss) and --remote-factor X\n"
	"           (cross-node transfer cost) override the calibration and the\n"
	"           target profile, and are printed as such; --line 128 models\n"
	"           the adjacent-line prefetcher (predict: the target's pairing).\n"
	"predict    EXPERIMENT: layout_false_sharing, stats_batch,\n"
	"           permemcg_flush, lru_lock_split.  Each published row is\n"
	"           predicted for the machine it ran on (its target profile,\n"
	"           'memscale list targets'); other sizes for this machine\n"
	"           (target 'here'); --target NAME predicts every row for NAME.\n"
	"           Every parameter is printed with its origin (measured here,\n"
	"           target profile with source, model, not measured).  Without\n"
	"           --calib a quick calibration runs first.  Default --cpus\n"
	"           52,80,104,224; --cpus published: the published sizes only.\n"
	"validate   the ledger: every published row of every seed with its\n"
	"           prediction, error, sign and held-out role, a summary per\n"
	"           seed; then each RESULTS_DIR (every results.csv in it and its\n"
	"           subdirectories) or CSV given: simulator vs measured.\n"
	"\n"
	"Published numbers are shown for comparison only; no model parameter is\n"
	"fitted to them.\n",
	.main = model_main,
};
REGISTER(subcommand, model_cmd);

/* Shared option table: each action rejects the options it does not use. */
enum {
	O_OUT = 'o', O_CPUS = 'C', O_CALIB = 'k', O_SET = 's', O_HOLD = 'H',
	O_WHERE = 'W', O_Y = 'Y', O_CS = 1000, O_THINK, O_HANDOFF, O_KIND,
	O_LINE, O_LOCKKIND, O_ITERS, O_QUICK, O_REPS, O_NOLOCKS, O_NOWL,
	O_WALKMISS, O_REMOTE, O_TARGET,
};

struct mopts {
	const char *action;
	const char *out, *cpus, *calib, *y, *target;
	char **sets, **wheres;
	size_t nsets, nwheres;
	long holdout;
	double cs, think, handoff;
	bool have_cs, have_think, have_handoff, quick, nolocks, nowl;
	enum lock_model_kind kind;
	unsigned line;
	enum sim_lock_kind lock_kind;
	long iters, reps;
	double walk_miss, remote_factor; /* NAN: defaults */
	char **args;
	int nargs;
};

#define usage_die(fmt, arg) \
	die(EXIT_USAGE, "model: " fmt " (see 'memscale model --help')", arg)

static double parse_ns(const char *opt, const char *s)
{
	double v;

	if (!parse_double(s, 0, 1e12, &v) || !isfinite(v))
		die(EXIT_USAGE, "model: bad %s '%s' (want nanoseconds >= 0)", opt, s);
	return v;
}

static void parse_opts(int argc, char **argv, struct mopts *m)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, O_OUT },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "calib", required_argument, NULL, O_CALIB },
		{ "set", required_argument, NULL, O_SET },
		{ "holdout", required_argument, NULL, O_HOLD },
		{ "where", required_argument, NULL, O_WHERE },
		{ "y", required_argument, NULL, O_Y },
		{ "cs", required_argument, NULL, O_CS },
		{ "think", required_argument, NULL, O_THINK },
		{ "handoff", required_argument, NULL, O_HANDOFF },
		{ "kind", required_argument, NULL, O_KIND },
		{ "line", required_argument, NULL, O_LINE },
		{ "lock-kind", required_argument, NULL, O_LOCKKIND },
		{ "iters", required_argument, NULL, O_ITERS },
		{ "quick", no_argument, NULL, O_QUICK },
		{ "reps", required_argument, NULL, O_REPS },
		{ "no-locks", no_argument, NULL, O_NOLOCKS },
		{ "no-workloads", no_argument, NULL, O_NOWL },
		{ "walk-miss", required_argument, NULL, O_WALKMISS },
		{ "remote-factor", required_argument, NULL, O_REMOTE },
		{ "target", required_argument, NULL, O_TARGET },
		{ 0 },
	};
	int c;
	long v;

	m->sets = xcalloc((size_t)argc + 1, sizeof(char *));
	m->wheres = xcalloc((size_t)argc + 1, sizeof(char *));
	m->args = xcalloc((size_t)argc + 1, sizeof(char *));
	m->kind = LOCK_MODEL_TICKET;
	m->lock_kind = SIM_LOCK_QUEUE;
	m->iters = 300000;
	m->reps = 7;
	m->walk_miss = m->remote_factor = NAN;
	opterr = 0;
	optind = 1;
	/* "-" first: keep positional words in order (permutation off). */
	while ((c = getopt_long(argc, argv, "-o:", longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			m->args[m->nargs++] = optarg;
			break;
		case O_OUT: m->out = optarg; break;
		case O_CPUS: m->cpus = optarg; break;
		case O_CALIB: m->calib = optarg; break;
		case O_Y: m->y = optarg; break;
		case O_SET: m->sets[m->nsets++] = optarg; break;
		case O_WHERE:
			if (!strchr(optarg, '='))
				usage_die("bad --where '%s' (want KEY=VALUE)", optarg);
			m->wheres[m->nwheres++] = optarg;
			break;
		case O_HOLD:
			if (!parse_long(optarg, 1, 1000000, &m->holdout))
				usage_die("bad --holdout '%s' (want a count >= 1)", optarg);
			break;
		case O_CS: m->cs = parse_ns("--cs", optarg); m->have_cs = true; break;
		case O_THINK: m->think = parse_ns("--think", optarg); m->have_think = true; break;
		case O_HANDOFF: m->handoff = parse_ns("--handoff", optarg); m->have_handoff = true; break;
		case O_KIND:
			if (!strcmp(optarg, "ticket"))
				m->kind = LOCK_MODEL_TICKET;
			else if (!strcmp(optarg, "queue"))
				m->kind = LOCK_MODEL_QUEUE;
			else
				usage_die("bad --kind '%s' (want ticket or queue)", optarg);
			break;
		case O_LOCKKIND:
			if (!strcmp(optarg, "ticket"))
				m->lock_kind = SIM_LOCK_TICKET;
			else if (!strcmp(optarg, "queue"))
				m->lock_kind = SIM_LOCK_QUEUE;
			else
				usage_die("bad --lock-kind '%s' (want queue or ticket)", optarg);
			break;
		case O_LINE:
			if (!parse_long(optarg, 64, 128, &v) || (v != 64 && v != 128))
				usage_die("bad --line '%s' (want 64 or 128)", optarg);
			m->line = (unsigned)v;
			break;
		case O_ITERS:
			if (!parse_long(optarg, 1000, 1000000000L, &m->iters))
				usage_die("bad --iters '%s' (want 1000..1e9)", optarg);
			break;
		case O_REPS:
			if (!parse_long(optarg, 1, 1000, &m->reps))
				usage_die("bad --reps '%s' (want 1..1000)", optarg);
			break;
		case O_WALKMISS:
			if (!parse_double(optarg, 0, 1, &m->walk_miss))
				usage_die("bad --walk-miss '%s' (want a fraction 0..1)", optarg);
			break;
		case O_REMOTE:
			if (!parse_double(optarg, 1, 100, &m->remote_factor))
				usage_die("bad --remote-factor '%s' (want 1..100)", optarg);
			break;
		case O_TARGET:
			if (strcmp(optarg, TARGET_HERE) && !target_find(optarg))
				usage_die("unknown --target '%s' (see 'memscale list targets')", optarg);
			m->target = optarg;
			break;
		case O_QUICK: m->quick = true; break;
		case O_NOLOCKS: m->nolocks = true; break;
		case O_NOWL: m->nowl = true; break;
		default:
			cli_bad_option(&model_cmd, argv[optind - 1]);
		}
	}
}

static size_t cpu_list(const char *s, const char *dflt, long **out)
{
	const char *err = NULL;
	size_t n = parse_list(s ? s : dflt, 1, 4096, out, &err);

	if (!n)
		die(EXIT_USAGE, "model: bad --cpus '%s': %s (want counts 1..4096, e.g. 52,80,104,224 or 1-8)",
		    s ? s : "", err);
	return n;
}

static void need_args(const struct mopts *m, int n, const char *what)
{
	if (m->nargs < n)
		die(EXIT_USAGE, "model %s: missing %s (see 'memscale model --help')",
		    m->action, what);
	if (m->nargs > n)
		die(EXIT_USAGE, "model %s: unexpected argument '%s'", m->action, m->args[n]);
}

static void get_calib(const struct mopts *m, struct calib *c)
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

/* ---- calibrate ---- */

static int do_calibrate(struct mopts *m)
{
	struct calib c;
	struct calib_opts o;
	FILE *f = stdout;

	need_args(m, 0, "");
	calib_opts_default(&o);
	o.reps = (unsigned)m->reps;
	if (m->quick) {
		o.reps = m->reps == 7 ? 3 : o.reps;
		o.scale = 0.2;
		o.wl_seconds = 0.15;
	}
	o.locks = !m->nolocks;
	o.workloads = !m->nowl;
	o.verbose = true;
	if (m->out && !(f = fopen(m->out, "w")))
		die_errno(EXIT_USAGE, "model calibrate: cannot write '%s'", m->out);
	calib_measure(&c, &o);
	if (calib_write(&c, f) || (f != stdout && fclose(f)))
		die_errno(1, "model calibrate: writing '%s'", m->out ? m->out : "stdout");
	if (m->out)
		fprintf(stderr, "calibrate: wrote %s\n", m->out);
	calib_free(&c);
	return 0;
}

/* ---- fit usl ---- */

static bool row_matches(const struct csv_table *t, size_t r, struct mopts *m)
{
	for (size_t i = 0; i < m->nwheres; i++) {
		char *kv = m->wheres[i], *eq = strchr(kv, '=');
		int col;
		bool match;

		*eq = '\0';
		col = csv_col(t, kv);
		if (col < 0)
			die(EXIT_USAGE, "model fit usl: --where column '%s' not in the data", kv);
		match = !strcmp(t->rows[r][col], eq + 1);
		*eq = '=';
		if (!match)
			return false;
	}
	return true;
}

/* Loads (N, X) pairs from a results CSV or a plain two-column file. */
static size_t load_xy(const char *path, struct mopts *m, double **x, double **y)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t n = 0, cap = 64, lineno = 0;

	if (!f)
		die_errno(EXIT_USAGE, "model fit usl: cannot open '%s'", path);
	/* A header naming "workers" means a results CSV. */
	if (fgets(line, sizeof(line), f) && strstr(line, "workers")) {
		const char *err = NULL;
		size_t el = 0;
		struct csv_table *t;
		int cx, cy;

		fclose(f);
		t = csv_read_file(path, &err, &el);
		if (!t)
			die(EXIT_USAGE, "model fit usl: %s: line %zu: %s", path, el, err);
		cx = csv_col(t, "workers");
		cy = csv_col(t, m->y ? m->y : "ops_per_sec");
		if (cy < 0)
			die(EXIT_USAGE, "model fit usl: %s: no column '%s'", path,
			    m->y ? m->y : "ops_per_sec");
		*x = xmalloc((t->nrows + 1) * sizeof(double));
		*y = xmalloc((t->nrows + 1) * sizeof(double));
		for (size_t r = 0; r < t->nrows; r++) {
			if (!row_matches(t, r, m))
				continue;
			if (!parse_double(t->rows[r][cx], 1, 1e9, &(*x)[n]) ||
			    !parse_double(t->rows[r][cy], 0, 1e300, &(*y)[n]))
				die(EXIT_USAGE, "model fit usl: %s: row %zu: bad workers '%s' or %s '%s'",
				    path, r + 2, t->rows[r][cx], m->y ? m->y : "ops_per_sec",
				    t->rows[r][cy]);
			n++;
		}
		csv_free(t);
		return n;
	}
	if (m->nwheres || m->y)
		die(EXIT_USAGE, "model fit usl: --where/--y need a results CSV; '%s' has no header", path);
	rewind(f);
	*x = xmalloc(cap * sizeof(double));
	*y = xmalloc(cap * sizeof(double));
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *a, *b, *extra;

		lineno++;
		a = strtok_r(line, " \t,\r\n", &save);
		if (!a || *a == '#')
			continue;
		b = strtok_r(NULL, " \t,\r\n", &save);
		extra = strtok_r(NULL, " \t,\r\n", &save);
		if (n == cap) {
			cap *= 2;
			*x = realloc(*x, cap * sizeof(double));
			*y = realloc(*y, cap * sizeof(double));
			if (!*x || !*y)
				die(1, "out of memory");
		}
		if (!b || extra || !parse_double(a, 1, 1e9, &(*x)[n]) ||
		    !parse_double(b, 0, 1e300, &(*y)[n]))
			die(EXIT_USAGE, "model fit usl: %s: line %zu: want 'N throughput' "
			    "(N >= 1, throughput >= 0)", path, lineno);
		n++;
	}
	fclose(f);
	return n;
}

static int do_fit(struct mopts *m)
{
	double *x, *y, *gx, *gy;
	size_t n, g;
	struct usl_fit fit;
	const char *err = NULL;

	if (m->nargs < 1 || strcmp(m->args[0], "usl"))
		die(EXIT_USAGE, "model fit: unknown model '%s' (want: usl)",
		    m->nargs ? m->args[0] : "");
	m->action = "fit usl";
	if (m->nargs != 2)
		die(EXIT_USAGE, "model fit usl: want one DATA file");
	n = load_xy(m->args[1], m, &x, &y);
	g = usl_group_mean(x, y, n, &gx, &gy);
	if (g < 3)
		die(EXIT_USAGE, "model fit usl: %s: %zu distinct worker counts; need at least 3",
		    m->args[1], g);
	if (m->holdout && (size_t)m->holdout + 3 > g)
		die(EXIT_USAGE, "model fit usl: --holdout %ld leaves fewer than 3 points to fit",
		    m->holdout);
	if (m->holdout) {
		double *rel = xmalloc((size_t)m->holdout * sizeof(double));
		double mae = usl_holdout(gx, gy, g, (size_t)m->holdout, &fit, rel, &err);
		if (isnan(mae))
			die(1, "model fit usl: %s", err);
		printf("hold-out: fitted %zu points, predicting the last %ld\n",
		       g - (size_t)m->holdout, m->holdout);
		printf("%8s %14s %14s %9s\n", "N", "measured", "predicted", "rel_err");
		for (size_t i = g - (size_t)m->holdout; i < g; i++)
			printf("%8g %14.6g %14.6g %+8.2f%%\n", gx[i], gy[i],
			       usl_fit_eval(&fit, gx[i]), 100 * rel[i - (g - (size_t)m->holdout)]);
		printf("hold-out mean |rel err| %.2f%%\n", 100 * mae);
		free(rel);
	} else if (usl_fit(gx, gy, g, &fit, &err)) {
		die(1, "model fit usl: %s", err);
	}
	if (g < 6)
		fprintf(stderr, "model fit usl: warning: only %zu points (the usl package "
			"warns below 6)\n", g);
	printf("USL fit over %zu points (%s)%s\n", fit.n, m->args[1],
	       fit.converged ? "" : "  [NOT CONVERGED]");
	printf("  gamma %.6g +- %.3g   (single-worker throughput)\n", fit.gamma, fit.gamma_se);
	printf("  alpha %.6g +- %.3g   (contention)\n", fit.alpha, fit.alpha_se);
	printf("  beta  %.6g +- %.3g   (coherency)\n", fit.beta, fit.beta_se);
	if (isfinite(fit.peak_n))
		printf("  peak N* = sqrt((1-alpha)/beta) = %.1f, X(N*) = %.6g\n",
		       fit.peak_n, usl_fit_eval(&fit, fit.peak_n));
	else
		printf("  peak N*: none (beta <= 0: no retrograde region)\n");
	printf("  R^2 %.5f, RSS %.6g, %d iterations\n", fit.r2, fit.rss, fit.iterations);
	free(x);
	free(y);
	free(gx);
	free(gy);
	return 0;
}

/* ---- lock ---- */

static int do_lock(struct mopts *m)
{
	struct lock_model lm;
	long *cpus;
	size_t n;
	unsigned nmax = 0, peak;
	struct lock_pred prev = { 0 };

	need_args(m, 0, "");
	if (!m->have_handoff && m->calib) {
		/* The model's c: one cache-line transfer, as calibrated. */
		struct calib c;
		calib_load_or_die(&c, m->calib);
		m->handoff = calib_median(&c, "xfer.atomic");
		m->have_handoff = true;
		calib_free(&c);
	}
	if (!m->have_cs || !m->have_think || !m->have_handoff)
		die(EXIT_USAGE, "model lock: need --cs, --think and --handoff NS (or --calib FILE)");
	if (m->think <= 0)
		die(EXIT_USAGE, "model lock: bad --think '%g' (want > 0 ns)", m->think);
	n = cpu_list(m->cpus, "1,2,4,8,16,32,52,80,104,224", &cpus);
	lm = (struct lock_model){ m->cs, m->think, m->handoff, m->kind };
	for (size_t i = 0; i < n; i++)
		if ((unsigned)cpus[i] > nmax)
			nmax = (unsigned)cpus[i];
	peak = lock_model_peak(&lm, nmax);
	printf("# %s lock: cs %g ns, think %g ns, handoff %g ns (OLS'12 birth-death model)\n",
	       lock_model_kind_name(lm.kind), lm.cs_ns, lm.think_ns, lm.handoff_ns);
	printf("%6s %14s %12s %10s %10s %8s\n", "cpus", "acq_per_sec", "per_core",
	       "speedup", "waiting", "P0");
	for (size_t i = 0; i < n; i++) {
		struct lock_pred p;
		lock_model_solve(&lm, (unsigned)cpus[i], &p);
		printf("%6ld %14.6g %12.6g %10.3f %10.3f %8.4f%s\n", cpus[i], p.acq_per_sec,
		       p.acq_per_sec / (double)cpus[i], p.speedup, p.mean_waiting, p.p_idle,
		       i && p.acq_per_sec < prev.acq_per_sec ? "  (falling)" : "");
		prev = p;
	}
	{
		struct lock_pred p;
		lock_model_solve(&lm, peak, &p);
		printf("peak: %.6g acq/s at %u cpus (within 1..%u)%s\n", p.acq_per_sec, peak,
		       nmax, peak < nmax ? "; throughput falls beyond it (collapse)" : "");
	}
	free(cpus);
	return 0;
}

/* ---- sim / program ---- */

static void sim_cfg_from(const struct mopts *m, struct memcg_sim_cfg *cfg)
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

/* This machine's costs (target "here") with the command line's
 * overrides; the parameter table, every value with its origin, goes to
 * stdout as comment lines. */
static void here_costs(const struct mopts *m, const struct calib *c, struct memcg_costs *out)
{
	struct target here;
	struct target_costs tc;
	struct target_overrides ov = { m->walk_miss, m->remote_factor, m->line };

	target_here(&here, c);
	target_costs(&here, c, &ov, &tc);
	target_print_params(&here, &tc, stdout);
	*out = tc.c;
}

static void check_workload(const char *wl)
{
	if (!memcg_sim_known(wl)) {
		char list[512] = "";
		for (size_t i = 0; memcg_sim_workloads[i]; i++) {
			strcat(list, i ? "|" : "");
			strcat(list, memcg_sim_workloads[i]);
		}
		die(EXIT_USAGE, "model: unknown workload '%s' (want %s)", wl, list);
	}
}

static int do_program(struct mopts *m)
{
	struct memcg_sim_cfg cfg;
	struct memcg_costs costs;
	struct sim_prog p;

	need_args(m, 1, "WORKLOAD");
	check_workload(m->args[0]);
	sim_cfg_from(m, &cfg);
	memset(&costs, 0, sizeof(costs));
	if (m->calib) {
		struct calib c;
		calib_load_or_die(&c, m->calib);
		calib_costs(&c, &costs);
		calib_free(&c);
	}
	memcg_sim_build(&p, m->args[0], &cfg, &costs);
	sim_prog_dump(&p, stdout);
	sim_prog_free(&p);
	return 0;
}

static int do_sim(struct mopts *m)
{
	struct memcg_sim_cfg cfg;
	struct memcg_costs costs;
	struct calib c;
	long *cpus;
	size_t n;
	double base = 0;

	need_args(m, 1, "WORKLOAD");
	check_workload(m->args[0]);
	sim_cfg_from(m, &cfg);
	n = cpu_list(m->cpus, "1,2,4,8,16,32,52,80,104,224", &cpus);
	get_calib(m, &c);
	here_costs(m, &c, &costs);
	calib_free(&c);
	{
		/* Speed-up is against one simulated core. */
		struct sim_result r1;
		const char *err = NULL;
		if (memcg_sim_run(m->args[0], &cfg, &costs, 1, 4000, &r1, &err))
			die(1, "model sim: %s", err);
		base = r1.ops_per_sec;
	}
	printf("%6s %14s %12s %10s %10s %10s\n", "cpus", "ops_per_sec", "per_core",
	       "speedup", "lock_wait", "xfer/op");
	for (size_t i = 0; i < n; i++) {
		struct sim_result r;
		const char *err = NULL;
		uint64_t per = (uint64_t)m->iters / (uint64_t)cpus[i];

		if (memcg_sim_run(m->args[0], &cfg, &costs, (unsigned)cpus[i],
				  per < 400 ? 400 : per, &r, &err))
			die(1, "model sim: %s", err);
		printf("%6ld %14.6g %12.6g %10.2f %9.1f%% %10.2f\n", cpus[i], r.ops_per_sec,
		       r.ops_per_sec / (double)cpus[i], r.ops_per_sec / base,
		       100 * r.lock_wait_frac, r.xfer_per_op);
		fflush(stdout);
	}
	free(cpus);
	return 0;
}

/* ---- predict ---- */

static int do_predict(struct mopts *m)
{
	const struct experiment_def *e;
	struct predict_opts po;
	struct calib c;
	int rc;

	need_args(m, 1, "EXPERIMENT");
	e = predict_find(m->args[0]);
	if (!e)
		die(EXIT_USAGE, "model predict: unknown experiment '%s' (want %s)",
		    m->args[0], predict_names());
	memset(&po, 0, sizeof(po));
	if (m->cpus && !strcmp(m->cpus, "published"))
		po.ncpus = 0; /* only the sizes of the published rows */
	else
		po.ncpus = cpu_list(m->cpus, "52,80,104,224", &po.cpus);
	po.iters = (uint64_t)m->iters;
	po.line_size = m->line;
	po.lock_kind = m->lock_kind;
	po.walk_miss = m->walk_miss;
	po.remote_factor = m->remote_factor;
	po.target = m->target;
	get_calib(m, &c);
	rc = predict_run(e, &c, &po, stdout);
	calib_free(&c);
	free(po.cpus);
	return rc;
}

/* ---- validate ---- */

static const char *const knob_cols[] = {
	"layout", "stats", "stats_batch", "charge_batch", "lru_batch", "lru_lock",
	"containers", "depth", "nodes", "flush_ms", "page_work", NULL,
};

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
			mc = 100 * (g[j].measured / g[i].measured - 1);
			sc = 100 * (g[j].simulated / g[i].simulated - 1);
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

/*
 * Simulator vs one results CSV measured on this machine (or on the
 * machine the calibration describes): one group per (workload, lock,
 * knob values), the measured mean per worker count against the simulated
 * one.  Returns the number of groups; adds to *sum_abs / *nerr the
 * relative errors of the multi-worker points.
 */
static size_t validate_csv(const char *path, struct mopts *m, struct calib *cp,
			   double *sum_abs_out, unsigned *nerr_out)
{
	const char *err = NULL;
	size_t el = 0, ngroups = 0;
	struct csv_table *t;
	int cwl, cw, cy, clock, cvar;
	struct ab_group *abg;
	struct calib c = *cp;
	struct memcg_costs base_costs;
	char **keys;
	double sum_abs = 0;
	unsigned nerr = 0;

	t = csv_read_file(path, &err, &el);
	if (!t)
		die(EXIT_USAGE, "model validate: %s: line %zu: %s", path, el, err);
	cwl = csv_col(t, "workload");
	cw = csv_col(t, "workers");
	cy = csv_col(t, "ops_per_sec");
	clock = csv_col(t, "lock");
	cvar = csv_col(t, "variant");
	if (cwl < 0 || cw < 0 || cy < 0)
		die(EXIT_USAGE, "model validate: %s: need columns workload, workers, ops_per_sec",
		    path);
	abg = xcalloc(t->nrows + 1, sizeof(*abg));
	printf("# results %s\n", path);
	here_costs(m, &c, &base_costs);
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
		gm.sets = xcalloc(ARRAY_SIZE(knob_cols) + 1, sizeof(char *));
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
			gm.lock_kind = SIM_LOCK_TICKET;
		sim_cfg_from(&gm, &cfg);
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
				if (i + 1 == g) {
					struct ab_group *a = &abg[ngroups - 1];
					a->wl = xstrdup(wl);
					a->lock = xstrdup(clock >= 0 ? t->rows[r][clock] : "");
					a->variant = cvar >= 0 ? xstrdup(t->rows[r][cvar]) : NULL;
					a->cfg = xstrdup(cfgstr);
					a->workers = gx[i];
					a->measured = gy[i];
					a->simulated = rs.ops_per_sec;
				}
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
	if (nerr)
		printf("# %s: mean |rel err| over %u multi-worker points: %.1f%%\n", path, nerr,
		       100 * sum_abs / nerr);
	else
		printf("# %s: no rows of a simulated workload\n", path);
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

static int do_validate(struct mopts *m)
{
	struct predict_opts po;
	struct calib c;
	double sum_abs = 0;
	unsigned nerr = 0;

	/* Bad paths are found before any work. */
	for (int i = 0; i < m->nargs; i++) {
		struct stat st;
		if (stat(m->args[i], &st))
			die_errno(EXIT_USAGE, "model validate: cannot read '%s'", m->args[i]);
	}
	get_calib(m, &c);
	memset(&po, 0, sizeof(po));
	po.iters = (uint64_t)m->iters;
	po.line_size = m->line;
	po.lock_kind = m->lock_kind;
	po.walk_miss = m->walk_miss;
	po.remote_factor = m->remote_factor;
	po.target = m->target;
	predict_ledger(&c, &po, stdout);
	for (int i = 0; i < m->nargs; i++) {
		struct stat st;
		char **csvs;
		size_t n;

		stat(m->args[i], &st);
		if (!S_ISDIR(st.st_mode)) {
			validate_csv(m->args[i], m, &c, &sum_abs, &nerr);
			continue;
		}
		n = results_csvs(m->args[i], &csvs);
		if (!n)
			fprintf(stderr, "model validate: %s: no results.csv in it or its subdirectories\n",
				m->args[i]);
		for (size_t k = 0; k < n; k++) {
			validate_csv(csvs[k], m, &c, &sum_abs, &nerr);
			free(csvs[k]);
		}
		free(csvs);
	}
	if (nerr)
		printf("# results given: mean |rel err| over %u multi-worker points: %.1f%% "
		       "(costs: this machine's calibration)\n", nerr, 100 * sum_abs / nerr);
	calib_free(&c);
	return 0;
}

static int model_main(int argc, char **argv)
{
	struct mopts m = { 0 };

	parse_opts(argc, argv, &m);
	if (m.nargs < 1)
		die(EXIT_USAGE, "model: missing action (calibrate, fit, lock, sim, program, "
		    "predict, validate; see 'memscale model --help')");
	m.action = m.args[0];
	m.args++;
	m.nargs--;
	if (!strcmp(m.action, "calibrate"))
		return do_calibrate(&m);
	if (!strcmp(m.action, "fit"))
		return do_fit(&m);
	if (!strcmp(m.action, "lock"))
		return do_lock(&m);
	if (!strcmp(m.action, "sim"))
		return do_sim(&m);
	if (!strcmp(m.action, "program"))
		return do_program(&m);
	if (!strcmp(m.action, "predict"))
		return do_predict(&m);
	if (!strcmp(m.action, "validate"))
		return do_validate(&m);
	die(EXIT_USAGE, "model: unknown action '%s' (want calibrate, fit, lock, sim, "
	    "program, predict, validate)", m.action);
}
