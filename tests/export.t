#!/bin/sh
# memscale export: what the real command writes from real short runs, read
# with the project's copies of the readers' rules - mmtests' compare-
# kernels.sh (tests/mmtests_wis.sh) and lkp-tests' compare
# (tests/lkp_result.sh): runs in order with the base first, the state
# files mmtests needs, every sample back as it was measured, LKP's stat
# names holding the run's numbers, bad input refused.
. tests/lib.sh

# two short runs of model workloads (the fixture calibration), base and
# patch; lock has neither a mmtests wis benchmark nor an LKP test
for v in base patch; do
	for m in processes:1,2 threads:2; do
		$MEMSCALE run page_fault2 -t ${m#*:} -s 0.1 --sample-ms 50 -r 2 -m ${m%:*} \
			-o $TMP/$v.csv >/dev/null 2>&1 || echo "# run $v $m failed"
	done
	$MEMSCALE run aim9_page_test -t 1 -s 0.1 --sample-ms 50 -r 2 -m processes \
		-o $TMP/$v.csv >/dev/null 2>&1 || echo "# run $v aim9 failed"
done
$MEMSCALE run lock -t 1 -s 0.1 --sample-ms 50 -o $TMP/lock.csv >/dev/null 2>&1
[ "$(cat $TMP/base.csv $TMP/patch.csv | grep -c '^page_fault2,')" -eq 12 ]
ok $? "the runs wrote 12 page_fault2 rows"

# --- mmtests ---
D=$TMP/mm
expect_exit 0 "export mmtests of two result CSVs" -- \
	$MEMSCALE export mmtests $D $TMP/base.csv $TMP/patch.csv $TMP/lock.csv
grep -q 'left out' $TMP/err; ok $? "workloads without a wis benchmark are left out with a note"
grep -q 'runs (base,patch)' $TMP/out; ok $? "names the runs written ($(cat $TMP/out))"
sh tests/mmtests_wis.sh $D >$TMP/samples 2>$TMP/rerr; ok $? "mmtests' rules read the tree $(cat $TMP/rerr)"
[ "$(cut -d ' ' -f 1 $TMP/samples | uniq | tr '\n' ' ')" = "base patch " ]
ok $? "the runs in the order given, base first (run_results order)"
[ "$(cut -d ' ' -f 2 $TMP/samples | sort -u)" = wis-pf ]; ok $? "page_fault2 is in mmtests' wis-pf benchmark"
# every page_fault2 row is one sample of RUN, op ops-page_fault2_MODE-N
for v in base patch; do
	awk -F, -v v=$v 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["workload"] == "page_fault2" { printf "%s wis-pf ops-page_fault2_%s-%s %.0f\n", v,
			$c["mode"], $c["workers"], $c["ops_per_sec"] }' $TMP/$v.csv
done | sort >$TMP/want
sort $TMP/samples >$TMP/got
cmp -s $TMP/want $TMP/got; ok $? "every result row comes back as its sample ($(wc -l <$TMP/got) of $(wc -l <$TMP/want))"
[ -d $D/base/iter-1/wis-pf/logs ] && [ ! -e $D/base/iter-2 ]; ok $? "repetition R is iteration iter-R"
# MonitorDuration's elapsed: the iteration's measured seconds
e1=$(awk '$1 == "time" && $3 == "wis-pf" { print $8 }' $D/base/iter-0/tests-timestamp)
e2=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["workload"] == "page_fault2" && $c["rep"] == 0 { s += $c["measured_s"] } END { printf "%.2f", s }' $TMP/base.csv)
[ -n "$e1" ] && [ "$e1" = "$e2" ]; ok $? "tests-timestamp: elapsed $e1 s = the rows' measured seconds ($e2)"
cmp -s $D/base/iter-0/tests-timestamp $D/base/iter-0/tests-sysstate
ok $? "tests-sysstate holds teststate_log's lines, as tests-timestamp"

# the rules fail where mmtests would not have what it reads
rm $D/patch/iter-1/tests-sysstate
sh tests/mmtests_wis.sh $D >/dev/null 2>&1; [ $? -ne 0 ]; ok $? "a missing tests-sysstate fails the rules"

# a sweep directory: runs named by variant and the other axes
R=tests/fixtures/xeon16-sweep
expect_exit 0 "export mmtests of a sweep directory" -- $MEMSCALE export mmtests $TMP/sw $R
sh tests/mmtests_wis.sh $TMP/sw >$TMP/s2 2>&1
[ "$(head -1 $TMP/s2 | cut -d ' ' -f 1-2)" = "base-depth1 wis-mmap" ]
ok $? "sweep: the base run first, tlb_flush2 in wis-mmap"
[ "$(wc -l <$TMP/s2)" -eq "$(($(wc -l <$R/results.csv) - 1))" ]; ok $? "sweep: one sample per result row"

expect_usage "run directory exists" "must not exist" -- $MEMSCALE export mmtests $D $TMP/base.csv
expect_usage "unknown format" "unknown format 'csv'" -- $MEMSCALE export csv $TMP/y $R
expect_usage "no sources" "at least one SOURCE" -- $MEMSCALE export mmtests $TMP/y
expect_usage "nothing exportable" "no will-it-scale workload" -- $MEMSCALE export mmtests $TMP/y $TMP/lock.csv
printf 'workload,mode,workers,ops_per_sec\npage_fault2,threads,1,-5\n' >$TMP/neg.csv
expect_usage "negative rate" "not a non-negative number" -- $MEMSCALE export mmtests $TMP/y $TMP/neg.csv

# --- LKP ---
L=$TMP/lkp
expect_exit 0 "export lkp of two result CSVs" -- \
	$MEMSCALE export lkp $L $TMP/base.csv $TMP/patch.csv $TMP/lock.csv
grep -q 'left out' $TMP/err; ok $? "workloads LKP does not run are left out with a note"
sh tests/lkp_result.sh $L >$TMP/stats 2>$TMP/rerr; ok $? "LKP's rules read the result root $(head -3 $TMP/rerr)"
# the stats, as LKP's parsers name them, hold each row's numbers:
# will-it-scale.per_process_ops / per_thread_ops = per_worker_ops (the KPI),
# will-it-scale.N.processes / N.threads = ops_per_sec, aim9.page_test.ops_per_sec
host=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "host") c = i; next } { print $c; exit }' $TMP/base.csv)
for v in base patch; do
	awk -F, -v v=$v -v h="$host" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ m = $c["mode"] == "threads" ? "thread" : "process"; n = $c["workers"]; r = $c["rep"]
	  if ($c["workload"] == "page_fault2") {
		p = "will-it-scale " m "-" n "-page_fault2-model " h " " v " " r
		print p, "will-it-scale." n "." $c["mode"], $c["ops_per_sec"]
		print p, "will-it-scale.per_" m "_ops", $c["per_worker_ops"]
		print p, "will-it-scale.workload", $c["ops_per_sec"]
	  } else if ($c["workload"] == "aim9_page_test")
		print "aim9 " m "-" n "-page_test-model " h " " v " " r, "aim9.page_test.ops_per_sec", $c["ops_per_sec"]
	}' $TMP/$v.csv
