#!/bin/sh
# Absolute throughput in every prediction (issue 35.2): `model validate
# -f csv` (the real command, small --iters) gives each row's predicted
# base_ops_s and patch_ops_s (operations per second over all simulated
# CPUs), positive and consistent with its predicted change; the rows whose
# [published] entry gives absolutes carry them (published_base_ops_s,
# published_patch_ops_s) with base_ops_ratio = base_ops_s /
# published_base_ops_s, the others leave them empty; the summary's
# geometric mean and worst ratio are computed over exactly those rows.
# A [published] absolute is refused when it is not a positive number, has
# no source, or contradicts the row's CHANGE.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
CAL=tests/fixtures/model_calib.txt

# One seed's file, so the run stays short: it has rows with absolutes
# (Shakeel Butt's tables, seed 000) and rows without (LKP's percentages).
mkdir -p "$TMP/exp"
cp experiments/layout_false_sharing.ini "$TMP/exp/"
expect_exit 0 "validate -f csv on layout_false_sharing" -- \
	env MEMSCALE_EXPERIMENTS="$TMP/exp" $MEMSCALE model validate --calib $CAL --iters 1000 -f csv
cp "$TMP/out" "$TMP/v.csv"
cp "$TMP/err" "$TMP/v.err"

# Columns by name, as the plots' and paper's readers take them.
COLS='BEGIN { FS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
for col in base_ops_s patch_ops_s published_base_ops_s published_patch_ops_s base_ops_ratio; do
	head -1 "$TMP/v.csv" | tr , '\n' | grep -qx "$col"; ok $? "column $col"
done
head -1 "$TMP/v.csv" | grep -q "^seed,workload,base,patch,target,cpus,role,published_pct,predicted_pct,band_lo_pct,band_hi_pct,regime,"
ok $? "the existing columns keep their order"

rows=$(tail -n +2 "$TMP/v.csv" | wc -l)
[ "$rows" -eq 15 ]; ok $? "one row per published row of the seed ($rows)"
awk "$COLS"'
	{ b = $c["base_ops_s"]; p = $c["patch_ops_s"]; pct = $c["predicted_pct"]
	  if (!(b > 0 && p > 0)) { print "# not positive: " $0; bad = 1; next }
	  # predicted_pct is printed to 0.01 pp
	  d = 100 * (p / b - 1) - pct; if (d < 0) d = -d
	  if (d > 0.0051) { print "# inconsistent: " $c["workload"] " " $c["cpus"] " " d; bad = 1 } }
	END { exit bad }' "$TMP/v.csv"
ok $? "base_ops_s and patch_ops_s are positive and patch/base - 1 = predicted_pct/100"

# The rows with published absolutes: what the experiment file says.
grep -E "^[a-z0-9_]+ *=.*base_ops_s=" experiments/layout_false_sharing.ini |
	sed -E 's/^([a-z0-9_]+) *=.*cpus=([0-9]+).*base_ops_s=([0-9.e+]+), patch_ops_s=([0-9.e+]+).*/\1,\2,\3,\4/' |
	sort >"$TMP/want"
nabs=$(wc -l <"$TMP/want")
[ "$nabs" -gt 0 ]; ok $? "the file gives absolutes for some rows ($nabs)"
awk "$COLS"'$c["published_base_ops_s"] != "" {
	print $c["workload"] "," $c["cpus"] "," $c["published_base_ops_s"] "," $c["published_patch_ops_s"] }' \
	"$TMP/v.csv" | sort >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got"; ok $? "exactly those rows carry them, with the file's values"
awk "$COLS"'$c["published_base_ops_s"] == "" && ($c["published_patch_ops_s"] != "" ||
	$c["base_ops_ratio"] != "") { bad = 1 } END { exit bad }' "$TMP/v.csv"
ok $? "a row without a published absolute leaves its columns empty"
awk "$COLS"'$c["published_base_ops_s"] != "" {
	r = $c["base_ops_s"] / $c["published_base_ops_s"]; d = r / $c["base_ops_ratio"] - 1
	if (d < 0) d = -d; if (d > 1e-8) bad = 1 } END { exit bad }' "$TMP/v.csv"
ok $? "base_ops_ratio = base_ops_s / published_base_ops_s"

# The summary: geometric mean and worst over exactly the rows with a ratio.
awk "$COLS"'$c["base_ops_ratio"] != "" { r = $c["base_ops_ratio"]; n++; s += log(r)
	l = log(r); if (l < 0) l = -l; if (l > wl) { wl = l; w = r } }
	END { printf "%u %.3f %.3f\n", n, exp(s / n), w }' "$TMP/v.csv" >"$TMP/sum.want"
sed -nE 's/^# absolute, all published rows: +([0-9]+) rows with a published base ops\/s: predicted\/published geometric mean ([0-9.]+), worst ([0-9.]+) .*/\1 \2 \3/p' \
	"$TMP/v.err" >"$TMP/sum.got"
[ -s "$TMP/sum.got" ] && cmp -s "$TMP/sum.want" "$TMP/sum.got"
ok $? "the summary's geometric mean and worst ratio are those of the ratio rows ($(cat "$TMP/sum.got"))"
grep -q "^# absolute layout_false_sharing: *$nabs rows with a published base ops/s" "$TMP/v.err"
ok $? "the seed's summary says the same"

# The table prints the ratio beside each row (column ops/s).
expect_exit 0 "validate (table)" -- \
	env MEMSCALE_EXPERIMENTS="$TMP/exp" $MEMSCALE model validate --calib $CAL --iters 1000
[ "$(grep -Ec '^layout_false_sharing .* (ok|NO|n/a) +[0-9]+\.[0-9]{2} ' "$TMP/out")" -eq "$nabs" ]
ok $? "as many table rows show their ratio ($nabs)"

# Bad published absolutes: one clear line, exit 2.
row='page_fault2 = 100, 150, +50%, m, cpus=52, target=shakeel-52cpu, role=dev'
bad() { # bad DESCRIPTION PATTERN EXTRA-FIELDS
	sed "/^\[published\]/q" experiments/layout_false_sharing.ini >"$TMP/bad/layout_false_sharing.ini"
	echo "$row$3" >>"$TMP/bad/layout_false_sharing.ini"
	expect_usage "$1" "$2" -- $MEMSCALE published "$TMP/bad/layout_false_sharing.ini"
}
mkdir -p "$TMP/bad"
bad "a negative absolute" "base_ops_s '-5'" ", base_ops_s=-5, abs_source=x"
bad "a non-number" "patch_ops_s 'lots'" ", patch_ops_s=lots, abs_source=x"
bad "absolutes without their source" "abs_source" ", base_ops_s=100, patch_ops_s=150"
bad "absolutes that contradict CHANGE" "contradicts BASE 100 and PATCH 300" \
	", base_ops_s=100, patch_ops_s=300, abs_source=x"
bad "an absolute given twice" "once each" ", base_ops_s=100, base_ops_s=100, abs_source=x"
sed "/^\[published\]/q" experiments/layout_false_sharing.ini >"$TMP/bad/ok.ini"
echo "$row, base_ops_s=100, patch_ops_s=150.1, abs_source=a thread line 1" >>"$TMP/bad/ok.ini"
expect_exit 0 "consistent absolutes with a source are read" -- $MEMSCALE published "$TMP/bad/ok.ini"

done_testing
