/*
 * cmd_sweep.c - `memscale sweep EXPERIMENT`: run an experiment file's
 * whole matrix, one point at a time, through harness_run_one().
 *
 * Every finished point is its own file (temp + rename), so a sweep killed
 * in any way keeps everything it finished and `--resume` picks up the
 * rest; `--point ID` runs one point, which is what `--emit-jobs` prints
 * per point for GNU parallel or a Slurm array (docs/experiments.md, "Running a study across a fleet").
 * The directory itself (its files, checks, resume and collect) is
 * harness/sweepdir.c; this file parses the options and runs the points.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/escape.h"
#include "counters/counter.h"
#include "harness/adaptive.h"
#include "harness/expfile.h"
#include "harness/harness.h"
#include "harness/run_opts.h"
#include "harness/sweep.h"
#include "harness/sweepdir.h"

static int sweep_main(int argc, char **argv);

const struct subcommand sweep_cmd = {
	.name = "sweep",
	.summary = "run an experiment file's matrix (resumable, shuffled A/B)",
	.usage = "sweep EXPERIMENT [options]\n"
		 "\n"
		 "EXPERIMENT is a name (experiments/NAME.ini) or a path.\n"
		 "Runs workloads x variants x axis values x workers x reps, variants\n"
		 "interleaved (A B A B ...), configurations shuffled by a recorded seed.\n"
		 "\n"
		 "options:\n"
		 "  -o, --out DIR       sweep directory (default results/NAME, or\n"
		 "                      results/NAME-quick with --quick)\n"
		 "      --resume        continue a sweep in DIR, skipping finished points\n"
		 "  -n, --dry-run       list the points in run order (workload, mode, workers,\n"
		 "                      the knobs as each path reads them, a profile's marked\n"
		 "                      [kernel NAME]) and the estimated time; runs nothing,\n"
		 "                      and a knob a point does not read fails it (exit 2)\n"
		 "  -q, --quick         use the experiment's [quick] profile\n"
		 "  -r, --reps N        override the experiment's repetitions\n"
		 "  -O, --override KEY=VALUE\n"
		 "                      override one run setting of [experiment]:\n"
		 "                      workers, seconds, warmup, sample_ms, reps or\n"
		 "                      mode (repeatable; after --quick), e.g.\n"
		 "                      -O workers=1,2,4,8,16 -O seconds=2\n"
		 "      --kernel NAME   kernel profile for every point: [fixed] kernel = NAME\n"
		 "                      (variants that name their own kernel keep it)\n"
		 "      --seed S        shuffle seed (default: from the clock; recorded)\n"
		 "      --emit-jobs     write DIR/jobs.txt: one command per point (for\n"
		 "                      GNU parallel), and DIR/jobs.sbatch: a Slurm\n"
		 "                      array running line i as task i; paths are\n"
		 "                      relative to the current directory\n"
		 "      --point ID      run only point ID (e.g. p0003) into DIR\n"
		 "      --collect       rebuild DIR/results.csv from DIR/points/\n"
		 "      --oversubscribe allow more spinning workers than CPUs\n"
		 "      --ci PCT        after the matrix, repeat interleaved A/B sets\n"
		 "                      until every change's 95 % interval is narrower\n"
		 "                      than PCT percentage points (harness/adaptive.h)\n"
		 "      --budget SECONDS\n"
		 "                      ... or until SECONDS from the start have passed\n"
		 "                      (either alone: the other does not stop it);\n"
		 "                      what stopped it: DIR/adaptive.txt\n"
		 "\n"
		 "Format of experiment files: exp/expfile.h.\n",
	.main = sweep_main,
};
REGISTER(subcommand, sweep_cmd);

struct sweep_cli {
	const char *exp_path, *dir, *point, *argv0, *kernel;
	bool resume, dry_run, quick, emit_jobs, collect, oversubscribe;
	long reps;
	double ci_pct, budget_s; /* --ci, --budget (adaptive repetition) */
	bool adaptive;
	const char *overrides[16]; /* KEY=VALUE, applied in order */
	size_t noverrides;
	bool seed_given;
	uint64_t seed;
};

/* ---- one point ---- */

static void set_opt(struct run_opts *ro, struct harness_opts *o, int c,
		    const char *v)
{
	run_opts_parse(ro, o, c, v);
}

