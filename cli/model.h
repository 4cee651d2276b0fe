/*
 * model.h - shared by the verbs of `memscale model`.  cli/cmd_model.c
 * registers the subcommand, parses the one option table and dispatches;
 * each verb lives in cli/model_<verb>.c; cli/model_common.c holds the
 * helpers they share.
 */
#ifndef MEMSCALE_CLI_MODEL_H
#define MEMSCALE_CLI_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "harness/calib_probe.h"
#include "predict/markov.h"
#include "predict/sim_memcg.h"
#include "predict/target.h"

extern const struct subcommand model_cmd;

/* Every option of every verb; each verb rejects the ones it does not use. */
struct mopts {
	const char *action;
	const char *out, *cpus, *calib, *y;
	const char *target; /* --target NAME|FILE (predict, validate) */
	const char *workload, *pair, *mode; /* predict --workload --pair --mode */
	const char *experiment; /* predict --workload --experiment NAME|FILE */
	bool csv;           /* -f csv (predict, validate) */
	char **sets;
	size_t nsets;
	struct where where;
	long holdout;
	double cs, think, handoff;
	bool have_cs, have_think, have_handoff, quick, nolocks, nowl, check;
	bool sensitivity; /* predict --sensitivity */
	bool explain;     /* predict --workload --explain */
	enum lock_model_kind kind;
	unsigned line;
	enum lock_model_kind lock_kind;
	long iters, reps;
	unsigned long seed; /* --seed (predict, validate): the simulator's draws */
	unsigned jobs;      /* --jobs (predict, validate); 0: the CPUs available */
	double walk_miss, remote_factor; /* NAN: defaults */
	char **args;
	int nargs;
};

/* The verbs, one file each. */
int model_calibrate(struct mopts *m);
int model_fit(struct mopts *m);
int model_lock(struct mopts *m);
int model_sim(struct mopts *m);
int model_program(struct mopts *m);
int model_predict(struct mopts *m);
int model_validate(struct mopts *m);

struct experiment_def;
struct predict_opts;
/* predict --sensitivity: each measured input x2 alone, the change of every
 * published row's prediction (cli/model_sensitivity.c). */
void model_print_sensitivity(const struct experiment_def *e, const struct calib *c,
			     const struct predict_opts *po, FILE *out);
struct seed_pair;
/* The same for one question (predict --workload ... --sensitivity): the
 * change of its prediction per input, or why the input is not used. */
void model_print_question_sensitivity(const struct seed_pair *sp, unsigned cpus,
				      const struct calib *c, const struct predict_opts *po,
				      FILE *out);

/* Exactly n positional arguments after the verb, else exit 2. */
void model_need_args(const struct mopts *m, int n, const char *what);
/* --cpus (or dflt) as a list of core counts, else exit 2. */
size_t model_cpu_list(const char *s, const char *dflt, long **out);
/* The --calib file, or a quick calibration when none is given. */
void model_get_calib(const struct mopts *m, struct calib *c);
/* The simulator configuration from --set, --line and --lock-kind. */
void model_sim_cfg(const struct mopts *m, struct memcg_sim_cfg *cfg);
/* This machine's costs (target "here", predict/target.h) with --walk-miss,
 * --remote-factor and --line over them; prints the parameter table, every
 * value with its origin, to stdout as comment lines. */
void model_here_costs(const struct mopts *m, const struct calib *c, struct memcg_costs *out);
/* Exit 2 unless the simulator has a program for workload wl. */
void model_check_workload(const char *wl);

/* The predictor's options from the command line (no CPU list). */
struct predict_opts;
void model_predict_opts(const struct mopts *m, struct predict_opts *po);

/* The seed pairs of the experiment files (predict/predict.h): a pair per
 * (workload, A, B) of the [published] rows, sharing [fixed] with
 * [predict] over it.  model_experiment_load() returns false for a file
 * without [published] rows (exit 2 on a bad file); model_experiments()
 * loads every file of model_experiment_dir() that has them. */
struct experiment_def;
const char *model_experiment_dir(void);
bool model_experiment_load(const char *path, struct experiment_def *d);
size_t model_experiments(struct experiment_def **out);
void model_experiment_free(struct experiment_def *d);

#endif
