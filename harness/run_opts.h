/*
 * run_opts.h - the options every command that runs workloads shares
 * (run, sweep points, bench): workers, duration, mode, placement, knobs.
 * One parser, so every command validates them the same way.
 */
#ifndef MEMSCALE_RUN_OPTS_H
#define MEMSCALE_RUN_OPTS_H

#include <getopt.h>
#include <stdbool.h>

#include "harness/harness.h"

#define RUN_OPTS_HELP \
	"  -l, --lock NAME       lock algorithm (default qspinlock)\n" \
	"  -c, --counter NAME    counter scheme (default percpu_batch)\n" \
	"  -t, --threads LIST    worker counts: 1,2,4 or 1-8 or 1-16:2 or 50%\n" \
	"                        (percent of online CPUs, like LKP's nr_task);\n" \
	"                        default: 1..online CPUs\n" \
	"  -s, --seconds S       measured seconds per run (default 3)\n" \
	"  -w, --warmup N        warm-up samples discarded (default 1;\n" \
	"                        6 with --format wis, as will-it-scale)\n" \
	"      --sample-ms MS    sample interval in ms (default 1000)\n" \
	"  -r, --reps N          repetitions per worker count (default 1)\n" \
	"  -m, --mode M          threads (default) or processes\n" \
	"  -a, --affinity A      cores (default: one per core, then SMT siblings,\n" \
	"                        then next socket), pus, or none\n" \
	"      --set KEY=VALUE   set a knob (repeatable; wins over --kernel)\n" \
	"      --kernel NAME     preset every per-kernel knob to what that kernel\n" \
	"                        had (memscale list kernels; = --set kernel=NAME)\n" \
	"      --oversubscribe   allow more spinning workers than CPUs (labelled)\n" \
	"      --backend B       model (default) or kernel: real syscalls in real\n" \
	"                        memcgs (runs workload kernel:NAME)\n" \
	"      --no-memcg        kernel backend outside memcgs (--set kmemcg=off)\n" \
	"      --sched P         other (default) or fifo: workers under SCHED_FIFO,\n" \
	"                        as a kernel spinlock holder is not preempted\n" \
	"                        (refused where not permitted)\n" \
	"      --calib FILE      calibration file of the kernel-shaped work\n" \
	"                        (= --set calib_file=FILE; default: the machine's,\n" \
	"                        which 'memscale model calibrate' writes)\n" \
	"  Model workloads run with " RUN_DEFAULT_KNOBS_HELP " unless set\n" \
	"  (the defaults run and the sweeps share: harness/run_opts.c)\n"

#define RUN_OPTS_SHORT "l:c:t:s:w:r:m:a:"
#define RUN_OPT_SCHED 0x10000 /* --sched: no short form, clear of commands' codes */
#define RUN_OPT_CALIB 0x10001 /* --calib */
#define RUN_DEFAULT_KNOBS_HELP "page_work=kernel"
#define RUN_OPTS_LONG \
	{ "lock", required_argument, NULL, 'l' }, \
	{ "counter", required_argument, NULL, 'c' }, \
	{ "threads", required_argument, NULL, 't' }, \
	{ "seconds", required_argument, NULL, 's' }, \
	{ "warmup", required_argument, NULL, 'w' }, \
	{ "sample-ms", required_argument, NULL, 'S' }, \
	{ "reps", required_argument, NULL, 'r' }, \
	{ "mode", required_argument, NULL, 'm' }, \
	{ "affinity", required_argument, NULL, 'a' }, \
	{ "set", required_argument, NULL, 'k' }, \
	{ "kernel", required_argument, NULL, 'K' }, \
	{ "oversubscribe", no_argument, NULL, 'O' }, \
	{ "backend", required_argument, NULL, 'B' }, \
	{ "no-memcg", no_argument, NULL, 'N' }, \
	{ "sched", required_argument, NULL, RUN_OPT_SCHED }, \
	{ "calib", required_argument, NULL, RUN_OPT_CALIB }

struct run_opts {
	const char *threads;
	const char *lock;
	const char *counter;
	char *cmdline;
	bool kernel_backend; /* --backend kernel */
};

void run_opts_init(struct run_opts *ro, int argc, char **argv);
/* Handles one option; false when `c` is not a run option. */
bool run_opts_parse(struct run_opts *ro, struct harness_opts *o, int c,
		    const char *arg);
/* Resolves names and lists; dies with EXIT_USAGE on bad input. */
void run_opts_finish(struct run_opts *ro, struct harness_opts *o);
void run_opts_free(struct run_opts *ro, struct harness_opts *o);
/* The workload NAME under the chosen --backend (kernel: "kernel:NAME");
 * dies with EXIT_USAGE naming it when there is none. */
const struct workload *run_opts_workload(const struct run_opts *ro,
					 const char *cmd, const char *name);

/* Parses a worker list ("1-4", "50%", "1,2,8"); dies on bad input. */
size_t parse_workers(const char *s, long **out);
/* The most workers parse_workers() takes on this machine (64 per CPU). */
long workers_max(void);

#endif
