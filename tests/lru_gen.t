#!/bin/sh
# MGLRU enabled at run time (knob lru_gen, models/lru_gen.c): with
# lru_gen=on the add and delete paths write lrugen.folios[gen][type][zone]
# heads and nr_pages[gen][type][zone] and never lists[] or lru_zone_size;
# the audit and the listing follow; a configuration without
# CONFIG_LRU_GEN refuses it in one line; lru_gen=off keeps the classic
# sets; a model run with lru_gen=on keeps its invariants (lists' lengths
# == nr_pages, stats == pages on lists) and records the knob.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh

# The audit: no phantom classic-LRU write, on any workload, for the
# profiles of the layout experiment; every other profile for one
# workload (v5.x layouts have no lrugen: skipped, named).
expect_exit 0 "audit --kconfig ubuntu-6.8 --set lru_gen=on" -- \
	$MEMSCALE layout --audit --kconfig ubuntu-6.8 --set lru_gen=on \
	--kernel v6.9 --kernel 70a64b7919cb --kernel fefc6e6631ff
cp "$TMP/out" "$TMP/audit_on"
grep -q "^# knobs set: lru_gen=on$" "$TMP/audit_on"; ok $? "the audit names the knob it ran with"
[ "$(grep -c " ubuntu-6.8  .* [0-9]  *[0-9]  *[0-9] " "$TMP/audit_on")" -ge 33 ]
ok $? "every profile x workload row is audited"
! grep -Eq "lists\[|lru_zone_size" "$TMP/audit_on"; ok $? "lru_gen=on: no lists[] or lru_zone_size conflict"
expect_exit 0 "audit every profile, page_fault2, lru_gen=on" -- \
	$MEMSCALE layout --audit --kconfig ubuntu-6.8 --set lru_gen=on --workload page_fault2
grep -q "^v5.10 .*skipped: lru_gen=on: layout has no lruvec.lrugen" "$TMP/out" &&
	grep -q "^v6.11 .* page_fault2 " "$TMP/out" && ! grep -Eq "lists\[|lru_zone_size" "$TMP/out"
ok $? "v5.x profiles skipped with the reason, the others audited without classic writes"

# The listing's written elements (every audited workload): the
# generation lists and sizes, nothing classic.
for k in v6.9 fefc6e6631ff; do
	expect_exit 0 "layout --kernel $k lru_gen=on" -- \
		$MEMSCALE layout --kernel $k --kconfig ubuntu-6.8 --set lru_gen=on
	! grep -Eq "write (lruvec\.lists\[|lru_zone_size)" "$TMP/out"
	ok $? "$k lru_gen=on: no write of lists[] or lru_zone_size"
	# faults add to the youngest generation (max_seq 3: gen 3), shmem
	# fallocate's anon pages to max_seq - 1 (gen 2), read file pages to
	# min_seq + 1 (gen 1) or min_seq (once eviction retired gen 0)
	grep -q "write lruvec.lrugen.folios\[3\]\[ANON\]\[2\].next" "$TMP/out" &&
		grep -q "write lruvec.lrugen.folios\[2\]\[ANON\]\[2\].next" "$TMP/out" &&
		grep -q "write lruvec.lrugen.folios\[1\]\[FILE\]\[2\].next" "$TMP/out" &&
		grep -q "write lruvec.lrugen.nr_pages\[3\]\[ANON\]\[2\]" "$TMP/out"
	ok $? "$k lru_gen=on: writes the generation heads and sizes the kernel picks"
	grep -q "^  lruvec.lrugen.folios  " "$TMP/out" && grep -q "^  lruvec.lrugen.nr_pages  " "$TMP/out"
	ok $? "$k: the listing has the lrugen members (compiler-derived offsets)"
done

# lru_gen=off: the classic sets, as without the knob.
# (the two audits run side by side: each is single-threaded)
($MEMSCALE layout --audit --kconfig ubuntu-6.8 | grep -v "^# knobs set" >"$TMP/audit_default") &
audit_pid=$!
$MEMSCALE layout --audit --kconfig ubuntu-6.8 --set lru_gen=off | grep -v "^# knobs set" >"$TMP/audit_off"
wait $audit_pid
cmp -s "$TMP/audit_default" "$TMP/audit_off"; ok $? "lru_gen=off is the default audit"
grep -q "lock-sector P0: write lruvec.lists\[INACTIVE_ANON\].next@0" "$TMP/audit_off"
ok $? "lru_gen=off: v6.9's lists[] head still in the lock word's sector"
$MEMSCALE layout --kernel v6.9 --kconfig ubuntu-6.8 --set lru_gen=off >"$TMP/list_off"
grep -q "write lruvec.lists\[INACTIVE_ANON\].next" "$TMP/list_off" &&
	grep -q "write lru_zone_size\[2\]\[INACTIVE_ANON\]" "$TMP/list_off" &&
	! grep -q "write lruvec.lrugen" "$TMP/list_off"
ok $? "lru_gen=off: lists[] and lru_zone_size written, no generation list"

# Refused without CONFIG_LRU_GEN, in one line and before any output.
expect_usage "rhel-8.3 refuses lru_gen=on" "CONFIG_LRU_GEN" -- \
	$MEMSCALE layout --audit --kconfig rhel-8.3 --set lru_gen=on
[ ! -s "$TMP/out" ]; ok $? "nothing on stdout when refused"
expect_usage "rhel-8.3,LRU_GEN=n refuses lru_gen=on (layout)" "LRU_GEN=n" -- \
	$MEMSCALE layout --kernel v6.9 --kconfig ubuntu-6.8,LRU_GEN=n,LRU_GEN_WALKS_MMU=n --set lru_gen=on
expect_usage "v5.10 has no lrugen" "v6.1" -- \
	$MEMSCALE layout --kernel v5.10 --kconfig ubuntu-6.8 --set lru_gen=on
expect_usage "a model run refuses it without LRU_GEN" "CONFIG_LRU_GEN" -- \
	$MEMSCALE run page_fault2 -t 1 -s 0.05 --sample-ms 50 -w 0 --set lru_gen=on
expect_usage "a bad value" "lru_gen" -- \
	$MEMSCALE layout --audit --kconfig ubuntu-6.8 --set lru_gen=maybe
expect_exit 0 "audit over every bundle with lru_gen=on" -- \
	$MEMSCALE layout --audit --set lru_gen=on --kernel v6.9 --workload page_fault2
grep -q "^v6.9 .* rhel-8.3 .*skipped: lru_gen=on needs CONFIG_LRU_GEN" "$TMP/out" &&
	grep -q "^v6.9 .* ubuntu-6.8 .* page_fault2 " "$TMP/out"
ok $? "without --kconfig the bundles lacking LRU_GEN are skipped, named"

# Model runs follow it: the end-of-run invariants hold (a broken list,
# nr_pages or stat fails the run) for the fault, shmem and reclaiming
# workloads, and the knob is recorded with the result.
for w in page_fault2 lru_shm fallocate1 lru_file_readtwice; do
	expect_exit 0 "run $w with lru_gen=on (invariants checked)" -- \
		$MEMSCALE run $w -t 2 -s 0.2 --sample-ms 100 -w 0 --set kconfig=ubuntu-6.8 \
		--set lru_gen=on --kernel v6.9 -o "$TMP/$w.csv"
done
head -1 "$TMP/page_fault2.csv" | tr , '\n' | grep -qx lru_gen &&
	grep -q '"lru_gen": "on"' "$TMP/page_fault2.json"
ok $? "the result CSV and its sidecar record lru_gen=on"

done_testing