static void apply_setting(struct run_opts *ro, struct harness_opts *o,
			  const char *key, const char *value)
{
	char *kv;

	if (!strcmp(key, "lock")) {
		ro->lock = value;
	} else if (!strcmp(key, "counter")) {
		ro->counter = value;
	} else {
		kv = xasprintf("%s=%s", key, value);
		set_opt(ro, o, 'k', kv);
		free(kv);
	}
}

/*
 * Builds the harness options of one point the way `memscale run` would
 * from the equivalent command line: the same run_opts parser validates
 * and resolves every setting.
 */
static void point_opts(const struct sweep *s, const struct sweep_point *p,
		       const struct sweep_cli *cli, struct run_opts *ro,
		       struct harness_opts *o, char *workers_buf, size_t len)
{
	const struct experiment *e = s->e;
	const struct exp_variant *v = &e->variants[p->variant];
	char id[32];
	char *argv[] = { "sweep", (char *)cli->exp_path, "--out",
			 (char *)(cli->dir ? cli->dir : ""), "--point", id };

	sweep_point_id(p, id, sizeof(id));
	harness_defaults(o);
	run_opts_init(ro, (int)ARRAY_SIZE(argv), argv);
	set_opt(ro, o, 's', e->seconds);
	set_opt(ro, o, 'w', e->warmup);
	set_opt(ro, o, 'S', e->sample_ms);
	set_opt(ro, o, 'm', e->mode);
	if (e->lock)
		ro->lock = e->lock;
	if (e->counter)
		ro->counter = e->counter;
	for (size_t i = 0; i < e->nfixed; i++)
		apply_setting(ro, o, e->fixed[i].key, e->fixed[i].value);
	for (size_t i = 0; i < v->nset; i++)
		apply_setting(ro, o, v->set[i].key, v->set[i].value);
	for (size_t a = 0; a < e->naxes; a++)
		apply_setting(ro, o, e->axes[a].key, e->axes[a].values[p->axis[a]]);
	snprintf(workers_buf, len, "%ld", p->workers);
	ro->threads = workers_buf;
	o->wl = workload_find(e->workloads[p->workload]);
	o->oversubscribe = cli->oversubscribe;
	o->format = FMT_CSV;
	for (size_t a = 0; a < e->naxes; a++)
		if (!strcmp(e->axes[a].key, "counter") || !strcmp(e->axes[a].key, "lock"))
			o->path_axis = true;
	run_opts_finish(ro, o);
}

static bool point_spins_oversubscribed(const struct harness_opts *o,
				       unsigned workers)
{
	return harness_refuses(o, workers);
}

/* Runs one point; 0 done, 130 interrupted, other: failed. */
static int run_point(const struct sweep *s, const struct sweep_point *p,
		     const struct sweep_cli *cli, double *ops)
{
	struct harness_opts o;
	struct run_opts ro;
	struct result res;
	char wbuf[32];
	int status;

	point_opts(s, p, cli, &ro, &o, wbuf, sizeof(wbuf));
	status = harness_run_one(&o, (unsigned)p->workers, p->rep, &res);
	if (!status) {
		*ops = res.ops_per_sec;
		sweepdir_write_point(cli->dir, s, p, &o, &res);
	}
	result_free(&res);
	ro.threads = NULL;
	run_opts_free(&ro, &o);
	return status;
}

/* ---- progress ---- */

