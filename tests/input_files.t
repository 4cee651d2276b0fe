#!/bin/sh
# Input files as others make them (issue 25 items 9 and 11): a FIFO or a
# device is refused at once by every command that reads a file (none
# blocks), a UTF-8 byte-order mark is skipped, a NUL byte refused, CR-only
# line ends read; statistics refuse samples a harmonic mean or a double
# cannot hold; compare never guesses which CSV configuration a plain file
# is compared with; merge refuses one file given twice.
. tests/lib.sh

T="timeout 20"
mkfifo "$TMP/pipe"
CAL=tests/fixtures/model_calib.txt
printf 'workload,workers,ops_per_sec\nw,1,5\nw,1,6\n' >"$TMP/one.csv"
# Nothing writes to the FIFO: a command that opened it for reading would
# wait forever (timeout: exit 124, which is not 2).
for spec in "stats:stats PIPE" "compare:compare PIPE $TMP/one.csv" \
	    "merge:merge $TMP/m.csv PIPE" "sweep:sweep PIPE --dry-run" \
	    "model fit usl:model fit usl PIPE" "model validate:model validate PIPE --calib $CAL" \
	    "calibration:model predict lru_lock_split --calib PIPE" \
	    "layout:layout --btf PIPE" "layout:layout --pahole PIPE"; do
	name=${spec%%:*}; args=$(echo "${spec#*:}" | sed "s|PIPE|$TMP/pipe|")
	expect_usage "$name on a FIFO: refused without blocking" "FIFO" -- $T $MEMSCALE $args
done
expect_usage "stats on a device" "special file" -- $T $MEMSCALE stats /dev/zero
expect_usage "sweep of a device" "special file" -- $T $MEMSCALE sweep /dev/zero --dry-run
expect_usage "merge from a directory" "is a directory" -- $MEMSCALE merge "$TMP/m.csv" "$TMP"

# A byte-order mark before the header: the first column keeps its name,
# so rows still group by workload (two groups, not one pooled set).
printf '\357\273\277workload,ops_per_sec\nalpha,10\nalpha,12\nbeta,1000\nbeta,1100\n' >"$TMP/bom.csv"
expect_exit 0 "stats on a CSV with a BOM" -- $MEMSCALE stats "$TMP/bom.csv"
grep -q "^# workload=alpha " "$TMP/out" && grep -q "^# workload=beta " "$TMP/out"
ok $? "BOM skipped: rows grouped by workload"
printf '\357\273\2777\n9\n' >"$TMP/bom.txt"
expect_exit 0 "stats on a sample file with a BOM" -- $MEMSCALE stats "$TMP/bom.txt"
grep -q "^Amean  *8$" "$TMP/out"; ok $? "BOM sample file: Amean 8"
printf 'workload,ops_per_sec\nalpha,10\nalpha,12\nbeta,1000\nbeta,1100\n' >"$TMP/nobom.csv"
expect_exit 0 "compare: BOM file against the same rows without one" -- \
	$MEMSCALE compare "$TMP/bom.csv" "$TMP/nobom.csv" -f csv
[ "$(grep -c '^' "$TMP/out")" -eq 3 ]; ok $? "compare: one row per workload (two)"

# NUL bytes: refused with the line, in a CSV and in a sample file.
printf 'workload,ops_per_sec\nw,77\000 1234.5\n' >"$TMP/nul.csv"
expect_usage "NUL in a CSV value" "line 2: NUL byte" -- $MEMSCALE stats "$TMP/nul.csv"
printf '3\n4\n5\000\n6\n' >"$TMP/nul.txt"
expect_usage "NUL in a sample file" "line 3: NUL byte" -- $MEMSCALE stats "$TMP/nul.txt"
expect_usage "compare with a NUL" "NUL byte" -- $MEMSCALE compare "$TMP/nul.txt" "$TMP/bom.txt"
expect_usage "merge with a NUL" "NUL byte" -- $MEMSCALE merge "$TMP/m.csv" "$TMP/nul.csv"

# CR-only line ends (old Mac): read as lines.
printf '4\r6\r8\r' >"$TMP/cr.txt"
expect_exit 0 "stats on a CR-only sample file" -- $MEMSCALE stats "$TMP/cr.txt"
grep -q "^n  *3$" "$TMP/out" && grep -q "^Amean  *6$" "$TMP/out"; ok $? "CR-only: 3 samples, Amean 6"
printf 'workload,ops_per_sec\rq,2\rq,4\r' >"$TMP/cr.csv"
expect_exit 0 "stats on a CR-only CSV" -- $MEMSCALE stats "$TMP/cr.csv"
grep -q "^# workload=q column ops_per_sec (2 samples)" "$TMP/out"; ok $? "CR-only CSV: 2 samples of q"

