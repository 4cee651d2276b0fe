/*
 * t_csv_input.c - CSV and sample input as others write it (core/csv.c,
 * core/stats.c): a UTF-8 byte-order mark is skipped, a NUL byte is an
 * error, rows may end in LF, CR LF or a lone CR; stats_set_check()
 * refuses what a harmonic mean or a double cannot hold; input_fopen()
 * (core/util.c) refuses directories, FIFOs and devices without blocking.
 */
#include "core/csv.h"
#include "core/stats.h"
#include "core/util.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct csv_table *parse(const char *text, size_t len, const char **err)
{
	FILE *f = fmemopen((void *)text, len, "r");
	struct csv_table *t;
	size_t line;

	*err = NULL;
	t = csv_read(f, err, &line);
	fclose(f);
	return t;
}

static void csv_cases(void)
{
	static const char bom[] = "\xef\xbb\xbfname,ops\nx,1\n";
	static const char cr[] = "name,ops\rx,1\ry,\"a\rb\"\r";
	static const char crlf[] = "name,ops\r\nx,1\r\n";
	static const char nul[] = "name,ops\nx,42\0 7\n";
	static const char half_bom[] = "\xef\xbbname,ops\nx,1\n";
	const char *err;
	struct csv_table *t;

	t = parse(bom, sizeof(bom) - 1, &err);
	ok(t && t->ncols == 2, "BOM: the header still has 2 columns");
	ok(t && csv_col(t, "name") == 0, "BOM: the first column is 'name', not '\\xef\\xbb\\xbfname'");
	csv_free(t);

	t = parse(cr, sizeof(cr) - 1, &err);
	ok(t && t->nrows == 2, "CR-only line ends: 2 rows");
	ok(t && t->nrows == 2 && !strcmp(t->rows[1][1], "a\rb"),
	   "a CR inside quotes stays in the value");
	ok(t && !strcmp(t->rows[0][1], "1"), "CR-only: the value has no CR left");
	csv_free(t);

	t = parse(crlf, sizeof(crlf) - 1, &err);
	ok(t && t->nrows == 1 && !strcmp(t->rows[0][1], "1"), "CR LF: one row, value '1'");
	csv_free(t);

	t = parse(nul, sizeof(nul) - 1, &err);
	ok(!t && err && strstr(err, "NUL"), "a NUL byte is an error (%s)", err ? err : "");

	t = parse(half_bom, sizeof(half_bom) - 1, &err);
	ok(!t && err && strstr(err, "byte-order mark"), "half a BOM is an error");
}

static void check_cases(void)
{
	struct sample_set s = { 0 };
	struct sample_group g = { 0 };
	double pos[] = { 3, 4, 5 }, zero[] = { 3, 0, 5 }, neg[] = { -2, 4 },
	       huge[] = { 1.5e308, 1.7e308 }, wide[] = { 1e200, -1e200, 3 },
	       tiny[] = { 1e-320, 1 };
	char err[256];

	s.ngroups = 1;
	s.groups = &g;
	s.plain = true;
#define CHECK(arr, need) (g.x = (arr), g.n = ARRAY_SIZE(arr), \
			  stats_set_check(&s, (need), NULL, err, sizeof(err)))
	ok(CHECK(pos, true) == 0, "positive samples pass");
	ok(CHECK(zero, true) == -1 && strstr(err, "sample 2 of 3 is 0"),
	   "a 0 sample is refused for a harmonic mean (%s)", err);
	ok(CHECK(zero, false) == 0, "a 0 sample is fine where no harmonic mean is printed");
	ok(CHECK(neg, true) == -1 && strstr(err, "-2"), "a negative sample is refused");
	ok(CHECK(huge, false) == -1 && strstr(err, "overflow"),
	   "two samples near DBL_MAX: their mean overflows, refused");
	ok(CHECK(wide, false) == -1, "+-1e200: the spread overflows, refused");
	ok(CHECK(tiny, true) == -1, "a denormal sample: 1/x is infinite, refused for Hmean");
#undef CHECK
}

static void open_cases(void)
{
	char dir[] = "/tmp/t_csv_input.XXXXXX", path[256];
	const char *why;
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/fifo", dir);
	ok(mkfifo(path, 0600) == 0, "made a FIFO");
	/* Would block forever in fopen() without O_NONBLOCK. */
	f = input_fopen(path, &why);
	ok(!f && why && strstr(why, "FIFO"), "a FIFO is refused at once (%s)", why ? why : "");
	f = input_fopen(dir, &why);
	ok(!f && strstr(why, "directory"), "a directory is refused");
	f = input_fopen("/dev/zero", &why);
	ok(!f && strstr(why, "special"), "a device is refused");
	snprintf(path, sizeof(path), "%s/none", dir);
	f = input_fopen(path, &why);
	ok(!f && strstr(why, "No such file"), "a missing file says so");
	snprintf(path, sizeof(path), "%s/file", dir);
	f = fopen(path, "w");
	fputs("1\n", f);
	fclose(f);
	f = input_fopen(path, &why);
	ok(f && fgetc(f) == '1', "a regular file opens and reads (blocking mode restored)");
	if (f)
		fclose(f);
	unlink(path);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	csv_cases();
	check_cases();
	open_cases();
	return done_testing();
}
