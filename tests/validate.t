#!/bin/sh
# The lock validator proves its power: two always-broken controls (the
# lock 'none' and a racy test-and-set) and the rarely-broken sensitivity
# control (tas_skip1000, locks/tas_skip.c) run first and must be caught,
# every run reports whether its threads overlapped, a run whose controls
# pass is inconclusive (exit 3), a run stops at its first violation, and
# the default thread count never oversubscribes a spinning lock.
. tests/lib.sh

# Two default runs: the sensitivity control gets both (it is missed in
# about 1 run of 100 at 2 threads, so in both far more rarely).
expect_exit 0 "validate qspinlock with its controls" -- $MEMSCALE validate --lock qspinlock -t 2 --runs 2
grep -q "^control none  *caught " "$TMP/out"; ok $? "control 'none' is run and caught"
grep -q "^control racy_tas  *caught " "$TMP/out"; ok $? "control 'racy_tas' is run and caught"
grep -q "^control tas_skip1000  *caught " "$TMP/out"; ok $? "the 1-in-1000 sensitivity control is run and caught"
grep -q "^qspinlock  *ok .*overlapped=2 .*contended=[1-9]" "$TMP/out"; ok $? "the lock's runs report that its threads overlapped"
# (fewer than 100: on a loaded machine the other thread may add some
# before it sees the stop, and 1-4 failed once in make check; an
# unstopped run counts thousands)
grep -Eq "^control none  *caught .* violations=[1-9][0-9]? " "$TMP/out"
ok $? "a run stops at its first violation (a handful counted, not thousands)"

# The control as the lock under test: the default runs catch it (three
# runs here, so that a loaded machine does not make the test flaky).
expect_exit 1 "validate --lock tas_skip1000 fails" -- $MEMSCALE validate --lock tas_skip1000 -t 2 --runs 3
grep -q "^tas_skip1000  *FAIL .*failed=1 " "$TMP/out"; ok $? "reported FAIL, and the runs stopped at the failing one"
$MEMSCALE list locks >"$TMP/list"
! grep -q "^tas_skip" "$TMP/list"; ok $? "the controls are not offered as locks by list locks"
expect_usage "min-seconds above the time limit" "min-seconds 5 is longer than the time limit --seconds 1" -- \
	$MEMSCALE validate --lock qspinlock --min-seconds 5 --seconds 1
expect_usage "min-seconds above the default time limit" "is longer than the time limit" -- \
	$MEMSCALE validate --lock qspinlock --min-seconds 100
expect_exit 3 "validate --lock none: nothing shown, inconclusive" -- $MEMSCALE validate --lock none -t 2 -i 1000 --min-seconds 0
grep -q "^none  *skipped" "$TMP/out"; ok $? "says why"

# One acquisition per thread, no minimum duration: the threads hardly
# meet, the controls pass, and the validator must say it proved nothing.
expect_exit 3 "controls not caught: inconclusive" -- \
	$MEMSCALE validate --lock pthread_mutex -t 2 -i 1 --min-seconds 0 --runs 2
grep -q "^inconclusive" "$TMP/out"; ok $? "says inconclusive"
# (which control passes is up to the scheduler: under load the two single
# acquisitions can overlap and catch 'none' while racy_tas passes)
grep -Eq "^control [a-z0-9_]+ +MISSED .* caught=0 " "$TMP/out"; ok $? "names a control that passed"

# Pinned to one CPU, 2 threads (oversubscribed on purpose): the dwell
# inside the lock still lets the always-broken controls be caught; the
# 1-in-1000 one needs the threads to run at once, which one CPU never
# does, so the verdict is 0 or, honestly, 3 naming only that control.
one_cpu_verdict() {
	st=$1
	[ "$st" -eq 0 ] || { [ "$st" -eq 3 ] && [ "$(grep -c MISSED "$TMP/out")" -eq 1 ] &&
		grep -q "^control tas_skip1000  *MISSED" "$TMP/out"; }
}
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
	taskset -c 0 $MEMSCALE validate --lock pthread_mutex -t 2 -i 1000 --min-seconds 0.2 \
		--oversubscribe >"$TMP/out" 2>&1
	one_cpu_verdict $?; ok $? "pinned to one CPU: exit 0, or 3 for the rare control only"
	grep -q "^control none  *caught" "$TMP/out" && grep -q "^control racy_tas  *caught" "$TMP/out"
	ok $? "pinned to one CPU, the always-broken controls caught"
	expect_usage "default threads never oversubscribe a spinning lock" "oversubscribe" -- \
		taskset -c 0 $MEMSCALE validate --lock ck_anderson
	taskset -c 0 $MEMSCALE validate --lock pthread_mutex -i 1000 --min-seconds 0.2 >"$TMP/out" 2>&1
	one_cpu_verdict $?; ok $? "a sleeping lock is validated with the default threads on one CPU"
	grep -q "^pthread_mutex  *ok  *threads=2 " "$TMP/out"; ok $? "default: 2 threads, exclusion held"
else
	for i in 1 2 3 4 5; do ok 0 "# SKIP taskset unavailable"; done
fi
expect_exit 0 "validate a counter with its control" -- $MEMSCALE validate --counter atomic -t 2 -i 50000
grep -q "^control racy_word  *caught " "$TMP/out"; ok $? "the counters' control (a word added without an atomic) is caught"
expect_usage "--all with --lock (it narrowed to one lock)" "--all covers every lock.*--lock 'ticket'" -- \
	$MEMSCALE validate --all --lock ticket
expect_usage "--all with --counter" "--all covers every lock.*--counter 'atomic'" -- \
	$MEMSCALE validate --all --counter atomic
# The controls obey the locks' rule: more threads than CPUs spinning is
# refused without --oversubscribe (they spun 200 threads on 2 CPUs).
over=$(( $(nproc) + 1 ))
expect_exit 0 "a sleeping lock at $over threads on $(nproc) CPUs" -- \
	$MEMSCALE validate --lock pthread_mutex -t $over -i 1000 --min-seconds 0.1 --seconds 2
grep -q "^control racy_tas  *skipped ($over threads spinning" "$TMP/out" &&
	grep -q "^control tas_skip1000  *skipped" "$TMP/out" && grep -q "^control none  *caught" "$TMP/out"
ok $? "... its spinning controls skipped without --oversubscribe, the others run"
expect_usage "one thread cannot show a violation" "2 or more" -- $MEMSCALE validate --lock qspinlock -t 1
expect_usage "bad --runs" "'0'" -- $MEMSCALE validate --lock qspinlock --runs 0
expect_usage "bad --seconds" "'1e400'" -- $MEMSCALE validate --lock qspinlock --seconds 1e400
done_testing
