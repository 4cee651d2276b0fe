/*
 * cmd_published.c - `memscale published [EXPERIMENT.ini...]`: the published
 * numbers of the experiment files' [published] sections as one CSV, for
 * the figures (plots/plot.sh) and the paper (paper/gen.sh), which thereby
 * read the same source as `memscale compare --experiment`.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "harness/expfile.h"
#include "harness/published.h"

static int published_main(int argc, char **argv);

const struct subcommand published_cmd = {
	.name = "published",
	.summary = "the experiments' published numbers as CSV (for plots, paper)",
	.usage = "published [EXPERIMENT.ini...]\n"
		 "\n"
		 "Prints every [published] row of the experiment files (default:\n"
		 "experiments/*.ini) as CSV: seed,knob,workload,base_variant,\n"
		 "patch_variant,machine,cpus,base,patch,change_pct,source, where the\n"
		 "*_variant columns are the values of the experiment's A/B knob and\n"
		 "change_pct is the published change (or, when only the base and\n"
		 "patch values were published, computed from them).\n",
	.main = published_main,
};
REGISTER(subcommand, published_cmd);

static void print_experiment(const char *path)
{
	struct experiment *e = exp_load(path);
	struct pub_row *rows;
	size_t n = published_rows(e, &rows);

	for (size_t i = 0; i < n; i++)
		published_csv_row(stdout, &rows[i]);
	published_free(rows, n);
	exp_free(e);
}

static int published_main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_usage(&published_cmd, stdout);
			return 0;
		}
		if (argv[i][0] == '-')
			cli_bad_option(&published_cmd, argv[i]);
	}
	published_csv_header(stdout);
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			print_experiment(argv[i]);
	} else {
		glob_t g;

		if (glob("experiments/*.ini", 0, NULL, &g))
			die(EXIT_USAGE, "published: no experiments/*.ini here; name the "
			    "experiment files");
		for (size_t i = 0; i < g.gl_pathc; i++)
			print_experiment(g.gl_pathv[i]);
		globfree(&g);
	}
	return fflush(stdout) ? 1 : 0;
}