static void fmt_hms(char *buf, size_t len, double s)
{
	long t = s < 0 ? 0 : lround(s);

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

struct progress {
	bool tty;
	size_t total, done, ran;
	uint64_t t0;
	double estimate; /* seconds per point before any has run */
};

static void progress_show(struct progress *pr, const char *what, double ops)
{
	double elapsed = (double)(now_ns() - pr->t0) / 1e9;
	double per = pr->ran ? elapsed / (double)pr->ran : pr->estimate;
	char el[32], eta[32];

	fmt_hms(el, sizeof(el), elapsed);
	fmt_hms(eta, sizeof(eta), per * (double)(pr->total - pr->done));
	if (pr->tty) {
		int width = 30, fill = pr->total ?
			(int)(width * pr->done / pr->total) : width;
		fprintf(stderr, "\r\033[K[%.*s%*s] %zu/%zu points  elapsed %s  ETA %s  %s",
			fill, "##############################", width - fill, "",
			pr->done, pr->total, el, eta, what);
	} else {
		fprintf(stderr, "sweep: %zu/%zu %s: %.6g ops/s (elapsed %s, ETA %s)\n",
			pr->done, pr->total, what, ops, el, eta);
	}
	fflush(stderr);
}

/* ---- the command ---- */

static void dry_run(const struct sweep *s, const struct sweep_cli *cli)
{
	const struct experiment *e = s->e;
	double per = sweep_point_estimate(e);
	char t[32];

	printf("# experiment %s (%s): %zu points = %zu workloads", e->name,
	       e->path, s->npoints, e->nworkloads);
	for (size_t a = 0; a < e->naxes; a++)
		printf(" x %zu %s", e->axes[a].nvalues, e->axes[a].key);
	printf(" x %zu worker counts x %u reps x %zu variants; seed %llu%s\n",
	       s->nworkers, e->reps, e->nvariants, (unsigned long long)s->seed,
	       cli->quick ? "; quick profile" : "");
	for (size_t k = 0; k < s->npoints; k++) {
		const struct sweep_point *p = &s->points[s->order[k]];
		char *d = sweep_point_desc(s, p);
		struct run_opts ro;
		struct harness_opts o;
		char wbuf[32];
		int st;

		printf("%s", d);
		free(d);
		/* what the point would run, with the knobs as its path reads
		 * them; a knob it does not read fails the dry run (exit 2) */
		point_opts(s, p, cli, &ro, &o, wbuf, sizeof(wbuf));
		printf(" mode=%s", o.mode == MODE_THREADS ? "threads" : "processes");
		if (o.wl->flags & WL_F_USES_LOCK)
			printf(" lock=%s", o.lock->name);
		if (o.wl->flags & WL_F_USES_COUNTER)
			printf(" counter=%s", o.counter->name);
		fflush(stdout);
		st = harness_probe_knobs(&o, (unsigned)p->workers);
		if (st > 0) {
			putchar('\n');
			exit(st);
		}
		if (st < 0) {
			printf(" knobs: (kernel backend: checked when the point runs)\n");
		} else {
			const struct knob **used;
			size_t n = knobset_used(o.knobs, &used);
			const struct knob_profile *prof = knobset_profile(o.knobs);

			printf(" knobs:");
			for (size_t i = 0; i < n; i++) {
				const char *org = knob_origin(o.knobs, used[i]);

				if (knobset_unread(o.knobs) == used[i]) {
					printf(" %s=%s(not read by this %s)", used[i]->name,
					       knobset_value(o.knobs, used[i]), used[i]->owner);
					continue;
				}
				printf(" %s=%s%s%s%s", used[i]->name, knob_str(o.knobs, used[i]),
				       strcmp(org, "kernel") ? "" : "[kernel ",
				       strcmp(org, "kernel") || !prof ? "" : prof->name,
				       strcmp(org, "kernel") ? "" : "]");
			}
			putchar('\n');
			free(used);
		}
		run_opts_free(&ro, &o);
	}
	fmt_hms(t, sizeof(t), per * (double)s->npoints);
	printf("# estimated time: %s (%.2f s per point)\n", t, per);
}

/* One word for sh: as is when safe, else in single quotes (' as '\''). */
static void shq(FILE *f, const char *w)
{
	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_./=:,%+-@") == strlen(w)) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", f);
		else
			fputc(*w, f);
	fputc('\'', f);
}

static void emit_slurm(const struct sweep *s, const struct sweep_cli *cli);

static void emit_jobs(const struct sweep *s, const struct sweep_cli *cli)
{
	char *path = xasprintf("%s/jobs.txt", cli->dir), *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	for (size_t k = 0; k < s->npoints; k++) {
		char id[32];
		sweep_point_id(&s->points[s->order[k]], id, sizeof(id));
		/* Every path and value quoted for the shell that runs the line. */
		shq(f, cli->argv0);
		fputs(" sweep ", f);
		shq(f, cli->exp_path);
		fputs(" --out ", f);
		shq(f, cli->dir);
		fprintf(f, " --seed %llu%s", (unsigned long long)s->seed,
			cli->quick ? " --quick" : "");
		if (cli->reps)
			fprintf(f, " --reps %ld", cli->reps);
		if (cli->kernel) {
			fputs(" --kernel ", f);
			shq(f, cli->kernel);
		}
		for (size_t i = 0; i < cli->noverrides; i++) {
			fputs(" --override ", f);
			shq(f, cli->overrides[i]);
		}
		if (cli->oversubscribe)
			fprintf(f, " --oversubscribe");
		fprintf(f, " --point %s\n", id);
	}
	fclose(f);
	sweepdir_write_file(path, text);
	emit_slurm(s, cli);
	fputs(text, stdout);
	fprintf(stderr, "sweep: %zu jobs in %s; afterwards: %s sweep %s --out %s "
		"--collect\n", s->npoints, path, cli->argv0, cli->exp_path, cli->dir);
	free(text);
	free(path);
}

