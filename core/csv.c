/* csv.c - RFC 4180 CSV writing and reading (core/csv.h). */
#include "core/csv.h"
#include "core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void csv_field(FILE *f, const char *s, int last)
{
	if (!s)
		s = "";
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

void csv_fieldf(FILE *f, int last, const char *fmt, ...)
{
	char *s;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die(1, "out of memory");
	va_end(ap);
	csv_field(f, s, last);
	free(s);
}

void csv_num(FILE *f, double v, int last)
{
	if (isnan(v))
		csv_field(f, "", last);
	else
		csv_fieldf(f, last, "%.*g", CSV_NUM_DIGITS, v);
}

int csv_skip_bom(FILE *f)
{
	static const unsigned char bom[3] = { 0xef, 0xbb, 0xbf };
	int c, k;

	/* A UTF-8 byte-order mark (spreadsheets write one) is not part of the
	 * first column's name: left there, "workload" would not be found. */
	for (k = 0; k < 3; k++) {
		c = fgetc(f);
		if (c != bom[k])
			break;
	}
	if (k == 3)
		return 0;
	if (k > 0)
		return -1; /* a mark cut short: no pushback of two bytes */
	if (c != EOF)
		ungetc(c, f);
	return 0;
}

/* Reads one record (which may span lines inside quotes). */
static int read_record(FILE *f, char ***fields, size_t *nf, const char **err)
{
	size_t cap = 8, n = 0, blen = 0, bcap = 64;
	char **v = xmalloc(cap * sizeof(*v));
	char *buf = xmalloc(bcap);
	int c, inq = 0, any = 0;

	for (;;) {
		c = fgetc(f);
		if (c == EOF) {
			if (inq) {
				*err = "unterminated quoted field";
				goto fail;
			}
			if (!any) {
				free(v);
				free(buf);
				return 0;
			}
			break;
		}
		any = 1;
		if (c == '\0') {
			/* A NUL would end the value early in every string
			 * function that reads it: "420\0 30202" is not 420. */
			*err = "NUL byte in the input";
			goto fail;
		}
		if (inq) {
			if (c == '"') {
				int d = fgetc(f);
				if (d == '"') {
					c = '"';
				} else {
					inq = 0;
					if (d != EOF)
						ungetc(d, f);
					continue;
				}
			}
		} else if (c == '"' && blen == 0) {
			inq = 1;
			continue;
		} else if (c == ',' || c == '\n' || c == '\r') {
			/* Rows end in LF, CR LF or a lone CR (old Mac files). */
			if (c == '\r') {
				int d = fgetc(f);
				if (d != '\n' && d != EOF)
					ungetc(d, f);
				c = '\n';
			}
			buf[blen] = '\0';
			if (n == cap)
				v = realloc(v, (cap *= 2) * sizeof(*v));
			v[n++] = xstrdup(buf);
			blen = 0;
			if (c == '\n')
				goto done;
			continue;
		}
		if (blen + 2 > bcap)
			buf = realloc(buf, bcap *= 2);
		buf[blen++] = (char)c;
	}
	buf[blen] = '\0';
	if (n == cap)
		v = realloc(v, (cap *= 2) * sizeof(*v));
	v[n++] = xstrdup(buf);
done:
	free(buf);
	*fields = v;
	*nf = n;
	return 1;
fail:
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(buf);
	return -1;
}

struct csv_table *csv_read(FILE *f, const char **err, size_t *line)
{
	struct csv_table *t = xcalloc(1, sizeof(*t));
	char **fields;
	size_t nf, cap = 16;
	int r;

	*line = 1;
	if (csv_skip_bom(f)) {
		*err = "starts with a broken UTF-8 byte-order mark";
		free(t);
		return NULL;
	}
	r = read_record(f, &t->header, &t->ncols, err);
	if (r <= 0) {
		if (r == 0)
			*err = "empty file (no header)";
		free(t);
		return NULL;
	}
	t->rows = xmalloc(cap * sizeof(*t->rows));
	while ((r = read_record(f, &fields, &nf, err)) > 0) {
		(*line)++;
		if (nf == 1 && !fields[0][0]) { /* blank line */
			free(fields[0]);
			free(fields);
			continue;
		}
		if (nf != t->ncols) {
			*err = "row has a different number of fields than the header";
			for (size_t i = 0; i < nf; i++)
				free(fields[i]);
			free(fields);
			csv_free(t);
			return NULL;
		}
		if (t->nrows == cap)
			t->rows = realloc(t->rows, (cap *= 2) * sizeof(*t->rows));
		t->rows[t->nrows++] = fields;
	}
	if (r < 0) {
		csv_free(t);
		return NULL;
	}
	return t;
}

struct csv_table *csv_read_file(const char *path, const char **err, size_t *line)
{
	return csv_read_file_flags(path, 0, err, line);
}

struct csv_table *csv_read_file_flags(const char *path, unsigned flags,
				      const char **err, size_t *line)
{
	FILE *f = file_read_open(path, flags, err);
	struct csv_table *t;

	*line = 0;
	if (!f)
		return NULL;
	t = csv_read(f, err, line);
	fclose(f);
	return t;
}

void csv_free(struct csv_table *t)
{
	if (!t)
		return;
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++)
			free(t->rows[r][c]);
		free(t->rows[r]);
	}
	for (size_t c = 0; c < t->ncols; c++)
		free(t->header[c]);
	free(t->header);
	free(t->rows);
	free(t);
}

int csv_col(const struct csv_table *t, const char *name)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(t->header[c], name))
			return (int)c;
	return -1;
}
