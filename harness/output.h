/*
 * output.h - how the harness writes its results (harness/output.c): the
 * table, will-it-scale's lines, CSV rows to stdout or `run -o FILE` with
 * its JSON sidecar.  harness.c runs, output.c writes; output.c never
 * calls back into harness.c, and reads the options and results from
 * harness/harness_types.h.  harness.h includes this header for
 * harness_write_csv(), which sweeps call; the rest is the harness's own.
 */
#ifndef MEMSCALE_HARNESS_OUTPUT_H
#define MEMSCALE_HARNESS_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "harness/harness_types.h"

/* Where a run's rows go. */
struct sink {
	FILE *csv;          /* stdout for --format csv without --out */
	int fd;             /* -o FILE, O_APPEND; -1 if none */
	off_t size;         /* its size after our last row */
	size_t first_row;   /* data rows it held before this run */
	size_t rows;        /* rows this run added */
	char *side_path;    /* FILE.json */
	char *side_prev;    /* its text before this run, NULL if none */
	bool created;       /* FILE did not exist before this run */
	bool header_done;
	const struct knob **knobs;
	size_t nknobs;
};

/* Opens o->out (checked, locked, its sidecar read) or picks stdout for
 * --format csv; refuses a bad --out with one line, exit 2. */
void sink_open(struct sink *s, const struct harness_opts *o);
/* One finished run's outputs: table header (first run) and row, the wis
 * average line, the CSV row (with the sidecar after it). */
void sink_emit(struct sink *s, const struct harness_opts *o, size_t t,
	       unsigned rep, const struct result *res);
/* Closes -o FILE (a failed close ends the run, status 1); frees s. */
void sink_close(struct sink *s, const struct harness_opts *o);

/* Writes the CSV header and one result row to f (at offset 0), as
 * harness_main does; used by sweeps, which run points one by one. */
void harness_write_csv(FILE *f, const struct harness_opts *o,
		       const struct result *res);

/* A result line on stdout reaches it now, or the run ends (status 1). */
void flush_stdout(void);

/* --format wis: the testcase/warmup lines before the first sample, and
 * one sample's min/max/total line (after the last warm-up sample, the
 * "measurement" line). */
void wis_begin(const struct harness_opts *o);
void wis_sample(const struct harness_opts *o, unsigned s, double mn,
		double mx, double total);
/* will-it-scale's "average": the integer mean of the printed totals. */
unsigned long long wis_average(const struct result *res);

/* /proc/stat's aggregate "cpu" line: busy and idle jiffies as runtest.py's
 * linux_stat counts them (idle = idle + iowait; busy = user, nice,
 * system, irq, softirq, steal, guest, guest_nice). */
struct cpu_times { unsigned long long busy, idle; bool ok; };

struct cpu_times cpu_times_now(void);
/* Idle percentage between two readings (0 when either failed). */
double idle_pct(struct cpu_times a, struct cpu_times b);

#endif
