#!/bin/sh
# bench_predict.sh - make bench's prediction figures (issue 23): the wall
# time of one prediction at 224 CPUs and of `model validate` over every
# published row, on the test calibration.  Prints them; asserts nothing
# (timings on a shared machine are noisy).  Usage: bench_predict.sh MEMSCALE
set -eu
M=${1:-bin/memscale}
CAL=tests/fixtures/model_calib.txt
now() { date +%s.%N; }
t0=$(now)
"$M" model predict --workload page_fault2 --pair v6.9..70a64b7919cb --target lkp-spr-2sp4 \
	--cpus 224 --calib "$CAL" -f csv >/dev/null 2>&1
t1=$(now)
"$M" model validate --calib "$CAL" >/dev/null 2>&1
t2=$(now)
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
	printf("one prediction at 224 CPUs (page_fault2 v6.9..70a64b7919cb on lkp-spr-2sp4, with its band): %.2f s (target < 2 s)\n", b - a)
	printf("model validate over every published row: %.2f s (target < 60 s on 2 cores)\n", c - b) }'
