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

# The default table says what the CSV says of the same data: the change
# with its 95 % interval, "n.s." exactly where the CSV's significant=no.
# table_agrees CSV TABLE: each CSV row's label has a table row whose mark
# and interval match the CSV's significant, ci_lo_pct and ci_hi_pct.
table_agrees() {
	awk -F, 'FNR == NR { if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next }
			lab[$c["label"]] = 1; sig[$c["label"]] = $c["significant"]
			lo[$c["label"]] = $c["ci_lo_pct"]; hi[$c["label"]] = $c["ci_hi_pct"]; n++; next }
		{ split($0, w, " "); $0 = w[1] "," $0 }  # the table: its label first
		$1 in lab && match($0, /\[[-+0-9.]+\.\.[-+0-9.]+\]$/) {
			iv = substr($0, RSTART + 1, RLENGTH - 2); split(iv, b, /\.\./)
			ns = index($0, " n.s. [") > 0
			if (ns != (sig[$1] == "no")) bad = bad " " $1 "(mark)"
			if (b[1] - lo[$1] > 0.01 * (1 + (lo[$1] < 0 ? -lo[$1] : lo[$1])) ||
			    lo[$1] - b[1] > 0.01 * (1 + (lo[$1] < 0 ? -lo[$1] : lo[$1])) ||
			    b[2] - hi[$1] > 0.01 * (1 + (hi[$1] < 0 ? -hi[$1] : hi[$1])) ||
			    hi[$1] - b[2] > 0.01 * (1 + (hi[$1] < 0 ? -hi[$1] : hi[$1])))
				bad = bad " " $1 "(interval " iv " vs " lo[$1] ".." hi[$1] ")"
			seen++ }
		END { if (bad != "" || seen != n || !n) { print "#  " bad, seen, n; exit 1 } }' "$1" "$2"
}
$MEMSCALE compare $F/samples_a.txt $F/samples_b.txt -f csv >$TMP/ns.csv
$MEMSCALE compare $F/samples_a.txt $F/samples_b.txt >$TMP/ns.txt
grep -q ',no,' $TMP/ns.csv; ok $? "plain samples: the CSV says significant=no"
table_agrees $TMP/ns.csv $TMP/ns.txt; ok $? "... the table marks it n.s. with the CSV's interval"
grep -q '^samples  *3  *6  *+100.00 % n.s. \[-24.0..+426\]$' $TMP/ns.txt
ok $? "... as '+100.00 % n.s. [-24.0..+426]'"
$MEMSCALE compare $B $P --where workers=24 -f csv >$TMP/sig.csv
$MEMSCALE compare $B $P --where workers=24 >$TMP/sig.txt
[ "$(grep -c ',yes,' $TMP/sig.csv)" -eq 2 ]; ok $? "AIM9 fixture: the CSV says significant=yes twice"
table_agrees $TMP/sig.csv $TMP/sig.txt; ok $? "... the table gives both intervals, no n.s."
! grep -q 'n\.s\.  *\[' $TMP/sig.txt; ok $? "... and no row marked n.s."

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

# ---- one A/B producer (core/ab.c) in the shared csv interface ----
head -1 $G/compare_csv.txt | grep -q '^experiment,workload,mode,workers,knob,base,patch,n_base,n_patch,base_mean,patch_mean,change_pct,ci_lo_pct,ci_hi_pct,p,significant,warnings,'
ok $? "csv header leads with the shared interface columns"
awk -F, 'NR > 1 && !($12 > $13 && $12 < $14 && $16 == "yes") { exit 1 }' $G/compare_csv.txt
ok $? "csv: change inside its interval, significant when it excludes 0"

