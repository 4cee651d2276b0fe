#!/bin/sh
# The lock algorithms from the command line: listed with their flags,
# validated together, and run by the harness as threads and processes.
# Every lock `memscale list locks` shows is validated and run, so a new
# lock file is tested without editing this one.
. tests/lib.sh

expect_exit 0 "list locks" -- $MEMSCALE list locks
cp "$TMP/out" "$TMP/locks"
LOCKS=$(awk 'NR > 1 { print $1 }' "$TMP/locks")
UNSAFE=$(awk 'NR > 1 && $2 ~ /(^|,)unsafe(,|$)/ { print $1 }' "$TMP/locks")
for l in ck_anderson ck_cas ck_clh ck_dec ck_fas ck_mcs ck_ticket ck_ticket_pb \
	 pthread_spin qspinlock ttas_backoff; do
	grep -q "^$l " "$TMP/out"; ok $? "list locks shows $l"
done
grep -q "^qspinlock  *fair,queue,ctx,spins,trylock " "$TMP/out"; ok $? "qspinlock flags: fair,queue,ctx,spins,trylock"

# Exit 3 is "inconclusive": a control was not caught or a run never
# overlapped (a loaded VM can keep two threads apart); that says nothing
# about the locks, so it is tried once more before the verdict.  These
# runs are short (20000 acquisitions), too short to catch the 1-in-1000
# sensitivity control reliably: its miss alone is the honest exit 3 of a
# short run, accepted here, where the question is every lock's exclusion
# (tests/validate.t holds the default runs to catching it).
only_sensitivity_missed() {
	[ "$(grep -c 'MISSED\|INCONCLUSIVE' "$TMP/out")" -eq 1 ] &&
		grep -q "^control tas_skip1000  *MISSED" "$TMP/out"
}
for try in 1 2; do
	$MEMSCALE validate --all --threads 2 --iterations 20000 >"$TMP/out" 2>"$TMP/err"
	st=$?
	[ $st -eq 3 ] && only_sensitivity_missed && st=0
	[ $st -eq 3 ] || break
	echo "# validate --all inconclusive (try $try):"; grep 'MISSED\|INCONCLUSIVE' "$TMP/out" | sed 's/^/#   /' | head -3
done
[ $st -eq 0 ]; ok $? "validate --all at 2 threads (exit $st, want 0, or 3 for the rare control only)"
! grep -q FAIL "$TMP/out"; ok $? "no lock reported FAIL"
n=$(grep -c "acquisitions=" "$TMP/out")
[ "$n" -ge 12 ]; ok $? "every safe lock validated ($n)"
grep -q "^none  *skipped" "$TMP/out"; ok $? "the unsafe baseline is skipped"
for l in $LOCKS; do
	if echo "$UNSAFE" | grep -qx "$l"; then
		grep -q "^$l  *skipped" "$TMP/out"; ok $? "validate --all skips unsafe $l"
	else
		grep -q "^$l  *ok  *threads=2 .* overlapped=1 acquisitions=[1-9]" "$TMP/out"
		ok $? "validate --all: $l ok"
	fi
done

# Every listed lock runs under the harness, as threads and as processes
# (the lock then lives in the shared arena), and the row names it.
for l in $LOCKS; do
	for m in threads processes; do
		expect_exit 0 "run lock --lock $l, 2 $m" -- \
			$MEMSCALE run lock --lock $l -t 2 -s 0.1 --sample-ms 50 -w 0 -m $m --format csv
		grep -q ",$l," "$TMP/out"; ok $? "$l $m: result row names the lock"
	done
done

# The default lock of `run` is qspinlock; process mode shares it via the arena.
expect_exit 0 "run lock (default qspinlock), 2 processes" -- \
	$MEMSCALE run lock -t 2 -s 0.2 --sample-ms 100 -m processes --format csv
grep -q ",qspinlock," "$TMP/out"; ok $? "result row names qspinlock"
expect_usage "validate unknown lock" "bogus_lock" -- $MEMSCALE validate --lock bogus_lock
done_testing
