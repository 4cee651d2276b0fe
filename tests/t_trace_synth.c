/*
 * t_trace_synth - a synthetic trace with known contents: emits memscale:*
 * events with exact waits, holds and aggregates through a real LTTng
 * session, then checks that `memscale lockstat` (lockstat_read/print)
 * reproduces the exact table, that every event arrived (or the discarded
 * count explains the gap), and that the trace's lock-class enumeration
 * spells the classes like lock_class_names[].
 *
 * Skips (TAP SKIP with the reason) when tracing is compiled out or the
 * lttng tools are not installed.
 */
#include "tap.h"
#include "trace/tp.h"
#include "tracing/session.h"
#include "tracing/lockstat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct lockstat_row *find_row(const struct lockstat_report *r,
					   const char *name, int worker)
{
	for (unsigned i = 0; i < r->nrows; i++)
		if (r->rows[i].worker == worker && !strcmp(r->rows[i].name, name))
			return &r->rows[i];
	return NULL;
}

static bool have_prog(const char *prog)
{
	char *cmd = xasprintf("command -v %s >/dev/null 2>&1", prog);
	int rc = system(cmd);
	free(cmd);
	return rc == 0;
}

static struct lock_stat agg(unsigned worker, enum lock_class_id c,
			    uint64_t acq, uint64_t con, uint64_t wait,
			    uint64_t wmin, uint64_t wmax, uint64_t hold_n,
			    uint64_t hold, uint64_t hmax, uint64_t handoffs)
{
	struct lock_stat s;

	memset(&s, 0, sizeof(s));
	s.worker = worker;
	s.cls = (uint8_t)c;
	s.acquired = acq;
	s.contended = con;
	s.wait_ns = wait;
	s.wait_min_ns = wmin;
	s.wait_max_ns = wmax;
	s.hold_n = hold_n;
	s.hold_ns = hold;
	s.hold_max_ns = hmax;
	s.handoffs = handoffs;
	return s;
}

