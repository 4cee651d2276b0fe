#!/bin/sh
# memscale export mmtests: the log tree mmtests' compare-kernels.sh reads,
# checked with the project's copy of mmtests' parsing rules
# (tests/mmtests_wis.sh): runs in order with the base first, one wis
# benchmark per workload family, every sample back as it was measured,
# operations named as compare -f mmtests names them, bad input refused.
. tests/lib.sh
R=tests/fixtures/xeon16-sweep
D=$TMP/mm

expect_exit 0 "export mmtests of a sweep directory" -- $MEMSCALE export mmtests $D $R
sh tests/mmtests_wis.sh $D >$TMP/samples 2>$TMP/err; ok $? "mmtests' rules read the tree"
[ "$(head -1 $TMP/samples | cut -d ' ' -f 1)" = base-depth1 ]; ok $? "the base run comes first (run_results order)"
[ "$(cut -d ' ' -f 2 $TMP/samples | sort -u)" = wis-mmap ]; ok $? "tlb_flush2 is in mmtests' wis-mmap benchmark"
# every result row is one sample of RUN (variant-depthD), op tlb_flush2-MODE-N
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s-depth%s wis-mmap %s-%s-%s %.0f\n", $c["variant"], $c["depth"], $c["workload"],
		$c["mode"], $c["workers"], $c["ops_per_sec"] }' $R/results.csv | sort >$TMP/want
sort $TMP/samples >$TMP/got
cmp -s $TMP/want $TMP/got; ok $? "every result row comes back as its sample ($(wc -l <$TMP/got) of $(wc -l <$TMP/want))"
$MEMSCALE compare --experiment $R -f mmtests --where depth=1 | awk '$1 == "Hmean" { print $2 }' | sort -u >$TMP/ops1
awk '$1 == "base-depth1" { print $3 }' $TMP/samples | sort -u >$TMP/ops2
cmp -s $TMP/ops1 $TMP/ops2; ok $? "operation names are compare -f mmtests's (TEST-MODE-N)"
# mmtests' Hmean of one operation from the exported samples = compare's
h1=$(awk '$1 == "permemcg-depth1" && $3 == "tlb_flush2-processes-16" { s += 1 / $4; n++ } END { printf "%.2f", n / s }' $TMP/samples)
h2=$($MEMSCALE compare --experiment $R -f mmtests --where depth=1 |
	awk '$1 == "Hmean" && $2 == "tlb_flush2-processes-16" { print $6 }')
[ -n "$h1" ] && [ "$h1" = "$h2" ]; ok $? "Hmean from the tree ($h1) = compare's permemcg column ($h2)"

# two result CSVs: each file one run, named by the file
mkdir -p $TMP/ab
printf 'workload,mode,workers,rep,ops_per_sec\npage_fault2,processes,2,0,100\npage_fault2,processes,2,1,110\nlock,threads,1,0,5\n' >$TMP/ab/vanilla.csv
printf 'workload,mode,workers,rep,ops_per_sec\npage_fault2,processes,2,0,120\npage_fault2,processes,2,1,130\n' >$TMP/ab/patched.csv
expect_exit 0 "export mmtests of two CSVs" -- $MEMSCALE export mmtests $TMP/x $TMP/ab/vanilla.csv $TMP/ab/patched.csv
grep -q 'left out' $TMP/err; ok $? "a workload without a wis benchmark is left out with a note"
sh tests/mmtests_wis.sh $TMP/x >$TMP/s2 2>&1
[ "$(cat $TMP/s2 | tr '\n' ';')" = "vanilla wis-pf page_fault2-processes-2 100;vanilla wis-pf page_fault2-processes-2 110;patched wis-pf page_fault2-processes-2 120;patched wis-pf page_fault2-processes-2 130;" ]
ok $? "runs in the order given, repetitions as iterations"
[ -d $TMP/x/vanilla/iter-1/wis-pf/logs ]; ok $? "repetition 1 is iter-1"

# the parsing rules fail where mmtests would
echo processes,threads >$D/cached-depth5/iter-1/wis-mmap/logs/models
sh tests/mmtests_wis.sh $D >/dev/null 2>&1; [ $? -ne 0 ]
ok $? "a model without its logs is fatal, as in ExtractWiscommon"

expect_usage "run directory exists" "must not exist" -- $MEMSCALE export mmtests $TMP/x $TMP/ab/vanilla.csv
expect_usage "only mmtests" "export mmtests DIR" -- $MEMSCALE export lkp $TMP/y $R
expect_usage "no sources" "at least one SOURCE" -- $MEMSCALE export mmtests $TMP/y
printf 'workload,mode,workers,ops_per_sec\nlock,threads,1,5\n' >$TMP/lock.csv
expect_usage "nothing exportable" "no will-it-scale workload" -- $MEMSCALE export mmtests $TMP/y $TMP/lock.csv
printf 'workload,mode,workers,ops_per_sec\npage_fault2,threads,1,-5\n' >$TMP/neg.csv
expect_usage "negative rate" "not a non-negative number" -- $MEMSCALE export mmtests $TMP/y $TMP/neg.csv
printf 'workload,mode,workers,rep,ops_per_sec\npage_fault2,threads,1,0,5\npage_fault2,threads,2,1,5\n' >$TMP/hole.csv
expect_usage "a hole in the matrix" "no page_fault2 threads result at 2 workers in repetition 0" -- \
	$MEMSCALE export mmtests $TMP/z $TMP/hole.csv
done_testing
