#!/bin/sh
# memscale sweep: experiment files, dry runs, a sweep killed with SIGKILL
# and resumed, fleet jobs through GNU parallel (xargs -P when absent), and
# malformed experiment files (exit 2 with "file:line: reason").
. tests/lib.sh
EXP=tests/fixtures/lock_ab.ini

# --- dry run: the matrix and its order ---
expect_exit 0 "dry run" -- $MEMSCALE sweep $EXP --dry-run --seed 7
n=$(grep -c '^p[0-9]' "$TMP/out")
[ "$n" -eq 16 ]; ok $? "dry run lists 16 points = 2 locks x 2 workers x 2 reps x 2 variants (got $n)"
grep -q '^# estimated time' "$TMP/out"; ok $? "dry run prints the estimated time"
# variants interleave: every base point is followed by its patch point
awk '/^p/ { n++; v[n] = $3; sub(/variant=/, "", v[n]); rest = $0; sub(/variant=[a-z]* /, "", rest);
	sub(/^p[0-9]* /, "", rest); sub(/ mode=.*/, "", rest); k[n] = rest }
	END { if (n != 16) exit 1; for (i = 1; i <= n; i += 2) if (v[i] != "base" || v[i+1] != "patch" || k[i] != k[i+1]) exit 1 }' "$TMP/out"
ok $? "variants run back to back (A B A B ...) on the same configuration"
cp "$TMP/out" "$TMP/order7"
$MEMSCALE sweep $EXP --dry-run --seed 7 >"$TMP/again" 2>&1
cmp -s "$TMP/order7" "$TMP/again"; ok $? "the same seed gives the same order"
$MEMSCALE sweep $EXP --dry-run --seed 8 >"$TMP/order8" 2>&1
! cmp -s "$TMP/order7" "$TMP/order8"; ok $? "another seed shuffles differently"
expect_exit 0 "quick dry run" -- $MEMSCALE sweep $EXP --dry-run --quick
n=$(grep -c '^p[0-9]' "$TMP/out")
[ "$n" -eq 2 ]; ok $? "the [quick] profile shrinks the matrix to 2 points (got $n)"

# --override: run settings from the command line, checked like the file's
expect_exit 0 "dry run with --override" -- $MEMSCALE sweep $EXP --dry-run --seed 7 \
	-O workers=1 -O reps=3
n=$(grep -c '^p[0-9]' "$TMP/out")
[ "$n" -eq 12 ]; ok $? "--override workers=1 reps=3: 2 locks x 1 worker count x 3 reps x 2 variants (got $n)"
! grep '^p' "$TMP/out" | grep -qv 'workers=1 '; ok $? "every point runs the overridden worker count"
expect_usage "--override bad workers" "bad workers '0'" -- $MEMSCALE sweep $EXP --dry-run -O workers=0
expect_usage "--override unknown key" "'lines' is not a run setting" -- $MEMSCALE sweep $EXP --dry-run -O lines=2
expect_usage "--override without =" "KEY=VALUE" -- $MEMSCALE sweep $EXP --dry-run -O seconds
expect_usage "--override bad seconds" "bad seconds '-1'" -- $MEMSCALE sweep $EXP --dry-run -O seconds=-1

