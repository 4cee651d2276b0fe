#!/bin/sh
# A reversed pair finds its published row: the demo's `base -> before` of
# layout_false_sharing (compare's patch `before`, v6.9, against its base
# 70a64b7919cb) is the reverse of the four rows published as
# v6.9 -> 70a64b7919cb.  compare gives them with the change turned over
# (100 / (1 + p/100) - 100, the ratio of the means inverted, not -p), a
# range with both ends turned, instead of "not published".  The results
# come from a short real sweep (page_fault2, 1 worker, 2 x 0.1 s per
# variant) of a copy of the experiment file trimmed to those variants.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
sed -e '/^\[quick\]/,/^\[/{s/^workloads = .*/workloads = page_fault2/;s/^variants = .*/variants = before, base/}' \
	experiments/layout_false_sharing.ini > "$TMP/lfs.ini"
$MEMSCALE sweep "$TMP/lfs.ini" --quick -O seconds=0.1 -O warmup=0 -O reps=2 -O workers=1 \
	--out "$TMP/sw" > /dev/null 2> "$TMP/sweep.err"
ok $? "a short sweep of before and base"

# want: every published v6.9 -> 70a64b7919cb page_fault2 change, turned
# over here from `memscale published` (read by column name)
want=$($MEMSCALE published | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["seed"] == "layout_false_sharing" && $c["workload"] == "page_fault2" &&
	$c["base_variant"] == "v6.9" && $c["patch_variant"] == "70a64b7919cb" {
		printf("%+.2f%% (reversed from %+g%%) (%s)\n", 100 / (1 + $c["change_pct"] / 100) - 100, $c["change_pct"], $c["machine"]) }')
got=$($MEMSCALE compare --experiment "$TMP/sw" -f csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["patch_value"] == "v6.9" && $c["base_value"] == "70a64b7919cb" { print $c["published"] }' | sed 's/; /\n/g')
printf '# want: %s\n# got:  %s\n' "$(echo "$want" | tr '\n' '|')" "$(echo "$got" | tr '\n' '|')"
[ "$(echo "$want" | wc -l)" -eq 4 ] && [ "$got" = "$want" ]
ok $? "before vs base: the four v6.9 -> 70a64b7919cb rows, each change turned over"
echo "$got" | grep -q '^+13\.51% (reversed from -11\.9%) (104-thread'
ok $? "-11.9 % turned over is +13.51 % (91713 / 80789 - 1), not +11.9 %"
$MEMSCALE compare --experiment "$TMP/sw" > "$TMP/table" 2>/dev/null
grep -q 'Published (before vs base: kernel=v6.9 vs 70a64b7919cb' "$TMP/table" &&
	grep -q '^page_fault2  *80789  *91713  *+13\.51%' "$TMP/table"
ok $? "the default table lists them too, base and patch numbers swapped"

# The A/B figure draws the measured before vs base beside the rows
# published as v6.9 -> 70a64b7919cb, turned into their direction: the
# change and interval of compare's row turned over (computed here).
want=$($MEMSCALE compare --experiment "$TMP/sw" -f csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	function t(x) { return x == "" || x == "nan" || x + 0 <= -100 ? "NA" : sprintf("%.2f", 100 / (1 + x / 100) - 100) }
	$c["patch_value"] == "v6.9" { printf("%s %s %s", t($c["change_pct"]), t($c["ci_hi_pct"]), t($c["ci_lo_pct"])) }')
FORMATS=png sh plots/plot.sh "$TMP/sw" "$TMP/fig" 2> /dev/null
got=$(awk -F'\t' 'function f(x) { return x == "NA" || x == "" ? "NA" : sprintf("%.2f", x) }
	$1 == "measured" && $2 == "page_fault2" && $3 == "v6.9" && $4 == "70a64b7919cb" {
		printf("%s %s %s", f($18), f($15), f($16)) }' "$TMP/fig/data/ab_layout_false_sharing.tsv")
printf '# want %s, got %s\n' "$want" "$got"
[ -n "$want" ] && [ "$got" = "$want" ] && grep -q 'turned over from v6.9 vs 70a64b7919cb' "$TMP/fig/data/ab_layout_false_sharing.gp.str"
ok $? "A/B data: before vs base measured, turned into v6.9 -> 70a64b7919cb ($got)"

# A published range, reversed: both ends turned over (the high end
# becomes the low one).  The same runs under another experiment name, so
# that compare reads the rows of the copy in the sweep directory.
cp -r "$TMP/sw" "$TMP/rg"
sed -i -e 's/^name = layout_false_sharing/name = lfs_range_test/' \
	-e '/^\[published\]/a page_fault2 = -, -, +13.7..+26.2%, a range machine, pair=v6.9>70a64b7919cb, cpus=8' \
	"$TMP/rg/experiment.ini"
lo=$(awk 'BEGIN { printf("%+.2f", 100 / 1.262 - 100) }') hi=$(awk 'BEGIN { printf("%+.2f", 100 / 1.137 - 100) }')
$MEMSCALE compare --experiment "$TMP/rg" -f csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["published"] }' | grep -q -F -e "$lo..$hi% (reversed from +13.7..+26.2%) (a range machine)"
ok $? "a reversed range +13.7..+26.2 % is $lo..$hi %"
done_testing
