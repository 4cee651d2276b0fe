#!/bin/sh
# Figures: every gnuplot script renders from the synthetic fixture
# (tests/fixtures/plots, made by its make_fixture.sh) to a non-empty PNG;
# figures whose columns are missing are skipped with a message; the A/B
# data the figures and the paper share hold the right numbers.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
FIX=tests/fixtures/plots
OUT=$TMP/fig

is_png() { [ -s "$1" ] && [ "$(head -c 4 "$1" | tail -c 3)" = PNG ]; }

FORMATS=png sh plots/plot.sh "$FIX" "$OUT" 2> "$TMP/log"
ok $? "plot.sh renders the fixture (exit 0)"
for ps in throughput_:throughput locks_:locks counter_tradeoff_:counter contention_:contention \
	ab_:ab extrapolation_:extrap; do
	pat=${ps%:*} n=0 bad=0
	for f in "$OUT/$pat"*.png; do
		[ -e "$f" ] || continue
		n=$((n + 1)); is_png "$f" || { bad=1; echo "#   not a PNG: $f"; }
	done
	[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]; ok $? "$pat*: $n non-empty PNG(s) from ${ps#*:}.gp"
done
# One A/B and one extrapolation figure per seed with published numbers.
for s in $($MEMSCALE list experiments); do
	is_png "$OUT/ab_$s.png" && is_png "$OUT/extrapolation_$s.png"
	ok $? "seed $s: A/B and extrapolation figures"
done
# figures.tsv names every figure once, with its source for captions.
[ "$(ls "$OUT"/*.png | wc -l)" -eq "$(wc -l < "$OUT/figures.tsv")" ]
ok $? "figures.tsv lists every rendered figure"

# PDF for the paper, from the same script.
FORMATS=pdf sh plots/plot.sh "$FIX/locks" "$TMP/pdf" 2>/dev/null
[ "$(head -c 4 "$TMP/pdf/locks_locks.pdf")" = "%PDF" ]; ok $? "pdfcairo output is a PDF"

# A/B data: measured change at the largest common worker count (compare's,
# through plots/ab.awk), checked against one computed here independently
# from the fixture CSV (means over the 3 repetitions).
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["workload"] == "page_fault2" && $c["workers"] == 2 {
		s[$c["layout"]] += $c["ops_per_sec"]; n[$c["layout"]]++ }
	END { b = s["v6.10"] / n["v6.10"]; p = s["fixed"] / n["fixed"]; printf("%.2f", (p - b) / b * 100) }' \
	"$FIX/layout_false_sharing/results.csv")
got=$(awk -F'\t' '$1 == "measured" && $2 == "page_fault2" && $4 == "fixed" { print $10 }' \
	"$OUT/data/ab_layout_false_sharing.tsv")
[ -n "$want" ] && [ "$got" = "$want" ]; ok $? "page_fault2 fixed vs v6.10: measured $got% = $want% computed from the CSV"
# Published change computed from base and patch when the reference gives
# only those: AIM9 page_test Hmean 34355.4 -> 35810.9 is +4.24 %
# ((35810.9 - 34355.4) / 34355.4 = 0.042366).
got=$(awk -F'\t' '$1 == "published" && $2 == "aim9_page_test" { print $9 }' "$OUT/data/ab_lru_lock_split.tsv")
[ "$got" = "4.24" ]; ok $? "published aim9_page_test change from base/patch: $got% (want 4.24)"

# Published ranges (stats_batch's page_fault2 +13.7..+26.2 %, malloc1
# -0.9..+6.2 %, as `memscale published` writes them) are drawn from LO to
# HI: the published lines of the A/B data carry LO and HI in fields 3 and
# 4 (ab.gp draws the band between them), not a bar at LO.
ranges=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["seed"] == "stats_batch" && $c["change_pct"] ~ /\.\./ { split($c["change_pct"], r, /\.\./); printf("%g %g\n", r[1], r[2]) }' \
	"$OUT/data/published.csv" | sort)
drawn=$(awk '/^# series/ { p = ($0 ~ /^# series\tpublished/); next } p && NF >= 4 && $3 != "NaN" { printf("%g %g\n", $3, $4) }' \
	"$OUT/data/ab_stats_batch.dat" | sort)
printf '# published ranges: %s; drawn: %s\n' "$(echo $ranges)" "$(echo $drawn)"
[ "$(echo "$ranges" | wc -l)" -eq 2 ] && [ "$drawn" = "$ranges" ]
ok $? "published ranges reach the A/B data as low and high ends"
awk '/^# series/ { p = ($0 ~ /^# series\tpublished/); next }
	p && $3 == 13.7 && $4 == 26.2 && $2 == 19.95 && /"\+13\.7\.\.\+26\.2%"/ { f = 1 } END { exit !f }' "$OUT/data/ab_stats_batch.dat"
