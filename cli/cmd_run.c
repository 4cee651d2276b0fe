/* cmd_run.c - `memscale run WORKLOAD ...`: one workload over a worker list. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "counters/counter.h"
#include "harness/harness.h"
#include "tracing/session.h"
#include "harness/run_opts.h"

static int run_main(int argc, char **argv);

const struct subcommand run_cmd = {
	.name = "run",
	.summary = "run one workload over a list of worker counts",
	.usage = "run WORKLOAD [options]\n"
		 "\n"
		 "options:\n" RUN_OPTS_HELP
		 "  -o, --out FILE        append one CSV row per (workers, rep); JSON\n"
		 "                        sidecar with machine/build metadata beside it\n"
		 "  -f, --format F        table (default); wis: will-it-scale's lines, one\n"
		 "                        block per run, as its runtest.py reads them;\n"
		 "                        wis-csv: runtest.py's CSV (tasks,processes,\n"
		 "                        processes_idle,threads,threads_idle,linear),\n"
		 "                        both modes per worker count, list from 1;\n"
		 "                        csv: one row per run\n"
		 "      --trace[=DIR]     record an LTTng trace (memscale:* events) in DIR\n"
		 "                        (default: beside --out, or results/trace-TIME);\n"
		 "                        read it with 'memscale lockstat DIR'\n"
		 "\n"
		 "Workloads: 'memscale list workloads'.  Knobs: 'memscale list variants'.\n",
	.main = run_main,
};
REGISTER(subcommand, run_cmd);

static int run_main(int argc, char **argv)
{
	struct harness_opts o;
	struct run_opts ro;
	static const struct option longopts[] = {
		RUN_OPTS_LONG,
		{ "out", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "trace", optional_argument, NULL, 'T' },
		{ 0 },
	};
	int c, status;
	bool trace = false;
	const char *trace_dir = NULL;
	struct trace_session *ts = NULL;

	harness_defaults(&o);
	o.warmup = UINT_MAX; /* not given: the format's default, below */
	run_opts_init(&ro, argc, argv);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, RUN_OPTS_SHORT "o:f:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out = optarg;
			break;
		case 'T':
			/* --trace DIR as well as --trace=DIR: the next word is the
			 * directory unless it is an option or a workload name. */
			trace = true;
			trace_dir = optarg;
			if (!trace_dir && optind < argc && argv[optind][0] != '-' &&
			    !workload_find(argv[optind]))
				trace_dir = argv[optind++];
			break;
		case 'f':
		case 'F':
			if (!strcmp(optarg, "table"))
				o.format = FMT_TABLE;
			else if (!strcmp(optarg, "wis"))
				o.format = FMT_WIS;
			else if (!strcmp(optarg, "wis-csv"))
				o.format = FMT_WIS_CSV;
			else if (!strcmp(optarg, "csv"))
				o.format = FMT_CSV;
			else
				die(EXIT_USAGE, "run: bad --format '%s' (allowed: "
				    "table|wis|wis-csv|csv)", optarg);
			break;
		default:
			if (!run_opts_parse(&ro, &o, c, optarg))
				cli_bad_getopt(&run_cmd, argv, RUN_OPTS_SHORT "o:f:");
		}
	}
	if (optind >= argc)
		die(EXIT_USAGE, "run: missing WORKLOAD (see 'memscale list workloads')");
	if (optind + 1 < argc)
		die(EXIT_USAGE, "run: unexpected argument '%s'", argv[optind + 1]);
	/* will-it-scale discards six samples: it prints "measurement" after
	 * the sample its counter numbers 5 (WARMUP_ITERATIONS) and sums those
	 * that follow. */
	if (o.warmup == UINT_MAX)
		o.warmup = o.format == FMT_WIS || o.format == FMT_WIS_CSV ? 6 : 1;
	o.wl = run_opts_workload(&ro, "run", argv[optind]);
	run_opts_finish(&ro, &o);
	if (trace)
		ts = trace_session_start(trace_dir, o.out, true);
	status = harness_main(&o);
	if (ts && trace_session_stop(ts) && !status)
		status = 1;
	run_opts_free(&ro, &o);
	return status;
}
