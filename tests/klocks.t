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
# The records as `run` writes them (kb_sidecar, json_sidecar_runs): under
# "kernel" at the top (the last invocation) and under each "runs" entry's
# "kernel" (every invocation of a CSV appended to); the reader takes runs[].
recs=$(cat <<JSON
[ { "workers": 2, "rep": 0, "ops": 1000,
    "lock_stat_delta": [ { "class": "&lruvec->lru_lock", "model_class": "lruvec_lru_lock",
                           "contentions": 50, "waittime_total_us": 100.0, "acquisitions": 1000 } ],
    "perf_lock_contention": "$perf" },
  { "workers": 1, "rep": 0, "ops": 500, "lock_stat_delta": [],
    "perf_lock_contention": "not captured: perf is not installed" } ]
JSON
)
cat >$TMP/run.json <<JSON
{ "run": { "workload": "kernel:page_fault2" },
  "kernel": { "memcg": true, "kernel_observability": $recs },
  "runs": [ { "run": { "workload": "kernel:page_fault2" },
              "kernel": { "memcg": true, "kernel_observability": $recs },
              "first_row": 0, "rows": 2 } ] }
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
cp $TMP/out $TMP/csv1
expect_exit 0 "lockstat --kernel -f csv" -- $MEMSCALE lockstat --kernel $TMP/run.json -f csv
cmp -s $TMP/out $TMP/csv1; ok $? "... -f csv is --csv"
expect_usage "--model without --kernel" "goes with --kernel" -- $MEMSCALE lockstat $TMP --model $TMP/model.csv
echo '{}' >$TMP/empty.json
expect_usage "a sidecar without a kernel object" 'empty.json has no kernel lock records: no "kernel" object' -- $MEMSCALE lockstat --kernel $TMP/empty.json
# a sidecar of one invocation without "runs": its top-level "kernel"
sed -n '/"runs"/q;p' $TMP/run.json | sed '$ s/,$//' >$TMP/one.json
echo '}' >>$TMP/one.json
expect_exit 0 "a sidecar without runs[]: the top-level kernel object" -- $MEMSCALE lockstat --kernel $TMP/one.json
[ "$(grep -c '^# run:' $TMP/out)" -eq 2 ]; ok $? "... its two runs"
echo '{' >$TMP/bad.json
expect_usage "broken JSON" "bad.json" -- $MEMSCALE lockstat --kernel $TMP/bad.json
# A sidecar a real kernel-backend run wrote (skipped, visibly, where the
# kernel backend cannot run: it needs memory cgroups, or --no-memcg).
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP $1"; }
KOPT=
krun() { # krun CSV [ARGS...]: one short kernel:page_fault2 run
	$MEMSCALE run kernel:page_fault2 -t 2 -s 0.2 --sample-ms 100 -w 0 \
		--set ksize_mb=4 $KOPT -o "$@" >"$TMP/krun.out" 2>&1
}
# in memory cgroups where it can, else outside them (the sidecar's kernel
# object is there either way)
krun $TMP/probe.csv || KOPT=--no-memcg
if krun $TMP/k0.csv; then
	expect_exit 0 "lockstat --kernel reads a real run's sidecar (no kperf_lock)" -- \
		$MEMSCALE lockstat --kernel $TMP/k0.json
	grep -q '^# run: workers=2 rep=0; perf not requested (--set kperf_lock=on)$' $TMP/out
	ok $? "... its run block says perf was not requested"
	grep -q '^(no kernel lock statistics in this run: --set kperf_lock=on for perf' $TMP/out ||
		grep -q '  lock_stat  ' $TMP/out
	ok $? "... and, without /proc/lock_stat rows, that it has no statistics"
	# a second invocation appended to the same CSV: runs[] has both
	krun $TMP/k0.csv; ok $? "a second run appends to the same CSV"
	expect_exit 0 "lockstat --kernel of an appended sidecar" -- $MEMSCALE lockstat --kernel $TMP/k0.json
	[ "$(grep -c '^# run: workers=2 rep=0' $TMP/out)" -eq 2 ]; ok $? "... one block per invocation's run"
	# perf lock record takes a while to attach: a longer run than the rest
	if krun $TMP/kp.csv -s 1 --sample-ms 250 -w 1 --set kperf_lock=on; then
		expect_exit 0 "lockstat --kernel of a real kperf_lock=on run" -- \
			$MEMSCALE lockstat --kernel $TMP/kp.json
		cp $TMP/out $TMP/kp.table
		expect_exit 0 "... and with --csv" -- $MEMSCALE lockstat --kernel $TMP/kp.json --csv
		# perf's parsed rows, once at the top and once in runs[0]
		want=$(( $(grep -c '"wait_avg_ns"' $TMP/kp.json) / 2 ))
		got=$(grep -c '^2,0,[^,]*,perf,' $TMP/out)
		if grep -q '"perf_lock_contention": "not captured' $TMP/kp.json; then
			grep -q '^# run: workers=2 rep=0; perf not captured' $TMP/kp.table
			ok $? "... says perf did not capture"
			skip "perf lock could not capture here: $(grep -o '"perf_lock_contention": "not captured: [^"]*' $TMP/kp.json | head -1 | cut -d'"' -f4 | sed 's/^not captured: //')"
		elif [ "$want" -eq 0 ]; then
			grep -q '^(perf lock contention saw no contended kernel lock' $TMP/kp.table
			ok $? "... says perf saw no contended lock (none in the sidecar)"
			skip "perf lock captured no contended lock in this short run"
		else
			[ "$want" -ge 1 ] && [ "$got" -eq "$want" ]
			ok $? "every perf lock row of the sidecar is tabled ($got of $want)"
			name=$(grep -m1 -A1 '"perf_lock_rows"' $TMP/kp.json | sed -n 's/.*"name": "\([^"]*\)".*/\1/p')
			[ -z "$name" ] && name=$(grep -m1 '"name": ' $TMP/kp.json | cut -d'"' -f4)
			grep -qF ",perf,$name," $TMP/out; ok $? "... its first lock, $name, among them"
		fi
	else
		skip "run --set kperf_lock=on failed here: $(head -1 $TMP/krun.out)"
	fi
else
	skip "the kernel backend cannot run here: $(head -1 $TMP/krun.out)"
fi
# a real model-free microbenchmark's sidecar has no kernel object
$MEMSCALE run lock -t 1 -s 0.1 --sample-ms 50 -w 0 -o $TMP/m.csv >/dev/null 2>&1
ok $? "a microbenchmark run"
expect_usage "its sidecar" 'm.json has no kernel lock records: no "kernel" object' -- \
	$MEMSCALE lockstat --kernel $TMP/m.json
done_testing
