#!/bin/sh
# model predict / validate --seed N: the simulator draws each core's phase
# and its spread arrivals from N (predict/sim.c, sim_params.seed).  The
# same seed gives the same answer byte for byte, another seed another
# sample of it (the spread is the simulation's sampling noise), the
# default is seed 1, the ledger's header names the seed and iterations,
# and a seed outside 1..2^32-1 gets one line and exit 2.
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
grep -q "^# simulator: 1000 iterations a side, seed 7 " "$TMP/err"; ok $? "the ledger names its seed and iterations"

for bad in 0 -1 4294967296 x 1.5; do
	$MEMSCALE $Q --seed "$bad" >"$TMP/bad" 2>&1; st=$?
	[ "$st" -eq 2 ] && [ "$(wc -l <"$TMP/bad")" -eq 1 ] && grep -q "bad --seed" "$TMP/bad"
	ok $? "--seed '$bad': one line and exit 2"
done
done_testing
