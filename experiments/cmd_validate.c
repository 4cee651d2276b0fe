/* cmd_validate.c - `memscale validate`: run the primitives' validators. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cli.h"
#include "validate.h"

static int validate_main(int argc, char **argv);

const struct subcommand validate_cmd = {
	.name = "validate",
	.summary = "check mutual exclusion of locks (exit 1 on a violation)",
	.usage = "validate --all | --lock NAME [--threads N] [--iterations K]\n"
		 "\n"
		 "  -a, --all             every registered lock (unsafe baselines skipped)\n"
		 "  -l, --lock NAME       one lock\n"
		 "  -t, --threads N       threads (default 4)\n"
		 "  -i, --iterations K    acquisitions per thread (default 200000)\n"
		 "\n"
		 "Threads take the lock (trylock on alternate iterations where\n"
		 "supported) and update shared words that only the lock protects.\n"
		 "Exit status 1 when any lock lets two threads in at once.\n",
	.main = validate_main,
};
REGISTER(subcommand, validate_cmd);

static int check_one(const struct lock_ops *ops, unsigned threads,
		     unsigned long iters)
{
	struct validate_report rep;
	bool ok;

	if (ops->flags & LOCK_F_UNSAFE) {
		printf("%-16s skipped (no mutual exclusion by design)\n", ops->name);
		return 0;
	}
	ok = validate_lock(ops, threads, iters, &rep);
	printf("%-16s %s  threads=%u acquisitions=%llu trylock=%llu "
	       "violations=%llu lost_updates=%llu\n", ops->name,
	       ok ? "ok  " : "FAIL", threads, rep.acquisitions, rep.trylocks_ok,
	       rep.violations, rep.lost_updates);
	fflush(stdout);
	return ok ? 0 : 1;
}

static int validate_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "lock", required_argument, NULL, 'l' },
		{ "threads", required_argument, NULL, 't' },
		{ "iterations", required_argument, NULL, 'i' },
		{ 0 },
	};
	const char *lock = NULL;
	bool all = false;
	long threads = 4, iters = 200000;
	int c, status = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "al:t:i:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = true;
			break;
		case 'l':
			lock = optarg;
			break;
		case 't':
			if (!parse_long(optarg, 1, 4096, &threads))
				die(EXIT_USAGE, "validate: bad --threads '%s' (want 1..4096)", optarg);
			break;
		case 'i':
			if (!parse_long(optarg, 1, 1000000000L, &iters))
				die(EXIT_USAGE, "validate: bad --iterations '%s' (want 1..1e9)", optarg);
			break;
		default:
			cli_bad_option(&validate_cmd, argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "validate: unexpected argument '%s'", argv[optind]);
	if (!all && !lock)
		die(EXIT_USAGE, "validate: say --all or --lock NAME");
	if (lock) {
		const struct lock_ops *ops = lock_find(lock);
		if (!ops)
			die(EXIT_USAGE, "validate: unknown lock '%s' (see 'memscale list locks')", lock);
		status |= check_one(ops, (unsigned)threads, (unsigned long)iters);
	}
	if (all) {
		const struct lock_ops **v;
		size_t n = lock_all(&v);
		for (size_t i = 0; i < n; i++)
			status |= check_one(v[i], (unsigned)threads, (unsigned long)iters);
	}
	return status;
}
