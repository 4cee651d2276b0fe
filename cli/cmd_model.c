/*
 * cmd_model.c - `memscale model ...`: calibrated extrapolation models.
 * This file registers the subcommand, parses the options every verb
 * shares and dispatches; each verb is one file (cli/model.h):
 *
 *   calibrate   run the probes, write a calibration file (model_calibrate.c)
 *   fit usl     Universal Scalability Law fit of measured data (model_fit.c)
 *   lock        OLS'12 birth-death lock model over a core list (model_lock.c)
 *   sim         simulate one memcg workload configuration (model_sim.c)
 *   program     print a workload's op program (model_program.c)
 *   predict     seed A/B pairs on many cores vs the published changes, each
 *               for a target machine, predict/target.h (model_predict.c)
 *   validate    the ledger over every published row (predict/ledger.h),
 *               then the simulator vs any results directories or CSVs
 *               given (model_validate.c)
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"

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
	"       model program WORKLOAD [--set KEY=VALUE]... [--line 64|128] [--mode processes|threads] [--check]\n"
	"       model predict --workload W --pair A..B --target T --cpus N\n"
	"                 [--mode processes|threads] [--calib FILE] [-f table|csv]\n"
	"                 [--experiment NAME|FILE] [--set KEY=VALUE]... [--explain]\n"
	"                 [--sensitivity] [--jobs N] [--seed N]\n"
	"       model predict EXPERIMENT [--cpus LIST] [--calib FILE] [--target NAME|FILE]\n"
	"                 [--line 64|128] [--iters N] [--walk-miss F] [--remote-factor X]\n"
	"                 [--sensitivity] [--jobs N] [--seed N]\n"
	"       model validate [RESULTS_DIR|RESULTS.csv]... [--calib FILE] [--target NAME|FILE]\n"
	"                 [-f table|csv] [--jobs N] [--seed N]\n"
	"\n"
	"calibrate  measures cache-line transfer (ping-pong), atomics, loads,\n"
	"           per-CPU adds, list ops, page copy and fault, syscalls, every\n"
	"           lock's uncontended and hand-off cost and (when they exist)\n"
	"           the kernel-model workloads' 1-worker cost and kernel-shaped\n"
	"           work (kwork.*, read by run and the sweeps); repeated probes\n"
	"           report median, quartiles and range.  Faults: the steady-state\n"
	"           re-fault (what predict uses) apart from the first touch, and\n"
	"           their components.  Default file: the machine's ($MEMSCALE_CALIB,\n"
	"           else /var/lib/memscale/calib.txt as root); --out - : stdout.\n"
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
	"predict, validate: --jobs N runs N independent simulations at once on\n"
	"           threads (default: the CPUs this process may run on); the\n"
	"           output is the same for every N.  --seed N: the simulator\n"
	"           draws each core's phase and its spread arrivals from N\n"
	"           (default 1); a side's value is the mean of up to 4\n"
	"           simulations, seeds N, N+1, ..., sharing its iterations\n"
	"           (400 per CPU each at least); the spread of an answer over\n"
	"           seeds is the simulation's own sampling noise, which no band\n"
	"           includes.\n"
	"predict    --workload W --pair A..B: one question; A and B are kernel\n"
	"           profiles ('memscale list kernels') or knob=value,... sets\n"
	"           (kernel=NAME,stats_batch=512), T a target name or file, N up\n"
	"           to the target's CPUs; --set KEY=VALUE holds for both sides\n"
	"           (containers=40), refused where a side's own settings replace\n"
	"           it; --experiment NAME: both sides also share that\n"
	"           experiment's [fixed] and [predict] settings (--set over\n"
	"           them), the question its ledger rows ask; every argument is\n"
	"           checked before any\n"
	"           calibration runs.  -f csv: a header and one row on stdout\n"
	"           (workload,base,patch,target,cpus,mode,predicted_pct,\n"
	"           band_lo_pct,band_hi_pct,regime,base_ops_s,patch_ops_s: each\n"
	"           side's operations per second over all CPUs, as\n"
	"           will-it-scale and vm-scalability total them).  --explain:\n"
	"           per side and lock, what the critical section is made of (ns\n"
	"           per hold and per folio-op by part, the waiters' traffic per\n"
	"           hold, the lines with the most transfers per hold by the\n"
	"           taker's role) and, where a [published] row gives the side's\n"
	"           ops/s, the hold per folio-op they imply if the busiest lock's\n"
	"           instances in use (one per node for a lruvec lock) were\n"
	"           saturated; on stderr with -f csv.\n"
	"predict    EXPERIMENT: the name or path of an experiment file with\n"
	"           [published] rows (experiments/*.ini).  Each published row is\n"
	"           predicted for the machine it ran on (its target profile,\n"
	"           'memscale list targets'); other sizes for this machine\n"
	"           (target 'here'); --target NAME predicts every row for NAME.\n"
	"           Every parameter is printed with its origin (measured here,\n"
	"           target profile with source, model, not measured).  Without\n"
	"           --calib the machine's calibration file is read, else a quick\n"
	"           calibration runs first.  Default --cpus 52,80,104,224;\n"
	"           --cpus published: the published sizes only.  --sensitivity:\n"
	"           each measured input x2 alone, the change of every published\n"
	"           row's prediction (pp), and why an input that moves none is\n"
	"           not used (with --workload: of the one question's, on stderr\n"
	"           with -f csv).\n"
	"validate   the ledger: every published row of every seed with its\n"
	"           prediction, error, sign and held-out role, a summary per\n"
	"           seed (-f csv: seed,workload,base,patch,target,cpus,role,\n"
	"           published_pct,predicted_pct,band_lo_pct,band_hi_pct,regime,\n"
	"           base_ops_s,patch_ops_s,published_base_ops_s,\n"
	"           published_patch_ops_s,base_ops_ratio,error_pp,sign_ok,\n"
	"           determined, one row per published row, a range written\n"
	"           LO..HI, empty where nothing was published; error_pp: pp\n"
	"           outside the published range, sign_ok yes/no/- (no sign\n"
	"           published), determined yes/no (a band of one sign); the\n"
	"           summary gives the geometric mean and the worst\n"
	"           base_ops_ratio)\n"
	"           seed; then each RESULTS_DIR (every results.csv in it and its\n"
	"           subdirectories) or CSV given: simulator vs measured, per\n"
	"           measured point the mean and 95% interval over its runs, the\n"
	"           simulated value, its band and regime (-f csv with results:\n"
	"           that table alone, results,group,workload,lock,config,workers,\n"
	"           n,measured,ci_lo,ci_hi,simulated,rel_err_pct,band_lo,band_hi,\n"
	"           in_band,regime).\n"
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
	O_LINE, O_LOCKKIND, O_ITERS, O_QUICK, O_REPS, O_NOLOCKS, O_NOWL, O_SENS, O_EXPLAIN, O_CHECK,
	O_WALKMISS, O_REMOTE, O_TARGET, O_WORKLOAD, O_EXPERIMENT, O_PAIR, O_MODE, O_JOBS, O_SEED,
	O_FORMAT = 'f',
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

/* The options with a checked value (a count, a size, a name from a
 * list); false: c is not one of them. */
