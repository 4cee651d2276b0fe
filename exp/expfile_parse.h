/*
 * expfile_parse.h - the experiment file reader's state and the parts of
 * it that live in other files (internal to exp/expfile*.c):
 * expfile_parse.c holds the error line and the comma lists every section
 * uses, expfile_published.c the [published] rows; expfile.c reads the
 * file and everything else.  Calls point from expfile.c to the other two
 * and from expfile_published.c to expfile_parse.c, never back.
 */
#ifndef MEMSCALE_EXPFILE_PARSE_H
#define MEMSCALE_EXPFILE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Only pointed to here: core/knob.h and exp/expfile.h define them,
 * for the files that look inside. */
struct knobset;
struct experiment;
struct exp_limits;

struct parser {
	const char *path;
	int line;
	struct experiment *e;
	const struct exp_limits *lim; /* exp_read()'s: workloads, workers */
	enum { SEC_NONE, SEC_EXPERIMENT, SEC_FIXED, SEC_VARIANT, SEC_AXIS,
	       SEC_QUICK, SEC_PUBLISHED, SEC_PREDICT } sec;
	struct knobset *scratch; /* validates knob values */
	int experiment_line;
	bool seen[32];           /* [experiment] keys already given */
	char *quick_seen[64];    /* [quick] keys already given, and their lines */
	int quick_line[64];
	size_t nquick_seen;
	/* the reader hook's state */
	FILE *f;
	char *buf;               /* the current physical line */
	size_t cap;
	size_t off;              /* how much of it libinih has had */
	size_t len;              /* its length (kept: linear time per line) */
	char *key, *value;       /* the line's KEY = VALUE, joined from
				  * libinih's calls, dispatched when the
				  * next line is read */
	size_t vlen, vcap;       /* value's length and room (grown by doubling) */
};


/* "FILE:LINE: message" on stderr, exit 2. */
void exp_perr(const struct parser *p, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
/* Splits a comma list into trimmed, non-empty items (an empty item is
 * refused); returns their number, 0 for an empty value. */
size_t exp_split_list(const struct parser *p, const char *key,
		      const char *value, char ***out);
/* An item given twice in a list is refused. */
void exp_check_unique(const struct parser *p, const char *key, char **v, size_t n);

/* One [published] row, WORKLOAD = BASE, PATCH, CHANGE, MACHINE[, K=V...],
 * checked and added to p->e->published. */
void exp_published_key(struct parser *p, const char *key, const char *value);
/* A knob setting KEY = VALUE checked against the registries (a lock or
 * counter name for `lock` and `counter`); exit 2 naming the line. */
void exp_check_setting(struct parser *p, const char *key, const char *value);
/* Once the file is read: no two rows for one result. */
void exp_published_unique(const struct parser *p);
/* Then each row read as numbers and its A/B pair (struct published_row). */
void exp_published_resolve(struct experiment *e);

#endif
