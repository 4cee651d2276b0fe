#!/bin/sh
# Knobs say what ran (issue 22.7): a model knob set by the user that the
# selected code path does not read is refused with one line naming the
# knob and the path (exit 2); the knobs a kernel profile sets are recorded
# as the profile's in the run's JSON.
. tests/lib.sh
RUN="$MEMSCALE run page_fault2 -t 1 -s 0.05 --sample-ms 50 -w 0 -a none"

expect_usage "stats_batch on the rstat default" "stats_batch.*stats=rstat" -- $RUN --set stats_batch=512
expect_exit 0 "stats_batch on the v5.10 fold (it reads it)" -- $RUN --set stats=v5.10_atomic --set stats_batch=512
expect_exit 0 "stats_batch on a v5.11 kernel profile" -- $RUN --kernel v5.11 --set stats_batch=512
expect_usage "flush_ms on the v5.10 fold" "flush_ms.*stats=v5.10_atomic" -- $RUN --set stats=v5.10_atomic --set flush_ms=2000
expect_exit 0 "flush_ms on an rstat design" -- $RUN --set stats=rstat_global --set flush_ms=2000
expect_usage "layout_file without a file layout" "layout_file.*layout=" -- $RUN --set layout_file=/dev/null
# A kernel profile's own presets are never refused: its stats_batch on rstat is its.
expect_exit 0 "a profile's presets are not the user's" -- $RUN --kernel v6.7

expect_exit 0 "run with a profile and one knob over it" -- \
	$RUN --kernel v5.11 --set charge_batch=32 -o "$TMP/r.csv"
grep -q '"knobs_set": *{ *"charge_batch": *"32"' "$TMP/r.json" || grep -q '"charge_batch": "32"' "$TMP/r.json"
ok $? "the user's knob is recorded as set"
tr -d '\n' <"$TMP/r.json" | grep -Eq '"knobs_from_kernel": *\{[^}]*"stats_batch": *"32"'
ok $? "the profile's knobs are recorded as the profile's"
tr -d '\n' <"$TMP/r.json" | grep -Eq '"knobs_from_kernel": *\{[^}]*"charge_batch"'
[ $? -ne 0 ]; ok $? "a knob set over the profile is not the profile's"

# The same refusal in a prediction's pair.
expect_usage "predict: a pair side sets an unread knob" "stats_batch" -- \
	$MEMSCALE model predict --workload page_fault2 --pair v6.7..kernel=v6.7,stats_batch=512 \
	--target lkp-skl-fpga01 --cpus 52 --calib /nonexistent
done_testing
