/*
 * cmd_stats.c - `memscale stats [FILE|-]`: every summary statistic of a
 * sample set, as mmtests (2019) and LKP define them (core/stats.h).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/stats.h"

static int stats_main(int argc, char **argv);

const struct subcommand stats_cmd = {
	.name = "stats",
	.summary = "summary statistics of samples or of a result CSV column",
	.usage = "stats [FILE|-] [options]\n"
		 "\n"
		 "FILE holds one sample per line, or is a result CSV (grouped by\n"
		 "workload, variant and workers when those columns exist).\n"
		 "\n"
		 "options:\n"
		 "      --column NAME     CSV column to read (default ops_per_sec)\n"
		 "  -W, --where KEY=VAL   keep only rows whose KEY column is VAL (repeatable)\n"
		 "  -L, --lower-is-better BHmean rows become BAmean of the smallest\n"
		 "\n"
		 "Printed: n, Min, Max, Amean, Hmean, Median, Stddev (sample, n-1),\n"
		 "CoeffVar, BHmean-50/95/99 (mmtests 2019), the LKP population stddev\n"
		 "and %stddev, and the 95% t confidence interval of the mean.\n"
		 "Samples must be > 0 (a harmonic mean needs them so) and small\n"
		 "enough for their mean and spread to be finite; a NUL byte is\n"
		 "refused; a UTF-8 byte-order mark is skipped; lines may end in\n"
		 "LF, CR LF or CR.\n",
	.main = stats_main,
};
REGISTER(subcommand, stats_cmd);


/* A statistic as a number a reader can paste: large values in full with
 * two decimals, as mmtests prints them (1197210.12, not 1.19721e+06);
 * small ones with six significant digits.  slot: one of 4 buffers. */
static const char *fmt_num(double v, int slot)
{
	static char buf[4][64];

	if (fabs(v) >= 1000 && fabs(v) < 1e15)
		snprintf(buf[slot], sizeof(buf[slot]), "%.2f", v);
	else
		snprintf(buf[slot], sizeof(buf[slot]), "%.6g", v);
	return buf[slot];
}

static void print_num(const char *name, double v)
{
	printf("%-14s %s\n", name, fmt_num(v, 0));
}

static void print_summary(const struct sample_set *set,
			  const struct sample_group *g, const char *column,
			  bool higher_better, char *const *gnames)
{
	struct stats_summary s;
	const char *b = higher_better ? "BHmean" : "BAmean";

	stats_summarise(g->x, g->n, higher_better, &s);
	printf("#");
	for (size_t k = 0; k < set->nkeys; k++)
		if (*g->key[k])
			printf(" %s=%s", gnames[k], g->key[k]);
	printf("%s%s (%zu samples)\n", set->plain ? " samples" : " column ",
	       set->plain ? "" : column, g->n);
	printf("%-14s %zu\n", "n", s.n);
	print_num("Min", s.min);
	print_num("Max", s.max);
	print_num("Amean", s.amean);
	print_num("Hmean", s.hmean);
	print_num("Median", s.median);
	print_num("Stddev", s.stddev);
	print_num("CoeffVar", s.coeffvar);
	for (int i = 0; i < 3; i++) {
		static const int pct[] = { 50, 95, 99 };
		const double v[] = { s.bhmean50, s.bhmean95, s.bhmean99 };
		char name[32];
		snprintf(name, sizeof(name), "%s-%d", b, pct[i]);
		print_num(name, v[i]);
	}
	print_num("LKP-stddev", s.pop_stddev);
	if (s.pop_stddev >= 0 && s.amean != 0)
		printf("%-14s %.4g\n", "LKP-%stddev", 100.0 * s.pop_stddev / fabs(s.amean));
	else
		printf("%-14s -\n", "LKP-%stddev");
	if (isnan(s.ci95))
		printf("%-14s - (needs 2 samples)\n", "CI95");
	else
		printf("%-14s %s +- %s [%s, %s]\n", "CI95", fmt_num(s.amean, 0), fmt_num(s.ci95, 1),
		       fmt_num(s.amean - s.ci95, 2), fmt_num(s.amean + s.ci95, 3));
}

static int stats_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "column", required_argument, NULL, 'C' },
		{ "where", required_argument, NULL, 'W' },
		{ "lower-is-better", no_argument, NULL, 'L' },
		{ 0 },
	};
	char *gnames[] = { "workload", "variant", "workers" };
	const char *column = "ops_per_sec", *path = "-";
	struct where where = { 0 };
	bool higher_better = true;
	struct sample_set set;
	char err[512];
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:W:L", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			die(EXIT_USAGE, "stats: -c is --counter in run and validate; "
			    "say --column NAME");
		case 'C':
			column = optarg;
			break;
		case 'W':
			cli_where_arg(&stats_cmd, &where, optarg);
			break;
		case 'L':
			higher_better = false;
			break;
		default:
			cli_bad_getopt(&stats_cmd, argv, "c:W:L");
		}
	}
	if (optind < argc)
		path = argv[optind++];
	if (optind < argc)
		die(EXIT_USAGE, "stats: unexpected argument '%s'", argv[optind]);
	if (path && strcmp(path, "-"))
		check_input_file("stats", path, "a results CSV or a file of samples");
	if (stats_load(path, column, &where, (const char *const *)gnames,
		       ARRAY_SIZE(gnames), &set, err, sizeof(err)))
		die(EXIT_USAGE, "stats: %s: %s", path, err);
	if (!set.ngroups || (set.ngroups == 1 && !set.groups[0].n))
		die(EXIT_USAGE, "stats: %s: no samples%s", path,
		    where.n ? " match the --where filters" : "");
	/* Hmean and BHmean are printed for every set. */
	if (stats_set_check(&set, true, gnames, err, sizeof(err)))
		die(EXIT_USAGE, "stats: %s: %s", path, err);
	for (size_t i = 0; i < set.ngroups; i++) {
		if (i)
			printf("\n");
		print_summary(&set, &set.groups[i], column, higher_better, gnames);
	}
	stats_set_free(&set);
	where_free(&where);
	return 0;
}
