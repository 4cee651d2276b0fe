#!/bin/sh
# sweep --ci PCT / --budget SECONDS (harness/adaptive.h): after the matrix,
# interleaved A/B sets repeat until each change's 95 % interval is
# narrower than PCT or the budget runs out, and DIR/adaptive.txt says which
# stopped it; extra sets are points (base and patch back to back), kept by
# --resume; bad values exit 2.  No assertion on how many sets a budget
# buys (that is timing): only that it stopped for the reason it says.
. tests/lib.sh
EXP=tests/fixtures/lock_ab.ini
SW="$MEMSCALE sweep $EXP --quick -O workers=1 -O reps=2 --seed 3"

# An interval width every change meets at once: no extra set.
expect_exit 0 "sweep --ci with a width already met" -- $SW --ci 1000000 --out "$TMP/a"
grep -q "narrower than 1e+06 pp" "$TMP/a/adaptive.txt"; ok $? "adaptive.txt: stopped because every interval is narrow enough"
grep -q "adaptive repetition: every change" "$TMP/err"; ok $? "... and says so on stderr"
[ "$(ls "$TMP/a/points" | wc -l)" -eq 4 ]; ok $? "no extra point beyond the matrix's 4"

# A width no run can reach, within a budget: the budget stops it.
expect_exit 0 "sweep --ci 0.0001 --budget 2" -- $SW --ci 0.0001 --budget 2 --out "$TMP/b"
grep -q "time budget (2 s) ran out" "$TMP/b/adaptive.txt"; ok $? "adaptive.txt: stopped by the budget"
n=$(ls "$TMP/b/points" | wc -l)
[ $(( (n - 4) % 2 )) -eq 0 ]; ok $? "extra points come in whole A/B sets ($((n - 4)) extra)"
rows=$(($(wc -l < "$TMP/b/results.csv") - 1))
[ "$rows" -eq "$n" ]; ok $? "results.csv holds every point, extras included ($rows)"
# every extra set is base then patch, same group, a new rep
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["point"], $c["variant"], $c["rep"] }' "$TMP/b/results.csv" | sort |
	awk '{ n++; v[n] = $2; r[n] = $3 } END { for (i = 5; i < n; i += 2) if (v[i] != "base" || v[i+1] != "patch" || r[i] != r[i+1]) exit 1 }'
ok $? "extra sets run base and patch back to back with the same rep"

# --resume continues the rounds from the extras already there.
expect_exit 0 "--resume with --budget" -- $SW --ci 0.0001 --budget 1 --resume --out "$TMP/b"
m=$(ls "$TMP/b/points" | wc -l)
[ "$m" -ge "$n" ]; ok $? "a resumed sweep keeps the extra points ($n -> $m)"

expect_usage "--ci 0" "bad --ci '0'" -- $SW --ci 0 --out "$TMP/c"
expect_usage "--budget x" "bad --budget 'x'" -- $SW --budget x --out "$TMP/c"
expect_usage "--ci with --point" "not with --emit-jobs" -- $SW --ci 5 --point p0000 --out "$TMP/c"
done_testing
