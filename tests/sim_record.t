#!/bin/sh
# sim_record.t - the simulator's program of every model workload is the
# model's own execution: for every model workload (`memscale list
# workloads`) under every kernel profile (`memscale list kernels`), a
# 1-worker run of a fixed number of operations, recorded, gives the same
# per-operation count of every shared-line access (by line, kind, and
# inside which LRU lock; the lock word's own traffic apart) as the
# program the simulator runs, with 64 B lines and 128 B pairs.  The
# negative control: a program with one access dropped
# (MEMSCALE_SIM_MUTATE=1) must be caught for every workload.
. tests/lib.sh

$MEMSCALE list workloads > "$TMP/wl" 2>&1
wls=$(awk 'NR > 1 && $2 ~ /^model/ { print $1 }' "$TMP/wl")
$MEMSCALE list kernels > "$TMP/k" 2>&1
kernels=$(awk '/^[^ ]/ { print $1 }' "$TMP/k")
[ -n "$wls" ] && [ -n "$kernels" ]; ok $? "model workloads and kernel profiles listed"

for w in $wls; do
	for k in $kernels; do
		$MEMSCALE model program "$w" --set kernel="$k" --check > "$TMP/out" 2>&1
		st=$?
		[ $st -eq 0 ]; ok $? "$w under $k: program counts = model counts"
		[ $st -eq 0 ] || grep -e '^!=' -e 'memscale' "$TMP/out" | head -5 | sed 's/^/#   /'
	done
	$MEMSCALE model program "$w" --line 128 --check > "$TMP/out" 2>&1
	ok $? "$w with 128 B pairs: program counts = model counts"
	MEMSCALE_SIM_MUTATE=1 $MEMSCALE model program "$w" --check > "$TMP/out" 2>&1
	st=$?
	[ $st -eq 1 ] && grep -q '^!=' "$TMP/out"
	ok $? "$w: a program with one access dropped is caught (exit $st)"
done

# The program has accesses at all (an empty recording would agree too).
$MEMSCALE model program page_fault2 > "$TMP/out" 2>&1
grep -q 'rmw *memcg\[L0\]' "$TMP/out" && grep -q 'lock *lock ' "$TMP/out"
ok $? "page_fault2's program charges the page_counter and takes an LRU lock"
# The lock section runs as the kernel's folio loop does: one round per
# list operation, so the holder's writes to a line (here the list head in
# the lock word's 128 B sector, 70a64b7919cb) are spread over the hold and
# a waiter's steal between two of them costs the holder a transfer
# (grouped by line, 56 of its 58 writes ran back to back; now only the
# leftover fractions in EVERY blocks follow their line's last write).
$MEMSCALE model program fallocate1 --set kernel=70a64b7919cb --line 128 > "$TMP/out" 2>&1
awk '/^ *lock +lock /{ in_cs = 1; next } /^ *unlock /{ if (in_cs) exit } in_cs && /^ *write / {
	n++; if (prev == $2) back++ } in_cs && /^ *(read|write|rmw) / { prev = $1 == "write" ? $2 : "" }
	END { printf "%d writes, %d back to back\n", n, back; exit !(n >= 20 && back * 4 < n) }' "$TMP/out" > "$TMP/cs"
ok $? "fallocate1 under 70a64b7919cb: the section's writes are interleaved ($(cat "$TMP/cs"))"

done_testing