/* ---- adaptive repetition (harness/adaptive.h) ---- */

struct round_ctx {
	const struct sweep *s;
	const struct sweep_cli *cli;
	uint64_t t0;
	size_t ran;
};

static int run_extra(const struct sweep_point *p, void *arg)
{
	struct round_ctx *c = arg;
	char *what = sweep_point_desc(c->s, p), el[32];
	double ops = 0;
	int st = harness_interrupted ? 130 : run_point(c->s, p, c->cli, &ops);

	if (!st) {
		fmt_hms(el, sizeof(el), (double)(now_ns() - c->t0) / 1e9);
		fprintf(stderr, "sweep: extra %zu %s: %.6g ops/s (elapsed %s)\n",
			++c->ran, what, ops, el);
	}
	free(what);
	return st;
}

static int run_rounds(const struct sweep *s, const struct sweep_cli *cli, uint64_t t0)
{
	struct adaptive_opts ao = { .ci_pct = cli->ci_pct, .budget_s = cli->budget_s,
				    .t0_ns = t0, .max_rounds = 1000 };
	struct round_ctx c = { .s = s, .cli = cli, .t0 = t0 };
	char why[512], *path, *text;
	int st = adaptive_run(s, cli->dir, &ao, run_extra, &c, why, sizeof(why));

	fprintf(stderr, "sweep: adaptive repetition: %s\n", why);
	path = xasprintf("%s/adaptive.txt", cli->dir);
	text = xasprintf("ci_pct=%g budget_s=%g\n%s\n", cli->ci_pct, cli->budget_s, why);
	sweepdir_write_file(path, text);
	free(text);
	free(path);
	return st;
}

static int run_all(const struct sweep *s, const struct sweep_cli *cli)
{
	struct progress pr = { .tty = isatty(STDERR_FILENO), .total = s->npoints,
			       .t0 = now_ns(),
			       .estimate = sweep_point_estimate(s->e) };
	size_t failed = 0;
	int status = 0;
	long collected;

	pr.done = sweepdir_count_done(s, cli->dir);
	if (pr.done)
		fprintf(stderr, "sweep: resuming, %zu of %zu points already done\n",
			pr.done, pr.total);
	harness_install_signals();
	for (size_t k = 0; k < s->npoints && !harness_interrupted; k++) {
		const struct sweep_point *p = &s->points[s->order[k]];
		char *what;
		double ops = 0;
		int st;

		if (sweepdir_point_done(s, cli->dir, p))
			continue;
		if (sweepdir_point_exists(cli->dir, p)) {
			char id[32], why[160], *path = sweepdir_point_path(cli->dir, p);
			sweep_point_id(p, id, sizeof(id));
			sweep_point_file_ok(s, p, path, why, sizeof(why));
			free(path);
			if (!strcmp(why, "no complete row"))
				warnx_("sweep: note: point %s's file has no complete row; "
				       "running it again", id);
			else
				warnx_("sweep: note: point %s's file is not this matrix's "
				       "point (%s); running it again", id, why);
		}
		what = sweep_point_desc(s, p);
		st = run_point(s, p, cli, &ops);
		if (st == 130) {
			free(what);
			break;
		}
		if (st) {
			if (pr.tty)
				fputc('\n', stderr);
			warnx_("point %s failed (status %d); continuing", what, st);
			failed++;
		} else {
			pr.done++;
			pr.ran++;
			progress_show(&pr, what, ops);
		}
		free(what);
	}
	if (pr.tty)
		fputc('\n', stderr);
	if (cli->adaptive && !harness_interrupted && !failed)
		status = run_rounds(s, cli, pr.t0);
	collected = sweep_collect(s, cli->dir);
	if (harness_interrupted) {
		warnx_("interrupted; %zu of %zu points finished and kept; continue "
		       "with --resume", pr.done, pr.total);
		status = 130;
	} else if (failed) {
		warnx_("%zu points failed", failed);
		status = 1;
	}
	if (collected < 0)
		status = status ? status : 1;
	else if ((size_t)collected > s->npoints)
		fprintf(stderr, "sweep: %ld points in %s/results.csv (the matrix's %zu and "
			"%zu extra repetitions)\n", collected, cli->dir, s->npoints,
			(size_t)collected - s->npoints);
	else
		fprintf(stderr, "sweep: %ld of %zu points in %s/results.csv\n",
			collected, s->npoints, cli->dir);
	return status;
}

