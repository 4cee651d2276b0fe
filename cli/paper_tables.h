/*
 * paper_tables.h - what `memscale paper-tables` (cmd_paper_tables.c)
 * shares with its other tables (paper_allrows.c, paper_seed.c,
 * paper_more.c, paper_meta.c): a ledger CSV's rows as read, and the TeX
 * escaper with break points.
 */
#ifndef MEMSCALE_PAPER_TABLES_H
#define MEMSCALE_PAPER_TABLES_H

#include <stdbool.h>
#include <stdio.h>

#include "core/csv.h"
#include "predict/ledger.h"

/* One ledger row: the CSV's strings, their values, the row's verdict. */
struct paper_row {
	const char *seed, *workload, *base, *patch, *target, *cpus, *pub, *pred_s, *regime,
		*band_lo_s, *band_hi_s;
	double lo, hi, pct, band_lo, band_hi;
	bool pub_ok;
	struct ledger_verdict v;
};

/* One ledger CSV (RESULTS/ledger.csv or ledger-NAME.csv). */
struct paper_ledger {
	char *path, *name;
	struct csv_table *t;
	struct paper_row *r;
	size_t n;
	struct ledger_tally all;
	unsigned missed, big, small;
};

/* s escaped for TeX (esc_tex), each "\_" followed by \allowbreak{}
 * (narrow columns); malloc'd. */
char *paper_tex_brk(const char *s);

/* The table of every published row (published: `memscale published`'s
 * CSV; abdir: where the seed tables' ab_SEED_p.tsv are; l: the primary
 * ledger or NULL) on tex, its counts as macros on mac. */
int paper_allrows(FILE *tex, FILE *mac, const char *published, const char *abdir,
		  const struct paper_ledger *l);

/* One seed's table (ab: its A/B rows, plots/ab.awk's table; pred: the
 * predictions CSV or NULL; cal: the calibration named in the caption, or
 * NULL) on out. */
int paper_seed_table(FILE *out, const char *seed, const char *ab, const char *pred,
		     const char *cal);

/* `paper-tables --table NAME --out FILE INPUT...` (paper_more.c): the
 * counter study, model vs kernel, the discrepancies, the desched macros. */
int paper_more(const char *table, const char *out, char **files, int nfiles);

/* \LoadNote from "LOAD<TAB>PUS" lines (paper_more.c) */
void paper_load_note(FILE *f, char *const *lines, size_t n);
/* buf into the file out, whole or not at all; "-": standard output */
void paper_write_out(const char *out, const char *buf, size_t len);

/* Where `paper-tables --table macros|provenance|figures|seeds`
 * (paper_meta.c) finds the data: the results directory (or CSV), the
 * figure directory plots/plot.sh wrote, that directory as the paper's
 * \includegraphics names it, the repository (git, and paths shown
 * relative to it). */
struct paper_meta_opts {
	const char *results, *fig, *figrel, *root;
};

bool paper_meta_has(const char *table);
int paper_meta(const char *table, const char *out, const struct paper_meta_opts *o, char **args,
	       int nargs);

#endif