# Samples a harmonic mean cannot take, and samples that overflow.
printf '12\n-3\n15\n' >"$TMP/neg.txt"
expect_usage "stats: a negative sample" "needs every sample > 0" -- $MEMSCALE stats "$TMP/neg.txt"
printf 'workload,ops_per_sec\nw,0\nw,5\n' >"$TMP/zero.csv"
expect_usage "stats: a zero in a CSV" "sample 1 of 2 in workload=w is 0" -- $MEMSCALE stats "$TMP/zero.csv"
expect_usage "compare -f mmtests: a zero sample" "harmonic" -- \
	$MEMSCALE compare "$TMP/zero.csv" "$TMP/one.csv" -f mmtests
# every report refuses a throughput <= 0 alike (the table and -f lkp
# printed "-100 %")
printf 'workload,workers,ops_per_sec\nw,1,-5\nw,1,5\n' >"$TMP/negt.csv"
printf 'workload,workers,ops_per_sec\nw,1,0\nw,1,5\n' >"$TMP/zerot.csv"
for f in table lkp csv mmtests; do
	expect_usage "compare -f $f: a zero throughput" "sample 1 of 2 in workload=w workers=1 is 0: a throughput" -- \
		$MEMSCALE compare "$TMP/zerot.csv" "$TMP/one.csv" -f $f
	expect_usage "compare -f $f: a negative throughput" "is -5: a throughput" -- \
		$MEMSCALE compare "$TMP/one.csv" "$TMP/negt.csv" -f $f
done
printf '9e307\n9e307\n' >"$TMP/big.txt"
expect_usage "stats: samples whose mean overflows" "overflows" -- $MEMSCALE stats "$TMP/big.txt"
printf '1.7e308\n1e300\n5\n' >"$TMP/wide.txt"
expect_usage "compare: samples whose spread overflows" "overflows" -- \
	$MEMSCALE compare "$TMP/wide.txt" "$TMP/bom.txt"

# A plain file against a result CSV: the CSV must hold one configuration
# and the column must be named.
printf '5.5\n6.5\n' >"$TMP/plain.txt"
expect_usage "compare plain vs CSV without --column" "with --column" -- $MEMSCALE compare "$TMP/plain.txt" "$TMP/one.csv"
expect_usage "compare plain vs a CSV of two workloads" "holds 2 configurations" -- \
	$MEMSCALE compare "$TMP/plain.txt" "$TMP/bom.csv" --column ops_per_sec
expect_exit 0 "compare plain vs a one-configuration CSV with --column" -- \
	$MEMSCALE compare "$TMP/plain.txt" "$TMP/one.csv" --column ops_per_sec
printf 'workload,workers,ops_per_sec\n' >"$TMP/header.csv"
expect_usage "compare: a header-only patch file" "a header and no rows" -- \
	$MEMSCALE compare "$TMP/one.csv" "$TMP/header.csv"
expect_usage "compare: a header-only base file" "a header and no rows" -- \
	$MEMSCALE compare "$TMP/header.csv" "$TMP/one.csv"

# merge: the same file twice, by name, by another spelling, by a link.
cp "$TMP/one.csv" "$TMP/two.csv"
expect_usage "merge a file twice" "same file" -- $MEMSCALE merge "$TMP/m.csv" "$TMP/one.csv" "$TMP/one.csv"
ln "$TMP/one.csv" "$TMP/hard.csv"
expect_usage "merge a file and its hard link" "same file" -- \
	$MEMSCALE merge "$TMP/m.csv" "$TMP/one.csv" "$TMP/two.csv" "$TMP/hard.csv"
ln -s one.csv "$TMP/soft.csv"
expect_usage "merge a file and a symlink to it" "same file" -- \
	$MEMSCALE merge "$TMP/m.csv" "$TMP/soft.csv" "$TMP/./one.csv"
expect_usage "merge into a link to an input" "also an input" -- \
	$MEMSCALE merge "$TMP/soft.csv" "$TMP/one.csv"
expect_exit 0 "merge two different files with the same rows" -- \
	$MEMSCALE merge "$TMP/m.csv" "$TMP/one.csv" "$TMP/two.csv"
[ "$(grep -c '^' "$TMP/m.csv")" -eq 5 ]; ok $? "merged: a header and 4 rows"
done_testing
