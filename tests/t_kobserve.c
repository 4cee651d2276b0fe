/*
 * t_kobserve.c - the kernel backend's readers of /proc/vmstat and
 * /proc/lock_stat (workloads/kernel/kobserve.c) on fixed text in the
 * formats the kernel prints (Documentation/locking/lockstat.rst).
 */
#include "tests/tap.h"
#include "workloads/kernel/kobserve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char lock_stat[] =
"lock_stat version 0.4\n"
"-----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------\n"
"                              class name    con-bounces    contentions   waittime-min   waittime-max waittime-total   waittime-avg    acq-bounces   acquisitions   holdtime-min   holdtime-max holdtime-total   holdtime-avg\n"
"-----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------\n"
"\n"
"                         &lruvec->lru_lock:          1200           1300           0.10          12.00        2600.00           2.00          40000          50000           0.05           3.00        9000.00           0.18\n"
"                         -----------------\n"
"                         &lruvec->lru_lock           1300          [<ffffffff81234567>] folio_lruvec_lock_irqsave+0x2d/0x40\n"
"\n"
"                       &memcg->move_lock:             0              2           0.20           0.30           0.50           0.25             10            100           0.01           0.10           1.00           0.01\n"
"                         &lruvec->lru_lock:            10             20           0.10           1.00           5.00           0.25             30            700           0.05           1.00          10.00           0.01\n";

static const struct kobs_kv *find(const struct kobs_kv *kv, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(kv[i].name, name))
			return &kv[i];
	return NULL;
}

int main(void)
{
	char path[] = "/tmp/t_kobserve.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct kobs_kv *kv;
	const struct kobs_kv *l;
	int n;

	fputs(lock_stat, f);
	fclose(f);
	n = kobs_read_lock_stat(path, &kv);
	is_int(n, 2, "two classes (callsite lines and headers skipped)");
	l = find(kv, n, "&lruvec->lru_lock");
	ok(l && l->v[0] == 1320 && l->v[1] == 2605 && l->v[2] == 50700,
	   "subclasses of one class are summed: contentions, wait total, acquisitions");
	l = find(kv, n, "&memcg->move_lock");
	ok(l && l->v[0] == 2 && l->v[2] == 100, "second class read");
	kobs_kv_free(kv, n);

	f = fopen(path, "w");
	fputs("nr_free_pages 1000\npgfault 123456789012\npgalloc_normal 7\n", f);
	fclose(f);
	n = kobs_read_vmstat(path, &kv);
	is_int(n, 3, "vmstat: three counters");
	l = find(kv, n, "pgfault");
	ok(l && l->v[0] == 123456789012.0, "vmstat: a counter beyond 32 bits");
	kobs_kv_free(kv, n);
	unlink(path);
	is_int(kobs_read_lock_stat("/nonexistent/lock_stat", &kv), -1,
	       "no /proc/lock_stat (kernel without CONFIG_LOCK_STAT): -1");
	return done_testing();
}
