/*
 * cmd_published.c - `memscale published [EXPERIMENT.ini...]`: the published
 * numbers of the experiment files' [published] sections as one CSV, for
 * the figures (plots/plot.sh) and the paper (paper/gen.sh), which thereby
 * read the same source as `memscale compare --experiment`.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "harness/expfile.h"
#include "exp/published.h"

static int published_main(int argc, char **argv);

const struct subcommand published_cmd = {
	.name = "published",
	.summary = "the experiments' published numbers as CSV (for plots, paper)",
	.usage = "published [--runs RESULTS] [EXPERIMENT.ini...]\n"
		 "\n"
		 "Prints every [published] row of the experiment files (default:\n"
		 "experiments/*.ini) as CSV: seed,knob,workload,base_variant,\n"
		 "patch_variant,machine,cpus,base,patch,change_pct,source,workers,\n"
		 "target,role,build,base_ops_s,patch_ops_s,abs_source, where the\n"
		 "*_variant columns are the values of the experiment's A/B knob and\n"
		 "change_pct is the published change (or, when only the base and\n"
		 "patch values were published, computed from them).  The columns\n"
		 "from workers on are the row's optional fields as written, empty\n"
		 "where not given; role is dev or held (docs/validation.md).\n"
		 "\n"
		 "--runs RESULTS: where RESULTS/NAME/experiment.ini records a sweep of\n"
		 "experiment NAME, each row is given in the terms of that sweep: the\n"
		 "A/B knob and values of its variant of the same name (a sweep\n"
		 "recorded under an older experiment file may spell its variants with\n"
		 "another knob).  The numbers themselves always come from the\n"
		 "experiment files.\n",
	.main = published_main,
};
REGISTER(subcommand, published_cmd);

static void print_experiment(const char *path, const char *runs)
{
	struct experiment *e = exp_load(path), *run = NULL;
	struct published_row *rows;
	size_t n = published_rows(e, &rows);

	if (runs) {
		/* RESULTS/NAME/experiment.ini, or RESULTS itself a sweep of NAME */
		char *rec = xasprintf("%s/%s/experiment.ini", runs, e->name);

		if (access(rec, R_OK)) {
			free(rec);
			rec = xasprintf("%s/experiment.ini", runs);
		}
		if (access(rec, R_OK) == 0) {
			run = exp_load(rec);
			if (!strcmp(run->name, e->name))
				published_for_run(rows, n, e, run);
		}
		free(rec);
	}
	for (size_t i = 0; i < n; i++)
		published_csv_row(stdout, &rows[i]);
	published_free(rows, n);
	exp_free(run);
	exp_free(e);
}

static int published_main(int argc, char **argv)
{
	const char *runs = NULL;
	int nfiles = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_usage(&published_cmd, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--runs")) {
			if (i + 1 >= argc)
				die(EXIT_USAGE, "published: --runs needs a results directory");
			runs = argv[++i];
			if (!path_is_dir(runs))
				die(EXIT_USAGE, "published: --runs '%s' is not a directory "
				    "(want a results directory)", runs);
			argv[i - 1] = argv[i] = NULL;
			continue;
		}
		if (argv[i][0] == '-')
			cli_bad_option(&published_cmd, argv[i]);
		nfiles++;
	}
	published_csv_header(stdout);
	if (nfiles) {
		for (int i = 1; i < argc; i++)
			if (argv[i]) {
				char *path = cli_experiment_path("published", argv[i]);
				print_experiment(path, runs);
				free(path);
			}
	} else {
		glob_t g;

		if (glob("experiments/*.ini", 0, NULL, &g))
			die(EXIT_USAGE, "published: no experiments/*.ini here; name the "
			    "experiment files");
		for (size_t i = 0; i < g.gl_pathc; i++)
			print_experiment(g.gl_pathv[i], runs);
		globfree(&g);
	}
	return fflush(stdout) ? 1 : 0;
}
