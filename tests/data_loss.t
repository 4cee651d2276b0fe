#!/bin/sh
# No result lost or silently wrong (issue 25):
#  - every write checked, standard output included (>/dev/full exits 1);
#  - run -o on a full disk: no half row, the sidecar agrees with the CSV;
#  - the sidecar: one per results file describing every run in it, never
#    before the run is accepted, never through a symlink, never over
#    another file (a CSV named X.json);
#  - the sweep matrix size checked (10^7 points at most, no overflow);
#  - --resume with other settings refused naming the difference; point
#    files validated and re-run; a full disk stops a sweep, no .tmp left;
#  - a worker killed in processes mode: the run ends at its deadline,
#    exit 1, naming the dead worker.
. tests/lib.sh
R="run lock --lock pthread_mutex -s 0.1 -w 0 --sample-ms 50"

# --- standard output -------------------------------------------------------
for c in "list locks" "list variants" "--version" "--help" \
	"stats tests/fixtures/samples_a.txt" \
	"compare tests/fixtures/aim9_base.csv tests/fixtures/aim9_patch.csv" \
	"sweep tests/fixtures/lock_ab.ini -n" "$R -t 1" "$R -t 1 --format csv" "$R -t 1 --format wis"; do
	# shellcheck disable=SC2086
	$MEMSCALE $c >/dev/full 2>"$TMP/err"; st=$?
	[ $st -eq 1 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q "standard output" "$TMP/err"
	ok $? "'$c' >/dev/full: exit 1 with one line (exit $st)"
done
$MEMSCALE list counters >/dev/null; ok $? "list to a working stdout: exit 0"

# --- the sidecar -----------------------------------------------------------
cd "$TMP" || exit 1
M=$MEMSCALE; case $M in /*) ;; *) M=$OLDPWD/$MEMSCALE ;; esac
FIXD=$OLDPWD/tests/fixtures
# shellcheck disable=SC2086
$M $R -t 1 -o a.csv >/dev/null 2>&1 && $M $R -t 1,2 -o a.csv >/dev/null 2>&1 && $M $R -t 2 -r 2 -o a.csv >/dev/null 2>&1
ok $? "three runs append to a.csv"
rows=$(($(wc -l < a.csv) - 1))
[ "$rows" -eq 5 ]; ok $? "a.csv holds 5 rows (got $rows)"
jq -e '(.runs | length) == 3 and (.runs | map(.rows)) == [1, 2, 2] and (.runs | map(.first_row)) == [0, 1, 3]' a.json >/dev/null
ok $? "a.json describes all three runs (rows 1+2+2, first rows 0,1,3)"
jq -e '.runs[0].command | endswith("-t 1 -o a.csv")' a.json >/dev/null && jq -e '.run.workers == [2]' a.json >/dev/null
ok $? "each run's command is kept; the top level is the last run"
cp a.json a.json.before; cp a.csv a.csv.before
expect_usage "a run with other columns into a.csv" "other columns" -- $M run counter -t 1 -s 0.1 -w 0 --sample-ms 50 -o a.csv
cmp -s a.json a.json.before && cmp -s a.csv a.csv.before; ok $? "the refused run left a.csv and a.json untouched"
# -o X.json is another run's sidecar; -o X when X.json is not a sidecar.
cp a.csv b.csv
expect_usage "run -o b.json (a sidecar's name)" "ends in .json" -- $M $R -t 1 -o b.json
printf 'workload,ops_per_sec\nlock,1\n' > c.json; cp c.json c.json.before
expect_usage "run -o c when c.json is someone's CSV" "not a memscale sidecar" -- $M $R -t 1 -o c
cmp -s c.json c.json.before && [ ! -e c ]; ok $? "c.json kept, no c created"
echo keep > target; ln -s target d.json
expect_usage "run -o d.csv when d.json is a symlink" "symbolic link" -- $M $R -t 1 -o d.csv
[ "$(cat target)" = keep ] && [ -L d.json ]; ok $? "the symlink's target is untouched"
ls ./*.tmp.* >/dev/null 2>&1; [ $? -ne 0 ]; ok $? "no temporary files left"

# --- full disk ---------------------------------------------------------------
MNT=$TMP/mnt; mkdir -p "$MNT"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$MNT" 2>/dev/null; then
	trap 'umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT
	# A page of room: some rows fit, then a row meets the full disk.
	dd if=/dev/zero of="$MNT/fill" bs=4k count=13 2>/dev/null
	# shellcheck disable=SC2086
	$M $R -t 1 -r 30 -o "$MNT/x.csv" >/dev/null 2>"$TMP/err"; st=$?
	[ $st -eq 1 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q "No space left" "$TMP/err"
	ok $? "run -o on a full disk: exit 1 with one line (exit $st)"
	awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad || NR < 1 }' "$MNT/x.csv"
	ok $? "every line of the CSV is whole (no half row)"
	rows=$(($(wc -l < "$MNT/x.csv") - 1))
	side=$(jq '[.runs[].rows] | add' "$MNT/x.json" 2>/dev/null)
	[ "$rows" = "$side" ]; ok $? "the sidecar counts the rows the CSV holds ($side = $rows)"
	[ "$(tail -c 1 "$MNT/x.csv" | od -An -c | tr -d ' ')" = '\n' ]; ok $? "the CSV ends with a whole line"
	# An append after the failure lands on a clean row boundary.
	rm -f "$MNT/fill"
	# shellcheck disable=SC2086
	$M $R -t 1 -o "$MNT/x.csv" >/dev/null 2>&1
	awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$MNT/x.csv"; ok $? "a later append is whole too"
	# A sweep on a full disk stops at once, leaves no .tmp file.
	rm -f "$MNT"/x.*
	cp "$FIXD/lock_ab.ini" "$MNT/e.ini"
	$M sweep "$MNT/e.ini" --out "$MNT/sw" --seed 1 -O reps=1 >/dev/null 2>&1
	ok $? "a sweep fits on the small disk"
	rm -rf "$MNT/sw"
	$M sweep "$MNT/e.ini" --out "$MNT/sw" --seed 1 -O reps=1 -n >/dev/null 2>&1
	mkdir -p "$MNT/sw/points"
	dd if=/dev/zero of="$MNT/fill" bs=4k count=100 2>/dev/null
	$M sweep "$MNT/e.ini" --out "$MNT/sw" --seed 1 -O reps=1 >/dev/null 2>"$TMP/err"; st=$?
	[ $st -ne 0 ] && grep -q "No space left" "$TMP/err"; ok $? "a sweep on a full disk stops with an error (exit $st)"
	n=$(grep -c "workload=" "$TMP/err")
	[ "$n" -eq 0 ]; ok $? "it did not go on measuring points ($n progress lines)"
	find "$MNT/sw" -name '*.tmp*' | grep -q .; [ $? -ne 0 ]; ok $? "no .tmp files left"
	find "$MNT/sw/points" -size 0 | grep -q .; [ $? -ne 0 ]; ok $? "no 0-byte point files left"
	umount "$MNT"
else
	echo "# SKIP full-disk tests: cannot mount a small tmpfs (need root)"
fi

# --- the sweep matrix ---------------------------------------------------------
vals() { awk -v n="$1" 'BEGIN { for (i = 1; i <= n; i++) printf("%s%d", i > 1 ? "," : "", i) }'; }
mkexp() { # NAME REPS AXES...: an experiment with 1024 values on each axis
	n=$1 reps=$2; shift 2
	{ printf '[experiment]\nname = %s\nworkloads = counter\nworkers = 1\nreps = %s\nbase = a\n' "$n" "$reps"
	  printf '[variant a]\n[variant b]\n[axis]\n'
	  for a in "$@"; do printf '%s = %s\n' "$a" "$(vals 1024)"; done; } > "$n.ini"
}
mkexp four 65536 delta stats_batch ksize_mb flush_ms
expect_usage "1024 values on four axes x 65536 reps (the reproducer)" "at most 10000000" -- $M sweep four.ini -n
mkexp six 65536 delta stats_batch ksize_mb flush_ms
# a fifth axis of 1024 values: 2^50 x 2^16 x 2 variants overflows 64 bits
printf 'threshold = %s\n' "$(vals 1024)" >> six.ini
expect_usage "a product beyond 2^64 (no wrap-around)" "more than" -- $M sweep six.ini -n
mkexp two 10 delta stats_batch
expect_usage "just above 10^7 points (1024 x 1024 x 10 x 2)" "20971520 points" -- $M sweep two.ini -n
printf '[experiment]\nname = ok\nworkloads = counter\nworkers = 1\nreps = 1\nbase = a\n[variant a]\n[variant b]\n[axis]\ndelta = %s\n' "$(vals 1000)" > fine.ini
expect_exit 0 "2000 points are fine" -- $M sweep fine.ini -n

# --- resume: settings, point files -------------------------------------------------
E=$TMP/e.ini; cp "$FIXD/lock_ab.ini" "$E"
O="-O seconds=0.05 -O reps=1 --seed 5"
# shellcheck disable=SC2086
$M sweep "$E" --out sw $O >/dev/null 2>&1; ok $? "a sweep of 8 points"
[ -s sw/settings.txt ] && jq -e '.settings_hash | test("^[0-9a-f]{16}$")' sw/sweep.json >/dev/null
ok $? "the directory records its settings and their hash"
rm sw/points/p0001.csv
# shellcheck disable=SC2086
expect_usage "--resume with another -O seconds" "seconds = 0.05' there, 'seconds = 0.1' now" -- \
	$M sweep "$E" --out sw -O seconds=0.1 -O reps=1 --seed 5 --resume
# shellcheck disable=SC2086
expect_usage "--resume with another mode" "mode = threads' there, 'mode = processes' now" -- \
	$M sweep "$E" --out sw $O -O mode=processes --resume
sed 's/^cs = 200$/cs = 201/' "$E" > e2.ini
# shellcheck disable=SC2086
expect_usage "--resume with an edited variant" "variant.patch.cs = 200' there" -- $M sweep e2.ini --out sw $O --resume
sed 's/^lines = 1$/lines = 2/' "$E" > e3.ini
# shellcheck disable=SC2086
expect_usage "--resume with an edited [fixed] setting" "fixed.lines = 1' there, 'fixed.lines = 2' now" -- \
	$M sweep e3.ini --out sw $O --resume
# shellcheck disable=SC2086
expect_usage "--point with other settings" "other settings" -- $M sweep e2.ini --out sw $O --point p0001
# shellcheck disable=SC2086
expect_usage "--collect with other settings" "other settings" -- $M sweep e2.ini --out sw $O --collect
: > sw/points/p0002.csv
head -1 sw/points/p0003.csv > sw/points/p0003.tmpx && mv sw/points/p0003.tmpx sw/points/p0003.csv
head -c 200 sw/points/p0004.csv > sw/points/p0004.tmpx && mv sw/points/p0004.tmpx sw/points/p0004.csv
# shellcheck disable=SC2086
$M sweep "$E" --out sw $O --collect >/dev/null 2>"$TMP/err"; st=$?
[ $st -eq 0 ] && grep -q "p0002.csv is not a finished point" "$TMP/err"
ok $? "--collect leaves out a 0-byte point file instead of failing (exit $st)"
# shellcheck disable=SC2086
$M sweep "$E" --out sw $O --resume >/dev/null 2>"$TMP/err"; st=$?
[ $st -eq 0 ]; ok $? "--resume runs again (exit $st)"
for p in p0002 p0003 p0004; do grep -q "point $p's file has no complete row; running it again" "$TMP/err" ||
	{ echo "#   $p not re-run"; false; }; done; ok $? "0-byte, header-only and cut point files are run again"
grep -q "resuming, 4 of 8 points already done" "$TMP/err"; ok $? "only the 4 whole points count as done"
rows=$(($(wc -l < sw/results.csv) - 1))
[ "$rows" -eq 8 ]; ok $? "results.csv has all 8 points, once each (got $rows)"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") c = i; next } $c != "0.05" { bad = 1 } END { exit bad }' sw/results.csv
ok $? "every row has the one setting (seconds=0.05)"

# --resume needs a sweep there and its seed; --collect takes only the
# matrix's own points (issue 36)
# shellcheck disable=SC2086
expect_usage "--resume on a directory that does not exist" "no sweep to resume in 'nosuch'" -- \
	$M sweep "$E" --out nosuch $O --resume
[ ! -e nosuch ]; ok $? "... and nothing was made"
expect_usage "--resume --seed 8 on a seed-5 sweep" "run with --seed 5, not --seed 8" -- \
	$M sweep "$E" --out sw -O seconds=0.05 -O reps=1 --seed 8 --resume
cp sw/points/p0001.csv sw/points/p0099.csv; cp sw/points/p0001.csv sw/points/stray.csv
sed 's/pthread_mutex/ticket/' sw/points/p0002.csv > sw/points/p0002.tmpx && mv sw/points/p0002.tmpx sw/points/p0002.csv
sed '1s/,workload,/,wl,/' sw/points/p0003.csv > sw/points/p0003.tmpx && mv sw/points/p0003.tmpx sw/points/p0003.csv
# shellcheck disable=SC2086
$M sweep "$E" --out sw $O --collect >/dev/null 2>"$TMP/err"; st=$?
rows=$(($(wc -l < sw/results.csv) - 1))
[ $st -eq 0 ] && [ "$rows" -eq 6 ] && grep -q "p0099.csv is no.* point" "$TMP/err" &&
	grep -q "stray.csv is no point" "$TMP/err" && grep -q "p0002.csv .*lock 'ticket', the matrix's 'pthread_mutex'" "$TMP/err" &&
	grep -q "p0003.csv .*no column 'workload'" "$TMP/err"
ok $? "--collect leaves out stray files and points of another lock or columns, with a line each ($rows rows, exit $st)"
# shellcheck disable=SC2086
$M sweep "$E" --out sw $O --resume >/dev/null 2>"$TMP/err"; st=$?
rows=$(($(wc -l < sw/results.csv) - 1))
[ $st -eq 0 ] && [ "$rows" -eq 8 ] && grep -q "point p0002's file is not this matrix's point" "$TMP/err"
ok $? "--resume runs a point of another lock again ($rows rows, exit $st)"
rm -f sw/points/p0099.csv sw/points/stray.csv

# --- a worker killed in processes mode -----------------------------------------
kill_one_worker() { # SECONDS KILL_AT WORKLOAD ARGS...: SIGKILL a worker KILL_AT s after both exist
	secs=$1 kill_at=$2; shift 2
	$M run "$@" -m processes -t 2 -s "$secs" --sample-ms 200 -w 0 >/dev/null 2>"$TMP/wd.err" &
	pid=$!
	i=0; while [ $i -lt 50 ] && [ "$(pgrep -P $pid | wc -l)" -lt 2 ]; do sleep 0.1; i=$((i + 1)); done
	sleep "$kill_at"
	victim=$(pgrep -P $pid | head -1); kill -KILL "$victim"
	i=0; while [ $i -lt 150 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	if kill -0 $pid 2>/dev/null; then
		for c in $(pgrep -P $pid); do kill -KILL "$c"; done; kill -KILL $pid; wait $pid 2>/dev/null
		echo "hung $victim"
	else
		wait $pid; echo "$? $victim"
	fi
}
# A model workload sets up its memory before the start gate (page_fault2
# prefaults its file: 1.8 s here), and a worker killed then "died before
# the start": tlb_flush2's set-up is short (its 1 MB), and it is killed 2 s
# into a 4 s run.  Its kernel-shaped work is given (kwork=100): with none
# kept in the fresh state directory the run would first calibrate it in a
# child process of its own, which could be the one killed.
for w in "2 1 lock --lock qspinlock --set cs=1000" "2 1 lock --lock ck_mcs --set cs=1000" \
	 "4 2 tlb_flush2 --set kwork=100"; do
	# shellcheck disable=SC2086
	set -- $(kill_one_worker $w); st=$1 victim=$2
	[ "$st" = 1 ] && grep -q "worker process [01] (pid $victim) died during the run (signal 9" "$TMP/wd.err"
	ok $? "${w#* * }: a SIGKILLed worker ends the run by itself, exit 1 naming it (got $st)"
	[ "$st" = 1 ] || sed 's/^/#   /' "$TMP/wd.err"
done
# The watchdog alone reaps the workers: one killed at the deadline, or
# stopped and killed after it (the parent's blocking waitpid took it
# before the watchdog saw it, and the other spun for 10+ minutes), ends
# the run with exit 1 naming it.  Each run is bounded (15 s, then killed).
fault_worker() { # SECONDS STOP_AT KILL_AT WORKLOAD ARGS...: signal the first worker
	secs=$1 stop_at=$2 kill_at=$3; shift 3
	$M run "$@" -m processes -t 2 -s "$secs" --sample-ms 100 -w 0 >/dev/null 2>"$TMP/wd.err" &
	pid=$!
	i=0; while [ $i -lt 50 ] && [ "$(pgrep -P $pid | wc -l)" -lt 2 ]; do sleep 0.1; i=$((i + 1)); done
	victim=$(pgrep -P $pid | sort -n | head -1)
	if [ "$stop_at" != - ]; then sleep "$stop_at"; kill -STOP "$victim"; fi
	sleep "$kill_at"; kill -KILL "$victim"
	i=0; while [ $i -lt 150 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
	if kill -0 $pid 2>/dev/null; then
		for c in $(pgrep -P $pid); do kill -KILL "$c"; done; kill -KILL $pid; wait $pid 2>/dev/null
		echo "hung $victim"
	else
		wait $pid; echo "$? $victim"
	fi
}
# shellcheck disable=SC2046
set -- $(fault_worker 1 0.3 1.2 lock --lock qspinlock --set cs=1000); st=$1 victim=$2
[ "$st" = 1 ] && grep -q "worker process 0 (pid $victim) died during the run (signal 9" "$TMP/wd.err"
ok $? "a worker stopped mid-run and killed after the deadline: exit 1 naming it (got $st)"
[ "$st" = 1 ] || sed 's/^/#   /' "$TMP/wd.err"
# shellcheck disable=SC2046
set -- $(fault_worker 2 - 1.6 lock --lock qspinlock --set cs=1000); st=$1 victim=$2
[ "$st" = 1 ] && grep -q "worker process 0 (pid $victim) died during the run (signal 9" "$TMP/wd.err"
ok $? "a worker killed near the deadline (1.6 s into 2 s): exit 1 naming it (got $st)"
[ "$st" = 1 ] || sed 's/^/#   /' "$TMP/wd.err"
cd "$OLDPWD" || exit 1
done_testing
