#!/bin/sh
# One writer per output: a sweep locks its --out directory, and every
# command writing an output file (run -o, merge, model calibrate --out)
# the lock file .NAME.lock beside it (flock, released by the kernel
# however the holder ends); a second writer exits 2 with one line naming
# the holder's pid.
. tests/lib.sh

# wait_locked PATH: until some process holds a flock on PATH (5 s at most)
wait_locked() {
	ino=$(stat -c %i "$1" 2>/dev/null) || ino=none
	i=0
	while [ $i -lt 50 ]; do
		grep -q " FLOCK .*:$ino " /proc/locks 2>/dev/null && return 0
		sleep 0.1
		ino=$(stat -c %i "$1" 2>/dev/null) || ino=none
		i=$((i + 1))
	done
	return 1
}

$MEMSCALE run lock --lock none -t 1 -s 20 -w 0 --sample-ms 100 -o "$TMP/a.csv" >/dev/null 2>&1 &
first=$!
wait_locked "$TMP/.a.csv.lock"; ok $? "the first run holds the lock beside its CSV"
expect_usage "a second run into the same CSV" "being written by pid $first" -- \
	$MEMSCALE run lock --lock none -t 1 -s 0.1 -o "$TMP/a.csv"
# merge replaces its OUT whole: into a CSV a run is writing it is refused,
# and the run's rows stay (issue 36: merge replaced the file, 33 rows lost)
$MEMSCALE run lock --lock none -t 1 -s 0.05 -w 0 --sample-ms 50 -o "$TMP/in.csv" >/dev/null 2>&1
before=$(wc -l < "$TMP/a.csv")
expect_usage "merge into a CSV a run is writing" "merge: '$TMP/a.csv' is being written by pid $first" -- \
	$MEMSCALE merge "$TMP/a.csv" "$TMP/in.csv"
[ "$(wc -l < "$TMP/a.csv")" -ge "$before" ] && [ "$(grep -c '^workload,' "$TMP/a.csv")" -le 1 ]
ok $? "the run's CSV is left alone"
ln -s /etc/passwd "$TMP/.b.csv.lock"
expect_usage "a lock file that is a symbolic link" "lock file" -- \
	$MEMSCALE merge "$TMP/b.csv" "$TMP/in.csv"
kill -TERM $first; wait $first
[ "$(grep -c '^workload,' "$TMP/a.csv")" -le 1 ]; ok $? "the CSV holds at most one header"
expect_exit 0 "after the first ends, the CSV takes new rows" -- \
	$MEMSCALE run lock --lock none -t 1 -s 0.05 -w 0 --sample-ms 50 -o "$TMP/a.csv"

$MEMSCALE sweep tests/fixtures/lock_ab.ini --out "$TMP/sw" -O seconds=20 -O warmup=0 >/dev/null 2>&1 &
first=$!
wait_locked "$TMP/sw"; ok $? "the first sweep holds a lock on its directory"
expect_usage "a second sweep into the same directory" "being written by pid $first" -- \
	$MEMSCALE sweep tests/fixtures/lock_ab.ini --out "$TMP/sw" --resume
expect_usage "--collect while the sweep runs" "being written by pid $first" -- \
	$MEMSCALE sweep tests/fixtures/lock_ab.ini --out "$TMP/sw" --collect
t0=$(date +%s)
kill -TERM $first; wait $first; st=$?
[ $st -eq 130 ]; ok $? "SIGTERM ends the sweep with status 130 (got $st)"
[ $(( $(date +%s) - t0 )) -le 5 ]; ok $? "and promptly, not after the 20 s point (a bound, not a speed)"
done_testing
