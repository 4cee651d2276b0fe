/*
 * wis/main.c - will-it-scale-compatible binaries for every memscale
 * workload.  `make wis` links this program once and names it, in one
 * folder, WORKLOAD_processes and WORKLOAD_threads for each workload of
 * `memscale list workloads` (symbolic links; workload kernel:W as
 * kernel_W, as a file name keeps no ':'), so will-it-scale's own
 * runtest.py runs unmodified there: the name says the workload and the
 * mode, and the options are will-it-scale's (main.c of
 * antonblanchard/will-it-scale):
 *
 *   -t tasks       number of processes or threads (default 1)
 *   -s iterations  measured one-second samples after the warm-up; 0 or
 *                  absent: until interrupted, as will-it-scale
 *   -m             tasks on SMT threads (memscale --affinity pus)
 *   -n             no affinity (--affinity none); not with -m
 *   -v             each task's count of every sample, "%4d -> %llu"
 *   -h             this usage
 *
 * Output is memscale's --format wis: will-it-scale's testcase:, warmup,
 * min:/max:/total:, measurement and average: lines.  Differences, by the
 * project's rules: a bad option is one line on stderr and exit 2 (will-it-
 * scale prints its usage and exits 1), and a spinning lock with more
 * tasks than CPUs is refused (memscale run's rule).
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "harness/harness.h"
#include "harness/run_opts.h"

static void usage(const char *self, FILE *f)
{
	fprintf(f, "Usage: %s [options]\n\n", self);
	fprintf(f, "\t-s iterations\tNumber of iterations to run\n");
	fprintf(f, "\t-t tasks\tNumber of threads or processes to run\n");
	fprintf(f, "\t-m\t\tAffinitize tasks on SMT threads (default cores)\n");
	fprintf(f, "\t-n\t\tNo affinity\n");
	fprintf(f, "\t-v\t\tPrint each task's count per iteration\n");
}

int main(int argc, char **argv)
{
	char *copy = xstrdup(argv[0]), *self = basename(copy), *mode, *wl;
	const char *tasks = "1", *aff = NULL;
	struct harness_opts o;
	struct run_opts ro;
	long iters = 0, t;
	bool smt = false, noaff = false;
	int c, status;

	harness_defaults(&o);

	/* WORKLOAD_processes / WORKLOAD_threads */
	mode = strrchr(self, '_');
	if (!mode || (strcmp(mode + 1, "processes") && strcmp(mode + 1, "threads")))
		die(EXIT_USAGE, "%s: run me as WORKLOAD_processes or WORKLOAD_threads "
		    "(make wis makes the links)", self);
	wl = xasprintf("%.*s", (int)(mode - self), self);
	/* kernel_W is workload kernel:W (no ':' in the file name) */
	if (!strncmp(wl, "kernel_", 7))
		wl[6] = ':';
	mode++;
	opterr = 0;
	while ((c = getopt(argc, argv, "mt:s:hvn")) != -1) {
		switch (c) {
		case 'm':
			smt = true;
			break;
		case 't':
			if (!parse_long(optarg, 1, INT_MAX, &t))
				die(EXIT_USAGE, "%s: bad -t '%s' (want a number of tasks)",
				    self, optarg);
			tasks = optarg;
			break;
		case 's':
			if (!parse_long(optarg, 0, 1000000, &iters))
				die(EXIT_USAGE, "%s: bad -s '%s' (want 0..1000000 iterations)",
				    self, optarg);
			break;
		case 'v':
			o.wis_verbose = true;
			break;
		case 'n':
			noaff = true;
			break;
		case 'h':
			usage(self, stdout);
			return 0;
		default:
			die(EXIT_USAGE, "%s: bad or unknown option '%s' (options: -t -s "
			    "-m -n -v -h)", self, argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "%s: unexpected argument '%s'", self, argv[optind]);
	if (smt && noaff)
		die(EXIT_USAGE, "%s: -m and -n exclude each other", self);
	if (smt)
		aff = "pus";
	else if (noaff)
		aff = "none";
	run_opts_init(&ro, argc, argv);
	o.format = FMT_WIS;
	o.warmup = 6; /* will-it-scale: WARMUP_ITERATIONS + 1 samples */
	o.sample_ms = 1000;
	o.seconds = iters ? (double)iters : 1e6; /* 0: until interrupted */
	run_opts_parse(&ro, &o, 't', tasks);
	run_opts_parse(&ro, &o, 'm', mode);
	if (aff)
		run_opts_parse(&ro, &o, 'a', aff);
	o.wl = run_opts_workload(&ro, self, wl);
	run_opts_finish(&ro, &o);
	status = harness_main(&o);
	run_opts_free(&ro, &o);
	free(wl);
	free(copy);
	return status;
}
