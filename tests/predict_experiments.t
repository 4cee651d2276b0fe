#!/bin/sh
# Predictions read their pairs, sizes and published rows from the
# experiment files (issue 22.4): no published percentage in a C source;
# every published row is one `model validate -f csv` row with a target;
# changing every [published] value of a copy of the experiment files
# changes no prediction; the one-question interface (issue 24.5) checks
# its arguments before any calibration.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
F=tests/fixtures
CAL=$F/model_calib.txt

# Every published change (LO..HI ranges split) with a decimal point.
vals=$(grep -h "^[a-z0-9_]* *= .*%" experiments/*.ini | awk -F, '{ gsub(/[ +%]/, "", $3)
	n = split($3, r, /\.\./); for (i = 1; i <= n; i++) { v = r[i]; sub(/^-/, "", v)
	if (v ~ /\./ && length(v) >= 3 && v !~ /^0\.0$/) print v "%" } }' | sort -u)
[ -n "$vals" ]; ok $? "the experiment files have published percentages"
hits=0
for v in $vals; do
	if grep -rnF --include=*.c --include=*.h -e "$v" cli core harness models predict \
		workloads counters locks tracing trace >"$TMP/hit"; then
		sed 's/^/#   /' "$TMP/hit"; hits=1
	fi
done
[ $hits -eq 0 ]; ok $? "no published percentage in a C source"

expect_exit 0 "validate -f csv" -- $MEMSCALE model validate --calib $CAL --iters 2000 -f csv
cp "$TMP/out" "$TMP/v1.csv"
head -1 "$TMP/v1.csv" | grep -qx "seed,workload,base,patch,target,cpus,role,published_pct,predicted_pct,band_lo_pct,band_hi_pct,regime,base_ops_s,patch_ops_s,published_base_ops_s,published_patch_ops_s,base_ops_ratio,error_pp,sign_ok,determined"
ok $? "validate -f csv header"
# The verdict columns, checked here independently: a single published
# value P and prediction X give error X - P (to the CSV's rounding), the
# sign right when both have it; determined only with a band.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ p = $c["published_pct"]; x = $c["predicted_pct"]; e = $c["error_pp"]; s = $c["sign_ok"]; d = $c["determined"]
	  if (s != "yes" && s != "no" && s != "-" || d != "yes" && d != "no") bad++
	  if (x == "nan" || index(p, "..")) next
	  n++; if ((x - p) - e > 0.011 || e - (x - p) > 0.011) bad++
	  want = p + 0 == 0 ? "-" : ((x + 0 > 0) == (p + 0 > 0) ? "yes" : "no")
	  if (s != want && x + 0 != 0) bad++ }
	END { exit !(n > 0 && !bad) }' "$TMP/v1.csv"
ok $? "validate -f csv: error_pp, sign_ok and determined agree with each row"
npub=$($MEMSCALE published | tail -n +2 | wc -l)
seeds=$($MEMSCALE list experiments | paste -sd '|' -)
[ "$(tail -n +2 "$TMP/v1.csv" | wc -l)" -eq "$npub" ]; ok $? "one csv row per published row ($npub)"
awk -F, 'NR > 1 && ($5 == "" || $9 == "nan" || $12 == "unknown") { bad = 1 } END { exit bad }' "$TMP/v1.csv"
ok $? "every published row has a target, a prediction and a regime"
grep -q ",13.7..26.2," "$TMP/v1.csv"; ok $? "a published range is written LO..HI"

# The same files with every published number changed.
mkdir -p "$TMP/exp"
for f in experiments/*.ini; do
	awk '/^\[/ { pub = ($0 == "[published]") }
	pub && /^[a-z0-9_]+ *=/ { split($0, kv, "="); n = split(substr($0, index($0, "=") + 1), f, ",")
		line = kv[1] "= 1, 1.777, +77.7%"; for (i = 4; i <= n; i++) {
			sub(/base_ops_s=.*/, "base_ops_s=1", f[i]); sub(/patch_ops_s=.*/, "patch_ops_s=1.777", f[i])
			line = line "," f[i] }
		print line; next } { print }' "$f" >"$TMP/exp/$(basename "$f")"
