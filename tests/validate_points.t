#!/bin/sh
# `model validate RESULTS_DIR`: the simulator, calibrated on the machine,
# against what was measured there, per measured point: the measured mean
# with its 95 % interval over the runs, the simulated value, the band
# (the published rows' sensitivity variants) and the regime; -f csv
# prints that table alone on stdout.  The results come from a short
# sweep here (1-2 workers, two runs each).
. tests/lib.sh
CAL=tests/fixtures/model_calib.txt
D="$TMP/res"
mkdir -p "$D"

expect_exit 0 "a short sweep at 1-2 workers, two runs each" -- \
	$MEMSCALE run page_fault2 -t 1,2 -r 2 -s 0.2 --sample-ms 100 -w 0 -o "$D/results.csv"

expect_exit 0 "validate -f csv RESULTS_DIR" -- \
	$MEMSCALE model validate "$D" -f csv --calib $CAL --iters 4000
cp "$TMP/out" "$TMP/points.csv"
[ "$(head -1 "$TMP/points.csv")" = "results,group,workload,lock,config,workers,n,measured,ci_lo,ci_hi,simulated,rel_err_pct,band_lo,band_hi,in_band,regime" ]
ok $? "header first"
[ "$(tail -n +2 "$TMP/points.csv" | grep -c "^$D/results.csv,1,page_fault2,qspinlock,")" -eq 2 ]
ok $? "one row per measured point (workers 1 and 2), nothing else on stdout"
grep -q "mean |rel err|" "$TMP/err" && grep -q "target here" "$TMP/err"
ok $? "summaries and the target table on stderr"

# The fields after the quoted config: workers,n,measured,ci_lo,ci_hi,
# simulated,rel_err,band_lo,band_hi,in_band,regime
tail -n +2 "$TMP/points.csv" | sed 's/^.*",//' >"$TMP/tail"
awk -F, 'NF != 11 { bad = 1 }
	$2 != 2 { bad = 1 }                                  # two runs
	!($4 < $3 && $3 < $5) { bad = 1 }                    # interval around the mean
	!($8 <= $6 && $6 <= $9) { bad = 1 }                  # band around the simulated
	(($3 >= $8 && $3 <= $9) ? "yes" : "no") != $10 { bad = 1 }
	$11 !~ /^(lock-bound|line-bound|contended|local-bound); lock util [0-9.]+ queue [0-9.]+ hold [0-9]+ ns/ { bad = 1 }
	END { exit bad }' "$TMP/tail"
ok $? "each point: n, interval, simulated inside its band, in_band, regime with the lock's utilisation and queue"
awk -F, '$1 == 1 { e = $7 < 0 ? -$7 : $7; exit !(e < 2) }' "$TMP/tail"
ok $? "at 1 worker the simulator is calibrated on the measured cost (|rel err| < 2 %)"
awk -F, '$1 == 2 { exit !($8 < $9) }' "$TMP/tail"
ok $? "the band at 2 workers has a width"

# One run per worker count: no interval, said so.
head -1 "$D/results.csv" >"$TMP/one.csv"
w=$(head -1 "$D/results.csv" | tr , '\n' | grep -nx workers | cut -d: -f1)
tail -n +2 "$D/results.csv" | awk -F, -v c="$w" '!seen[$c]++' >>"$TMP/one.csv"
expect_exit 0 "validate -f csv, one run per point" -- \
	$MEMSCALE model validate "$TMP/one.csv" -f csv --calib $CAL --iters 4000
tail -n +2 "$TMP/out" | sed 's/^.*",//' | awk -F, '$2 != 1 || $4 != "" || $5 != "" { bad = 1 } END { exit bad || NR != 2 }'
ok $? "n = 1: the interval fields are empty"

# The text form, after the ledger.
expect_exit 0 "validate RESULTS_DIR (text)" -- \
	$MEMSCALE model validate "$D" --calib $CAL --iters 2000
grep -q "^group  *workload  *N  *n  *measured  *95% interval  *simulated  *rel_err  *band (simulated)  *in band  *regime (simulated)" "$TMP/out"
ok $? "the text table names its columns"
[ "$(grep -Ec "^1  +page_fault2 +[12] +2 +[0-9.e+]+ +[-0-9.e+]+\.\.[0-9.e+]+ +[0-9.e+]+ +[-+][0-9.]+% +[0-9.e+]+\.\.[0-9.e+]+ +(yes|no) +(lock-bound|line-bound|contended|local-bound);" "$TMP/out")" -eq 2 ]
ok $? "a row per point with measured, interval, simulated, band and regime"

done_testing
