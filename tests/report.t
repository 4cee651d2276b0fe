#!/bin/sh
# memscale report DIR: one static page DIR/report.html with provenance,
# the A/B table from compare, warnings and the PNG figures beside it;
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
expect_exit 2 "no results: exit 2" -- $MEMSCALE report "$TMP/nonexistent"
mkdir -p "$TMP/empty"
expect_exit 2 "a directory without results: exit 2" -- $MEMSCALE report "$TMP/empty"
# check_html.py itself finds what it must
printf '<!DOCTYPE html><html><head><title>x</title></head><body><p><b>x</p></body></html>\n' > "$TMP/bad.html"
! python3 scripts/check_html.py "$TMP/bad.html" >/dev/null; ok $? "check_html.py refuses misnested tags"
printf '<!DOCTYPE html><html><head><title>x</title></head><body><img src="nope.png" alt=""></body></html>\n' > "$TMP/bad2.html"
! python3 scripts/check_html.py "$TMP/bad2.html" >/dev/null; ok $? "check_html.py refuses a missing image"
done_testing
