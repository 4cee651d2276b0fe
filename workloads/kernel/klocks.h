/*
 * klocks.h - the kernel's own lock statistics as table rows, beside the
 * model's lock classes (trace/lock_stat.h):
 *
 *  - `perf lock contention` output (tools/perf/builtin-lock.c,
 *    print_header_stdio / print_lock_stat_stdio): a header of the
 *    contention keys ("contended" %10s, then "total wait", "max wait",
 *    "min wait", "avg wait" %12s, older perf without "min wait"), then
 *    "type" and "caller" (or "pid comm", "address symbol"); rows print
 *    the count %10llu and each time as lock_stat_key_print_time does,
 *    "%9.2f UU" with UU one of "h ", "m ", "s ", "ms", "us", or "%9llu ns";
 *  - /proc/lock_stat (kernel/locking/lockdep_proc.c, lock_stat version
 *    0.4): per class "name: con-bounces contentions waittime-min
 *    waittime-max waittime-total waittime-avg acq-bounces acquisitions
 *    holdtime-min holdtime-max holdtime-total holdtime-avg", times in us
 *    (seq_time: %14lu.%02lu), read and write halves as "name-R:"/"name-W:"
 *    lines, call-site lines after a "-----" rule (skipped).
 */
#ifndef MEMSCALE_KLOCKS_H
#define MEMSCALE_KLOCKS_H

#include <stddef.h>

struct klock_row {
	char name[160];  /* caller symbol, lock_stat class, comm or address */
	char type[32];   /* perf's lock type ("spinlock"); "" for lock_stat */
	double contended, wait_total_ns, wait_max_ns, wait_min_ns, wait_avg_ns;
	double acquisitions; /* NaN where the source does not count them */
};

/* Rows of `perf lock contention` text: the number of rows, or -1 when the
 * text has no contention header (a "not captured: ..." note). */
int klock_parse_perf(const char *text, struct klock_row **out);
/* Rows of /proc/lock_stat text, one per class (subclasses and the -R/-W
 * halves summed; max of maxima); -1 when it is not lock_stat text. */
int klock_parse_lock_stat(const char *text, struct klock_row **out);
/* The model's lock class (lock_class_keys[]) a kernel lock name or perf
 * caller stands for, or NULL. */
const char *klock_model_class(const char *name);

#endif