static bool parse_valued(int c, const char *arg, struct mopts *m)
{
	long v;

	switch (c) {
	case O_HOLD:
		if (!parse_long(arg, 1, 1000000, &m->holdout))
			usage_die("bad --holdout '%s' (want a count >= 1)", arg);
		break;
	case O_CS: m->cs = parse_ns("--cs", arg); m->have_cs = true; break;
	case O_THINK: m->think = parse_ns("--think", arg); m->have_think = true; break;
	case O_HANDOFF: m->handoff = parse_ns("--handoff", arg); m->have_handoff = true; break;
	case O_KIND:
		if (!strcmp(arg, "ticket"))
			m->kind = LOCK_MODEL_TICKET;
		else if (!strcmp(arg, "queue"))
			m->kind = LOCK_MODEL_QUEUE;
		else
			usage_die("bad --kind '%s' (want ticket or queue)", arg);
		break;
	case O_LOCKKIND:
		if (!strcmp(arg, "ticket"))
			m->lock_kind = LOCK_MODEL_TICKET;
		else if (!strcmp(arg, "queue"))
			m->lock_kind = LOCK_MODEL_QUEUE;
		else
			usage_die("bad --lock-kind '%s' (want queue or ticket)", arg);
		break;
	case O_LINE:
		if (!parse_long(arg, 64, 128, &v) || (v != 64 && v != 128))
			usage_die("bad --line '%s' (want 64 or 128)", arg);
		m->line = (unsigned)v;
		break;
	case O_ITERS:
		if (!parse_long(arg, 1000, 1000000000L, &m->iters))
			usage_die("bad --iters '%s' (want 1000..1e9)", arg);
		break;
	case O_SEED:
		if (!parse_long(arg, 1, 4294967295L, &v))
			usage_die("bad --seed '%s' (want 1..4294967295)", arg);
		m->seed = (unsigned long)v;
		break;
	case O_REPS:
		if (!parse_long(arg, 1, 1000, &m->reps))
			usage_die("bad --reps '%s' (want 1..1000)", arg);
		break;
	case O_WALKMISS:
		if (!parse_double(arg, 0, 1, &m->walk_miss))
			usage_die("bad --walk-miss '%s' (want a fraction 0..1)", arg);
		break;
	case O_REMOTE:
		if (!parse_double(arg, 1, 100, &m->remote_factor))
			usage_die("bad --remote-factor '%s' (want 1..100)", arg);
		break;
	case O_TARGET:
		if (strcmp(arg, TARGET_HERE) && !target_find(arg))
			usage_die("unknown --target '%s' (see 'memscale list targets')", arg);
		m->target = arg;
		break;
	case O_MODE:
		if (strcmp(arg, "processes") && strcmp(arg, "threads"))
			usage_die("bad --mode '%s' (want processes or threads)", arg);
		m->mode = arg;
		break;
	case O_JOBS:
		if (!parse_long(arg, 1, 1024, &v))
			usage_die("bad --jobs '%s' (want 1..1024 simulations at once)", arg);
		m->jobs = (unsigned)v;
		break;
	case O_FORMAT:
		if (!strcmp(arg, "csv"))
			m->csv = true;
		else if (strcmp(arg, "table"))
			usage_die("bad -f '%s' (want table or csv)", arg);
		break;
	default:
		return false;
	}
	return true;
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
		{ "sensitivity", no_argument, NULL, O_SENS },
		{ "explain", no_argument, NULL, O_EXPLAIN },
		{ "check", no_argument, NULL, O_CHECK },
		{ "walk-miss", required_argument, NULL, O_WALKMISS },
		{ "remote-factor", required_argument, NULL, O_REMOTE },
		{ "target", required_argument, NULL, O_TARGET },
		{ "workload", required_argument, NULL, O_WORKLOAD },
		{ "experiment", required_argument, NULL, O_EXPERIMENT },
		{ "pair", required_argument, NULL, O_PAIR },
		{ "mode", required_argument, NULL, O_MODE },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "jobs", required_argument, NULL, O_JOBS },
		{ "seed", required_argument, NULL, O_SEED },
		{ 0 },
	};
	int c;

	m->sets = xcalloc((size_t)argc + 1, sizeof(char *));
	m->args = xcalloc((size_t)argc + 1, sizeof(char *));
	m->kind = LOCK_MODEL_TICKET;
	m->lock_kind = LOCK_MODEL_QUEUE;
	m->iters = 300000;
	m->seed = 1;
	m->reps = 7;
	m->walk_miss = m->remote_factor = NAN;
	opterr = 0;
	optind = 1;
	/* "-" first: keep positional words in order (permutation off). */
	while ((c = getopt_long(argc, argv, "-o:f:", longopts, NULL)) != -1) {
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
			cli_where_arg(&model_cmd, &m->where, optarg);
			break;
		case O_WORKLOAD: m->workload = optarg; break;
		case O_EXPERIMENT: m->experiment = optarg; break;
		case O_PAIR: m->pair = optarg; break;
		case O_QUICK: m->quick = true; break;
		case O_NOLOCKS: m->nolocks = true; break;
		case O_NOWL: m->nowl = true; break;
		case O_SENS: m->sensitivity = true; break;
		case O_EXPLAIN: m->explain = true; break;
		case O_CHECK: m->check = true; break;
		default:
			if (!parse_valued(c, optarg, m))
				cli_bad_getopt(&model_cmd, argv, "-o:f:");
		}
	}
}

