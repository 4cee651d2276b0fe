/*
 * t_util - the strict number parsers every option and file goes through:
 * decimal only (a leading zero is decimal, never octal; no hex, no blanks,
 * no '+'), ranges and steps in lists, and no empty list elements.
 */
#include <stdlib.h>

#include "core/procstat.h"
#include "core/util.h"
#include "tap.h"

static void test_long(void)
{
	long v = -1;

	ok(parse_long("010", 0, 100, &v) && v == 10, "'010' reads as decimal ten (%ld)", v);
	ok(parse_long("0100", 0, 1000, &v) && v == 100, "'0100' reads as one hundred (%ld)", v);
	ok(parse_long("0", 0, 1, &v) && v == 0, "'0' is zero");
	ok(parse_long("-3", -5, 5, &v) && v == -3, "'-3' is minus three");
	ok(!parse_long("0x1", 0, 100, &v), "'0x1' refused (decimal only)");
	ok(!parse_long("0X10", 0, 100, &v), "'0X10' refused");
	ok(!parse_long(" 1", 0, 100, &v), "leading blank refused");
	ok(!parse_long("+1", 0, 100, &v), "'+1' refused");
	ok(!parse_long("1 ", 0, 100, &v), "trailing blank refused");
	ok(!parse_long("", 0, 100, &v), "empty refused");
	ok(!parse_long("-", -5, 100, &v), "'-' refused");
	ok(!parse_long("99999999999999999999999", 0, 100, &v), "overflow refused");
	ok(!parse_long("101", 0, 100, &v), "out of range refused");
}

static void test_double(void)
{
	double d = -1;

	ok(parse_double("0.5", 0, 1, &d) && d == 0.5, "'0.5' parses");
	ok(parse_double(".5", 0, 1, &d) && d == 0.5, "'.5' parses");
	ok(parse_double("010", 0, 100, &d) && d == 10, "'010' is ten");
	ok(parse_double("1e3", 0, 1e4, &d) && d == 1000, "'1e3' parses");
	ok(!parse_double("0x1p3", 0, 100, &d), "hex float refused");
	ok(!parse_double("1e400", 0, 1e300, &d), "'1e400' refused (overflow)");
	ok(!parse_double("inf", 0, 1e300, &d), "'inf' refused");
	ok(!parse_double("nan", 0, 1e300, &d), "'nan' refused");
	ok(!parse_double("100parsecs", 0, 1e300, &d), "'100parsecs' refused");
	ok(!parse_double(" 1", 0, 10, &d), "leading blank refused");
	ok(!parse_double("-5", 0, 10, &d), "'-5' below the minimum refused");
}

static void test_list(void)
{
	long *v = NULL;
	const char *err = NULL;
	size_t n;

	n = parse_list("1,2,4", 1, 100, &v, &err);
	ok(n == 3 && v[0] == 1 && v[2] == 4, "'1,2,4' gives three values");
	free(v);
	n = parse_list("010", 1, 100, &v, &err);
	ok(n == 1 && v[0] == 10, "'010' in a list is ten");
	free(v);
	n = parse_list("1-8:2", 1, 100, &v, &err);
	ok(n == 4 && v[3] == 7, "'1-8:2' gives 1,3,5,7");
	free(v);
	n = parse_list("1,", 1, 100, &v, &err);
	ok(n == 0 && err && strstr(err, "empty"), "'1,' refused: %s", err ? err : "?");
	n = parse_list("1,,2", 1, 100, &v, &err);
	ok(n == 0 && err && strstr(err, "empty"), "'1,,2' refused: %s", err ? err : "?");
	n = parse_list(",1", 1, 100, &v, &err);
	ok(n == 0, "',1' refused");
	n = parse_list("0x1", 1, 100, &v, &err);
	ok(n == 0, "'0x1' refused");
	n = parse_list("8-1", 1, 100, &v, &err);
	ok(n == 0 && err && strstr(err, "backwards"), "'8-1' refused as backwards");
}

/* The one /proc/stat reader: every field the harness and meta use. */
static void test_procstat(void)
{
	struct proc_cpu a, b;
	bool read = proc_stat_cpu(&a);

	ok(read && a.n >= 8, "/proc/stat cpu line has >= 8 fields (%d)", a.n);
	ok(proc_cpu_total(&a) >= a.v[PROC_CPU_STEAL] + a.v[PROC_CPU_IDLE],
	   "total counts idle and steal");
	for (volatile long i = 0; i < 20000000; i++)
		;
	ok(proc_stat_cpu(&b) && proc_cpu_total(&b) >= proc_cpu_total(&a),
	   "the total never goes back");
}

int main(void)
{
	test_procstat();
	test_long();
	test_double();
	test_list();
	return done_testing();
}
