/*
 * ab_pairs.h - the A/B pairs behind `memscale compare`: the samples of a
 * base and of each patch grouped by configuration (workload, mode, axis
 * values, workers, container), matched into pairs, the two sides checked
 * for the same model and calibration, each pair's numbers computed once
 * by core/ab.c, with its warnings and the knobs in which the sides differ.
 * The command (cli/cmd_compare.c) only reads options and prints.
 */
#ifndef MEMSCALE_HARNESS_AB_PAIRS_H
#define MEMSCALE_HARNESS_AB_PAIRS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ab.h"
#include "core/csv.h"
#include "core/stats.h"
#include "core/where.h"
#include "harness/expfile.h"
#include "exp/published.h"

#define AB_MAX_PATCHES 64

/* One compared configuration: base samples and one set per patch. */
struct ab_row {
	char *label;
	char *block; /* the label without the worker count (LKP blocks) */
	const char *workload, *workers, *container, *mode;
	char *axes; /* the other varying keys, KEYVALUE joined by '-' */
	char **bkey; /* the base group's key values (names of struct ab_pairs) */
	const struct sample_group *base;
	const struct sample_group *patch[AB_MAX_PATCHES];
	struct ab_result ab[AB_MAX_PATCHES]; /* core/ab.c, for every format */
	char *warn[AB_MAX_PATCHES];          /* ';'-joined, for csv */
	char *knob[AB_MAX_PATCHES], *bval[AB_MAX_PATCHES], *pval[AB_MAX_PATCHES]; /* files */
};

struct ab_pairs {
	const char *column;
	bool lower_better;
	bool per_container;
	bool need_positive; /* the report takes harmonic means: values > 0 */
	size_t npatch;
	const char *base_name;
	const char *patch_name[AB_MAX_PATCHES];
	size_t patch_var[AB_MAX_PATCHES]; /* experiment variant index of each patch */
	struct ab_row *rows;
	size_t nrows;
	const struct experiment *e;
	struct published_row *pub;    /* the experiment's published rows */
	size_t npub;
	const char *pub_from;   /* the file they were read from */
	/* the result tables behind the groups (NULL for plain samples): for
	 * the model and calibration checks and the warnings */
	const struct csv_table *tbase, *tpatch;
	char **names; /* the group columns */
	size_t nnames;
	const struct where *where;
};

/* --experiment DIR: every base group against each patch variant; the
 * experiment (caller frees) and, in *data, DIR/results.csv. */
struct experiment *ab_pairs_experiment(struct ab_pairs *c, const char *expdir,
				       struct sample_set *bs, char **data);
/* The published rows of the experiment (from experiments/NAME.ini when
 * there; *owned is that copy, for the caller to free). */
void ab_pairs_published(struct ab_pairs *c, const struct experiment *run_copy,
			struct experiment **owned);
/* BASE PATCH: groups of one file matched with the other's; column_given:
 * --column was said (a plain file against a CSV needs it). */
void ab_pairs_files(struct ab_pairs *c, bool column_given, const char *base,
		    const char *patch, struct sample_set *bs, struct sample_set *ps);
/* Every pair through core/ab.c once; checks and warnings beside it. */
void ab_pairs_compute(struct ab_pairs *c);
/* The knob(s) in which variant p differs from the base, with the two
 * values; for BASE PATCH files "" (the files name the sides). */
void ab_pairs_variant_knob(const struct ab_pairs *c, size_t p, char **knob,
			   char **bv, char **pv);
/* The numbers of column col over one side's rows of a group (NULL, *n = 0
 * when the table has no such column or no number there). */
double *ab_pairs_side_numbers(const struct ab_pairs *c, const struct csv_table *t,
			      char *const *key, const char *col, size_t *n);
/* Whether a column is a latency (lower is better) by its name. */
bool ab_column_is_latency(const char *col);
/* Frees what the rows and the pairs hold (not the tables or sets). */
void ab_pairs_free(struct ab_pairs *c);

#endif