static const struct sweep_point *find_point(const struct sweep *s, const char *want)
{
	for (size_t i = 0; i < s->npoints; i++) {
		char id[32];
		sweep_point_id(&s->points[i], id, sizeof(id));
		if (!strcmp(id, want))
			return &s->points[i];
	}
	return NULL;
}

static int run_one_point(const struct sweep *s, const struct sweep_cli *cli)
{
	double ops;
	int st;

	for (size_t i = 0; i < s->npoints; i++) {
		char id[32];
		sweep_point_id(&s->points[i], id, sizeof(id));
		if (strcmp(id, cli->point))
			continue;
		if (sweepdir_point_done(s, cli->dir, &s->points[i])) {
			fprintf(stderr, "sweep: point %s already done\n", id);
			return 0;
		}
		harness_install_signals();
		st = run_point(s, &s->points[i], cli, &ops);
		if (!st)
			fprintf(stderr, "sweep: point %s: %.6g ops/s\n", id, ops);
		return st;
	}
	die(EXIT_USAGE, "sweep: no point '%s' in this experiment (p0000..p%04zu)",
	    cli->point, s->npoints ? s->npoints - 1 : 0);
}

/* This binary, so emitted jobs run the same build: relative to the
 * current directory when it lies below it (./bin/memscale), so that every
 * path in jobs.txt is relative to one root, else absolute. */
static const char *self_path(void)
{
	static char buf[4096], rel[4200];
	char cwd[4096];
	size_t c;

	if (self_exe(buf, sizeof(buf)))
		return "memscale";
	if (getcwd(cwd, sizeof(cwd)) && (c = strlen(cwd)) > 1 &&
	    !strncmp(buf, cwd, c) && buf[c] == '/') {
		snprintf(rel, sizeof(rel), "./%s", buf + c + 1);
		return rel;
	}
	return buf;
}

/*
 * DIR/jobs.sbatch beside DIR/jobs.txt: a Slurm job array, task i runs
 * line i of jobs.txt from the directory every path in it is relative to
 * (the one where --emit-jobs ran).  Nodes are taken whole (--exclusive):
 * two points sharing a node would measure each other.
 */