# two sides of separate runs: one workload each, kwork calibration and model
mk() { # mk FILE PAGE_WORK UNITS UNIT_NS V1 V2 V3 [LAT...]
	f=$1; pw=$2; u=$3; ns=$4; shift 4
	echo "workload,mode,workers,page_work,kwork_units,kwork_unit_ns,ops_per_sec,lruvec_lru_lock_wait_avg_ns" >$f
	for v in "$@"; do echo "page_fault2,processes,2,$pw,$u,$ns,$v,"; done >>$f
	for v in 10 12 11; do echo "lock,threads,2,,,,5$v,$v"; done >>$f
}
mk $TMP/kb.csv kernel 178 4.83 100 101 99
mk $TMP/kp.csv kernel 1185 0.37 60 61 59
expect_usage "compare refuses different kwork calibrations" "kwork_units=178 but kp kwork_units=1185" -- \
	$MEMSCALE compare $TMP/kb.csv $TMP/kp.csv
mk $TMP/kp.csv touch 178 4.83 100 101 99
expect_usage "compare refuses different models" "page_work=kernel but kp page_work=touch" -- \
	$MEMSCALE compare $TMP/kb.csv $TMP/kp.csv
mk $TMP/kp.csv kernel 178 4.83 110 111 109
expect_exit 0 "same calibration and model: compared" -- $MEMSCALE compare $TMP/kb.csv $TMP/kp.csv -f csv
grep -q '^,page_fault2,processes,2,,kb,kp,3,3,100,110,10,' $TMP/out
ok $? "csv row: +10 % from the means"
(head -1 $TMP/kb.csv | sed 's/$/,calib_hash/'; sed '1d; s/$/,aaaa/' $TMP/kb.csv) >$TMP/hb.csv
(head -1 $TMP/kp.csv | sed 's/,kwork_units,kwork_unit_ns,/,kwork_units,kwork_unit_ns,/; s/$/,calib_hash/'; \
 sed '1d; s/,178,4.83,/,999,9.99,/; s/$/,aaaa/' $TMP/kp.csv) >$TMP/hp.csv
expect_exit 0 "the same calib_hash wins over differing kwork columns" -- $MEMSCALE compare $TMP/hb.csv $TMP/hp.csv
sed -i '2s/aaaa$/bbbb/' $TMP/hp.csv
expect_usage "different calib_hash refused" "calib_hash=aaaa but hp calib_hash=bbbb|aaaa" -- \
	$MEMSCALE compare $TMP/hb.csv $TMP/hp.csv

# separate runs that differ in one knob: the csv names it and both values
(head -1 $TMP/kb.csv | sed 's/$/,layout/'; sed '1d; s/$/,v6.9/' $TMP/kb.csv) >$TMP/l1.csv
(head -1 $TMP/kp.csv | sed 's/$/,layout/'; sed '1d; s/$/,v6.10/' $TMP/kp.csv) >$TMP/l2.csv
$MEMSCALE compare $TMP/l1.csv $TMP/l2.csv -f csv >$TMP/out 2>&1
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["workload"] == "page_fault2" { exit !($c["knob"] == "layout" && $c["base_value"] == "v6.9" && $c["patch_value"] == "v6.10") }' $TMP/out
ok $? "csv: the knob that differs between two runs, with both values"

# --column of one workload's lock class: other workloads' empty cells skipped
expect_exit 0 "--column with empty cells of other workloads" -- \
	$MEMSCALE compare $TMP/kb.csv $TMP/kp.csv --column lruvec_lru_lock_wait_avg_ns -f csv
