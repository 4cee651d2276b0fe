#!/bin/sh
# memscale model: the CLI of the calibrated models (calibrate, fit usl,
# lock, sim, program, predict, validate) on small fixtures, and bad input:
# one clear line on stderr, exit status 2.
. tests/lib.sh
F=tests/fixtures
CAL=$F/model_calib.txt

expect_exit 0 "model --help" -- $MEMSCALE model --help
grep -q "model predict EXPERIMENT" "$TMP/out"; ok $? "help names predict"
expect_usage "no action" "missing action" -- $MEMSCALE model
expect_usage "unknown action" "frob" -- $MEMSCALE model frob
expect_usage "unknown option" "--bogus" -- $MEMSCALE model lock --bogus

# fit usl: synthetic alpha 0.05, beta 5e-4 with +-1% wiggle
expect_exit 0 "fit usl on a plain file" -- $MEMSCALE model fit usl $F/model_usl.dat
grep -Eq "alpha 0.0(4[5-9]|5[0-4])" "$TMP/out"; ok $? "alpha recovered within 10%"
grep -q "peak N\*" "$TMP/out"; ok $? "peak N* reported"
expect_exit 0 "fit usl --holdout 3" -- $MEMSCALE model fit usl $F/model_usl.dat --holdout 3
grep -q "hold-out mean |rel err|" "$TMP/out"; ok $? "hold-out error reported"
expect_exit 0 "fit usl on a results CSV with --where" -- \
	$MEMSCALE model fit usl $F/model_usl_results.csv --where layout=v6.10
grep -q "gamma 499.9" "$TMP/out"; ok $? "--where picks the v6.10 rows (gamma 500)"
expect_usage "fit: unknown model" "amdahl" -- $MEMSCALE model fit amdahl $F/model_usl.dat
expect_usage "fit: missing file" "nonexistent" -- $MEMSCALE model fit usl $TMP/nonexistent
printf '1 10\n2 abc\n' >"$TMP/bad.dat"
expect_usage "fit: corrupt line" "line 2" -- $MEMSCALE model fit usl "$TMP/bad.dat"
printf '1 10\n2 19\n' >"$TMP/two.dat"
expect_usage "fit: too few points" "at least 3" -- $MEMSCALE model fit usl "$TMP/two.dat"
expect_usage "fit: holdout too big" "holdout" -- $MEMSCALE model fit usl $F/model_usl.dat --holdout 9
expect_usage "fit: --where unknown column" "nosuchcol" -- \
	$MEMSCALE model fit usl $F/model_usl_results.csv --where nosuchcol=1

# lock model
expect_exit 0 "ticket lock model" -- $MEMSCALE model lock --cs 100 --think 5000 --handoff 100 --cpus 1,8,16,64
grep -q "collapse" "$TMP/out"; ok $? "ticket lock collapse point reported"
expect_exit 0 "queue lock model" -- $MEMSCALE model lock --kind queue --cs 100 --think 5000 --handoff 100 --cpus 1-4
expect_usage "lock: missing --cs" "need --cs" -- $MEMSCALE model lock --think 1 --handoff 1
expect_usage "lock: bad --kind" "sideways" -- $MEMSCALE model lock --kind sideways --cs 1 --think 1 --handoff 1
expect_usage "lock: bad --cs" "'-5'" -- $MEMSCALE model lock --cs -5 --think 1 --handoff 1
expect_usage "lock: bad --cpus" "'0'" -- $MEMSCALE model lock --cs 1 --think 1 --handoff 1 --cpus 0

# calibration files: missing or corrupt fields are refused with exit 2
grep -v '^fault.median_ns' $CAL >"$TMP/missing.calib"
expect_usage "calib missing field" "fault.median_ns" -- \
	$MEMSCALE model sim page_fault2 --cpus 2 --calib "$TMP/missing.calib"
sed 's/^hit.median_ns = .*/hit.median_ns = 1.3x/' $CAL >"$TMP/corrupt.calib"
expect_usage "calib corrupt value" "1.3x" -- \
	$MEMSCALE model predict stats_batch --calib "$TMP/corrupt.calib"
{ cat $CAL; echo "this is not a key value line"; } >"$TMP/junk.calib"
expect_usage "calib corrupt line" "corrupt line" -- \
	$MEMSCALE model predict stats_batch --calib "$TMP/junk.calib"
grep -v '^format' $CAL >"$TMP/noformat.calib"
expect_usage "calib without format" "format" -- \
	$MEMSCALE model sim page_fault2 --calib "$TMP/noformat.calib"
expect_usage "calib unreadable" "nonexistent" -- \
	$MEMSCALE model sim page_fault2 --calib "$TMP/nonexistent.calib"

