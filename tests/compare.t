#!/bin/sh
# memscale compare / stats / merge on fixed fixture data: every report
# format byte for byte against golden files in tests/fixtures/golden
# (field widths as in the mmtests, LKP and Shakeel reports), filters,
# per-container averages, merging across machines, and bad input.
. tests/lib.sh
F=tests/fixtures
G=$F/golden
B=$F/aim9_base.csv
P=$F/aim9_patch.csv

golden() { # golden NAME DESCRIPTION -- CMD...: stdout must equal $G/NAME
	name=$1; desc=$2; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"; st=$?
	[ $st -eq 0 ] && cmp -s "$TMP/out" "$G/$name"
	ok $? "$desc matches $G/$name"
	[ $st -eq 0 ] || sed 's/^/#   /' "$TMP/err" | head -3
	cmp -s "$TMP/out" "$G/$name" || diff "$G/$name" "$TMP/out" | head -10 | sed 's/^/#   /'
}

golden compare_table.txt "table format" -- $MEMSCALE compare $B $P --where workers=24
golden compare_mmtests.txt "mmtests format" -- $MEMSCALE compare $B $P --where workers=24 \
	-f mmtests --base-name 5.3-rc4-vanilla --patch-name 5.3-rc4-lru_lock
golden compare_lkp.txt "lkp format" -- $MEMSCALE compare $B $P --where workers=24 -f lkp \
	--base-name e0bf1dc859fd8f6e0123 --patch-name 8d59d2214c2362e7a9d185d80b613e632581af7b
golden compare_csv.txt "csv format" -- $MEMSCALE compare $B $P --where workers=24 -f csv
golden compare_mmtests_per_container.txt "mmtests per container + average" -- \
	$MEMSCALE compare $B $P --where workers=24 -f mmtests --per-container \
	--base-name 5.3-rc4-vanilla --patch-name 5.3-rc4-lru_lock
golden compare_plain_csv.txt "plain sample files (Welch p 0.1075)" -- \
	$MEMSCALE compare $F/samples_a.txt $F/samples_b.txt -f csv
golden stats_plain.txt "stats of a plain sample file" -- $MEMSCALE stats $F/samples_a.txt
golden stats_csv.txt "stats of a CSV column with --where" -- \
	$MEMSCALE stats $B --where workload=page_test --where workers=24
$MEMSCALE stats - <$F/samples_a.txt >"$TMP/out" 2>&1
cmp -s "$TMP/out" $G/stats_plain.txt; ok $? "stats reads stdin"

# Significance marks: only Hmean rows carry '*', and only when p < 0.10.
awk '/\*/ && $1 != "Hmean" { exit 1 }' $G/compare_mmtests.txt; ok $? "'*' appears on Hmean rows only"
grep -q '^Hmean     page_test    34295.62 (   0.00%)    35735.75 \*   4.20%\*$' $G/compare_mmtests.txt
ok $? "significant Hmean row in the 2019 format"
# Without the --where filter the 1-worker rows form groups of their own.
$MEMSCALE compare $B $P >"$TMP/out" 2>&1
grep -q '^page_test-1 ' "$TMP/out" && grep -q '^page_test-24 ' "$TMP/out"
ok $? "groups split by workers when several worker counts are present"

# merge: two machines, the sidecar's machine fields, union of columns
expect_exit 0 "merge" -- $MEMSCALE merge $TMP/all.csv $B $P
head -1 $TMP/all.csv | grep -q '^machine,machine_cpu,.*,source,workload,.*ops_per_sec.*extra_metric'
ok $? "merged header: machine columns first, then the union"
rows=$(awk 'NR > 1' $TMP/all.csv | wc -l)
[ "$rows" -eq 34 ]; ok $? "merged every row ($rows of 34)"
grep -q '^boxa,"Intel(R) Xeon(R) CPU E5-2630 ""v1""",2,12,24,2,Linux 5.3.0-rc4 x86_64,' $TMP/all.csv
ok $? "machine fields come from the JSON sidecar"
grep -q '^boxb,,,,,,,tests/fixtures/aim9_patch.csv,' $TMP/all.csv
ok $? "without a sidecar the machine is the host column"
grep -q 'no sidecar' "$TMP/err"; ok $? "merge notes a missing sidecar"
expect_exit 0 "compare on the merged file per machine" -- \
	$MEMSCALE compare $TMP/all.csv $TMP/all.csv --where machine=boxa --where workers=24

# bad input: exit 2 with one clear line
expect_usage "compare bad format" "'fancy'" -- $MEMSCALE compare $B $P -f fancy
expect_usage "compare missing file" "nosuch.csv" -- $MEMSCALE compare $B $TMP/nosuch.csv
expect_usage "compare unknown column" "'latency'" -- $MEMSCALE compare $B $P --column latency
expect_usage "compare --where on a missing column" "'colour'" -- $MEMSCALE compare $B $P --where colour=red
expect_usage "compare filters everything out" "nothing to compare" -- $MEMSCALE compare $B $P --where workers=7
expect_usage "compare one file only" "BASE and PATCH" -- $MEMSCALE compare $B
expect_usage "compare --experiment without a sweep" "experiment.ini" -- $MEMSCALE compare --experiment $TMP/nodir
printf '1\n2\nabc\n' >$TMP/bad.txt
expect_usage "stats non-number" "line 3: 'abc'" -- $MEMSCALE stats $TMP/bad.txt
expect_usage "stats bad --where" "KEY=VALUE" -- $MEMSCALE stats $B --where nothing
expect_usage "stats no match" "no samples" -- $MEMSCALE stats $B --where workload=none
expect_usage "merge without inputs" "OUT.csv" -- $MEMSCALE merge $TMP/x.csv
expect_usage "merge missing input" "nosuch.csv" -- $MEMSCALE merge $TMP/x.csv $TMP/nosuch.csv
done_testing