done | sort >$TMP/lwant
sort $TMP/stats >$TMP/lgot
# the same stats at the same places, the same numbers (to 1e-9)
paste -d ' ' $TMP/lwant $TMP/lgot | awk 'NF != 14 { bad++; next }
	{ for (i = 1; i <= 6; i++) if ($i != $(i + 7)) bad++
	  d = $7 - $14; if (d < 0) d = -d; if (d > 1e-9 * ($7 < 0 ? -$7 : $7) + 1e-9) bad++ }
	END { exit bad > 0 || NR == 0 }'
ok $? "stats.json: LKP's stat names hold the rows' numbers ($(wc -l <$TMP/lgot) of $(wc -l <$TMP/lwant))"
grep -q ' will-it-scale.per_thread_ops ' $TMP/lgot && grep -q ' will-it-scale.per_process_ops ' $TMP/lgot
ok $? "both will-it-scale KPIs (per_process_ops, per_thread_ops) are there"
rt=$L/will-it-scale/process-2-page_fault2-model/$host/memscale/unknown/unknown
[ -f $rt/base/0/stats.json ] && [ -f $rt/base/1/stats.json ] && [ -f $rt/patch/matrix.json ]
ok $? "job layout testcase/params/host/rootfs/kconfig/compiler/commit/run"

rm $rt/patch/matrix.json
sh tests/lkp_result.sh $L >/dev/null 2>&1; [ $? -ne 0 ]; ok $? "a missing matrix.json fails the rules"
expect_usage "job exists" "must not exist" -- $MEMSCALE export lkp $L $TMP/base.csv
expect_usage "lkp: nothing exportable" "no results of a workload LKP runs" -- \
	$MEMSCALE export lkp $TMP/y $TMP/lock.csv
cat $TMP/base.csv >$TMP/twice.csv; tail -n +2 $TMP/base.csv >>$TMP/twice.csv
expect_usage "lkp: a repetition twice" "two rows of page_fault2" -- \
	$MEMSCALE export lkp $TMP/z $TMP/twice.csv
[ ! -e $TMP/z ]; ok $? "lkp: nothing written when refused"
done_testing
