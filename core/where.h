/*
 * where.h - the row filter behind every `--where KEY=VALUE` option
 * (memscale stats, compare, model fit usl): a CSV row passes when, for
 * every pair given, its KEY column holds exactly VALUE (compared as
 * text).  One parser, one matcher; the subcommands only word their
 * errors.
 */
#ifndef MEMSCALE_WHERE_H
#define MEMSCALE_WHERE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/csv.h"

struct where {
	const char **pairs; /* the KEY=VALUE arguments as given */
	size_t n, cap;
};

/* Adds one argument; false (nothing added) unless it is KEY=VALUE with a
 * non-empty KEY.  VALUE may be empty. */
bool where_add(struct where *w, const char *arg);
/* The KEY of pair i, malloc'd. */
char *where_key(const struct where *w, size_t i);
/* The column of every KEY in t (malloc'd, w->n entries), or NULL with
 * *bad set to the first pair whose KEY is not a column of t. */
int *where_columns(const struct where *w, const struct csv_table *t, size_t *bad);
/* Whether row (of the table cols came from) passes every pair. */
bool where_match(const struct where *w, const int *cols, char *const *row);
void where_free(struct where *w);

#endif