/* The verbs in the order --help lists them. */
static const struct {
	const char *name;
	int (*run)(struct mopts *m);
	bool reads_set; /* --set KEY=VALUE reaches what it runs */
} verbs[] = {
	{ "calibrate", model_calibrate, false },
	{ "fit", model_fit, false },
	{ "lock", model_lock, false },
	{ "sim", model_sim, true },
	{ "program", model_program, true },
	{ "predict", model_predict, true }, /* the --workload form only */
	{ "validate", model_validate, false },
};

static int model_dispatch(struct mopts *pm);

/* Runs the action, then frees what parse_opts allocated (LeakSanitizer). */
static int model_main(int argc, char **argv)
{
	struct mopts m = { 0 };
	char **args;
	int status;

	parse_opts(argc, argv, &m);
	args = m.args;
	status = model_dispatch(&m);
	free(m.sets);
	where_free(&m.where);
	free(args);
	return status;
}

static int model_dispatch(struct mopts *pm)
{
	struct mopts m = *pm;

	if (m.nargs < 1)
		die(EXIT_USAGE, "model: missing action (calibrate, fit, lock, sim, program, "
		    "predict, validate; see 'memscale model --help')");
	m.action = m.args[0];
	m.args++;
	m.nargs--;
	for (size_t i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(m.action, verbs[i].name)) {
			/* a knob the verb would record but not run is refused */
			if (m.nsets && !verbs[i].reads_set)
				die(EXIT_USAGE, "model %s: --set %s is not read by %s (its settings "
				    "come from %s)", m.action, m.sets[0], m.action,
				    !strcmp(m.action, "validate") ? "each result's knob columns"
				    : "its own options");
			return verbs[i].run(&m);
		}
	die(EXIT_USAGE, "model: unknown action '%s' (want calibrate, fit, lock, sim, "
	    "program, predict, validate)", m.action);
}
