#!/bin/sh
# A target's prediction reads the target profile and the work reference
# (predict/work/reference.txt), never the machine at hand: every
# published row's prediction is the same, byte for byte, whichever
# calibration --calib names (the fixture, this project's quiet and
# loaded 2-CPU calibrations, and one whose fault and page probes are
# four times slower), while target 'here' (the machine validating a
# model of itself) still follows its calibration.  Short runs
# (--iters 2000 and 20000).
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
REF=results-reference/vm-2cpu

# A calibration whose local work is four times the fixture's.
awk -F' = ' '/^(fault|page|clear)\.[a-z0-9]*_ns = / { printf "%s = %g\n", $1, $2 * 4; next }
	{ print }' tests/fixtures/model_calib.txt >"$TMP/slow.txt"
grep -q "^fault.min_ns = " "$TMP/slow.txt" && ! cmp -s "$TMP/slow.txt" tests/fixtures/model_calib.txt
ok $? "the slow calibration differs from the fixture in its fault probe"

# Two seeds' published rows (the second and the last of `memscale list
# experiments`: the quickest to predict today, several targets of 1, 2
# and 4 sockets between them) predicted under each calibration; `model validate` over all rows is the same code
# (predict_points_eval), run in the closing measurement of issue 35.
seeds=$($MEMSCALE list experiments | sed -n '2p;$p')
first=$(echo "$seeds" | head -n 1)
n=0
for cal in tests/fixtures/model_calib.txt $REF/calib-quiet.txt $REF/calib-loaded.txt "$TMP/slow.txt"; do
	n=$((n + 1))
	: >"$TMP/pred$n"
	for e in $seeds; do
		expect_exit 0 "predict $e --cpus published with --calib $(basename "$cal")" -- \
			$MEMSCALE model predict $e --cpus published --calib "$cal" --iters 2000
		cat "$TMP/out" >>"$TMP/pred$n"
		[ $n -eq 1 ] && [ "$e" = "$first" ] && grep -v "^#" "$TMP/out" >"$TMP/pred1.lru"
	done
done
rows=$(grep -c "^[a-z_0-9]*  *[^ #]* -> " "$TMP/pred1")
[ "$rows" -ge 6 ]
ok $? "the two experiments predict their published rows ($rows lines)"
for k in 2 3 4; do
	cmp -s "$TMP/pred1" "$TMP/pred$k"
	ok $? "predictions $k are byte-identical to predictions 1 (the calibration does not reach a profile)"
done
expect_exit 0 "validate a results CSV with the slow calibration (the cross-check)" -- \
	$MEMSCALE model validate tests/fixtures/model_results.csv -f csv --calib "$TMP/slow.txt" --iters 2000

# Where the costs come from: the work reference, clock-scaled, named.
grep -q "^#   fault_ns .* work reference, clock-scaled .*work reference's fault probe" "$TMP/pred1"
ok $? "fault_ns is the work reference's, clock-scaled"
! grep -q "measured here" "$TMP/pred1"
ok $? "no profile's parameter is measured here"
grep -q "^# cross-check: this machine's calibration against the work reference" "$TMP/err" &&
	grep -q "^#   fault .* here .* reference  x" "$TMP/err"
ok $? "validate prints this machine's probes beside the reference's"

# Target 'here' follows its calibration: the machine validating itself.
for n in 1 4; do
	cal=tests/fixtures/model_calib.txt
	[ $n -eq 4 ] && cal="$TMP/slow.txt"
	expect_exit 0 "predict for target here with calibration $n" -- \
		$MEMSCALE model predict --workload page_fault2 --pair v6.9..70a64b7919cb \
		--target here --cpus 2 --calib "$cal" --iters 20000 -f csv
	cp "$TMP/out" "$TMP/here$n"
done
! cmp -s "$TMP/here1" "$TMP/here4"
ok $? "target here moves with its calibration"

# The work reference itself is an input: another one is read, a bad one refused.
mkdir -p "$TMP/work"
cp "$TMP/slow.txt" "$TMP/work/reference.txt"
cp predict/work/kpath.ini "$TMP/work/" # the folder's other file (tests/kpath.t)
MEMSCALE_WORK=$TMP/work expect_exit 0 "predict with another work reference" -- \
	$MEMSCALE model predict "$first" --cpus published --calib tests/fixtures/model_calib.txt --iters 2000
! grep -v "^#" "$TMP/out" | cmp -s - "$TMP/pred1.lru"
ok $? "another work reference moves the predictions"
printf 'format = memscale-calib 4\nfault.min_ns = soon\n' >"$TMP/work/reference.txt"
MEMSCALE_WORK=$TMP/work expect_usage "a malformed work reference" "reference.txt" -- \
	$MEMSCALE model validate --calib tests/fixtures/model_calib.txt --iters 2000 -f csv
MEMSCALE_WORK=$TMP/nowhere expect_usage "a missing work reference" "reference.txt" -- \
	$MEMSCALE model validate --calib tests/fixtures/model_calib.txt --iters 2000 -f csv

done_testing