static void emit_slurm(const struct sweep *s, const struct sweep_cli *cli)
{
	char *path = xasprintf("%s/jobs.sbatch", cli->dir), *jobs, *text;
	char cwd[4096];
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (!getcwd(cwd, sizeof(cwd)))
		die_errno(1, "sweep: cannot read the current directory");
	jobs = xasprintf("%s/jobs.txt", cli->dir);
	fprintf(f, "#!/bin/sh\n");
	{
		const char *why;
		char *name = xasprintf("memscale-%s", s->e->name);
		char *q = esc_sbatch(name, 0, &why);

		if (!q)
			die(EXIT_USAGE, "sweep --emit-jobs: the experiment name %s", why);
		fprintf(f, "#SBATCH --job-name=%s\n", q);
		free(q);
		free(name);
	}
	fprintf(f, "#SBATCH --array=1-%zu\n", s->npoints);
	fprintf(f, "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --exclusive\n");
	{	/* Quoted: a blank in a path must not start another option. */
		const char *why;
		char *dir = esc_sbatch(cwd, 0, &why), *outp;

		if (!dir)
			die(EXIT_USAGE, "sweep --emit-jobs: the current directory %s", why);
		fprintf(f, "#SBATCH --chdir=%s\n", dir);
		free(dir);
		dir = xasprintf("%s/slurm-", cli->dir);
		if (!(outp = esc_sbatch(dir, 1, &why)))
			die(EXIT_USAGE, "sweep --emit-jobs: --out %s", why);
		/* the closing quote goes after Slurm's own %A_%a pattern */
		outp[strlen(outp) - 1] = '\0';
		fprintf(f, "#SBATCH --output=%s%%A_%%a.out\"\n", outp);
		free(outp);
		free(dir);
	}
	fprintf(f, "# memscale sweep %s: one array task per point of %s (task i runs\n"
		   "# line i), from the directory every path there is relative to.\n"
		   "# Submit:  sbatch %s\n"
		   "# Then:    %s sweep %s --out %s --collect\n"
		   "# Arrays longer than the cluster's MaxArraySize: submit in slices\n"
		   "# (sbatch --array=1-1000, then --array=1001-...).\n",
		   cli->exp_path, jobs, path, cli->argv0, cli->exp_path, cli->dir);
	fprintf(f, "ROOT=");
	shq(f, cwd);
	fprintf(f, "\nJOBS=");
	shq(f, jobs);
	fprintf(f, "\ncd \"$ROOT\" || exit 1\n"
		   ": \"${SLURM_ARRAY_TASK_ID:?not a Slurm array task}\"\n"
		   "cmd=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" \"$JOBS\")\n"
		   "[ -n \"$cmd\" ] || { echo \"no job $SLURM_ARRAY_TASK_ID in $JOBS\" >&2; exit 2; }\n"
		   "exec sh -c \"$cmd\"\n");
	fclose(f);
	sweepdir_write_file(path, text);
	chmod(path, 0755);
	fprintf(stderr, "sweep: Slurm array script %s (sbatch %s)\n", path, path);
	free(text);
	free(jobs);
	free(path);
}

/* Paths and values that go into jobs.txt and jobs.sbatch: a control
 * character (a newline above all) would end the quoted word's line and
 * start a command of its own there. */
