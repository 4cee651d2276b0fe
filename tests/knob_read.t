#!/bin/sh
# Knobs say what ran (issue 22.7): a knob set by the user (model, a
# workload's, the kernel backend's, a counter's) that the selected code
# path does not read is refused with one line naming the knob and the
# path (exit 2), also by sweep --dry-run; the knobs a kernel profile sets are recorded
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

# --set in the one-question form holds for both sides and changes what
# runs (40 containers relieve a pgdat lock the lruvec split removes);
# one a side's own settings replace, an unread one, or one given to a
# verb that takes its settings elsewhere is refused.
CAL=results-reference/vm-2cpu/calib-quiet.txt
Q="$MEMSCALE model predict --workload lru_file_readtwice --pair v5.10..v5.11 --target bdw-2s-40t --cpus 40 --calib $CAL -f csv"
one=$($Q 2>/dev/null | awk -F, 'NR==2{print $7}')
forty=$($Q --set containers=40 2>"$TMP/set.err" | awk -F, 'NR==2{print $7}')
awk -v a="$one" -v b="$forty" 'BEGIN{exit !(a != "" && b != "" && b - a > 10)}'
ok $? "predict --set containers=40 is applied: the prediction moves ($one% -> $forty%)"
grep -q '^# both sides: containers=40 (--set)' "$TMP/set.err"
ok $? "the shared settings are printed with the row"
expect_usage "predict: --set replaced by a side's profile" "kernel=v6.9 is replaced by side A" -- \
	$Q --set kernel=v6.9
expect_usage "predict: --set of a knob the path does not read" "stats_batch" -- \
	$MEMSCALE model predict --workload page_fault2 --pair v6.7..8d59d2214c --target lkp-skl-fpga01 \
	--cpus 52 --calib /nonexistent --set stats_batch=512
expect_usage "validate: --set is not read" "not read by validate" -- \
	$MEMSCALE model validate --calib /nonexistent --set containers=3
expect_usage "predict EXPERIMENT: --set is not read" "EXPERIMENT: --set containers=3 is not read" -- \
	$MEMSCALE model predict layout_false_sharing --set containers=3

# Not only model knobs: another workload's knob, the kernel backend's, a
# counter's that the selected counter does not read, a model knob on a
# microbenchmark.  Each is refused before anything runs, naming the knob
# and the path.
expect_usage "a lock-workload knob on a model run" "'cs'.*workload page_fault2" -- $RUN --set cs=200
expect_usage "a kernel-backend knob on a model run" "'ksize_mb'.*workload page_fault2 (memcg model)" -- \
	$RUN --set ksize_mb=64
expect_usage "a counter-workload knob on the lock workload" "'delta'.*workload lock" -- \
	$MEMSCALE run lock -t 1 -s 0.05 --sample-ms 50 -w 0 -a none --set delta=3
expect_usage "a model knob on the lock workload" "'depth'.*workload lock (microbenchmark)" -- \
	$MEMSCALE run lock -t 1 -s 0.05 --sample-ms 50 -w 0 -a none --set depth=2
CRUN="$MEMSCALE run counter -t 1 -s 0.05 --sample-ms 50 -w 0 -a none"
expect_usage "threshold on a counter that has none" "'threshold'.*counter atomic" -- \
	$CRUN --counter atomic --set threshold=64
expect_exit 0 "threshold on percpu_batch (it reads it)" -- $CRUN --counter percpu_batch --set threshold=64
expect_exit 0 "the lock workload's own knob" -- \
	$MEMSCALE run lock -t 1 -s 0.05 --sample-ms 50 -w 0 -a none --set cs=20

# sweep --dry-run: per point what would run and the knobs as the path
# reads them (a profile's marked as the profile's); nothing runs.
cat > "$TMP/ok.ini" <<'INI'
[experiment]
name = dry_ok
workloads = page_fault2
workers = 1
seconds = 0.05
[variant base]
kernel = v5.11
[variant patch]
kernel = v5.11
charge_batch = 64
INI
expect_exit 0 "dry run of a model experiment" -- $MEMSCALE sweep "$TMP/ok.ini" --dry-run
cp "$TMP/out" "$TMP/dry"
printf '[experiment]\nname = dry_lock\nworkloads = lock\nworkers = 1\n[variant base]\nkernel = v5.11\n' > "$TMP/lock.ini"
expect_exit 0 "dry run of a lock experiment" -- $MEMSCALE sweep "$TMP/lock.ini" --dry-run
cat "$TMP/out" >> "$TMP/dry"
grep 'workload=page_fault2 variant=base' "$TMP/dry" | grep -q 'mode=[a-z]* .*knobs:.* lru_batch=15\[kernel v5.11\]'
ok $? "a profile's knob is marked as the profile's"
grep 'workload=page_fault2 variant=patch' "$TMP/dry" | grep -q ' charge_batch=64 '
ok $? "a knob set over the profile is the point's own"
grep 'workload=lock' "$TMP/dry" | grep -q 'knobs:.* cs=0'
ok $? "the lock workload's point lists the knobs it reads"
! grep 'workload=lock' "$TMP/dry" | grep -q 'charge_batch'
ok $? "and not the model's"
[ ! -e results ] || [ -z "$(find results -name 'dry_ok*' 2>/dev/null)" ]; ok $? "a dry run writes no results"
cat > "$TMP/bad.ini" <<'INI'
[experiment]
name = dry_bad
workloads = page_fault2
workers = 1
[variant base]
[variant patch]
cs = 200
INI
# a model knob of a variant reaches a lock-workload point: refused
printf '[experiment]\nname = dry_mixed\nworkloads = page_fault2, lock\nworkers = 1\n[variant base]\n[variant patch]\ncharge_batch = 32\n' > "$TMP/mixed.ini"
expect_usage "dry run: a model variant over a lock-workload point" "'charge_batch'.*workload lock" -- \
	$MEMSCALE sweep "$TMP/mixed.ini" --dry-run
# On a counter axis the path is what varies: threshold under atomic is
# named as not read, not refused (experiments/counters.ini).
expect_exit 0 "dry run of the counter study" -- $MEMSCALE sweep experiments/counters.ini --quick --dry-run
grep 'counter=atomic' "$TMP/out" | grep -q 'threshold=32(not read by this counter)'
ok $? "a threshold the atomic counter does not read is named as not read"
expect_usage "dry run: a variant's knob the path does not read" "'cs'.*workload page_fault2" -- \
	$MEMSCALE sweep "$TMP/bad.ini" --dry-run
printf '[experiment]\nname = dry_bad2\nworkloads = page_fault2\nworkers = 1\n[variant base]\n[axis]\nstats_batch = 32, 512\n' > "$TMP/bad2.ini"
expect_usage "dry run: an axis knob the stats design does not read" "'stats_batch'.*stats=rstat" -- \
	$MEMSCALE sweep "$TMP/bad2.ini" --dry-run
done_testing
