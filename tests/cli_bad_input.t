#!/bin/sh
# Bad input: one clear line on stderr naming the bad value, exit status 2.
. tests/lib.sh
expect_usage "unknown command" "frobnicate" -- $MEMSCALE frobnicate
expect_usage "unknown lock" "nosuchlock" -- $MEMSCALE run lock --lock nosuchlock -t 1 -s 0.1
expect_usage "unknown workload" "nosuchwl" -- $MEMSCALE run nosuchwl -t 1
expect_usage "empty thread list" "threads" -- $MEMSCALE run lock --lock none -t ""
expect_usage "zero threads" "'0'" -- $MEMSCALE run lock --lock none -t 0
expect_usage "negative threads" "'-3'" -- $MEMSCALE run lock --lock none -t -3
expect_usage "non-numeric threads" "'abc'" -- $MEMSCALE run lock --lock none -t abc
expect_usage "absurd threads" "'100000000'" -- $MEMSCALE run lock --lock none -t 100000000
expect_usage "backwards range" "'8-1'" -- $MEMSCALE run lock --lock none -t 8-1
expect_usage "zero seconds" "seconds" -- $MEMSCALE run lock --lock none -t 1 -s 0
expect_usage "negative seconds" "seconds" -- $MEMSCALE run lock --lock none -t 1 -s -1
expect_usage "unknown option" "--bogus" -- $MEMSCALE run lock --bogus
expect_usage "unknown knob" "nosuchknob" -- $MEMSCALE run lock --lock none -t 1 --set nosuchknob=1
expect_usage "bad knob value" "lines" -- $MEMSCALE run lock --lock none -t 1 --set lines=-4
expect_usage "bad mode" "sideways" -- $MEMSCALE run lock --lock none -t 1 -m sideways
expect_usage "validate unknown lock" "nosuch" -- $MEMSCALE validate --lock nosuch
expect_usage "list unknown kind" "gizmos" -- $MEMSCALE list gizmos
expect_exit 0 "--help exits 0" -- $MEMSCALE run --help
grep -q "usage: memscale run" "$TMP/out"; ok $? "run --help prints usage"
done_testing
