/*
 * sweepdir.h - a sweep directory on disk (harness/sweepdir.c): the layout
 * harness/sweep.h describes (sweep.json, matrix.txt, settings.txt,
 * experiment.ini, points/ID.csv, results.csv), made, checked against the
 * sweep about to run in it, resumed and collected.  `memscale sweep`
 * (cli/cmd_sweep.c) parses options and calls these.
 */
#ifndef MEMSCALE_SWEEPDIR_H
#define MEMSCALE_SWEEPDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"
#include "harness/sweep.h"

/* DIR/points/ID.csv of point p (the caller frees it). */
char *sweepdir_point_path(const char *dir, const struct sweep_point *p);
/* A point is done when its file holds its one complete row; anything
 * else there (0 bytes, a header alone) is run again. */
bool sweepdir_point_done(const struct sweep *s, const char *dir,
			 const struct sweep_point *p);
/* Whether DIR/points/ID.csv exists at all (done or not). */
bool sweepdir_point_exists(const char *dir, const struct sweep_point *p);
/* The number of the matrix's points that are done in dir. */
size_t sweepdir_count_done(const struct sweep *s, const char *dir);
/* Writes a finished point's row (prefixed with point, variant and
 * experiment) to its file, whole or not at all; a point that cannot be
 * written stops the sweep (exit 1). */
void sweepdir_write_point(const char *dir, const struct sweep *s,
			  const struct sweep_point *p, const struct harness_opts *o,
			  const struct result *res);
/* Writes path whole or not at all (atomic_write_file); exit 1 if not. */
void sweepdir_write_file(const char *path, const char *text);

/* The seed a previous run recorded in DIR/sweep.json, if any. */
bool sweepdir_recorded_seed(const char *dir, uint64_t *seed);
/* --resume needs a sweep in dir and its recorded seed; a --seed given
 * must be the one dir was run with.  Refusals: one line, exit 2. */
void sweepdir_check_seed(const char *dir, bool resume, bool seed_given,
			 uint64_t seed);

/* --collect: dir must hold this very sweep (settings.txt, matrix.txt);
 * rebuilds DIR/results.csv and returns the points taken, or -1. */
long sweepdir_collect(const struct sweep *s, const char *dir,
		      const char *exp_path, bool quick);

/* What sweepdir_prepare makes the directory for. */
struct sweepdir_opts {
	const char *dir;      /* the sweep directory */
	const char *exp_path; /* the experiment file, copied as experiment.ini */
	const char *cmdline;  /* recorded in sweep.json */
	bool quick;           /* --quick (recorded, and named in refusals) */
	bool resume;          /* --resume: finished points are expected */
	bool point;           /* --point: fleet jobs share the directory */
	bool emit_jobs;       /* --emit-jobs */
};

/*
 * Before any point runs: locks dir (one writer, or fleet jobs sharing
 * it), refuses one that holds other settings, another matrix, or
 * finished points without --resume/--point/--emit-jobs; makes dir and
 * points/ (removing dead writers' temp files), and writes settings.txt,
 * matrix.txt, experiment.ini and sweep.json.
 */
void sweepdir_prepare(const struct sweep *s, const struct sweepdir_opts *d);

#endif
