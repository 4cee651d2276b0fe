#!/bin/sh
# model predict / validate --seed N: the simulator draws each core's phase
# and its spread arrivals from N (predict/sim.c, sim_params.seed).  The
# same seed gives the same answer byte for byte, another seed another
# sample of it (the spread is the simulation's sampling noise), the
# default is seed 1, the ledger's header names the seed and iterations, a
# side's value averages the members N, N+1, ... the iterations allow, and
# a seed outside 1..2^32-1 gets one line and exit 2.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
CAL=tests/fixtures/model_calib.txt
Q="model predict --workload page_fault2 --pair 70a64b7919cb..fefc6e6631ff --target shakeel-52cpu --cpus 52 --calib $CAL --iters 4000 -f csv"

expect_exit 0 "predict --seed 2" -- $MEMSCALE $Q --seed 2
cp "$TMP/out" "$TMP/s2a"
expect_exit 0 "predict --seed 2 again" -- $MEMSCALE $Q --seed 2
cmp -s "$TMP/out" "$TMP/s2a"; ok $? "the same seed, the same row"
expect_exit 0 "predict without --seed" -- $MEMSCALE $Q
cp "$TMP/out" "$TMP/s0"
expect_exit 0 "predict --seed 1" -- $MEMSCALE $Q --seed 1
cmp -s "$TMP/out" "$TMP/s0"; ok $? "the default is seed 1"
# predicted_pct by name: another seed draws another sample
pct() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "predicted_pct") c = i; next }
		 { print $c }' "$1"; }
a=$(pct "$TMP/s0"); b=$(pct "$TMP/s2a")
[ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]; ok $? "seed 1 and seed 2 differ ($a, $b)"

mkdir -p "$TMP/exp"
cp experiments/stats_batch.ini "$TMP/exp/"
expect_exit 0 "validate --seed 7" -- \
	env MEMSCALE_EXPERIMENTS="$TMP/exp" $MEMSCALE model validate --calib $CAL --iters 1000 --seed 7 -f csv
grep -q "^# simulator: 1000 iterations a side, over up to 4 simulations from seed 7$" "$TMP/err"; ok $? "the ledger names its seed and iterations"

# A side's value is the mean of up to 4 simulations with seeds N, N+1, ...
# (predict/predict.h predict_members): as many as the iterations give 400
# per CPU each, so 300000 at 52 CPUs make 4 (300000 / 20800 = 14), at 224
# CPUs 3 (300000 / 89600); --explain shows the first and says so.
E="model predict --workload page_fault2 --pair 70a64b7919cb..fefc6e6631ff --calib $CAL --explain"
expect_exit 0 "explain at 52 CPUs, default iterations, seed 5" -- $MEMSCALE $E --target shakeel-52cpu --cpus 52 --seed 5
[ "$(grep -c "^  the first of the 4 simulations (seeds 5..8) whose mean the prediction is: this one's seed 5$" "$TMP/out")" -eq 2 ]
ok $? "52 CPUs: 4 members, seeds 5..8, on both sides"
expect_exit 0 "explain at 224 CPUs" -- $MEMSCALE $E --target lkp-spr-2sp4 --cpus 224
[ "$(grep -c "^  the first of the 3 simulations (seeds 1..3)" "$TMP/out")" -eq 2 ]
ok $? "224 CPUs: 3 members"
expect_exit 0 "explain with 4000 iterations" -- $MEMSCALE $E --target shakeel-52cpu --cpus 52 --iters 4000
! grep -q "simulations (seeds" "$TMP/out"; ok $? "4000 iterations at 52 CPUs: one simulation, no members line"

for bad in 0 -1 4294967296 x 1.5; do
	$MEMSCALE $Q --seed "$bad" >"$TMP/bad" 2>&1; st=$?
	[ "$st" -eq 2 ] && [ "$(wc -l <"$TMP/bad")" -eq 1 ] && grep -q "bad --seed" "$TMP/bad"
	ok $? "--seed '$bad': one line and exit 2"
done
done_testing
