#!/bin/sh
# The model workloads: each one listed runs at 1 and 2 workers (threads, and a few as
# processes) with its invariants holding; `--format wis` prints
# will-it-scale's lines; bad model knob values exit 2 naming the knob and
# its allowed values; `memscale layout` prints the four layouts.
. tests/lib.sh
RUN="$MEMSCALE run -s 0.1 --sample-ms 50 -w 1 -a none"
$MEMSCALE list workloads >"$TMP/list" 2>&1
for wl in page_fault1 page_fault2 page_fault3 fallocate1 fallocate2 tlb_flush2 \
	  malloc1 lru_shm lru_file_readtwice aim9_page_test aim9_brk_test; do
	grep -q "^$wl  *model[, ]" "$TMP/list"; ok $? "list workloads shows model workload $wl"
done
# Every model workload `memscale list workloads` shows (FLAGS starting with
# "model") runs, so a new workload file is tested without editing this one.
for wl in $(awk 'NR > 1 && $2 ~ /^model(,|$)/ { print $1 }' "$TMP/list"); do
	expect_exit 0 "$wl at 1 and 2 workers, invariants hold" -- $RUN $wl -t 1,2
done
# The other workloads that are neither model nor kernel ones (micro:
# lock, counter, and any new one) run with their defaults as well.
for wl in $(awk 'NR > 1 && $2 ~ /^micro(,|$)/ { print $1 }' "$TMP/list"); do
	expect_exit 0 "micro workload $wl at 1 and 2 workers" -- $RUN $wl -t 1,2
done
for wl in page_fault2 lru_file_readtwice fallocate1; do
	expect_exit 0 "$wl in process mode, 2 containers" -- \
		$RUN $wl -t 2 -m processes --set containers=2 --set lru_lock=pgdat
done
expect_exit 0 "page_fault2 metrics are reported" -- $RUN page_fault2 -t 1 --format csv
grep -q "charges_per_op" "$TMP/out" && grep -q "lock_acq_per_op" "$TMP/out" \
	&& grep -q "stat_updates_per_op" "$TMP/out"
ok $? "per-op model metrics in the csv"

# will-it-scale output: testcase:, warmup, min:N max:N total:N lines,
# measurement, average:N (will-it-scale main.c @75f66e4)
expect_exit 0 "--format wis runs" -- $MEMSCALE run page_fault2 -t 1 -s 0.2 \
	--sample-ms 50 -w 2 -a none --format wis
awk '
	NR == 1 && /^testcase:/ { t = 1; next }
	/^tasks:[0-9]+$/ { next }
	/^warmup$/ { w = 1; next }
	/^min:[0-9]+ max:[0-9]+ total:[0-9]+$/ { s++; next }
	/^measurement$/ { if (s == 2) m = 1; next }
	/^average:[0-9]+$/ { a = 1; next }
	{ bad = 1 }
	END { exit !(t && w && m && a && s >= 4 && !bad) }' "$TMP/out"
ok $? "wis output parses like will-it-scale's"

expect_usage "bad layout" "layout.*v6.9|v6.10|fixed|fixed_padded" -- \
	$RUN page_fault2 -t 1 --set layout=v7.0
expect_usage "bad stats path" "stats.*rstat_permemcg_cached" -- \
	$RUN page_fault2 -t 1 --set stats=percpu
expect_usage "bad charge_batch" "charge_batch.*32|64" -- \
	$RUN page_fault2 -t 1 --set charge_batch=48
expect_usage "bad lru_lock" "lru_lock.*pgdat|lruvec" -- \
	$RUN page_fault2 -t 1 --set lru_lock=zone
expect_usage "depth out of range" "depth" -- $RUN page_fault2 -t 1 --set depth=99
expect_usage "containers with depth 0" "containers" -- \
	$RUN page_fault2 -t 1 --set depth=0 --set containers=2

expect_exit 0 "memscale layout" -- $MEMSCALE layout --kconfig rhel-8.3
for v in v5.3 v5.10 v5.11 v6.9 v6.10 fixed fixed_padded; do
	grep -q "^$v: sizeof" "$TMP/out"; ok $? "layout prints $v"
done
cp "$TMP/out" "$TMP/layouts"
# Written fields are shown as the elements the model writes, never as a
# whole array.
grep -q "write lru_zone_size\[2\]\[INACTIVE_ANON\]@248" "$TMP/layouts"; ok $? "v6.10: the written element is lru_zone_size[2][INACTIVE_ANON] at 248"
! grep -q "hot write" "$TMP/layouts"; ok $? "no field is claimed hot-written as a whole"

