/*
 * t_klocks.c - `perf lock contention` and /proc/lock_stat text read into
 * rows (workloads/kernel/klocks.c).  The perf fixture is printed here with
 * perf's own format strings (tools/perf/builtin-lock.c: print_header_stdio,
 * "%*s " per key; lock_stat_key_print_time, "%*.2f %s" with len - 3 or
 * "%*llu ns"; print_lock_stat_stdio, "  %10s   %s\n"), the lock_stat one
 * with lockdep_proc.c's ("%40s:", "%38s-W:", "%14lu ", " %14s" times in
 * us with two decimals).
 */
#include "tests/tap.h"
#include "workloads/kernel/klocks.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void ptime(FILE *f, unsigned long long ns, int len)
{
	static const struct { double base; const char *unit; } t[] = {
		{ 1e9 * 3600, "h " }, { 1e9 * 60, "m " }, { 1e9, "s " }, { 1e6, "ms" },
		{ 1e3, "us" }, { 0, NULL },
	};
	for (int i = 0; t[i].unit; i++)
		if (ns >= t[i].base) {
			fprintf(f, "%*.2f %s", len - 3, ns / t[i].base, t[i].unit);
			return;
		}
	fprintf(f, "%*llu %s", len - 3, ns, "ns");
}

static void prow(FILE *f, unsigned long long n, unsigned long long tot,
		 unsigned long long max, unsigned long long min, const char *type,
		 const char *caller)
{
	fprintf(f, "%*llu ", 10, n);
	ptime(f, tot, 12);
	fputc(' ', f);
	ptime(f, max, 12);
	fputc(' ', f);
	ptime(f, min, 12);
	fputc(' ', f);
	ptime(f, n ? tot / n : 0, 12);
	fputc(' ', f);
	fprintf(f, "  %10s   %s\n", type, caller);
}

static bool near(double a, double b) { return fabs(a - b) <= 1e-6 * fabs(b) + 1e-9; }