ok $? "page_fault2's +13.7..+26.2 % is a band 13.7..26.2 labelled as the range"

# Extrapolation data from the real commands: `model validate -f csv` (the
# ledger the demo writes as predictions.csv, columns in its own order:
# seed,workload,base,patch,target,cpus,...,predicted_pct,band_lo_pct,...)
# for a copy of lru_lock_split.ini trimmed to its readtwice rows at 32
# and 40 CPUs (seconds, not minutes), beside a sweep of that seed.  The
# data gnuplot reads has the ledger's CPU counts as x, its predicted_pct
# as y and its band as the bars, read here from the CSV by header name.
mkdir -p "$TMP/exp" "$TMP/ex"
grep -v -e '^aim9_' -e '^lru_file_readtwice *= *-, *-, *+80%' experiments/lru_lock_split.ini > "$TMP/exp/lru_lock_split.ini"
cp -r "$FIX/lru_lock_split" "$TMP/ex/"
MEMSCALE_EXPERIMENTS="$TMP/exp" $MEMSCALE model validate -f csv --iters 1000 --calib "$MEMSCALE_CALIB" \
	> "$TMP/ex/predictions.csv" 2> "$TMP/ex.err"
ok $? "model validate -f csv writes the ledger"
MEMSCALE_EXPERIMENTS="$TMP/exp" FORMATS=png sh plots/plot.sh "$TMP/ex" "$TMP/exfig" 2> "$TMP/ex.log"
is_png "$TMP/exfig/extrapolation_lru_lock_split.png"; ok $? "the extrapolation figure renders from the ledger"
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["seed"] == "lru_lock_split" { printf("%d %.2f %.2f %.2f\n", $c["cpus"], $c["predicted_pct"], $c["band_lo_pct"], $c["band_hi_pct"]) }' \
	"$TMP/ex/predictions.csv" | sort -n)
got=$(awk '/^# series/ { p = ($0 ~ /^# series\tpredicted: /); next } p && NF >= 4 { printf("%d %.2f %.2f %.2f\n", $1, $2, $3, $4) }' \
	"$TMP/exfig/data/extrapolation_lru_lock_split.dat")
printf '# want (cpus predicted band): %s\n# got: %s\n' "$(echo $want)" "$(echo $got)"
[ -n "$want" ] && [ "$got" = "$want" ] && [ "$(echo "$want" | cut -d' ' -f1 | sort -u)" = "$(printf '32\n40')" ]
ok $? "extrapolation x = the ledger's CPU counts (32, 40), y = its predicted_pct, bars = its band"
! awk '/^# series/ { next } NF >= 2 && $1 + 0 == 0 { f = 1 } END { exit !f }' "$TMP/exfig/data/extrapolation_lru_lock_split.dat"
ok $? "no point of the extrapolation at x = 0"
# The merged data/predictions.csv (what paper/gen.sh reads by position)
# is in one form whatever the ledger's column order: cpus in column 5,
# the predicted change in 6.
got=$(awk -F, 'NR > 1 && $1 == "lru_lock_split" { printf("%d %.2f\n", $5, $6) }' "$TMP/exfig/data/predictions.csv" | sort -n)
[ "$got" = "$(echo "$want" | cut -d' ' -f1,2)" ] && head -1 "$TMP/exfig/data/predictions.csv" | grep -q '^seed,workload,base_variant,patch_variant,cpus,change_pct,'
ok $? "data/predictions.csv: the ledger's cpus and predicted_pct as columns 5 and 6"
# The reader finds its columns by name: a CSV without cpus is refused
# with one line naming the column, not drawn at x = 0.
printf 'seed,workload,base,patch,target,predicted_pct\nlru_lock_split,w,a,b,t,5\n' > "$TMP/nocpus.csv"
awk -f plots/strings.awk -f plots/extrap.awk -v seed=lru_lock_split -v inc="$TMP/nocpus.gp" \
	"$TMP/nocpus.csv" "$TMP/exfig/data/published.csv" /dev/null > /dev/null 2> "$TMP/nocpus.err"
[ $? -eq 3 ] && grep -q 'no column cpus' "$TMP/nocpus.err"; ok $? "predictions without a cpus column: refused, naming it"

