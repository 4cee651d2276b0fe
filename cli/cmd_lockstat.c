/*
 * cmd_lockstat.c - `memscale lockstat TRACE_DIR`: perf lock report /
 * /proc/lock_stat style table of a trace written by `memscale run --trace`.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "tracing/lockstat.h"

static int lockstat_main(int argc, char **argv);

const struct subcommand lockstat_cmd = {
	.name = "lockstat",
	.summary = "perf-lock style contention table of a memscale trace",
	.usage = "lockstat TRACE_DIR [options]\n"
		 "\n"
		 "Reads the CTF trace with libbabeltrace2 and prints, per lock class,\n"
		 "acquired, contended, avg wait (= total wait / contended), total,\n"
		 "max and min wait, hold time and handoffs between workers, plus the\n"
		 "number of events the tracer discarded.\n"
		 "\n"
		 "options:\n"
		 "      --csv             comma-separated output, times in ns\n"
		 "      --sort KEY        acquired (default), contended, avg_wait,\n"
		 "                        wait_total, wait_max (descending)\n"
		 "  -t, --threads         one row per worker and lock class\n"
		 "      --hist            log2 histograms of waits and holds\n",
	.main = lockstat_main,
};
REGISTER(subcommand, lockstat_cmd);

static int lockstat_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "sort", required_argument, NULL, 's' },
		{ "threads", no_argument, NULL, 't' },
		{ "hist", no_argument, NULL, 'H' },
		{ 0 },
	};
	static const char *const keys[] = {
		[LS_SORT_ACQUIRED] = "acquired", [LS_SORT_CONTENDED] = "contended",
		[LS_SORT_AVG_WAIT] = "avg_wait", [LS_SORT_WAIT_TOTAL] = "wait_total",
		[LS_SORT_WAIT_MAX] = "wait_max",
	};
	enum lockstat_sort key = LS_SORT_ACQUIRED;
	struct lockstat_report rep;
	bool csv = false, per_worker = false, hist = false, found;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "t", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			csv = true;
			break;
		case 't':
			per_worker = true;
			break;
		case 'H':
			hist = true;
			break;
		case 's':
			found = false;
			for (size_t i = 0; i < ARRAY_SIZE(keys) && !found; i++)
				if (!strcmp(optarg, keys[i])) {
					key = (enum lockstat_sort)i;
					found = true;
				}
			if (!found)
				die(EXIT_USAGE, "lockstat: bad --sort '%s' (allowed: "
				    "acquired|contended|avg_wait|wait_total|wait_max)",
				    optarg);
			break;
		default:
			cli_bad_option(&lockstat_cmd, argv[optind - 1]);
		}
	}
	if (optind >= argc)
		die(EXIT_USAGE, "lockstat: missing TRACE_DIR");
	if (optind + 1 < argc)
		die(EXIT_USAGE, "lockstat: unexpected argument '%s'", argv[optind + 1]);
	{
		struct stat st;
		if (stat(argv[optind], &st))
			die_errno(EXIT_USAGE, "lockstat: cannot read trace directory '%s'",
				  argv[optind]);
		if (!S_ISDIR(st.st_mode))
			die(EXIT_USAGE, "lockstat: '%s' is not a directory (want the "
			    "trace directory of 'memscale run --trace')", argv[optind]);
	}
	if (lockstat_read(argv[optind], per_worker, &rep))
		return EXIT_USAGE;
	lockstat_sort(&rep, key);
	lockstat_print(stdout, &rep, per_worker, csv);
	if (hist)
		lockstat_print_hist(stdout, &rep);
	lockstat_free(&rep);
	return 0;
}
