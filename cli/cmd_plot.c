/*
 * cmd_plot.c - `memscale plot RESULTS [--out DIR]`: render the figures.
 *
 * The figures are gnuplot scripts driven by plots/plot.sh (one script per
 * figure, one shared style); this subcommand only checks its arguments
 * and runs that driver, so `make plots` and `memscale plot` cannot differ.
 * The driver is $MEMSCALE_PLOTS, else plot.sh of the plots directory
 * data_dir() finds (a checkout's, an installed copy's, ./plots).  The
 * driver runs with MEMSCALE naming this binary unless it is set.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

static int plot_main(int argc, char **argv);

const struct subcommand plot_cmd = {
	.name = "plot",
	.summary = "render the gnuplot figures (PNG and PDF) of a results directory",
	.usage = "plot RESULTS [--out DIR]\n"
		 "\n"
		 "RESULTS is a results CSV or a directory of them (e.g. a sweep's\n"
		 "--out directory, or results/ with one directory per experiment).\n"
		 "  -o, --out DIR   where the figures go (default RESULTS/plots)\n"
		 "Figures whose columns are missing are skipped with a message.\n"
		 "Needs gnuplot (make deps).  Same as 'make plots RESULTS=...'.\n",
	.main = plot_main,
};
REGISTER(subcommand, plot_cmd);

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The driver script: $MEMSCALE_PLOTS, else the plots directory's. */
static char *find_driver(void)
{
	const char *env = getenv("MEMSCALE_PLOTS");

	if (env && *env)
		return xasprintf("%s", env);
	return xasprintf("%s/plot.sh", data_dir(NULL, "plots"));
}

static int plot_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ 0 },
	};
	const char *out = NULL, *results;
	struct stat st;
	char *driver;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg)
				die(EXIT_USAGE, "plot: empty --out directory");
			out = optarg;
			break;
		default:
			cli_bad_getopt(&plot_cmd, argv, "o:");
		}
	}
	if (optind >= argc)
		die(EXIT_USAGE, "plot: say which results to plot (a CSV or a directory)");
	if (optind + 1 < argc)
		die(EXIT_USAGE, "plot: unexpected argument '%s'", argv[optind + 1]);
	results = argv[optind];
	if (stat(results, &st))
		die(EXIT_USAGE, "plot: results '%s' not found", results);
	driver = find_driver();
	if (!is_file(driver))
		die(EXIT_USAGE, "plot: driver '%s' not found (set MEMSCALE_PLOTS)", driver);
	/* The driver's memscale is this one (an installed tree has no
	 * bin/ beside plots/). */
	{
		char exe[PATH_MAX];

		if (!self_exe(exe, sizeof(exe)) && setenv("MEMSCALE", exe, 0))
			die_errno(1, "plot: setenv");
	}
	fflush(NULL);
	if (out)
		execlp("sh", "sh", driver, results, out, (char *)NULL);
	else
		execlp("sh", "sh", driver, results, (char *)NULL);
	die_errno(1, "plot: cannot run '%s'", driver);
}
