#!/bin/sh
# One spelling per idea across commands (issue 26): -c is --counter and
# -m is --mode wherever they exist, --column and --min-seconds have long
# forms only, worker lists are -t/--threads LIST in run and validate, an
# experiment is given by name or by path everywhere, and run's default
# table fits in 100 columns.  A spelling that went names the new one.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
F=tests/fixtures

expect_usage "compare -c names --column" "say --column NAME" -- \
	$MEMSCALE compare $F/aim9_base.csv $F/aim9_patch.csv -c ops_per_sec
expect_usage "stats -c names --column" "say --column NAME" -- $MEMSCALE stats $F/samples_a.txt -c x
expect_usage "validate -m names --min-seconds" "say --min-seconds S" -- \
	$MEMSCALE validate --counter atomic -m 0.1
expect_exit 0 "stats --column" -- $MEMSCALE stats $F/aim9_base.csv --column ops_per_sec
# (exit 3, inconclusive, is a verdict of a loaded machine, not a spelling)
$MEMSCALE validate --counter atomic --threads 2 --iterations 1000 --min-seconds 0 >$TMP/out 2>&1
st=$?; [ $st -eq 0 ] || [ $st -eq 3 ]; ok $? "validate --min-seconds accepted (exit $st)"
$MEMSCALE validate --counter atomic -t 1,2 --iterations 1000 >$TMP/out 2>&1
st=$?; [ $st -eq 0 ] || [ $st -eq 3 ]; ok $? "validate -t LIST accepted (exit $st)"
grep -q '^== 1 threads' $TMP/out && grep -q '^== 2 threads' $TMP/out
ok $? "... one block per thread count"
expect_usage "validate bad -t list" "bad --threads '2,x'" -- $MEMSCALE validate --counter atomic -t 2,x
# run: -c/--counter and -m/--mode, as in validate
expect_exit 0 "run -c -m" -- $MEMSCALE run lock -c atomic -m threads -t 1 -s 0.05 -w 0 --sample-ms 50
expect_usage "run bad --mode" "mode" -- $MEMSCALE run lock -m sideways -t 1

# an experiment by name or by path
$MEMSCALE published experiments/stats_batch.ini >$TMP/a 2>&1
$MEMSCALE published stats_batch >$TMP/b 2>&1
[ -s $TMP/a ] && cmp -s $TMP/a $TMP/b; ok $? "published by name = by path"
$MEMSCALE sweep experiments/stats_batch.ini --dry-run --seed 1 >$TMP/a 2>&1
$MEMSCALE sweep stats_batch --dry-run --seed 1 >$TMP/b 2>&1
[ -s $TMP/a ] && cmp -s $TMP/a $TMP/b; ok $? "sweep by name = by path"
expect_usage "sweep unknown experiment" "no experiments/nosuch.ini" -- $MEMSCALE sweep nosuch --dry-run
expect_usage "model predict unknown experiment" "unknown experiment 'nosuch'" -- \
	$MEMSCALE model predict nosuch --calib $F/model_calib.txt

# run's default table fits in 100 columns, the rest is in --format csv
$MEMSCALE run page_fault2 -t 1 -s 0.05 -w 0 --sample-ms 50 >$TMP/out 2>$TMP/err
awk 'length($0) > 100 { bad = 1 } END { exit bad }' $TMP/out; ok $? "run table within 100 columns"
grep -q 'more columns: --format csv' $TMP/out; ok $? "the table says where the other columns are"
$MEMSCALE run page_fault2 -t 1 -s 0.05 -w 0 --sample-ms 50 --format csv >$TMP/csv 2>/dev/null
head -1 $TMP/csv | grep -q 'sample_min,sample_max' ; ok $? "csv keeps every column"
done_testing