# wait_points DIR N: until DIR/points holds N finished points (at most 5 s)
wait_points() {
	i=0
	while [ "$(ls "$1"/points 2>/dev/null | grep -c '\.csv$')" -lt "$2" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
}

# --- a sweep killed with SIGKILL mid-way, then resumed ---
D=$TMP/sw
$MEMSCALE sweep $EXP --out $D --reps 4 --seed 11 >/dev/null 2>"$TMP/sweep.err" &
pid=$!
wait_points $D 3
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
before=$(ls $D/points | grep -c '\.csv$')
[ "$before" -ge 3 ] && [ "$before" -lt 32 ]; ok $? "SIGKILL left part of the sweep ($before of 32 points)"
expect_usage "rerun without --resume refuses" "resume" -- $MEMSCALE sweep $EXP --out $D --reps 4
expect_exit 0 "--resume finishes the sweep" -- $MEMSCALE sweep $EXP --out $D --reps 4 --resume
grep -q "resuming, $before of 32" "$TMP/err"; ok $? "resume reports the points it skips"
after=$(ls $D/points | grep -c '\.csv$')
[ "$after" -eq 32 ]; ok $? "every point has its file after the resume ($after)"
ls $D/points | grep -q tmp; [ $? -ne 0 ]; ok $? "no temp files left among finished points"
rows=$(awk -F, 'NR > 1 { print $1 }' $D/results.csv | sort | uniq | wc -l)
dups=$(awk -F, 'NR > 1 { print $1 }' $D/results.csv | sort | uniq -d | wc -l)
total=$(awk 'NR > 1' $D/results.csv | wc -l)
[ "$rows" -eq 32 ] && [ "$dups" -eq 0 ] && [ "$total" -eq 32 ]
ok $? "results.csv holds every point exactly once ($total rows, $rows ids, $dups duplicates)"
grep -q '"seed": 11' $D/sweep.json; ok $? "sweep.json records the seed"
grep -q '"machine"' $D/sweep.json && grep -q '"points"' $D/sweep.json
ok $? "sweep.json records the machine and the expanded matrix"
expect_usage "a different matrix in the same directory is refused" "run with other settings (first difference: .reps = " -- \
	$MEMSCALE sweep $EXP --out $D --reps 2 --resume
expect_exit 0 "compare --experiment on the sweep" -- $MEMSCALE compare --experiment $D
grep -q '^lock-locks1-1 ' "$TMP/out" && grep -q 'Published' "$TMP/out"
ok $? "compare --experiment shows measured rows and the published table"

# --- SIGTERM stops cleanly: exit 130, finished points kept and collected ---
T=$TMP/term
$MEMSCALE sweep $EXP --out $T --reps 4 --seed 12 >/dev/null 2>"$TMP/term.err" &
pid=$!
wait_points $T 2
kill -TERM $pid; wait $pid; st=$?
[ $st -eq 130 ]; ok $? "SIGTERM: exit status 130 (got $st)"
kept=$(ls $T/points | grep -c '\.csv$')
[ "$(awk 'NR > 1' $T/results.csv | wc -l)" -eq "$kept" ]
ok $? "SIGTERM: results.csv holds the $kept finished points"
grep -q -- "--resume" "$TMP/term.err"; ok $? "SIGTERM: says how to continue"

# --- fleet: one command per point, run by GNU parallel (or xargs -P) ---
J=$TMP/jobs
expect_exit 0 "--emit-jobs" -- $MEMSCALE sweep $EXP --out $J --quick --seed 5 --emit-jobs
[ "$(wc -l <$J/jobs.txt)" -eq 2 ] && grep -q -- '--point p0001' $J/jobs.txt
ok $? "jobs.txt holds one self-contained command per point"
if command -v parallel >/dev/null 2>&1; then
	runner="GNU parallel"; parallel --will-cite -j 2 <$J/jobs.txt >/dev/null 2>&1
else
	runner="xargs -P"; tr '\n' '\0' <$J/jobs.txt | xargs -0 -P 2 -I{} sh -c '{}' >/dev/null 2>&1
fi
ok $? "$runner ran the jobs"
expect_exit 0 "--collect" -- $MEMSCALE sweep $EXP --out $J --quick --collect
[ "$(awk 'NR > 1' $J/results.csv | wc -l)" -eq 2 ]; ok $? "collected both points ($runner)"
expect_exit 0 "a finished --point is skipped" -- $MEMSCALE sweep $EXP --out $J --quick --point p0000
expect_usage "unknown --point" "p9999" -- $MEMSCALE sweep $EXP --out $J --quick --point p9999

# --- malformed experiment files: exit 2, one line "file:line: reason" ---
bad() { # bad NAME PATTERN: writes $TMP/NAME.ini from stdin, expects PATTERN
	cat >"$TMP/$1.ini"
	expect_usage "$1" "$TMP/$1.ini:$2" -- $MEMSCALE sweep "$TMP/$1.ini" --dry-run
}
bad unknown_key "3: unknown key 'colour'" <<'X'
[experiment]
name = x
colour = blue
workloads = lock
[variant a]
cs = 0
X
bad bad_value "5: bad value 'many'" <<'X'
[experiment]
name = x
workloads = lock
[variant a]
lines = many
X
bad unknown_knob "5: unknown knob 'nosuchknob'" <<'X'
[experiment]
name = x
workloads = lock
[variant a]
nosuchknob = 1
X
bad bad_workers "3: bad workers '0'" <<'X'
[experiment]
name = x
workers = 0
workloads = lock
[variant a]
cs = 0
X
bad missing_workload "1: .*missing workload" <<'X'
[experiment]
name = x
[variant a]
cs = 0
X
bad unknown_workload "3: unknown workload 'nosuchwl'" <<'X'
[experiment]
name = x
workloads = lock, nosuchwl
[variant a]
cs = 0
X
bad empty_workloads "1: empty matrix" <<'X'
[experiment]
name = x
workloads =
[variant a]
cs = 0
X
bad empty_axis "7: empty matrix: axis 'locks'" <<'X'
[experiment]
name = x
workloads = lock
[variant a]
cs = 0
[axis]
locks =
X
bad no_variant "4: no \[variant" <<'X'
[experiment]
name = x
workloads = lock
[fixed]
X
bad bad_section "2: unknown section" <<'X'
[experiment]
[nonsense]
X
# --emit-jobs quotes every path: a directory and an experiment file with
# spaces (and a quote) still give runnable job lines.
SP="$TMP/with space's"
mkdir -p "$SP" && cp $EXP "$SP/exp file.ini"
expect_exit 0 "--emit-jobs with spaces in the paths" -- \
	$MEMSCALE sweep "$SP/exp file.ini" --out "$SP/out dir" --quick --seed 5 --emit-jobs -O seconds=0.05
head -1 "$SP/out dir/jobs.txt" | sh >/dev/null 2>&1; ok $? "a job line runs under sh"
[ "$(ls "$SP/out dir/points" | wc -l)" -ge 1 ]; ok $? "and writes its point into the quoted directory"
expect_usage "missing experiment file" "nosuch.ini" -- $MEMSCALE sweep $TMP/nosuch.ini --dry-run
expect_usage "sweep --reps 0" "reps" -- $MEMSCALE sweep $EXP --reps 0 --dry-run

# --- the shipped experiment files parse (their workloads may be missing
# while the models are being written; then the error names the workload) ---
for f in experiments/*.ini; do
	$MEMSCALE sweep "$f" --dry-run --quick >"$TMP/out" 2>"$TMP/err"; st=$?
	[ $st -eq 0 ] || { [ $st -eq 2 ] && grep -q "unknown workload" "$TMP/err"; }
	ok $? "$f: dry run (exit $st)"
	[ $st -eq 0 ] || sed 's/^/#   /' "$TMP/err"
done
# A variant that overrides a [fixed] setting (stats_batch's patch sets
# kernel over the fixed one): its points are points of the matrix, and
# the collected results hold both variants.
sed -e 's/^lines = 1$/lines = 1\ncs = 0/' -e 's/^name = lock_ab$/name = lock_over/' $EXP > "$TMP/over.ini"
grep -q '^cs = 0$' "$TMP/over.ini" && expect_exit 0 "a variant overriding [fixed]" -- \
	$MEMSCALE sweep "$TMP/over.ini" --out "$TMP/over" --quick --seed 3
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { v[$c["variant"] "=" $c["cs"]]++ }
	END { exit !(v["base=0"] && v["patch=200"]) }' "$TMP/over/results.csv"
ok $? "both variants' points collected, the patch with its own cs"
! grep -q "not a finished point" "$TMP/err"; ok $? "and none left out"
done_testing
