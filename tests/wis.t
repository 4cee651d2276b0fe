#!/bin/sh
# make wis: will-it-scale-compatible binaries.  Every workload of
# `memscale list workloads` has WORKLOAD_processes and WORKLOAD_threads
# (processes only where the workload says so; kernel:W as kernel_W) in
# bin/wis/, taking will-it-scale's -t -s -m -n -v -h, printing what
# runtest.py and mmtests read (tests/wis_runtest.awk is the project's copy of their parsing).
. tests/lib.sh
W=${WIS_DIR:-bin/wis}
[ -x "$W/memscale-wis" ] || make -s wis >/dev/null 2>&1
[ -x "$W/memscale-wis" ]; ok $? "make wis built $W/memscale-wis"

# workload kernel:W is kernel_W: no ':' in a file name
missing=$($MEMSCALE list workloads | awk 'NR > 1 { print $1, $2 }' | while read -r w flags; do
	w=$(echo "$w" | tr : _)
	[ -x "$W/${w}_processes" ] || echo "${w}_processes"
	case ",$flags," in *,processes_only,*) [ ! -e "$W/${w}_threads" ] || echo "extra ${w}_threads";;
	*) [ -x "$W/${w}_threads" ] || echo "${w}_threads";; esac
done)
[ -z "$missing" ]; ok $? "one binary per workload and mode${missing:+ (missing: $missing)}"
colon=$(ls "$W" | grep ':' | tr '\n' ' ')
[ -z "$colon" ] && [ -x "$W/kernel_page_fault2_processes" ]
ok $? "no binary name has a ':' (kernel:page_fault2 is kernel_page_fault2_*)${colon:+ (found: $colon)}"
ln -s "$(cd "$W" && pwd)/memscale-wis" "$TMP/kernel_nosuch_processes"
expect_usage "kernel_W runs workload kernel:W" "unknown workload 'kernel:nosuch'" -- \
	"$TMP/kernel_nosuch_processes" -t 1 -s 1

# runtest.py's loop: ./X_processes -t N -s S, then ./X_threads (S = 1 here)
for m in processes threads; do
	"$W/page_fault2_$m" -t 1 -s 1 >"$TMP/$m.out" 2>"$TMP/err"; st=$?
	awk -f tests/wis_runtest.awk "$TMP/$m.out" >"$TMP/$m.parsed" 2>>"$TMP/err"
	[ $st -eq 0 ] && awk '{ exit !($1 > 0 && $2 == 1) }' "$TMP/$m.parsed"
	ok $? "page_fault2_$m -t 1 -s 1: runtest.py reads an average, mmtests 1 sample ($(cat "$TMP/$m.parsed"))"
done
head -1 "$TMP/processes.out" | grep -q '^testcase:[^:]*$'; ok $? "testcase line has one ':'"
[ "$(grep -c '^min:[0-9]* max:[0-9]* total:[0-9]*$' "$TMP/processes.out")" -eq 7 ]
ok $? "six warm-up samples and one measured, as will-it-scale -s 1"
"$W/lock_threads" -t 2 -s 1 -v >"$TMP/v.out" 2>&1
[ "$(grep -c '^   [01] -> [0-9]*$' "$TMP/v.out")" -eq 14 ]; ok $? "-v: each task's count per sample (2 tasks x 7)"
awk -f tests/wis_runtest.awk "$TMP/v.out" >/dev/null 2>&1; ok $? "runtest.py still parses -v output"
"$W/lock_threads" -t 1 -s 1 -n >/dev/null 2>&1; ok $? "-n: no affinity"
expect_usage "-m with -n" "exclude each other" -- "$W/lock_threads" -m -n
expect_usage "unknown option" "'-x'" -- "$W/lock_threads" -x
expect_usage "bad -t" "bad -t '0'" -- "$W/lock_threads" -t 0
expect_usage "bad -s" "bad -s 'x'" -- "$W/lock_threads" -s x
expect_usage "run under another name" "WORKLOAD_processes" -- "$W/memscale-wis"
"$W/lock_threads" -h >"$TMP/out" 2>&1; st=$?
[ $st -eq 0 ] && grep -q '^Usage: lock_threads' "$TMP/out" && grep -q -- '-s iterations' "$TMP/out"
ok $? "-h prints will-it-scale's usage"
done_testing
