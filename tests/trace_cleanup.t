#!/bin/sh
# Traced runs: --trace wants a new or empty directory, and a traced run
# killed with SIGKILL leaves an LTTng session (and maybe the session
# daemon it started) that the next traced run cleans away.
. tests/lib.sh

mkdir -p "$TMP/full" && echo x >"$TMP/full/keep"
expect_usage "--trace into a non-empty directory" "not empty" -- \
	$MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 --trace "$TMP/full"
[ -f "$TMP/full/keep" ] && [ ! -e "$TMP/full/ust" ]; ok $? "nothing was written into it"

if ! command -v lttng >/dev/null 2>&1 || ! command -v lttng-sessiond >/dev/null 2>&1; then
	echo "# SKIP traced runs: lttng-tools not installed"
	done_testing; exit $?
fi
if ! $MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 --trace "$TMP/probe" >/dev/null 2>"$TMP/err"; then
	echo "# SKIP traced runs: no LTTng session possible here (or TRACE=0):"; sed 's/^/#   /' "$TMP/err"
	done_testing; exit $?
fi
$MEMSCALE run lock --lock pthread_mutex -t 1 -s 60 --sample-ms 100 --trace "$TMP/t1" >/dev/null 2>&1 &
victim=$!
i=0
while [ $i -lt 100 ] && ! lttng list 2>/dev/null | grep -q "memscale-$victim-"; do sleep 0.1; i=$((i + 1)); done
lttng list 2>/dev/null | grep -q "memscale-$victim-"; ok $? "the traced run has its session"
kill -KILL $victim; wait $victim 2>/dev/null
expect_exit 0 "the next traced run" -- \
	$MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 --sample-ms 50 -w 0 --trace "$TMP/t2"
! lttng list 2>/dev/null | grep -q "memscale-$victim-"; ok $? "the killed run's session is gone"
done_testing