# Every lock and variant has one fixed style: the names are unique.  The
# plug-ins' names come from the registries (plots/plugins.sh), as
# plot.sh passes them through call.gp.
PLUGINS=$(MEMSCALE=$MEMSCALE sh plots/plugins.sh)
style() { # style GNUPLOT-COMMANDS: run them after style.gp, with PLUGINS
	printf 'plugin_names = ARG1\nload "plots/style.gp"\n%s\n' "$1" > "$TMP/style.gp"
	gnuplot -c "$TMP/style.gp" "$PLUGINS" 2>&1
}
dups=$(style 'do for [k=1:words(STYLE_NAMES)] { print word(STYLE_NAMES, k) }' | sort | uniq -d)
[ -z "$dups" ]; ok $? "style names are unique${dups:+ (duplicates: $dups)}"
[ "$(style 'print ls_for("qspinlock", 1) == ls_for("qspinlock", 7)')" = 1 ]
ok $? "a lock keeps its style whatever its position in a figure"
missing=$(style 'do for [k=1:words(plugin_names)] { if (style_index(word(plugin_names, k)) == 0) { print word(plugin_names, k) } }' | tr '\n' ' ')
[ -n "$PLUGINS" ] && [ -z "$missing" ]
ok $? "every registered lock, counter, stats design and model workload has a fixed style${missing:+ (not: $missing)}"

# Missing optional columns: the figure is skipped with a message, exit 0.
cut -d, -f1-25,28- "$FIX/locks/results.csv" > "$TMP/plain.csv"
FORMATS=png sh plots/plot.sh "$TMP/plain.csv" "$TMP/plain" 2> "$TMP/log2"
st=$?
[ $st -eq 0 ] && grep -q "skipping contention figures" "$TMP/log2" && [ ! -e "$TMP/plain/contention_plain_lock.png" ] \
	&& is_png "$TMP/plain/locks_plain.png"
ok $? "no contention columns: contention figure skipped with a message, others drawn"
grep -q "skipping extrapolation figures: no predictions.csv" "$TMP/log2"
ok $? "no predictions: extrapolation skipped with a message"

# The lock study as small multiples: with a second critical-section
# length (cs=1000 rows added), one figure per cs value, each with the
# locks as its series, and no figure of every lock x cs line.
mkdir -p "$TMP/sm/locks"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cs") c = i; print; next }
	{ print; $c = 1000; print }' "$FIX/locks/results.csv" > "$TMP/sm/locks/results.csv"
FORMATS=png sh plots/plot.sh "$TMP/sm" "$TMP/sm/out" 2>/dev/null
nl=$(awk -F, 'NR > 1 && !s[$2]++' "$FIX/locks/results.csv" | wc -l)
is_png "$TMP/sm/out/locks_locks_cs_100.png" && is_png "$TMP/sm/out/locks_locks_cs_1000.png" &&
	[ ! -e "$TMP/sm/out/locks_locks.png" ] &&
	[ "$(grep -c '^# series' "$TMP/sm/out/data/locks_locks_cs_100.dat")" -eq "$nl" ]
ok $? "two cs values: one lock figure per cs, $nl lock series each, none with both"

# The subcommand runs the same driver; bad input exits 2.
( cd "$TMP" && FORMATS=png "$OLDPWD/$MEMSCALE" plot "$OLDPWD/$FIX/counters" --out "$TMP/sub" 2>/dev/null )
is_png "$TMP/sub/counter_tradeoff_counters.png"; ok $? "memscale plot RESULTS --out DIR works from any directory"
expect_usage "plot: missing results" "nosuch" -- $MEMSCALE plot "$TMP/nosuch"
expect_usage "plot: no argument" "results" -- $MEMSCALE plot
expect_usage "plot: bad option" "--frob" -- $MEMSCALE plot --frob
expect_exit 2 "plot.sh without arguments" -- sh plots/plot.sh

# Only what the given results contain: one sweep of one seed gives no A/B
# figure of the others (published values only beside measured ones), and
# a workload measured at one worker count gives no "scaling" line.
cp -r "$FIX/stats_batch" "$TMP/one"
FORMATS=png sh plots/plot.sh "$TMP/one" "$TMP/onefig" 2>/dev/null
[ -e "$TMP/onefig/ab_stats_batch.png" ] && [ ! -e "$TMP/onefig/ab_layout_false_sharing.png" ]
ok $? "A/B figure of the measured seed only"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "workers") c = i; print; next } $c == 2' \
	"$FIX/stats_batch/results.csv" > "$TMP/w2.csv"
FORMATS=png sh plots/plot.sh "$TMP/w2.csv" "$TMP/w2fig" 2>/dev/null
! ls "$TMP/w2fig"/throughput_*.png >/dev/null 2>&1
ok $? "no throughput-vs-workers figure from a single worker count"

