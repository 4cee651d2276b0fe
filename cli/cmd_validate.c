/* cmd_validate.c - `memscale validate`: run the primitives' validators. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "counters/counter.h"
#include "harness/validate.h"

static int validate_main(int argc, char **argv);

const struct subcommand validate_cmd = {
	.name = "validate",
	.summary = "check mutual exclusion of locks and accuracy of counters "
		   "(exit 1 on a violation)",
	.usage = "validate --all | --lock NAME | --counter NAME [--threads N] "
		 "[--iterations K]\n"
		 "\n"
		 "  -a, --all             every registered lock (unsafe baselines skipped)\n"
		 "  -l, --lock NAME       one lock\n"
		 "  -c, --counter NAME    one counter (with --lock: its fold lock)\n"
		 "  -t, --threads N       threads (default 4)\n"
		 "  -i, --iterations K    acquisitions per thread (default 200000)\n"
		 "\n"
		 "Threads take the lock (trylock on alternate iterations where\n"
		 "supported) and update shared words that only the lock protects.\n"
		 "Exit status 1 when any lock lets two threads in at once.\n"
		 "Counters: threads add known deltas while a reader samples the\n"
		 "approximate read; exit status 1 when the exact read differs\n"
		 "from the sum or a read error exceeds the counter's bound.\n"
		 "--all covers locks and counters.\n",
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

static int check_counter(const struct counter_ops *ops,
			 const struct lock_ops *lock, unsigned threads,
			 unsigned long iters)
{
	struct counter_validate_report rep;
	struct counter_params p = { .lock = lock };
	bool ok = validate_counter(ops, &p, threads, iters, &rep);

	printf("%-20s %s  threads=%u adds=%llu true=%ld exact=%ld read=%ld "
	       "bound=%ld max_observed=%ld samples=%llu folds=%llu\n", ops->name,
	       ok ? "ok  " : "FAIL", threads, rep.adds, rep.truth, rep.exact,
	       rep.approx, rep.bound, rep.max_error, rep.samples, rep.folds);
	fflush(stdout);
	return ok ? 0 : 1;
}

static int validate_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "lock", required_argument, NULL, 'l' },
		{ "counter", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 't' },
		{ "iterations", required_argument, NULL, 'i' },
		{ 0 },
	};
	const char *lock = NULL, *counter = NULL;
	bool all = false;
	long threads = 4, iters = 200000;
	int c, status = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "al:c:t:i:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			all = true;
			break;
		case 'l':
			lock = optarg;
			break;
		case 'c':
			counter = optarg;
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
	if (!all && !lock && !counter)
		die(EXIT_USAGE, "validate: say --all, --lock NAME or --counter NAME");
	if (counter) {
		const struct counter_ops *cops = counter_find(counter);
		const struct lock_ops *fold_lock = lock ? lock_find(lock) : NULL;
		if (!cops)
			die(EXIT_USAGE, "validate: unknown counter '%s' (see 'memscale "
			    "list counters')", counter);
		if (lock && !fold_lock)
			die(EXIT_USAGE, "validate: unknown lock '%s' (see 'memscale list locks')", lock);
		status |= check_counter(cops, fold_lock, (unsigned)threads,
					(unsigned long)iters);
	}
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
		const struct counter_ops **cv;
		size_t cn = counter_all(&cv);
		for (size_t i = 0; i < cn; i++)
			status |= check_counter(cv[i], NULL, (unsigned)threads,
						(unsigned long)iters);
	}
	return status;
}
