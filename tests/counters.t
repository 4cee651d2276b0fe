#!/bin/sh
# The counter workload, validator and listing from the command line: every
# listed scheme runs and passes its own invariants, bad thresholds and counter
# knobs exit 2 with one line naming the value.  2 workers at most.
. tests/lib.sh
RUN="$MEMSCALE run counter -t 2 -s 0.2 --sample-ms 100 -w 0 --lock pthread_mutex"

$MEMSCALE list counters >"$TMP/list" 2>&1
for c in atomic percpu_batch percpu_batch_dynamic percpu_counter vmstat sloppy percpu_exact; do
	grep -q "^$c " "$TMP/list"; ok $? "list counters shows $c"
done
# Every counter `memscale list counters` shows runs and passes its
# validator, so a new counter file is tested without editing this one.
for c in $(awk 'NR > 1 { print $1 }' "$TMP/list"); do
	expect_exit 0 "run counter --counter $c" -- $RUN --counter $c
	grep -q "max_error_obse" "$TMP/out"; ok $? "$c reports max_error_observed"
	expect_exit 0 "validate --counter $c" -- $MEMSCALE validate --counter $c -t 2 -i 50000
done
for p in inc incdec random; do
	expect_exit 0 "percpu_batch pattern=$p delta=5 read_ratio=10" -- \
		$RUN --counter percpu_batch --set pattern=$p --set delta=5 --set read_ratio=10
done
for t in 32 64 512; do
	expect_exit 0 "percpu_batch threshold=$t" -- $RUN --counter percpu_batch --set threshold=$t
done
expect_exit 0 "processes mode" -- $RUN --counter percpu_counter -m processes
expect_exit 0 "no reader" -- $RUN --counter vmstat --set reader=0

# CSV: exact read equals the true sum, threshold column as set.
$RUN --counter percpu_batch --set threshold=64 --format csv >"$TMP/csv" 2>"$TMP/err"
awk -F, 'NR==1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ exit !($col["final_exact"] == $col["final_true"] && $col["eff_threshold"] == 64 &&
		 $col["error_bound"] == 128 && $col["max_error_observed"] <= 128) }' "$TMP/csv"
ok $? "CSV: final_exact == final_true, threshold 64, bound 128, observed <= bound"

expect_usage "threshold=0" "threshold" -- $RUN --counter percpu_batch --set threshold=0
expect_usage "negative threshold" "'-5'" -- $RUN --counter percpu_batch --set threshold=-5
expect_usage "non-numeric threshold" "'abc'" -- $RUN --counter percpu_batch --set threshold=abc
expect_usage "empty threshold" "threshold" -- $RUN --counter percpu_batch --set threshold=
expect_usage "threshold too large" "'2000000'" -- $RUN --counter percpu_batch --set threshold=2000000
expect_usage "threshold_limit=0" "threshold_limit" -- $RUN --counter percpu_batch_dynamic --set threshold_limit=0
expect_usage "bad pattern" "'sideways'" -- $RUN --counter percpu_batch --set pattern=sideways
expect_usage "read_ratio 101" "'101'" -- $RUN --counter percpu_batch --set read_ratio=101
expect_usage "delta 0" "delta" -- $RUN --counter percpu_batch --set delta=0
expect_usage "reader 2" "reader" -- $RUN --counter percpu_batch --set reader=2
expect_usage "unknown counter" "nosuchcounter" -- $RUN --counter nosuchcounter
expect_usage "validate unknown counter" "nosuch" -- $MEMSCALE validate --counter nosuch
done_testing
