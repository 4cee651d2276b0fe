#!/bin/sh
# The model workloads: each one listed runs at 1 and 2 workers (threads, and a few as
# processes) with its invariants holding; `--format wis` prints
# will-it-scale's lines; bad model knob values exit 2 naming the knob and
# its allowed values.  (`memscale layout` and its audit: tests/layout_print.t.)
. tests/lib.sh
RUN="$MEMSCALE run -s 0.1 --sample-ms 50 -w 1 -a none"
$MEMSCALE list workloads >"$TMP/list" 2>&1
for wl in page_fault1 page_fault2 page_fault3 fallocate1 fallocate2 tlb_flush2 \
	  malloc1 lru_shm lru_file_readtwice aim9_page_test aim9_brk_test; do
	grep -q "^$wl  *model[, ]" "$TMP/list"; ok $? "list workloads shows model workload $wl"
done
# Every model workload `memscale list workloads` shows (FLAGS starting with
# "model") runs, so a new workload file is tested without editing this one.
for wl in $(awk 'NR > 1 && $2 ~ /^model(,|$)/ { print $1 }' "$TMP/list"); do
	expect_exit 0 "$wl at 1 and 2 workers, invariants hold" -- $RUN $wl -t 1,2
done
# The other workloads that are neither model nor kernel ones (micro:
# lock, counter, and any new one) run with their defaults as well.
for wl in $(awk 'NR > 1 && $2 ~ /^micro(,|$)/ { print $1 }' "$TMP/list"); do
	expect_exit 0 "micro workload $wl at 1 and 2 workers" -- $RUN $wl -t 1,2
done
for wl in page_fault2 lru_file_readtwice fallocate1; do
	expect_exit 0 "$wl in process mode, 2 containers" -- \
		$RUN $wl -t 2 -m processes --set containers=2 --set lru_lock=pgdat
done
expect_exit 0 "page_fault2 metrics are reported" -- $RUN page_fault2 -t 1 --format csv
grep -q "charges_per_op" "$TMP/out" && grep -q "lock_acq_per_op" "$TMP/out" \
	&& grep -q "stat_updates_per_op" "$TMP/out"
ok $? "per-op model metrics in the csv"

# will-it-scale output: testcase:, warmup, min:N max:N total:N lines,
# measurement, average:N (will-it-scale main.c @75f66e4)
expect_exit 0 "--format wis runs" -- $MEMSCALE run page_fault2 -t 1 -s 0.2 \
	--sample-ms 50 -w 2 -a none --format wis
awk '
	NR == 1 && /^testcase:/ { t = 1; next }
	/^tasks:[0-9]+$/ { next }
	/^warmup$/ { w = 1; next }
	/^min:[0-9]+ max:[0-9]+ total:[0-9]+$/ { s++; next }
	/^measurement$/ { if (s == 2) m = 1; next }
	/^average:[0-9]+$/ { a = 1; next }
	{ bad = 1 }
	END { exit !(t && w && m && a && s >= 4 && !bad) }' "$TMP/out"
ok $? "wis output parses like will-it-scale's"

expect_usage "bad layout" "layout.*v6.9|v6.10|fixed|fixed_padded" -- \
	$RUN page_fault2 -t 1 --set layout=v7.0
expect_usage "bad stats path" "stats.*rstat_permemcg_cached" -- \
	$RUN page_fault2 -t 1 --set stats=percpu
expect_usage "bad charge_batch" "charge_batch.*32|64" -- \
	$RUN page_fault2 -t 1 --set charge_batch=48
expect_usage "bad lru_lock" "lru_lock.*pgdat|lruvec" -- \
	$RUN page_fault2 -t 1 --set lru_lock=zone
expect_usage "depth out of range" "depth" -- $RUN page_fault2 -t 1 --set depth=99
expect_usage "containers with depth 0" "containers" -- \
	$RUN page_fault2 -t 1 --set depth=0 --set containers=2

done_testing
