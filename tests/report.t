#!/bin/sh
# memscale report DIR: one static page DIR/report.html with provenance,
# the A/B table from compare (means with units, predicted, published),
# warnings and the PNG figures beside it (drawn by report when missing,
# each linked to its full size); a fresh sweep made here checks those;
# every value HTML-escaped; the page passes scripts/check_html.py (the
# check `make check` runs on it); bad input: one line, exit 2.
. tests/lib.sh
FIX=tests/fixtures/report
if ! command -v python3 >/dev/null; then
	echo "ok 1 # SKIP python3 not installed (make deps)"; echo "1..1"; exit 0
fi
cp -r "$FIX" "$TMP/r"
printf 'load 3.1 on 2 CPUs <script>alert(1)</script> & more\n' > "$TMP/r/warnings.txt"
if command -v gnuplot >/dev/null; then FORMATS=png sh plots/plot.sh "$TMP/r" 2>/dev/null; fi
$MEMSCALE report "$TMP/r" > "$TMP/out" 2> "$TMP/err"
ok $? "report writes a page"
P=$TMP/r/report.html
[ -s "$P" ]; ok $? "DIR/report.html exists"
python3 scripts/check_html.py "$P" > "$TMP/chk"; r=$?
sed 's/^/# /' "$TMP/chk"
[ $r -eq 0 ]; ok $? "the page is well-formed HTML (scripts/check_html.py)"
! grep -q '<script\|<b>x' "$P"; ok $? "no value reaches the page unescaped"
grep -q -F '&lt;b&gt;x&amp;y&lt;/b&gt; &#39;q&#39; &quot;d&quot;' "$P"; ok $? "the sidecar's command is escaped"
grep -q -F 'Synthetic &lt;CPU&gt;' "$P"; ok $? "machine from the sidecar"
grep -q -F '&lt;script&gt;alert(1)&lt;/script&gt; &amp; more' "$P"; ok $? "DIR/warnings.txt travels into the page, escaped"
! grep -q 'No A/B table' "$P"; ok $? "every experiment has its A/B table (compare's CSV was once refused for its NUL)"
grep -q '<td>no significant change' "$P"; ok $? "a change that is not significant is said so in its row (3+3 noisy runs)"
! grep -q '<td>-18' "$P"; ok $? "and not as a signed headline"
if command -v gnuplot >/dev/null; then
	n=$(grep -c '<img src="plots/' "$P")
	[ "$n" -ge 1 ]; ok $? "figures as <img> of the PNGs beside the page ($n)"
fi

# --- a fresh sweep directory made here, no `plot` run first -------------
# page_fault2 of layout_false_sharing, variants before, base and patch,
# 1 worker, 2 runs of 0.1 s each (a few seconds), and beside it the ledger
# `model validate -f csv` writes (what make demo keeps as predictions.csv)
# for two of the experiment's published rows: base -> patch at 52 CPUs and
# v6.9 -> 70a64b7919cb (the reverse of the sweep's before vs base) at 36.
mkdir -p "$TMP/f/res" "$TMP/f/exp"
sed -e '/^\[quick\]/,/^\[/{s/^workloads = .*/workloads = page_fault2/;s/^variants = .*/variants = before, base, patch/}' \
	experiments/layout_false_sharing.ini > "$TMP/f/lfs.ini"
awk '/^\[published\]/ { p = 1; print; next } /^\[/ { p = 0 }
	p && /^[a-z]/ && !(/^page_fault2/ && (/cpus=36/ || /cpus=52/)) { next } { print }' \
	experiments/layout_false_sharing.ini > "$TMP/f/exp/layout_false_sharing.ini"
S=$TMP/f/res/layout_false_sharing
$MEMSCALE sweep "$TMP/f/lfs.ini" --quick -O seconds=0.1 -O warmup=0 -O reps=2 -O workers=1 --out "$S" \
	> /dev/null 2> "$TMP/f/sweep.err"
ok $? "a short real sweep (3 variants x 2 runs of page_fault2)"
MEMSCALE_EXPERIMENTS="$TMP/f/exp" $MEMSCALE model validate -f csv --iters 1000 --calib "$MEMSCALE_CALIB" \
	> "$TMP/f/res/predictions.csv" 2> /dev/null