static void refuse_control_chars(const char *what, const char *v)
{
	for (const unsigned char *c = (const unsigned char *)v; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			die(EXIT_USAGE, "sweep: --emit-jobs: %s holds a control character "
			    "(byte 0x%02x at offset %zu); refusing to write it into a "
			    "job script", what, *c, (size_t)(c - (const unsigned char *)v));
}

/* Before anything is read or made; name and dir (which may come from the
 * experiment) are checked once it is loaded. */
static void check_job_words(const struct sweep_cli *cli, const char *name)
{
	char cwd[4096];

	refuse_control_chars("the experiment path", cli->exp_path);
	if (cli->dir)
		refuse_control_chars("the --out directory", cli->dir);
	refuse_control_chars("the memscale path", cli->argv0);
	if (name)
		refuse_control_chars("the experiment name", name);
	if (cli->kernel)
		refuse_control_chars("--kernel", cli->kernel);
	for (size_t i = 0; i < cli->noverrides; i++)
		refuse_control_chars("an --override", cli->overrides[i]);
	if (!getcwd(cwd, sizeof(cwd)))
		die_errno(1, "sweep: cannot read the current directory");
	refuse_control_chars("the current directory", cwd);
}

static void sweep_parse_args(struct sweep_cli *cli, int argc, char **argv)
{
	enum { O_RESUME = 256, O_SEED, O_EMIT, O_POINT, O_COLLECT, O_OVER, O_KERNEL,
	       O_CI, O_BUDGET };
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "resume", no_argument, NULL, O_RESUME },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quick", no_argument, NULL, 'q' },
		{ "reps", required_argument, NULL, 'r' },
		{ "override", required_argument, NULL, 'O' },
		{ "seed", required_argument, NULL, O_SEED },
		{ "emit-jobs", no_argument, NULL, O_EMIT },
		{ "point", required_argument, NULL, O_POINT },
		{ "collect", no_argument, NULL, O_COLLECT },
		{ "oversubscribe", no_argument, NULL, O_OVER },
		{ "kernel", required_argument, NULL, O_KERNEL },
		{ "ci", required_argument, NULL, O_CI },
		{ "budget", required_argument, NULL, O_BUDGET },
		{ 0 },
	};
	int c;
	long v;

	memset(cli, 0, sizeof(*cli));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:nqr:O:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			cli->dir = optarg;
			break;
		case O_RESUME:
			cli->resume = true;
			break;
		case 'n':
			cli->dry_run = true;
			break;
		case 'q':
			cli->quick = true;
			break;
		case 'r':
			if (!parse_long(optarg, 1, 100000, &v))
				die(EXIT_USAGE, "sweep: bad --reps '%s' (want 1..100000)", optarg);
			cli->reps = v;
			break;
		case 'O':
			if (!strchr(optarg, '=') || optarg[0] == '=')
				die(EXIT_USAGE, "sweep: bad --override '%s' (want "
				    "KEY=VALUE, e.g. workers=1,2,4)", optarg);
			if (strchr(optarg, '\''))
				die(EXIT_USAGE, "sweep: bad --override '%s' (no quotes)",
				    optarg);
			if (cli->noverrides == ARRAY_SIZE(cli->overrides))
				die(EXIT_USAGE, "sweep: more than %zu --override options",
				    ARRAY_SIZE(cli->overrides));
			cli->overrides[cli->noverrides++] = optarg;
			break;
		case O_SEED:
			if (!parse_long(optarg, 0, 0x7fffffffffffffffL, &v))
				die(EXIT_USAGE, "sweep: bad --seed '%s' (want a non-negative "
				    "integer)", optarg);
			cli->seed = (uint64_t)v;
			cli->seed_given = true;
			break;
		case O_EMIT:
			cli->emit_jobs = true;
			break;
		case O_KERNEL:
			if (!knob_profile_find(optarg))
				die(EXIT_USAGE, "sweep: unknown kernel profile '%s' (see "
				    "'memscale list kernels')", optarg);
			cli->kernel = optarg;
			break;
		case O_POINT:
			cli->point = optarg;
			break;
		case O_COLLECT:
			cli->collect = true;
			break;
		case O_OVER:
			cli->oversubscribe = true;
			break;
		case O_CI:
		case O_BUDGET: {
			char *end;
			double v2 = strtod(optarg, &end);

			if (end == optarg || *end || !isfinite(v2) || v2 <= 0 ||
			    v2 > (c == O_CI ? 1e6 : 1e7))
				die(EXIT_USAGE, "sweep: bad --%s '%s' (want a positive number of %s)",
				    c == O_CI ? "ci" : "budget", optarg,
				    c == O_CI ? "percentage points" : "seconds");
			*(c == O_CI ? &cli->ci_pct : &cli->budget_s) = v2;
			cli->adaptive = true;
			break;
		}
		default:
			cli_bad_getopt(&sweep_cmd, argv, "o:nqr:O:");
		}
	}
	if (optind >= argc)
		die(EXIT_USAGE, "sweep: missing EXPERIMENT file (e.g. "
		    "experiments/locks.ini)");
	if (optind + 1 < argc)
		die(EXIT_USAGE, "sweep: unexpected argument '%s'", argv[optind + 1]);
	/* kept for the whole command (held here, so no exit path leaks it) */
	static char *exp_path;
	free(exp_path);
	cli->exp_path = exp_path = cli_experiment_path("sweep", argv[optind]);
	cli->argv0 = self_path();
	if (cli->adaptive && (cli->emit_jobs || cli->collect || cli->point))
		die(EXIT_USAGE, "sweep: --ci and --budget repeat A/B sets in one whole "
		    "sweep; not with --emit-jobs, --collect or --point");
	if (cli->dry_run + cli->emit_jobs + cli->collect + !!cli->point > 1)
		die(EXIT_USAGE, "sweep: --dry-run, --emit-jobs, --collect and --point "
		    "exclude each other");
}

/* The experiment file with --quick, each --override, --reps and --kernel
 * applied, in that order. */
static struct experiment *sweep_load_experiment(const struct sweep_cli *cli)
{
	struct experiment *e = exp_load(cli->exp_path);

