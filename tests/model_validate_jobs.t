#!/bin/sh
# `model predict` and `model validate` run their independent simulations
# on threads (--jobs N, predict/predict.h predict_sims_run): the output is
# the same, byte for byte, for every N (one simulation per thread, each
# with its own program and state; identical ones run once), and a bad N
# is refused.  Short runs (--iters 20000) on the fixture calibration.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
CAL=tests/fixtures/model_calib.txt
RES=results-reference/vm-2cpu/lru_lock_split

# The ledger over every published row, one thread and two.
expect_exit 0 "validate, the ledger, --jobs 1" -- \
	$MEMSCALE model validate --calib $CAL --iters 20000 --jobs 1
cp "$TMP/out" "$TMP/ledger1"
grep -v "^#" "$TMP/err" >"$TMP/ledger1.err"
expect_exit 0 "validate, the ledger, --jobs 2" -- \
	$MEMSCALE model validate --calib $CAL --iters 20000 --jobs 2
grep -v "^#" "$TMP/err" >"$TMP/ledger2.err"
[ "$(grep -c " held \| dev " "$TMP/ledger1")" -ge 20 ] && grep -q "^# summary, all published rows: .* predicted" "$TMP/ledger1"
ok $? "the ledger has its rows and summary"
cmp -s "$TMP/ledger1" "$TMP/out"; ok $? "the ledger is the same with --jobs 1 and --jobs 2"
cmp -s "$TMP/ledger1.err" "$TMP/ledger2.err"; ok $? "and so are its messages"

# One question with its band (ten simulations: two sides, four band
# variants), on one thread and on three (an uneven split).
for j in 1 3; do
	expect_exit 0 "predict one question with its band, --jobs $j" -- \
		$MEMSCALE model predict --workload page_fault2 --pair v6.9..70a64b7919cb \
		--target lkp-spr-2sp4 --cpus 224 --calib $CAL --iters 20000 -f csv --jobs $j
	cp "$TMP/out" "$TMP/pred$j"
done
[ "$(wc -l <"$TMP/pred1")" -eq 2 ] && grep -q "^page_fault2,kernel=v6.9,kernel=70a64b7919cb,lkp-spr-2sp4,224,processes,-\{0,1\}[0-9.]*,-\{0,1\}[0-9.]*,-\{0,1\}[0-9.]*,[a-z]" "$TMP/pred1"
ok $? "the prediction has its value, band and regime"
cmp -s "$TMP/pred1" "$TMP/pred3"; ok $? "the prediction is the same with --jobs 1 and --jobs 3"

# Measured results against the simulator (each group's points and bands
# simulated together).
if [ -f "$RES/results.csv" ]; then
	for j in 1 2; do
		expect_exit 0 "validate a results directory -f csv, --jobs $j" -- \
			$MEMSCALE model validate "$RES" -f csv --calib $CAL --iters 20000 --jobs $j
		cp "$TMP/out" "$TMP/points$j"
	done
	[ "$(wc -l <"$TMP/points1")" -ge 3 ]; ok $? "the results give measured points"
	cmp -s "$TMP/points1" "$TMP/points2"; ok $? "the points are the same with --jobs 1 and --jobs 2"
else
	for i in 1 2 3 4; do ok 0 "# SKIP no $RES/results.csv"; done
fi

for bad in 0 -1 abc 2x 1025 ""; do
	expect_usage "--jobs '$bad' refused" "bad --jobs '$bad'" -- \
		$MEMSCALE model validate --calib $CAL --jobs "$bad"
done
done_testing
