#!/bin/sh
# The seed list is data (issue 37): `memscale list experiments` names the
# experiment files that carry [published] rows, and it is the only list.
#
# Where seed names may appear outside experiments/:
# - nowhere in the consumers of the list: the Makefile, scripts/ and
#   results-reference/*/*.sh, and the paper's .tex and paper/gen.sh read
#   it from `memscale list experiments`;
# - in code and tests, one seed as the subject of a check or as a knob
#   (stats_batch is also a knob name), never two on a line: a line naming
#   two seeds is a copy of the list;
# - freely in data (experiments/, results-reference/ but its scripts,
#   tests/fixtures/) and
#   in prose (README.md, docs/), which describe the experiments.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh

expect_exit 0 "list experiments" -- $MEMSCALE list experiments
seeds=$(cat "$TMP/out")
[ -n "$seeds" ]; ok $? "it names seeds ($(echo $seeds))"
# the same set, read another way: the files with a [published] line that
# is not a comment, by their name key
want=$(grep -l '^\[published\]' experiments/*.ini | while read -r f; do
	awk '/^\[published\]/ { p = 1; next } /^\[/ { p = 0 } p && /^[a-z0-9_]+ *=/ { n++ } END { exit !n }' "$f" &&
	sed -n 's/^name *= *//p' "$f"; done | sort)
[ "$(printf '%s\n' $seeds | sort)" = "$want" ]; ok $? "the experiment files with [published] rows"
expect_exit 0 "list experiments --long" -- $MEMSCALE list experiments --long
[ "$(awk -F'\t' '{ s += $2 } END { print s }' "$TMP/out")" -eq "$($MEMSCALE published | tail -n +2 | wc -l)" ]
ok $? "--long: the row counts add up to memscale published's rows"
awk -F'\t' 'NF != 4 || $3 == "" { exit 1 }' "$TMP/out"; ok $? "--long: name, rows, title, about"
expect_usage "a bad option" "unexpected argument '-x'" -- $MEMSCALE list experiments -x

# Derived, not listed: a file without rows drops out, a new one comes in.
mkdir -p "$TMP/exp"
for f in experiments/*.ini; do
	awk '/^\[/ { p = ($0 == "[published]") } !p' "$f" >"$TMP/exp/$(basename "$f")"
done
first=$(printf '%s\n' $seeds | head -1)
cp "experiments/$first.ini" "$TMP/exp/$first.ini"
sed "s/^name *= *$first\$/name = zz_new_seed/" "experiments/$first.ini" >"$TMP/exp/zz_new_seed.ini"
MEMSCALE_EXPERIMENTS=$TMP/exp $MEMSCALE list experiments >"$TMP/l" 2>"$TMP/err"
[ "$(cat "$TMP/l" | tr '\n' ' ')" = "$first zz_new_seed " ]
ok $? "MEMSCALE_EXPERIMENTS: only the files with rows ($(cat "$TMP/l" | tr '\n' ' '))"

# list_copies FILE...: lines naming two seeds or more
re=$(printf '%s\n' $seeds | paste -sd '|' -)
list_copies() {
	awk -v seeds="$(echo $seeds)" 'BEGIN { n = split(seeds, s, " ") }
		{ k = 0; for (i = 1; i <= n; i++) if (match($0, "(^|[^a-z0-9_])" s[i] "([^a-z0-9_]|$)")) k++
		  if (k >= 2) print FILENAME ":" FNR ": " $0 }' "$@"
}
# the check can fail: a planted copy of the list is found
printf 'x\nfor s in %s; do\n' "$(echo $seeds)" >"$TMP/planted.sh"
[ -n "$(list_copies "$TMP/planted.sh")" ]; ok $? "a planted seed list is found"

code=$(find cli core counters harness locks models predict trace tracing workloads bench wis \
	plots scripts tests paper Makefile -type f \( -name '*.[ch]' -o -name '*.sh' -o -name '*.t' \
	-o -name '*.awk' -o -name '*.gp' -o -name '*.tex' -o -name '*.py' -o -name Makefile \) \
	! -path 'tests/fixtures/*' ! -path 'paper/generated/*' 2>/dev/null)
[ -n "$code" ] && list_copies $code >"$TMP/copies"
[ ! -s "$TMP/copies" ]; ok $? "no line of code, scripts or tests names two seeds"
sed 's/^/#   /' "$TMP/copies" | head -5
grep -nE "(^|[^a-z0-9_])($re)([^a-z0-9_]|\$)" Makefile $(find scripts -type f) results-reference/*/*.sh \
	paper/*.tex paper/gen.sh >"$TMP/named"
[ ! -s "$TMP/named" ]; ok $? "the Makefile, scripts and the paper name no seed"
sed 's/^/#   /' "$TMP/named" | head -5
done_testing