	if (cli->quick && !e->has_quick)
		die(EXIT_USAGE, "sweep: --quick: %s has no [quick] section (it would "
		    "run the full profile)", cli->exp_path);
	if (cli->quick)
		exp_apply_quick(e);
	for (size_t i = 0; i < cli->noverrides; i++) {
		char *key = xstrdup(cli->overrides[i]), *val = strchr(key, '='), why[256];

		*val++ = '\0';
		switch (exp_run_setting(e, key, val, why, sizeof(why))) {
		case 0:
			die(EXIT_USAGE, "sweep: --override %s: %s", cli->overrides[i], why);
		case -1:
			die(EXIT_USAGE, "sweep: --override: '%s' is not a run setting "
			    "(allowed: workers, seconds, warmup, sample_ms, reps, mode)",
			    key);
		}
		free(key);
	}
	if (cli->reps)
		e->reps = (unsigned)cli->reps;
	if (cli->kernel) {
		/* last in [fixed], so it replaces a kernel the file names there;
		 * [variant] sections are applied after [fixed] */
		e->fixed = realloc(e->fixed, (e->nfixed + 1) * sizeof(*e->fixed));
		if (!e->fixed)
			die(1, "out of memory");
		e->fixed[e->nfixed++] = (struct exp_kv){ xstrdup("kernel"),
							 xstrdup(cli->kernel), 0 };
	}
	return e;
}

static int sweep_main(int argc, char **argv)
{
	struct sweep_cli cli;
	struct experiment *e;
	struct sweep s;
	char *dirbuf = NULL;
	struct run_opts ro;
	int status;

	sweep_parse_args(&cli, argc, argv);
	if (cli.emit_jobs)
		check_job_words(&cli, NULL);
	e = sweep_load_experiment(&cli);
	if (!cli.dir)
		cli.dir = dirbuf = xasprintf("results/%s%s", e->name,
					     cli.quick ? "-quick" : "");
	sweepdir_check_seed(cli.dir, cli.resume, cli.seed_given, cli.seed);
	if (!cli.seed_given && !(cli.dir && sweepdir_recorded_seed(cli.dir, &cli.seed)))
		cli.seed = (now_ns() ^ ((uint64_t)getpid() << 20)) & 0xffffffffu;
	sweep_expand(&s, e, cli.seed);
	if (!s.npoints)
		die(EXIT_USAGE, "%s: empty matrix", cli.exp_path);

	/* Validate every point's options before running any of them. */
	for (size_t i = 0; i < s.npoints; i++) {
		struct harness_opts o;
		char wbuf[32];
		point_opts(&s, &s.points[i], &cli, &ro, &o, wbuf, sizeof(wbuf));
		if (point_spins_oversubscribed(&o, (unsigned)s.points[i].workers))
			die(EXIT_USAGE, "sweep: %ld workers spinning on lock '%s' with "
			    "only %u CPUs; pass --oversubscribe to run it anyway",
			    s.points[i].workers, o.lock->name, topo_get()->pus);
		ro.threads = NULL;
		run_opts_free(&ro, &o);
	}
	if (cli.dry_run) {
		dry_run(&s, &cli);
		sweep_free(&s);
		exp_free(e);
		free(dirbuf);
		return 0;
	}

	if (cli.collect) {
		long n = sweepdir_collect(&s, cli.dir, cli.exp_path, cli.quick);

		if (n >= 0)
			fprintf(stderr, "sweep: %ld of %zu points in %s/results.csv\n",
				n, s.npoints, cli.dir);
		sweep_free(&s);
		exp_free(e);
		free(dirbuf);
		return n < 0 ? 1 : 0;
	}

	/* A point that does not exist is refused before DIR is made. */
	if (cli.point && !find_point(&s, cli.point))
		die(EXIT_USAGE, "sweep: no point '%s' in this experiment (p0000..p%04zu)",
		    cli.point, s.npoints ? s.npoints - 1 : 0);
	if (cli.emit_jobs)
		check_job_words(&cli, e->name);
	run_opts_init(&ro, argc, argv);
	sweepdir_prepare(&s, &(struct sweepdir_opts){
		.dir = cli.dir, .exp_path = cli.exp_path, .cmdline = ro.cmdline,
		.quick = cli.quick, .resume = cli.resume, .point = cli.point != NULL,
		.emit_jobs = cli.emit_jobs });
	free(ro.cmdline);

	if (cli.emit_jobs) {
		emit_jobs(&s, &cli);
		status = 0;
	} else if (cli.point) {
		status = run_one_point(&s, &cli);
	} else {
		if (cli.resume)
			sweep_collect(&s, cli.dir);
		status = run_all(&s, &cli);
	}
	sweep_free(&s);
	exp_free(e);
	free(dirbuf);
	return status;
}