int main(void)
{
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	struct klock_row *r;
	int n;

	fprintf(f, "%*s %*s %*s %*s %*s ", 10, "contended", 12, "total wait", 12,
		"max wait", 12, "min wait", 12, "avg wait");
	fprintf(f, "  %10s   %s\n\n", "type", "caller");
	prow(f, 1300, 2600000, 12000, 100, "spinlock", "folio_lruvec_lock_irqsave+0x2d");
	prow(f, 12, 5400000000ull, 900000000ull, 950, "mutex", "cgroup_rstat_flush+0x1c");
	prow(f, 3, 420, 200, 90, "rwsem:W", "do_mmap+0x3ad");
	fprintf(f, "\n=== output for debug ===\n\nbad: 1, total: 4\n");
	fclose(f);
	n = klock_parse_perf(text, &r);
	ok(n == 3, "perf: three rows (%d)", n);
	if (n == 3) {
		ok(!strcmp(r[0].name, "folio_lruvec_lock_irqsave+0x2d") &&
		   !strcmp(r[0].type, "spinlock"), "name and type of a row");
		ok(r[0].contended == 1300 && near(r[0].wait_total_ns, 2.6e6) &&
		   near(r[0].wait_max_ns, 12e3) && near(r[0].wait_min_ns, 100) &&
		   near(r[0].wait_avg_ns, 2000), "ms, us and ns fields in ns");
		ok(near(r[1].wait_total_ns, 5.4e9) && near(r[1].wait_max_ns, 9e8),
		   "seconds and ms");
		ok(isnan(r[0].acquisitions), "perf contention counts no acquisitions");
		ok(!strcmp(r[2].type, "rwsem:W") && near(r[2].wait_total_ns, 420),
		   "type with a flag, plain ns");
	}
	free(r);
	free(text);
	ok(klock_parse_perf("not captured: perf is not installed", &r) == -1 && !r,
	   "a note is not a table (-1)");
	/* older perf: no min wait column */
	f = open_memstream(&text, &len);
	fprintf(f, "%*s %*s %*s %*s   %10s   %s\n\n", 10, "contended", 12, "total wait",
		12, "max wait", 12, "avg wait", "type", "caller");
	fprintf(f, "%10d ", 5);
	ptime(f, 5000, 12);
	fputc(' ', f);
	ptime(f, 2000, 12);
	fputc(' ', f);
	ptime(f, 1000, 12);
	fprintf(f, "     spinlock   lru_note_cost+0x30\n");
	fclose(f);
	n = klock_parse_perf(text, &r);
	ok(n == 1 && near(r[0].wait_avg_ns, 1000) && isnan(r[0].wait_min_ns) &&
	   !strcmp(r[0].name, "lru_note_cost+0x30"), "header order decides the fields");
	free(r);
	free(text);

	/* /proc/lock_stat: a class with -W and -R halves, a call-site list */
	f = open_memstream(&text, &len);
	fprintf(f, "lock_stat version 0.4\n%s\n", "-----");
	fprintf(f, "%40s %14s %14s\n\n", "class name", "con-bounces", "contentions");
	fprintf(f, "%40s:%14lu %14lu %14s %14s %14s %14s  %14lu %14lu %14s %14s %14s %14s\n",
		"&lruvec->lru_lock", 1200ul, 1300ul, "0.10", "12.00", "2600.00", "2.00",
		40000ul, 50000ul, "0.05", "3.00", "9000.00", "0.18");
	fprintf(f, "%40s %14lu %29s %s\n", "&lruvec->lru_lock", 1300ul,
		"[<ffffffff81234567>]", "folio_lruvec_lock_irqsave+0x2d/0x40");
	fprintf(f, "%38s-W:%14lu %14lu %14s %14s %14s %14s  %14lu %14lu %14s %14s %14s %14s\n",
		"&mm->mmap_lock", 5ul, 6ul, "1.00", "40.00", "60.00", "10.00", 7ul, 800ul,
		"0.10", "9.00", "100.00", "0.12");
	fprintf(f, "%38s-R:%14lu %14lu %14s %14s %14s %14s  %14lu %14lu %14s %14s %14s %14s\n",
		"&mm->mmap_lock", 1ul, 2ul, "0.50", "90.00", "100.00", "50.00", 3ul, 400ul,
		"0.10", "9.00", "100.00", "0.25");
	fclose(f);
	n = klock_parse_lock_stat(text, &r);
	ok(n == 2, "lock_stat: two classes, call sites skipped (%d)", n);
	if (n == 2) {
		ok(!strcmp(r[0].name, "&lruvec->lru_lock") && r[0].contended == 1300 &&
		   near(r[0].wait_total_ns, 2.6e6) && near(r[0].wait_max_ns, 12e3) &&
		   r[0].acquisitions == 50000 && near(r[0].wait_avg_ns, 2000),
		   "lock_stat fields, us to ns");
		ok(!strcmp(r[1].name, "&mm->mmap_lock") && r[1].contended == 8 &&
		   r[1].acquisitions == 1200 && near(r[1].wait_max_ns, 90e3) &&
		   near(r[1].wait_total_ns, 160e3) && near(r[1].wait_avg_ns, 20e3),
		   "-R and -W halves summed, max of maxima");
	}
	free(r);
	free(text);
	ok(klock_parse_lock_stat("garbage\n", &r) == -1, "not lock_stat text (-1)");

	ok(klock_model_class("&lruvec->lru_lock") &&
	   !strcmp(klock_model_class("&lruvec->lru_lock"), "lruvec_lru_lock") &&
	   !strcmp(klock_model_class("folio_lruvec_lock_irqsave+0x2d"), "lruvec_lru_lock") &&
	   !strcmp(klock_model_class("&pgdat->lru_lock"), "pgdat_lru_lock") &&
	   !strcmp(klock_model_class("cgroup_rstat_flush+0x1c"), "stats_flush") &&
	   klock_model_class("do_mmap+0x3ad") == NULL, "kernel names map to model classes");
	return done_testing();
}