# Error bars on measured A/B bars: the 95 % interval compare reports
# (ci_lo_pct, ci_hi_pct) reaches the figure's data as is; a compare
# without those columns leaves the bar without one and the legend says
# so.  The stubs change what the real compare prints: the figures render
# compare's numbers and compute none of their own.
cat > "$TMP/stub" <<STUB
#!/bin/sh
if [ "\$1" = compare ]; then
	$PWD/$MEMSCALE "\$@" | awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { c[\$i] = i } print; next }
		{ \$c["ci_lo_pct"] = -2.25; \$c["ci_hi_pct"] = 5.5; \$c["change_pct"] = 1.5; print }'
	exit 0
fi
exec $PWD/$MEMSCALE "\$@"
STUB
chmod +x "$TMP/stub"
MEMSCALE="$TMP/stub" FORMATS=png sh plots/plot.sh "$TMP/one" "$TMP/cifig" 2>/dev/null
awk '/^# series\tmeasured/ { m = 1; next } /^# series/ { m = 0 } m && NF >= 7 && $2 == 1.5 && $3 == -2.25 && $4 == 5.5 && $6 == 0 { f = 1 } END { exit !f }' \
	"$TMP/cifig/data/ab_stats_batch.dat"
ok $? "measured bars are compare's change (1.5) with its interval (-2.25..+5.5) as error bars"
is_png "$TMP/cifig/ab_stats_batch.png"; ok $? "and the figure renders with them"
# series names reach gnuplot as data (.gp.str, plots/strings.awk)
grep -q 'bars: 95 % interval' "$TMP/cifig/data/ab_stats_batch.gp.str"; ok $? "the legend says what the bars are"
# a compare whose CSV has no interval columns
cat > "$TMP/stub2" <<STUB
#!/bin/sh
if [ "\$1" = compare ]; then
	$PWD/$MEMSCALE "\$@" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i != "ci_lo_pct" && \$i != "ci_hi_pct") k[++n] = i }
		{ for (j = 1; j <= n; j++) printf("%s%s", j > 1 ? "," : "", \$k[j]); print "" }'
	exit 0
fi
exec $PWD/$MEMSCALE "\$@"
STUB
chmod +x "$TMP/stub2"
MEMSCALE="$TMP/stub2" FORMATS=png sh plots/plot.sh "$TMP/one" "$TMP/nocifig" 2>/dev/null
grep -q 'no interval from compare' "$TMP/nocifig/data/ab_stats_batch.gp.str"
ok $? "without interval columns the legend says there is none"
# compare's columns present but empty (Fieller's set unbounded), the
# change not significant: a dashed line across the axis (field 6 = 1),
# "n.s." in the bar's label, and the figure renders
cat > "$TMP/stub3" <<STUB
#!/bin/sh
if [ "\$1" = compare ]; then
	$PWD/$MEMSCALE "\$@" | awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) { c[\$i] = i } print; next }
		{ \$c["ci_lo_pct"] = ""; \$c["ci_hi_pct"] = ""; \$c["change_pct"] = 55.2; \$c["significant"] = "no"; print }'
	exit 0
fi
exec $PWD/$MEMSCALE "\$@"
STUB
chmod +x "$TMP/stub3"
MEMSCALE="$TMP/stub3" FORMATS=png sh plots/plot.sh "$TMP/one" "$TMP/unbfig" 2>/dev/null
awk '/^# series\tmeasured/ { m = 1; next } /^# series/ { m = 0 } m && $2 == 55.2 && $3 == "NaN" && $6 == 1 && /"\+55% n\.s\."/ { f = 1 } END { exit !f }' \
	"$TMP/unbfig/data/ab_stats_batch.dat"
ok $? "an unbounded interval is marked (field 6) and a non-significant change labelled n.s."
is_png "$TMP/unbfig/ab_stats_batch.png"; ok $? "and that figure renders (gnuplot draws no label at an undefined point)"
# No A/B arithmetic outside core/ab.c: the figure's programs compute no
# mean, interval or p of samples.
! grep -n -E 'sum\[|sqrt|/ *cnt' plots/ab.awk; ok $? "plots/ab.awk computes no mean or spread"
[ ! -e plots/abci.sh ]; ok $? "no per-row round trip through compare (plots/abci.sh is gone)"

# At least 16 series distinguishable in one figure: the 13 locks at two
# critical-section lengths (26 series, the lock study) differ in colour,
# marker or dash pattern (style 13 repeats style 1's colour only).
n=$(style 'do for [k=1:13] { do for [d=0:1] { n = word(STYLE_NAMES, k); print sprintf("%s %d %d", word(COLORS, (ls_for(n, k) - 1) % 12 + 1), pt_for(n, k, d), dt_for(n, k, d)) } }' | sort -u | wc -l)
[ "$n" -eq 26 ]; ok $? "26 lock series, 26 distinct (colour, marker, dash) styles (got $n)"
done_testing