# simulator, programs, predictions, validation (small runs)
expect_exit 0 "sim page_fault2" -- $MEMSCALE model sim page_fault2 --cpus 1,4 --calib $CAL --iters 4000
grep -q "lock_wait" "$TMP/out"; ok $? "sim prints lock wait"
expect_usage "sim unknown workload" "nosuchwl" -- $MEMSCALE model sim nosuchwl --calib $CAL
expect_usage "sim bad knob value" "bogus" -- $MEMSCALE model sim page_fault2 --set layout=bogus --calib $CAL
expect_usage "sim bad --line" "'96'" -- $MEMSCALE model sim page_fault2 --line 96 --calib $CAL
expect_usage "sim bad --walk-miss" "1.5" -- $MEMSCALE model sim page_fault2 --walk-miss 1.5 --calib $CAL
expect_exit 0 "program page_fault2" -- $MEMSCALE model program page_fault2 --set lru_lock=pgdat
grep -q "lock   lock pgdat+0 (queue) \[node\]" "$TMP/out"; ok $? "program takes pgdat->lru_lock (the lock word on the pgdat line, one per node)"
# 128 B sectors: 64 B lines paired as sector mates (the pair prefetcher),
# in v6.9 the lock word's line with the lists[] head's
expect_exit 0 "program page_fault2 --line 128" -- $MEMSCALE model program page_fault2 --set kernel=v6.9 --line 128
grep -Eq "^  sector (pn\[L0\]\+0 ~ pn\[L0\]\+64|pn\[L0\]\+64 ~ pn\[L0\]\+0)$" "$TMP/out"; ok $? "v6.9: the lists head line and the lock word's line are sector mates"
expect_exit 0 "program page_fault2 --line 64" -- $MEMSCALE model program page_fault2 --set kernel=v6.9 --line 64
! grep -q "^  sector " "$TMP/out"; ok $? "64 B lines: no sector mates"
expect_usage "predict unknown experiment" "nosuchexp" -- $MEMSCALE model predict nosuchexp --calib $CAL
expect_exit 0 "predict lru_lock_split (small)" -- \
	$MEMSCALE model predict lru_lock_split --calib $CAL --cpus 8 --line 64 --iters 2000
grep -q "published" "$TMP/out" && grep -q "aim9_page_test" "$TMP/out"; ok $? "prediction table with published column"
grep -q "+4.2%" "$TMP/out"; ok $? "published Alex Shi page_test +4.2% shown"
expect_exit 0 "validate a results CSV" -- \
	$MEMSCALE model validate $F/model_results.csv --calib $CAL --iters 4000
grep -q "# group 2: page_fault2" "$TMP/out"; ok $? "validate groups by configuration"
expect_usage "validate a non-CSV" "model_usl.dat" -- $MEMSCALE model validate $F/model_usl.dat --calib $CAL
printf 'workload,workers\npage_fault2,1\n' >"$TMP/nocol.csv"
expect_usage "validate missing columns" "ops_per_sec" -- $MEMSCALE model validate "$TMP/nocol.csv" --calib $CAL

# a real (quick) calibration round-trips through a file
expect_exit 0 "calibrate --quick" -- \
	$MEMSCALE model calibrate --quick --no-locks --no-workloads --reps 2 --out "$TMP/q.calib"
grep -q "^format = memscale-calib 4" "$TMP/q.calib" && grep -q "^xfer.store.q3_ns" "$TMP/q.calib"
ok $? "calibration file has format and spreads"
# One machine description (core/meta.c): every meta.KEY of the calibration
# file but its time, repetitions (meta.reps and how the single-thread ones were
# placed, meta.single_reps), load averages and instruction counter (how the probes
# counted) is a fact of a run's JSON sidecar.
$MEMSCALE run lock -t 1 -s 0.05 --sample-ms 50 -w 0 -o "$TMP/m.csv" >/dev/null 2>&1
n=0 bad=0
while IFS= read -r line; do
	key=${line%% = *} val=${line#* = }
	n=$((n + 1))
	grep -Fq "\"$key\": \"$val\"" "$TMP/m.json" || grep -Fxq "    \"$key\": $val," "$TMP/m.json" ||
		grep -Fxq "    \"$key\": $val" "$TMP/m.json" || { bad=1; echo "#   $key = $val not in the sidecar"; }
done <<EOF2
$(sed -n 's/^meta\.//p' "$TMP/q.calib" | grep -v '^time =\|^reps =\|^single_reps =\|^instructions =\|^loadavg_')
EOF2
[ $n -ge 11 ] && [ $bad -eq 0 ]; ok $? "calibration meta.* and the JSON sidecar describe the machine alike ($n facts)"
expect_exit 0 "calibration file loads" -- $MEMSCALE model sim page_fault3 --cpus 2 --calib "$TMP/q.calib" --iters 2000
done_testing
