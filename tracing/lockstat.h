/*
 * lockstat.h - reading memscale CTF traces with libbabeltrace2
 * (src.ctf.fs -> filter.utils.muxer -> a simple sink of ours) and
 * summarising them like perf lock / /proc/lock_stat.
 */
#ifndef MEMSCALE_LOCKSTAT_H
#define MEMSCALE_LOCKSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LOCKSTAT_HIST 32 /* = LS_HIST: log2 ns buckets of lock_agg */

struct lockstat_counts {
	uint64_t events;            /* event records decoded */
	uint64_t memscale_events;   /* of which from provider memscale */
	uint64_t discarded;         /* events the tracer reported discarded */
	uint64_t discarded_packets; /* packets lost (overwrite mode) */
};

/* One table row: a lock class, overall (worker < 0) or for one worker. */
struct lockstat_row {
	char name[48];
	int worker;
	bool from_agg;      /* false: only per-event records were found */
	uint64_t acquired, contended;
	uint64_t wait_total, wait_max, wait_min;
	uint64_t hold_n, hold_total, hold_max;
	uint64_t handoffs;
	uint64_t ev_contended;  /* contention_end records */
	uint64_t ev_begin;      /* contention_begin records */
	uint64_t ev_wait_total, ev_wait_max, ev_wait_min;
	uint64_t ev_holds, ev_hold_total;
	uint64_t wait_hist[LOCKSTAT_HIST], hold_hist[LOCKSTAT_HIST];
};

struct lockstat_report {
	struct lockstat_counts counts;
	unsigned nruns;         /* distinct (config, rep) seen in run_phase */
	unsigned nrows;
	struct lockstat_row *rows;
};

enum lockstat_sort { LS_SORT_ACQUIRED, LS_SORT_CONTENDED, LS_SORT_AVG_WAIT,
		     LS_SORT_WAIT_TOTAL, LS_SORT_WAIT_MAX };

/* 0, or -1 with a message on stderr when the trace cannot be read. */
int lockstat_count(const char *dir, struct lockstat_counts *c);
int lockstat_read(const char *dir, bool per_worker, struct lockstat_report *r);
void lockstat_sort(struct lockstat_report *r, enum lockstat_sort key);
void lockstat_print(FILE *f, const struct lockstat_report *r, bool per_worker,
		    bool csv);
/* Wait and hold log2 histograms of each row (from the aggregates). */
void lockstat_print_hist(FILE *f, const struct lockstat_report *r);
void lockstat_free(struct lockstat_report *r);
/* True if a CTF "metadata" file exists under dir. */
bool lockstat_dir_has_trace(const char *dir);

#endif