# The audit, element by element, under LKP's kconfig (rhel-8.3 bundle).
expect_exit 0 "memscale layout --audit" -- $MEMSCALE layout --audit --kconfig rhel-8.3
cp "$TMP/out" "$TMP/audit"
row() { awk -v k="$1" -v w="$2" '$1 == k && $4 == w' "$TMP/audit"; }
row 70a64b7919cb page_fault2 | grep -q " 0 *2 .*P1: lruvec_stats_percpu@152 <- lru_zone_size\[2\]\[INACTIVE_ANON\]@248;"
ok $? "70a64b7919cb, rhel-8.3: no 64 B conflict; the 128 B pair P1 holds lruvec_stats_percpu and the written lru_zone_size[2][INACTIVE_ANON]"
row v6.9 page_fault2 | grep -q " 0 *0 *1  lock-sector P0: write lruvec.lists\[INACTIVE_ANON\].next@0 <- lruvec.lru_lock@80;$"
ok $? "v6.9, rhel-8.3: no read-write conflict; one lock-sector conflict, the lists[INACTIVE_ANON] head the holder writes in the lock word's 128 B sector"
row 70a64b7919cb page_fault2 | grep -q " 0 *2 *1 .*lock-sector P0: write lruvec.lists\[INACTIVE_ANON\].next@0 <- lruvec.lru_lock@80;"
ok $? "70a64b7919cb, rhel-8.3: the same lock-sector conflict as v6.9"
row fefc6e6631ff page_fault2 | grep -q "P0: memcg@0 <- lruvec.lists\[INACTIVE_ANON\].next@72;"
ok $? "fefc6e6631ff, rhel-8.3: memcg pairs with the lists[INACTIVE_ANON] head at 128 B"
# The fix moves the lock word's sector away from every holder write on
# the seed's workloads (only pgdat, read, shares it).
for w in page_fault2 page_fault1 fallocate1 fallocate2 tlb_flush2; do
	row fefc6e6631ff $w | awk '{ exit !($7 == 0) }'
	ok $? "fefc6e6631ff, rhel-8.3, $w: no lock-sector conflict"
	row v6.9 $w | awk '{ exit !($7 > 0) }'
	ok $? "v6.9, rhel-8.3, $w: lock-sector conflicts listed"
done
# A waiter's RMW takes the lock word's line: a holder READ there counts,
# in the sector mate only a write (the prefetched copy is shared).
! grep "lock-sector P[0-9]*: read" "$TMP/audit" | grep -q .
ok $? "no holder read in the sector mate is called a lock-sector conflict"
n=$(awk '$4 == "page_fault3" && $5 != 0 && ($2 ~ /^v6|fixed/)' "$TMP/audit" | wc -l)
[ "$n" -eq 0 ]; ok $? "page_fault3 (no LRU traffic): no 64 B conflict in any v6 layout"
row v5.11 page_fault2 | grep -q "L2: lruvec_stat_cpu@152 <- lruvec_stat\[nr_inactive_anon\]@160;"
ok $? "v5.11: the per-CPU pointer shares a line with the lruvec_stat[] atomics"
# Marks follow the audit: a layout has a ! mark exactly when its
# profile's audit finds a 64 B conflict (v5.11 and v6.10 under rhel-8.3).
awk '/^# .*\(profile / { p = $NF; sub(/\)$/, "", p) } /^! / { print p }' "$TMP/layouts" | sort -u > "$TMP/marked"
awk 'NR > 1 && $2 != "-" && $5 > 0 { print $1 }' "$TMP/audit" | sort -u > "$TMP/conflicted"
sed -n 's/.*(profile \(.*\))$/\1/p' "$TMP/layouts" | sort -u > "$TMP/shown"
join "$TMP/conflicted" "$TMP/shown" > "$TMP/expected"
cmp -s "$TMP/marked" "$TMP/expected"; ok $? "! marks exactly where the audit finds a 64 B conflict ($(tr '\n' ' ' < "$TMP/marked"))"
# and a # mark (lock-sector) exactly where it finds a lock-sector one.
awk '/^# .*\(profile / { p = $NF; sub(/\)$/, "", p) } /^# [^ ]+ +[0-9]+ +[0-9]+ +L[0-9]/ { print p }' "$TMP/layouts" | sort -u > "$TMP/marked"
awk 'NR > 1 && $2 != "-" && $7 > 0 { print $1 }' "$TMP/audit" | sort -u > "$TMP/conflicted"
join "$TMP/conflicted" "$TMP/shown" > "$TMP/expected"
cmp -s "$TMP/marked" "$TMP/expected"; ok $? "# marks exactly where the audit finds a lock-sector conflict ($(tr '\n' ' ' < "$TMP/marked"))"

expect_exit 0 "memscale layout --lock pthread_mutex" -- $MEMSCALE layout --lock pthread_mutex v6.10
grep -q "layout differs" "$TMP/out"; ok $? "a lock bigger than spinlock_t is reported as changing the layout"
expect_usage "layout: unknown variant" "v5" -- $MEMSCALE layout v5
expect_usage "layout: unknown kernel profile" "list kernels" -- $MEMSCALE layout --kernel v9
expect_exit 0 "layout --kernel 70a64b7919cb" -- $MEMSCALE layout --kernel 70a64b7919cb --kconfig rhel-8.3
grep -q "^v6.10: sizeof 440" "$TMP/out"; ok $? "layout --kernel 70a64b7919cb prints its layout (v6.10)"
expect_usage "layout: bad kconfig" "LRU_GEN" -- $MEMSCALE layout --kconfig rhel-8.3,LRU_GEN=maybe
done_testing
