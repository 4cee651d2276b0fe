/*
 * published.h - the published numbers of the seed experiments, read from
 * the [published] sections of experiments/<name>.ini (struct
 * published_row, exp/expfile.h): the one source that `memscale compare`,
 * `memscale published` (for plots/plot.sh and paper/gen.sh), the
 * predictions and the ledger (predict/) and scripts/demo.sh all read.
 *
 * A row belongs to an A/B pair of knob values (pair=BASE>PATCH, default:
 * the experiment's base variant against its `patch` variant, else the
 * first variant after the base); the knob is the first one whose value
 * differs between the base variant and that variant.
 */
#ifndef MEMSCALE_PUBLISHED_H
#define MEMSCALE_PUBLISHED_H

#include <stdio.h>
#include <stddef.h>

#include "exp/expfile.h"

/* The variant the [published] rows measure by default.  This and
 * exp_ab_knob() live in expfile_published.c, which reads each row's
 * pair with them. */
size_t published_default_variant(const struct experiment *e);
/* The A/B knob of variant v against the base; NULL when they do not
 * differ in any knob.  *a and *b get the two values. */
const char *exp_ab_knob(const struct experiment *e, size_t v, const char **a,
			const char **b);
/* A copy of e's [published] rows (to carry over to a run with
 * published_for_run); e must outlive it.  Free with published_free(). */
size_t published_rows(const struct experiment *e, struct published_row **out);
void published_free(struct published_row *rows, size_t n);
/*
 * Rows of the canonical experiment file `canon` carried over to the
 * variants of a recorded run (the copy of the experiment file in a sweep
 * directory) that have the same names: a run recorded under an older
 * file can spell the same variants with another knob (results measured
 * with `stats = rstat_*` before the seed experiments became kernel
 * profiles).  Such a row gets the run's knob and values; rows whose
 * variant the run lacks, or that already match it, stay as they are.
 * The run must outlive the rows (r->knob and the values point into it).
 */
void published_for_run(struct published_row *rows, size_t n,
		       const struct experiment *canon, const struct experiment *run);
/* Whether row r compares the base variant with variant v. */
int published_measures(const struct experiment *e, const struct published_row *r,
		       size_t v);
/* 1 when row r compares the base variant with variant v as published
 * (published_measures), -1 when it is the reverse pair (r's patch value
 * is the base's, r's base value is v's: the experiment measures r's
 * patch -> base), 0 otherwise. */
int published_direction(const struct experiment *e, const struct published_row *r,
			size_t v);
/* The change of A vs B from the published change p (%) of B vs A:
 * 100 / (1 + p/100) - 100, the ratio of the means turned over (not -p);
 * NaN when p is NaN or <= -100. */
double published_reverse_pct(double p);
/* Row r's change in direction dir (see published_direction), as text
 * (heap): for 1 the published text; for -1 the reversed change "%+.2f%%"
 * (a range LO..HI with both ends turned: rev(HI)..rev(LO)), followed by
 * " (reversed from CHANGE)"; "-" when nothing can be turned. */
char *published_change_text(const struct published_row *r, int dir);
/* CSV: seed,knob,workload,base_variant,patch_variant,machine,cpus,base,
 * patch,change_pct,source,workers,target,role,build,base_ops_s,
 * patch_ops_s,abs_source (the *_variant columns hold knob values;
 * change_pct of a range is written LO..HI; the columns from workers on
 * are the optional fields as written, "" where not given, and role is
 * "dev" or "held"). */
void published_csv_header(FILE *f);
void published_csv_row(FILE *f, const struct published_row *r);

#endif
