/*
 * csv.h - RFC 4180 CSV writing and reading, shared by results, sweeps,
 * statistics and plots so every tool agrees on quoting.
 */
#ifndef MEMSCALE_CSV_H
#define MEMSCALE_CSV_H

#include <stdio.h>
#include <stddef.h>

/* Write one field (quoted when it holds , " or newline); `last` ends the row. */
void csv_field(FILE *f, const char *s, int last);
void csv_fieldf(FILE *f, int last, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A measured number: 10 significant digits, so a rate of 3423412.3 ops/s
 * is written as such (not 3.42341e+06) and reads back as the same double
 * to the precision any table prints; NaN (no data) is an empty field. */
#define CSV_NUM_DIGITS 10
void csv_num(FILE *f, double v, int last);

/* A parsed CSV table: header plus rows, all strings. */
struct csv_table {
	size_t ncols, nrows;
	char **header;  /* ncols */
	char ***rows;   /* nrows x ncols */
};

/* Returns NULL and sets *err (static text) on malformed input; rows with
 * a wrong field count are errors, with the line number in *line.  A
 * leading UTF-8 byte-order mark is skipped; rows may end in LF, CR LF or
 * CR; a NUL byte is an error.  csv_read_file() opens through
 * input_fopen() (a regular file only) and its *err then follows the
 * quoted path ("is a directory"). */
struct csv_table *csv_read(FILE *f, const char **err, size_t *line);
struct csv_table *csv_read_file(const char *path, const char **err, size_t *line);
/* The same with file_read_open()'s flags: FILE_NOFOLLOW for names found
 * in a directory (a sweep's point files), never the user's argument. */
struct csv_table *csv_read_file_flags(const char *path, unsigned flags,
				      const char **err, size_t *line);
void csv_free(struct csv_table *t);
/* Skip a UTF-8 byte-order mark at the current position, if there is one;
 * -1 when the input starts with part of one only. */
int csv_skip_bom(FILE *f);
/* Column index, or -1. */
int csv_col(const struct csv_table *t, const char *name);

#endif
