/*
 * sweep.h - expanding an experiment file into measurement points and
 * running them (`memscale sweep`), plus the result-table helpers that
 * sweeps, `merge` and `compare --experiment` share.
 *
 * A sweep directory holds:
 *   sweep.json       seed, settings, matrix in run order, machine metadata
 *   matrix.txt       one line per point; a resumed or fleet run must
 *                    expand to exactly the same lines
 *   experiment.ini   a copy of the experiment file
 *   points/ID.csv    one finished point each (written to a temp file and
 *                    renamed, so a point is either complete or absent)
 *   results.csv      all points (union of their columns), rebuilt at the
 *                    end, on --resume and by --collect; results.json beside
 */
#ifndef MEMSCALE_SWEEP_H
#define MEMSCALE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/csv.h"
#include "harness/expfile.h"

struct sweep_point {
	size_t id;        /* index in the unshuffled matrix */
	size_t workload;  /* index into e->workloads */
	size_t variant;   /* index into e->variants */
	size_t *axis;     /* value index per axis */
	long workers;
	unsigned rep;
};

struct sweep {
	struct experiment *e;
	long *workers;
	size_t nworkers;
	struct sweep_point *points;
	size_t npoints;
	size_t *order;    /* run order: shuffled blocks of all variants */
	uint64_t seed;
};

/* splitmix64: the shuffles' generator; the seed fully defines it. */
uint64_t splitmix64(uint64_t *state);

/* The largest matrix a sweep expands (10^7 points, ~1 GB of point
 * records); a larger one is refused with one line, exit 2. */
#define SWEEP_MAX_POINTS 10000000

/* Expands e (after exp_apply_quick / reps override) on this machine;
 * dies with EXIT_USAGE above SWEEP_MAX_POINTS. */
void sweep_expand(struct sweep *s, struct experiment *e, uint64_t seed);
void sweep_free(struct sweep *s);
/* "p0007" */
void sweep_point_id(const struct sweep_point *p, char *buf, size_t len);
/* One human line: "p0007 workload=... variant=... depth=3 workers=2 rep=0" */
char *sweep_point_desc(const struct sweep *s, const struct sweep_point *p);
/* Estimated seconds for one point (warm-up + measured + start-up). */
double sweep_point_estimate(const struct experiment *e);

/*
 * The settings that change a sweep's results, one "key = value" line
 * each in a fixed order (experiment name, workloads, resolved workers,
 * mode, seconds, warmup, sample_ms, reps, lock, counter, trace, base,
 * every [fixed], variant and axis setting), and their FNV-1a 64-bit hash.
 * DIR/settings.txt holds them; --resume, --point and --collect refuse a
 * directory whose settings differ, naming the first differing line.
 */
char *sweep_settings_text(const struct sweep *s);
uint64_t sweep_settings_hash(const char *text);
/* NULL when equal, else "KEY: X there, Y now" of the first difference. */
char *sweep_settings_diff(const char *there, const char *now);

/* True when PATH is a finished point file of point p: a header starting
 * "point,", exactly one complete row, which is p's (point, experiment,
 * workload, variant, workers, rep, mode, timing, lock, counter and every
 * setting of [fixed], its variant and its axis values that is a column);
 * else false with the reason in why. */
bool sweep_point_file_ok(const struct sweep *s, const struct sweep_point *p,
			 const char *path, char *why, size_t len);

/* Rebuilds DIR/results.csv (+ results.json) from the files of DIR/points/
 * that are finished points of s (others are left out, each with a note);
 * returns the number of points taken, or -1 with a message printed. */
long sweep_collect(const struct sweep *s, const char *dir);

/*
 * Union of result tables: columns in first-seen order, missing cells
 * empty.  Each input may carry extra leading columns (names/values).
 * Written to `path` through a temp file and rename.
 */
struct union_input {
	const struct csv_table *t;
	size_t nextra;
	const char *const *extra_names;
	const char *const *extra_values;
};
int csv_union_write(const char *path, const struct union_input *in, size_t n);

#endif