ok $? "and the ledger of two of its published rows"
F=$TMP/f/res/report.html
$MEMSCALE report "$TMP/f/res" > "$TMP/f/out" 2> "$TMP/f/err"
ok $? "report on the fresh directory"
python3 scripts/check_html.py "$F" > "$TMP/chk"; r=$?
sed 's/^/# /' "$TMP/chk"; [ $r -eq 0 ]; ok $? "its page is well-formed and every <img> exists"
if command -v gnuplot >/dev/null; then
	[ -s "$TMP/f/res/plots/figures.tsv" ] && [ -s "$TMP/f/res/plots/ab_layout_false_sharing.png" ] &&
		grep -q '<img src="plots/ab_layout_false_sharing.png"' "$F"
	ok $? "report drew the figures itself (plots/, the A/B figure on the page)"
	ni=$(grep -o '<img src="[^"]*"' "$F" | wc -l)
	nl=$(grep -o '<a href="\([^"]*\.png\)"><img src="\1"' "$F" | wc -l)
	[ "$ni" -ge 1 ] && [ "$nl" -eq "$ni" ]; ok $? "each of the $ni thumbnails links to its full-size figure ($nl)"
fi
# Absolute throughput with its unit: the base and patch means of the base
# -> patch row, computed here from results.csv (mean over the 2 runs).
means=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ s[$c["variant"]] += $c["ops_per_sec"]; n[$c["variant"]]++ }
	END { printf("<td>%.0f ops/s</td><td>%.0f ops/s</td>", s["base"] / n["base"], s["patch"] / n["patch"]) }' "$S/results.csv")
grep -F '<td>base</td><td>patch</td>' "$F" | grep -q -F -e "$means"; ok $? "base and patch means with units: $means"
# The predicted column: the ledger's predicted_pct of base -> patch at 52
# CPUs; before vs base is the reverse of its v6.9 -> 70a64b7919cb row,
# turned over (100 / (1 + p/100) - 100).
p52=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["cpus"] == 52 { printf("%+.1f", $c["predicted_pct"]) }' "$TMP/f/res/predictions.csv")
p36=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["cpus"] == 36 { printf("%+.1f", 100 / (1 + $c["predicted_pct"] / 100) - 100) }' "$TMP/f/res/predictions.csv")
grep -q '<th>predicted' "$F" && grep -F '<td>base</td><td>patch</td>' "$F" | grep -q -F -e "<td>$p52 % at 52 CPUs"
ok $? "predicted column: base -> patch $p52 % at 52 CPUs, from the ledger"
grep -F '<td>base</td><td>before</td>' "$F" | grep -q -F -e "<td>$p36 % at 36 CPUs"
ok $? "and before vs base from the reverse pair's prediction, turned over ($p36 %)"
# --out: the page and its figures elsewhere
$MEMSCALE report "$S" --out "$TMP/f/page" > /dev/null 2>&1 && [ -s "$TMP/f/page/report.html" ] &&
	python3 scripts/check_html.py "$TMP/f/page/report.html" > /dev/null
ok $? "report DIR --out OUTDIR: OUTDIR/report.html with its figures beside it"
# gnuplot failing: the page still comes, and says what plot said
mkdir -p "$TMP/f/bin"; printf '#!/bin/sh\nexit 1\n' > "$TMP/f/bin/gnuplot"; chmod +x "$TMP/f/bin/gnuplot"
PATH="$TMP/f/bin:$PATH" $MEMSCALE report "$S" --out "$TMP/f/nogp" > /dev/null 2>&1 &&
	grep -q 'gnuplot failed for ab_layout_false_sharing.png' "$TMP/f/nogp/report.html" &&
	! grep -q '<img' "$TMP/f/nogp/report.html"
ok $? "without a working gnuplot: a page without figures that says why"
$MEMSCALE report "$S" --out "$TMP/f/nogp" > /dev/null 2>&1 && grep -q '<img src="plots/ab_' "$TMP/f/nogp/report.html"
ok $? "and the next report draws them (an empty figures.tsv is not kept)"
expect_usage "report DIR --out (no directory)" "--out" -- $MEMSCALE report "$S" --out
: > "$TMP/f/afile"
expect_usage "report DIR --out FILE" "--out '$TMP/f/afile' is not a directory" -- $MEMSCALE report "$S" --out "$TMP/f/afile"
expect_usage "report DIR X (a second directory)" "--out" -- $MEMSCALE report "$S" "$TMP/f/x"
expect_usage "report --out X without DIR" "results directory" -- $MEMSCALE report --out "$TMP/f/x"

expect_exit 2 "no results: exit 2" -- $MEMSCALE report "$TMP/nonexistent"
mkdir -p "$TMP/empty"
expect_exit 2 "a directory without results: exit 2" -- $MEMSCALE report "$TMP/empty"
# check_html.py itself finds what it must
printf '<!DOCTYPE html><html><head><title>x</title></head><body><p><b>x</p></body></html>\n' > "$TMP/bad.html"
! python3 scripts/check_html.py "$TMP/bad.html" >/dev/null; ok $? "check_html.py refuses misnested tags"
printf '<!DOCTYPE html><html><head><title>x</title></head><body><img src="nope.png" alt=""></body></html>\n' > "$TMP/bad2.html"
! python3 scripts/check_html.py "$TMP/bad2.html" >/dev/null; ok $? "check_html.py refuses a missing image"
done_testing
