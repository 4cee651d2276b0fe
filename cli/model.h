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
	const char *target; /* --target NAME (predict, validate) */
	char **sets;
	size_t nsets;
	struct where where;
	long holdout;
	double cs, think, handoff;
	bool have_cs, have_think, have_handoff, quick, nolocks, nowl, check;
	enum lock_model_kind kind;
	unsigned line;
	enum sim_lock_kind lock_kind;
	long iters, reps;
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

#endif
