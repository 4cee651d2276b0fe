#!/bin/sh
# layout_print.t - `memscale layout` prints every declared layout of
# struct mem_cgroup_per_node with the elements the model workloads read
# and write; `layout --audit` finds, element by element, the 64 B / 128 B
# read-write and lock-sector conflicts; the marks of the listing follow
# the audit; bad variants, kernels and kconfigs exit 2.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
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
