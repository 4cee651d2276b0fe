#!/bin/sh
# The lock validator proves its power: two broken controls (the lock
# 'none' and a racy test-and-set) run first and must be caught, every run
# reports whether its threads overlapped, a run whose controls pass is
# inconclusive (exit 3), and the default thread count never
# oversubscribes a spinning lock.
. tests/lib.sh

expect_exit 0 "validate qspinlock with its controls" -- $MEMSCALE validate --lock qspinlock -t 2 -i 20000 --min-seconds 0.1
grep -q "^control none  *caught " "$TMP/out"; ok $? "control 'none' is run and caught"
grep -q "^control racy_tas  *caught " "$TMP/out"; ok $? "control 'racy_tas' is run and caught"
grep -q "^qspinlock  *ok .*overlapped=1 .*contended=[1-9]" "$TMP/out"; ok $? "the lock's run reports that its threads overlapped"

# One acquisition per thread, no minimum duration: the threads hardly
# meet, the controls pass, and the validator must say it proved nothing.
expect_exit 3 "controls not caught: inconclusive" -- \
	$MEMSCALE validate --lock pthread_mutex -t 2 -i 1 --min-seconds 0 --runs 2
grep -q "^inconclusive" "$TMP/out"; ok $? "says inconclusive"
grep -q "^control none  *MISSED" "$TMP/out"; ok $? "names the control that passed"

# Pinned to one CPU, 2 threads (oversubscribed on purpose): the dwell
# inside the lock still lets the controls be caught.
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then
	expect_exit 0 "pinned to one CPU, controls caught" -- \
		taskset -c 0 $MEMSCALE validate --lock pthread_mutex -t 2 -i 1000 --min-seconds 0.2
	expect_usage "default threads never oversubscribe a spinning lock" "oversubscribe" -- \
		taskset -c 0 $MEMSCALE validate --lock ck_anderson
	expect_exit 0 "a sleeping lock is validated with the default threads on one CPU" -- \
		taskset -c 0 $MEMSCALE validate --lock pthread_mutex -i 1000
	grep -q "threads=2 " "$TMP/out"; ok $? "default: 2 threads"
else
	for i in 1 2 3 4 5; do ok 0 "# SKIP taskset unavailable"; done
fi
expect_exit 0 "validate a counter with its control" -- $MEMSCALE validate --counter atomic -t 2 -i 50000
grep -q "^control racy_word  *caught " "$TMP/out"; ok $? "the counters' control (a word added without an atomic) is caught"
expect_usage "one thread cannot show a violation" "2 or more" -- $MEMSCALE validate --lock qspinlock -t 1
expect_usage "bad --runs" "'0'" -- $MEMSCALE validate --lock qspinlock --runs 0
expect_usage "bad --seconds" "'1e400'" -- $MEMSCALE validate --lock qspinlock --seconds 1e400
done_testing