[ "$(sed 1d $TMP/out | wc -l)" -eq 1 ] && grep -q '^,lock,threads,2,' $TMP/out
ok $? "only the workload that has the column is compared"
grep -q ',lower,' $TMP/out; ok $? "a *_ns column is lower-is-better by default"
mk $TMP/lb.csv kernel 1 1 1 1 1
sed -i 's/^lock,threads,2,,,,5\(..\),\(..\)$/lock,threads,2,,,,5\1,2\2/' $TMP/lb.csv
$MEMSCALE compare $TMP/kb.csv $TMP/lb.csv --column lruvec_lru_lock_wait_avg_ns -f csv >$TMP/out 2>&1
awk -F, 'NR == 2 { exit !($12 < -90) }' $TMP/out
ok $? "lower-is-better: a latency that doubled reads as a negative change"
$MEMSCALE compare $TMP/kb.csv $TMP/lb.csv --column lruvec_lru_lock_wait_avg_ns --higher-is-better -f csv >$TMP/out 2>&1
awk -F, 'NR == 2 { exit !($12 > 90 && $21 == "higher") }' $TMP/out
ok $? "--higher-is-better overrides the name"
$MEMSCALE compare $TMP/kb.csv $TMP/lb.csv --column lruvec_lru_lock_wait_avg_ns -f mmtests >$TMP/out 2>&1
grep -q '^Amean  *lock ' $TMP/out && grep -q '^BAmean-50 ' $TMP/out && ! grep -q Hmean $TMP/out
ok $? "mmtests lower-is-better rows: Amean, BAmean-P"
awk '$1 == "Amean" { exit !($NF ~ /-/) }' $TMP/out; ok $? "mmtests Amean pndiff negative for a doubled latency"
expect_usage "compare -c is not --column" "say --column" -- $MEMSCALE compare $B $P -c ops_per_sec
expect_usage "compare --column absent everywhere" "nothing to compare" -- \
	sh -c "sed 's/,\([0-9]*\)\$/,/' $TMP/kb.csv >$TMP/e1.csv; $MEMSCALE compare $TMP/e1.csv $TMP/e1.csv --column lruvec_lru_lock_wait_avg_ns"

# mmtests names will-it-scale operations TEST-MODE-N
$MEMSCALE compare $TMP/kb.csv $TMP/kp.csv -f mmtests >$TMP/out 2>&1
grep -q '^Hmean     page_fault2-processes-2 ' $TMP/out; ok $? "mmtests operation page_fault2-processes-2"
grep -q '^Hmean  *lock-threads ' $TMP/out; ok $? "non-wis workloads keep their names (mode: it varies)"

# a variant that never ran gets no mmtests column (not "nan (nan%)")
R=tests/fixtures/xeon16-sweep
mkdir -p $TMP/sw && cp $R/experiment.ini $TMP/sw/ &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "variant") v = i }
		NR == 1 || $v != "permemcg"' $R/results.csv >$TMP/sw/results.csv
$MEMSCALE compare --experiment $TMP/sw -f mmtests >$TMP/out 2>&1
head -1 $TMP/out | grep -q '^ *base  *cached$' && ! grep -q nan $TMP/out
ok $? "mmtests: no column for a variant without results"

# LKP: lkp compare's layout (tests/lkp_compare.awk: right-aligned commit
# names, several commits side by side, process/thread, KPIs first)
$MEMSCALE compare --experiment $R -f lkp --where depth=1 >$TMP/lkp 2>&1
awk -f tests/lkp_compare.awk $TMP/lkp >$TMP/lkpsum 2>$TMP/err
ok $? "lkp output follows lkp compare's layout ($(cat $TMP/lkpsum))"
grep -q '^groups 5 commits 3 ' $TMP/lkpsum; ok $? "three commits side by side in each of 5 jobs"
grep -q '^  process/16/' $TMP/lkp; ok $? "LKP's job axis says process, nr_task is an axis"
awk '/^----/ { getline; getline; getline; print; exit }' $TMP/lkp | grep -q 'will-it-scale.per_process_ops$'
ok $? "the KPI per_process_ops leads its group"
sed 's/will-it-scale.per_process_ops/will-it-scale.zzz/; s/will-it-scale.16.processes/will-it-scale.per_process_ops/' $TMP/lkp |
	awk -f tests/lkp_compare.awk >/dev/null 2>&1; [ $? -eq 1 ]; ok $? "the layout check catches a KPI out of order"
sed "s/^            base /           base  /" $TMP/lkp | awk -f tests/lkp_compare.awk >/dev/null 2>&1; [ $? -eq 1 ]
ok $? "... and a misaligned commit name"

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