done
! grep -q "77.7" experiments/*.ini; ok $? "77.7 is not a published number"
expect_exit 0 "validate with the experiment files" -- $MEMSCALE model validate --calib $CAL --iters 2000
grep -E "^($seeds) " "$TMP/out" >"$TMP/t1"
expect_exit 0 "validate with altered published values" -- \
	env MEMSCALE_EXPERIMENTS="$TMP/exp" $MEMSCALE model validate --calib $CAL --iters 2000
grep -E "^($seeds) " "$TMP/out" >"$TMP/t2"
[ "$(awk '{ print $9 }' "$TMP/t2" | sort -u)" = "+77.70%" ]; ok $? "the copy's published values are all changed"
# seed, workload, A -> B, target, cpus, role and the prediction (the
# table's columns 1-8 and 10; 9 is the published value)
awk '{ print $1, $2, $3, $4, $5, $6, $7, $8, $10 }' "$TMP/t1" >"$TMP/p1"
awk '{ print $1, $2, $3, $4, $5, $6, $7, $8, $10 }' "$TMP/t2" >"$TMP/p2"
[ "$(wc -l <"$TMP/p1")" -eq "$npub" ]; ok $? "the table has every published row"
cmp -s "$TMP/p1" "$TMP/p2"; ok $? "no prediction changes when the published values change"

# One question.
expect_exit 0 "predict --workload --pair --target --cpus -f csv" -- \
	$MEMSCALE model predict --workload tlb_flush2 --pair v6.7..8d59d2214c --target lkp-skl-fpga01 \
	--cpus 52 --mode processes --calib $CAL --iters 2000 -f csv
[ "$(wc -l <"$TMP/out")" -eq 2 ]; ok $? "-f csv: a header and one row on stdout"
head -1 "$TMP/out" | grep -qx "workload,base,patch,target,cpus,mode,predicted_pct,band_lo_pct,band_hi_pct,regime,base_ops_s,patch_ops_s"
ok $? "question csv header"
tail -1 "$TMP/out" | grep -Eq "^tlb_flush2,kernel=v6.7,kernel=8d59d2214c,lkp-skl-fpga01,52,processes,-?[0-9.]+,-?[0-9.]+,-?[0-9.]+,(lock-bound|line-bound|contended|local-bound)(; [^,]*)?,[0-9.e+]+,[0-9.e+]+$"
ok $? "question csv row with a band and a regime"
tail -1 "$TMP/out" | grep -q "; A lock util [0-9.]* queue [0-9.]* hold [0-9]* ns at [^;]* and zone+1152 util [0-9.]* queue [0-9.]* hold [0-9]* ns; B lock util .* at .*; B lines/op: "
ok $? "the regime names each side's locks (the busiest first, the zone lock too) with utilisation, queue and hold, and the hottest lines"
awk -F, 'NR == 2 { exit !($8 <= $7 && $7 <= $9) }' "$TMP/out"; ok $? "the prediction lies in its band"
expect_exit 0 "the question on a knob set" -- \
	$MEMSCALE model predict --workload page_fault2 --pair kernel=v5.11..kernel=v5.11,stats_batch=512 \
	--target lkp-skl-fpga01 --cpus 104 --calib $CAL --iters 2000 -f csv
# --experiment: both sides share the experiment's [fixed] and [predict]
# settings, so the question is the one its ledger row asks, and gets the
# same answer.
# (the ledger's rows: the validate -f csv above, $TMP/v1.csv)
grep '^lru_lock_split,lru_file_readtwice,v5.10,v5.11,bdw-2s-40t,40,' "$TMP/v1.csv" | cut -d, -f9-14 >"$TMP/ledger.row"
expect_exit 0 "the question with --experiment lru_lock_split" -- \
	$MEMSCALE model predict --workload lru_file_readtwice --pair v5.10..v5.11 --target bdw-2s-40t \
	--cpus 40 --experiment lru_lock_split --calib $CAL --iters 2000 -f csv
tail -1 "$TMP/out" | cut -d, -f7-12 >"$TMP/question.row"
[ -s "$TMP/ledger.row" ] && cmp -s "$TMP/ledger.row" "$TMP/question.row"
ok $? "--experiment: prediction, band, regime and ops/s are those of the ledger's row"
grep -q "^# both sides: page_work=kernel,depth=1,containers=cpus (--experiment" "$TMP/err"
ok $? "--experiment: the shared settings are printed"
expect_exit 0 "the same question without --experiment" -- \
	$MEMSCALE model predict --workload lru_file_readtwice --pair v5.10..v5.11 --target bdw-2s-40t \
	--cpus 40 --calib $CAL --iters 2000 -f csv
tail -1 "$TMP/out" | cut -d, -f7-12 >"$TMP/bare.row"
cmp -s "$TMP/ledger.row" "$TMP/bare.row"; [ $? -ne 0 ]
ok $? "without it the model's defaults hold (one container, depth 3): another answer"
# Bad questions: no calibration file is needed to refuse them.
Q="model predict --workload tlb_flush2"
expect_usage "unknown workload" "nosuch" -- $MEMSCALE model predict --workload nosuch --pair v6.7..8d59d2214c --target lkp-skl-fpga01 --cpus 52
expect_usage "unknown profile" "nosuch" -- $MEMSCALE $Q --pair v6.7..nosuch --target lkp-skl-fpga01 --cpus 52
expect_usage "identical sides" "same" -- $MEMSCALE $Q --pair v6.7..kernel=v6.7 --target lkp-skl-fpga01 --cpus 52
expect_usage "unknown target" "nosuch" -- $MEMSCALE $Q --pair v6.7..8d59d2214c --target nosuch --cpus 52
expect_usage "cpus above the target's" "104" -- $MEMSCALE $Q --pair v6.7..8d59d2214c --target lkp-skl-fpga01 --cpus 105
expect_usage "bad pair" "pair" -- $MEMSCALE $Q --pair v6.7 --target lkp-skl-fpga01 --cpus 52
expect_usage "unknown --experiment" "nosuch" -- $MEMSCALE $Q --pair v6.7..8d59d2214c --target lkp-skl-fpga01 --cpus 52 --experiment nosuch
expect_usage "--experiment name that is no experiment's" "unknown experiment '..lru'" -- $MEMSCALE $Q --pair v6.7..8d59d2214c --target lkp-skl-fpga01 --cpus 52 --experiment ..lru
expect_usage "--experiment without --workload" "with --workload" -- $MEMSCALE model predict lru_lock_split --experiment lru_lock_split --calib $CAL
expect_usage "predict by path, missing file" "nosuch" -- $MEMSCALE model predict experiments/nosuch.ini --calib $CAL
expect_exit 0 "predict EXPERIMENT by path" -- $MEMSCALE model predict experiments/lru_lock_split.ini --calib $CAL --cpus published --iters 2000
grep -q "^aim9_page_test .* e5-2630-2s " "$TMP/out"; ok $? "the path's published rows are predicted"
done_testing