int main(void)
{
	char tmpl[] = "/tmp/memscale-t-trace-XXXXXX";
	char *dir, *buf = NULL;
	size_t len = 0;
	struct trace_session *ts;
	struct lockstat_report all, per;
	const struct lockstat_row *row;
	struct lock_stat s;
	uint64_t emitted = 0, lock_a = 0x1000, lock_b = 0x2000;
	FILE *f;

	if (!TRACE_BUILT_IN) {
		printf("1..0 # SKIP tracing compiled out (TRACE=0)\n");
		return 0;
	}
	if (!have_prog("lttng") || !have_prog("lttng-sessiond")) {
		printf("1..0 # SKIP lttng-tools not installed (no lttng in PATH)\n");
		return 0;
	}
	if (!mkdtemp(tmpl)) {
		printf("1..0 # SKIP cannot create a temporary directory\n");
		return 0;
	}
	dir = xasprintf("%s/trace", tmpl);
	ts = trace_session_start(dir, NULL, true);

	/* page_counter: records only (no aggregates): waits 100, 200, 300. */
	for (unsigned i = 1; i <= 3; i++) {
		MS_TP(contention_begin, LC_PAGE_COUNTER, (void *)lock_a, 0);
		MS_TP(contention_end, LC_PAGE_COUNTER, (void *)lock_a, 0, 100 * i);
		MS_TP(lock_release, LC_PAGE_COUNTER, (void *)lock_a, 0, 10 * i);
		emitted += 3;
	}
	/* lruvec->lru_lock: an early aggregate that a later one supersedes,
	 * then the finals, and one record per contended acquisition. */
	s = agg(0, LC_LRUVEC_LRU, 5, 1, 10, 10, 10, 0, 0, 0, 1);
	MS_TP(lock_agg, 42, 0, 0, LC_LRUVEC_LRU, 0, &s);
	s = agg(0, LC_LRUVEC_LRU, 1000, 10, 5000, 100, 1500, 16, 1600, 400, 7);
	MS_TP(lock_agg, 42, 0, 1, LC_LRUVEC_LRU, 0, &s);
	s = agg(1, LC_LRUVEC_LRU, 500, 5, 2500, 50, 900, 8, 1200, 300, 3);
	s.wait_hist[lock_hist_bucket(900)] = 1;
	s.wait_hist[lock_hist_bucket(500)] = 3;
	s.wait_hist[lock_hist_bucket(50)] = 1;
	s.hold_hist[LS_HIST - 1] = 8;
	MS_TP(lock_agg, 42, 0, 1, LC_LRUVEC_LRU, 1, &s);
	emitted += 3;
	for (unsigned i = 0; i < 10; i++)	/* 100 + 8 x 425 + 1500 = 5000 */
		MS_TP(contention_end, LC_LRUVEC_LRU, (void *)lock_b, 0,
		      i == 0 ? 100 : i == 9 ? 1500 : 425);
	for (unsigned i = 0; i < 5; i++)	/* sum 2500, min 50, max 900 */
		MS_TP(contention_end, LC_LRUVEC_LRU, (void *)lock_b, 1,
		      (uint64_t[]){ 50, 900, 500, 500, 550 }[i]);
	emitted += 15;
	/* One begin per class from worker 99: the enum labels. */
	for (unsigned c = 0; c < LC_NR; c++)
		MS_TP(contention_begin, (int)c, (void *)lock_a, 99);
	emitted += LC_NR;
	trace_counter_fold("memcg->vmstats", 0, 64, 128);
	trace_counter_fold("memcg->vmstats", 1, -32, 96);
	trace_stats_flush(0, 12345, 7);
	emitted += 3;
	is_int(trace_session_stop(ts), 0, "session stopped and destroyed cleanly");

	if (lockstat_read(dir, false, &all) || lockstat_read(dir, true, &per)) {
		ok(0, "lockstat reads the synthetic trace");
		printf("1..%d\n", tap_n);
		return 1;
	}
	is_int(all.counts.discarded, 0, "no events discarded");
	is_int(all.counts.events + all.counts.discarded, emitted,
	       "every emitted event is in the trace or counted as discarded");
	is_int(all.counts.memscale_events, all.counts.events,
	       "only memscale events (session tracked this process only)");

	row = find_row(&all, "page_counter", -1);
	ok(row && !row->from_agg, "page_counter row comes from records only");
	if (row) {
		is_int(row->contended, 3, "page_counter contended");
		is_int(row->acquired, 3, "page_counter acquired (= contended, records only)");
		is_int(row->wait_total, 600, "page_counter total wait");
		is_int(row->wait_max, 300, "page_counter max wait");
		is_int(row->wait_min, 100, "page_counter min wait");
		is_int(row->ev_holds, 3, "page_counter hold records");
		is_int(row->ev_hold_total, 60, "page_counter hold total");
	}
	row = find_row(&all, "lruvec->lru_lock", -1);
	ok(row && row->from_agg, "lruvec row comes from aggregates");
	if (row) {
		is_int(row->acquired, 1500, "lruvec acquired: final aggregates summed");
		is_int(row->contended, 15, "lruvec contended");
		is_int(row->wait_total, 7500, "lruvec total wait");
		is_int(row->wait_max, 1500, "lruvec max wait");
		is_int(row->wait_min, 50, "lruvec min wait");
		is_int(row->hold_n, 24, "lruvec hold samples");
		is_int(row->hold_total, 2800, "lruvec hold total");
		is_int(row->hold_max, 400, "lruvec hold max");
		is_int(row->handoffs, 10, "lruvec handoffs");
		is_int(row->ev_contended, 15, "lruvec contention records match");
		is_int(row->ev_wait_total, 7500, "lruvec record waits sum to the aggregate");
	}
	row = find_row(&per, "lruvec->lru_lock", 1);
	ok(row && row->acquired == 500 && row->contended == 5 &&
	   row->wait_min == 50 && row->wait_max == 900,
	   "-t: worker 1 row has its own final aggregate");
	ok(row && row->wait_hist[6] == 1 && row->wait_hist[9] == 3 &&
	   row->wait_hist[10] == 1 && row->hold_hist[LS_HIST - 1] == 8,
	   "-t: worker 1 histograms read back bucket by bucket");
	for (unsigned c = 0; c < LC_NR; c++) {
		row = find_row(&per, lock_class_names[c], 99);
		ok(row && row->ev_begin == 1, "enum label of class %u is '%s'", c,
		   lock_class_names[c]);
	}

	/* The exact CSV and table lines. */
	lockstat_sort(&all, LS_SORT_ACQUIRED);
	f = open_memstream(&buf, &len);
	lockstat_print(f, &all, false, true);
	fclose(f);
	ok(strstr(buf, "\nlruvec->lru_lock,-1,1500,15,500.0,7500,1500,50,24,116.7,"
		  "400,10,15,aggregates\n") != NULL, "CSV row of lruvec->lru_lock");
	ok(strstr(buf, "\npage_counter,-1,3,3,200.0,600,300,100,0,0.0,0,0,3,"
		  "records\n") != NULL, "CSV row of page_counter");
	ok(strstr(buf, "lruvec->lru_lock") < strstr(buf, "page_counter"),
	   "sorted by acquired, descending");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	lockstat_print(f, &all, false, false);
	fclose(f);
	ok(strstr(buf, "avg wait = total wait / contended") != NULL,
	   "table header says what avg wait averages over");
	ok(strstr(buf, "     lruvec->lru_lock          1500         15     500 ns"
		  "     7.50 us    1.50 us      50 ns     117 ns     400 ns"
		  "         10\n") != NULL, "table row of lruvec->lru_lock");
	ok(strstr(buf, "         page_counter*            3          3     200 ns"
		  "      600 ns     300 ns     100 ns") != NULL,
	   "table row of page_counter, marked as records-only");
	ok(strstr(buf, "0 discarded by the tracer") != NULL, "table reports lost events");
	if (tap_failed)
		printf("# table:\n%s", buf);
	free(buf);
	lockstat_free(&all);
	lockstat_free(&per);
	{
		char *cmd = xasprintf("rm -rf '%s'", tmpl);
		if (system(cmd))
			printf("# could not remove %s\n", tmpl);
		free(cmd);
	}
	free(dir);
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
