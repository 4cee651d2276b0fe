#!/bin/sh
# memscale lockstat --kernel: the kernel's lock statistics of a
# kernel-backend run (perf lock contention, /proc/lock_stat deltas in the
# JSON sidecar) as rows under the model's lock classes, beside a model
# run's own figures for those classes.  The perf text is printed with
# perf's format strings (tools/perf/builtin-lock.c), see t_klocks.c.
. tests/lib.sh
hdr=$(printf '%10s %12s %12s %12s %12s   %10s   %s' contended "total wait" "max wait" "min wait" "avg wait" type caller)
r1=$(printf '%10d %9.2f %s %9.2f %s %9d %s %9.2f %s   %10s   %s' 1300 2.60 ms 12.00 us 100 ns 2.00 us spinlock folio_lruvec_lock_irqsave+0x2d)
r2=$(printf '%10d %9.2f %s %9.2f %s %9.2f %s %9.2f %s   %10s   %s' 3 1.20 us 0.60 us 0.20 us 0.40 us rwsem:W do_mmap+0x3ad)
perf=$(printf '%s\\n\\n%s\\n%s\\n' "$hdr" "$r1" "$r2")
cat >$TMP/run.json <<JSON
{ "kernel_observability": [
  { "workers": 2, "rep": 0, "ops": 1000,
    "lock_stat_delta": [ { "class": "&lruvec->lru_lock", "model_class": "lruvec_lru_lock",
                           "contentions": 50, "waittime_total_us": 100.0, "acquisitions": 1000 } ],
    "perf_lock_contention": "$perf" },
  { "workers": 1, "rep": 0, "ops": 500, "lock_stat_delta": [],
    "perf_lock_contention": "not captured: perf is not installed" } ] }
JSON
printf 'workload,mode,workers,rep,ops_per_sec,lruvec_lru_lock_contended_pct,lruvec_lru_lock_wait_avg_ns,lruvec_lru_lock_wait_max_ns,pgdat_lru_lock_contended_pct\n' >$TMP/model.csv
printf 'page_fault2,processes,2,0,100,30,1500,9000,\npage_fault2,processes,2,1,100,20,2500,12000,\n' >>$TMP/model.csv

expect_exit 0 "lockstat --kernel with --model" -- $MEMSCALE lockstat --kernel $TMP/run.json --model $TMP/model.csv
grep -q '^# run: workers=2 rep=0$' $TMP/out; ok $? "one block per run"
grep -q '^lruvec_lru_lock  *perf  *folio_lruvec_lock_irqsave+0x2d  *1300 ' $TMP/out
ok $? "perf's row under the model class lruvec_lru_lock"
grep -q '^lruvec_lru_lock  *lock_stat  *&lruvec->lru_lock  *50  *5 ' $TMP/out
ok $? "lock_stat's row with its contended % (50 of 1000)"
grep -q '^lruvec_lru_lock  *model  *lruvec_lru_lock  *-  *25  *-  *12000  *2000 ' $TMP/out
ok $? "the model's row beside them: mean contended % and wait avg, max wait"
awk '/^-  *perf  *do_mmap/ { found = 1 } /^lruvec/ && found { bad = 1 } END { exit !(found && !bad) }' $TMP/out
ok $? "locks of no model class come after the classes"
grep -q '^# run: workers=1 rep=0; perf not captured: perf is not installed$' $TMP/out
ok $? "a run without a capture says why"
! grep -q pgdat_lru_lock $TMP/out; ok $? "a class the model run did not have stays out"
expect_exit 0 "lockstat --kernel --csv" -- $MEMSCALE lockstat --kernel $TMP/run.json --csv
head -1 $TMP/out | grep -q '^workers,rep,class,source,name,contended,contended_pct,wait_total_ns,wait_max_ns,wait_avg_ns,acquisitions$'
ok $? "csv header"
grep -q '^2,0,lruvec_lru_lock,perf,folio_lruvec_lock_irqsave+0x2d,1300,,2.6e+06,12000,2000,$' $TMP/out
ok $? "csv row in ns"
expect_usage "--model without --kernel" "goes with --kernel" -- $MEMSCALE lockstat $TMP --model $TMP/model.csv
echo '{}' >$TMP/empty.json
expect_usage "a sidecar without kernel_observability" "kernel_observability" -- $MEMSCALE lockstat --kernel $TMP/empty.json
echo '{' >$TMP/bad.json
expect_usage "broken JSON" "bad.json" -- $MEMSCALE lockstat --kernel $TMP/bad.json
done_testing
