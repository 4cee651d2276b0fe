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
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh

$MEMSCALE list workloads > "$TMP/wl" 2>&1
wls=$(awk 'NR > 1 && $2 ~ /^model/ { print $1 }' "$TMP/wl")
$MEMSCALE list kernels > "$TMP/k" 2>&1
kernels=$(awk '/^[^ ]/ { print $1 }' "$TMP/k")
[ -n "$wls" ] && [ -n "$kernels" ]; ok $? "model workloads and kernel profiles listed"

# The workload x profile checks are independent single-threaded runs:
# as many at once as there are CPUs, each into its own file, reported in
# order below.
mkdir -p "$TMP/chk"
for w in $wls; do for k in $kernels; do printf '%s %s\n' "$w" "$k"; done; done |
	MEMSCALE=$MEMSCALE D="$TMP/chk" xargs -P "$(nproc)" -L 1 sh -c \
		'"$MEMSCALE" model program "$0" --set kernel="$1" --check > "$D/$0@$1" 2>&1; echo $? > "$D/$0@$1.st"'
for w in $wls; do
	for k in $kernels; do
		st=$(cat "$TMP/chk/$w@$k.st" 2>/dev/null || echo missing)
		[ "$st" = 0 ]; ok $? "$w under $k: program counts = model counts"
		[ "$st" = 0 ] || grep -e '^!=' -e 'memscale' "$TMP/chk/$w@$k" | head -5 | sed 's/^/#   /'
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
# The LRU lock's section (lruvec->lru_lock in the per-node block), not
# the zone lock's.
$MEMSCALE model program fallocate1 --set kernel=70a64b7919cb --line 128 > "$TMP/out" 2>&1
awk '/^ *lock +lock pn/{ in_cs = 1; next } /^ *unlock /{ if (in_cs) exit } in_cs && /^ *write / {
	n++; if (prev == $2) back++ } in_cs && /^ *(read|write|rmw) / { prev = $1 == "write" ? $2 : "" }
	END { printf "%d writes, %d back to back\n", n, back; exit !(n >= 20 && back * 4 < n) }' "$TMP/out" > "$TMP/cs"
ok $? "fallocate1 under 70a64b7919cb: the section's writes are interleaved ($(cat "$TMP/cs"))"

# Measured runs execute no hook: the normal objects of the hooked files
# reference no recorder function; their recording copies do
# (models/record.h, the Makefile's MODEL_REC_SRCS).
B=${BUILD:-build}
if command -v nm >/dev/null && [ -f "$B/models/memcg.o" ] && [ -f "$B/rec/models/memcg.o" ]; then
	for o in memcg lru; do
		! nm "$B/models/$o.o" | grep -q 'model_rec_\(access\|local\|lock\|unlock\)$'
		ok $? "$B/models/$o.o calls no recorder hook"
		nm "$B/rec/models/$o.o" | grep -q ' U model_rec_access$'
		ok $? "$B/rec/models/$o.o (the recording copy) does"
	done
	# every entry point of a normal object hands over to its recording
	# copy, but those only a recorder never calls (set-up, the final flush)
	miss=$(nm -g --defined-only "$B/models/memcg.o" "$B/models/lru.o" | awk '$2 == "T" { print $3 }' |
		grep -v -x -e model_setup -e model_worker_populate -e model_worker_lock_stats -e model_final_flush |
		while read -r f; do nm "$B/models/memcg.o" "$B/models/lru.o" | grep -q " U ${f}_rec$" || echo "$f"; done)
	[ -z "$miss" ]; ok $? "every model entry point dispatches to its recording copy${miss:+ (missing: $miss)}"
else
	echo "ok - # SKIP no nm or no objects under $B"
fi
# A stats design is reached through its function pointers from both
# copies of the dual-built files, so its hooks must run in the recording:
# v5.11's batched atomics fold into every ancestor's vmstats[] (lost once
# when the plug-ins' hooks were compiled out with the hand-off files),
# which v5.x keeps inside struct mem_cgroup: lines of the root's memcg
# object in the range `layout --struct mem_cgroup` gives vmstats[] and
# vmevents[].
$MEMSCALE model program page_fault2 --set kernel=v5.11 > "$TMP/out" 2>&1
$MEMSCALE layout --kernel v5.11 --struct mem_cgroup > "$TMP/mc" 2>&1
lo=$(awk '$1 == "vmstats" { print $2 }' "$TMP/mc")
hi=$(awk '$1 == "vmevents" { print $2 + $3 }' "$TMP/mc")
n=$(awk -v lo="$lo" -v hi="$hi" '$1 == "rmw" && $2 ~ /^memcg\[L3\]\+/ {
	o = substr($2, index($2, "+") + 1) + 0; if (o + 64 > lo && o < hi) n++ } END { print n + 0 }' "$TMP/out")
[ -n "$lo" ] && [ "$n" -ge 1 ]
ok $? "page_fault2 under v5.11 records the stats fold into the root's vmstats[] in struct mem_cgroup ($n rmw lines in $lo..$hi)"
n=$(grep -c '^ *rmw *vmstats\[L' "$TMP/out")
[ "$n" -eq 0 ]; ok $? "v5.11 folds into no memcg_vmstats object of its own ($n rmw lines)"
# ... and on every update it loads memcg->vmstats_percpu from struct
# mem_cgroup: 4df910620beb moved that pointer out of the 128 B pair it
# shared with vmstats[0..7] at its parent
pairs=
for k in "4df910620beb^" 4df910620beb; do
	$MEMSCALE layout --kernel "$k" --struct mem_cgroup > "$TMP/mc" 2>&1
	ptr=$(awk '$1 == "vmstats_percpu" { print int($2 / 64) * 64 }' "$TMP/mc")
	vs=$(awk '$1 == "vmstats" { print int($2 / 128) }' "$TMP/mc")
	$MEMSCALE model program page_fault2 --set kernel="$k" > "$TMP/out" 2>&1
	grep -q "^ *read *memcg\[L0\]+$ptr " "$TMP/out"
	ok $? "$k: the vmstats_percpu pointer's line (+$ptr) is read"
	pairs="$pairs $([ -n "$ptr" ] && [ $((ptr / 128)) -eq "${vs:--1}" ] && echo same || echo apart)"
done
[ "$pairs" = " same apart" ]
ok $? "the pointer shares vmstats[]'s 128 B pair at 4df910620beb^, not at 4df910620beb (got:$pairs)"


# Work done with the LRU lock held is the critical section's: the stat
# updates of update_lru_size() run memcg_rstat_updated(), whose ancestor
# walk 8d59d2214c23 added and 9cee7e8ef3e3 made cheap (per-CPU parent
# pointers); v6.7 has no walk.  The recording counts them inside the
# lock and, with a calibration, the lock section's local work grows by
# levels x the walk probe's figure.
for k in v6.7 8d59d2214c 9cee7e8ef3e3; do
	$MEMSCALE model program tlb_flush2 --set kernel=$k > "$TMP/prog-$k" 2>&1
done
wp() { awk -v f="$2" '/^inside lock pn\[L0\]\+[0-9]*, per hold:/ { for (i = 1; i <= NF; i++) if ($i == f) { v = $(i + 2); sub(/,$/, "", v); print v } }' "$1"; }
[ "$(wp "$TMP/prog-v6.7" walk.permemcg)" = "0.00" ] && [ "$(wp "$TMP/prog-v6.7" walk.cached)" = "0.00" ]
ok $? "v6.7: no ancestor walk inside the LRU lock"
awk -v a="$(wp "$TMP/prog-8d59d2214c" walk.permemcg)" 'BEGIN { exit !(a >= 1) }'
ok $? "8d59d2214c: parent_mem_cgroup() walk levels inside the LRU lock ($(wp "$TMP/prog-8d59d2214c" walk.permemcg) per hold)"
awk -v a="$(wp "$TMP/prog-9cee7e8ef3e3" walk.cached)" -v b="$(wp "$TMP/prog-9cee7e8ef3e3" walk.permemcg)" 'BEGIN { exit !(a >= 1 && b == 0) }'
ok $? "9cee7e8ef3e3: the cached walk inside the LRU lock, no parent_mem_cgroup() walk"
C=tests/fixtures/model_calib.txt
lock_local() { awk '$1 == "lock" { in_l = ($3 ~ /^pn/); next } $1 == "unlock" { in_l = 0 } in_l && $1 == "local" { s += $2 } END { printf "%.3f", s }' "$1"; }
for k in v6.7 8d59d2214c; do
	$MEMSCALE model program tlb_flush2 --set kernel=$k --calib "$C" > "$TMP/cprog-$k" 2>&1
done
a=$(lock_local "$TMP/cprog-v6.7"); b=$(lock_local "$TMP/cprog-8d59d2214c")
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > a) }'
ok $? "with a calibration the lock section's local work grows with the in-lock walk ($a -> $b ns)"

# struct mem_cgroup at the profile's declared offsets (mc_layout): v6.8's
# css.parent at 192 (line +192), vmstats_percpu at 1808 (line +1792),
# memory.usage alone at 256.  8d59d2214c23's walk loads vmstats_percpu
# and css.parent at every level; 9cee7e8ef3e3's loads neither (per-CPU
# statc->parent), so its only css.parent reads are the charge path's
# memory.high check, the same as in 8d59d2214c.
per_op() { # FILE LINE KIND LOCKWORD -> model count /op
	awk -v l="$2" -v k="$3" -v w="$4" '$1 == l && $2 == k && (w == "" || index($0, w)) { s += $(NF - 3) } END { printf "%.6f", s + 0 }' "$1"
}
for k in 8d59d2214c 9cee7e8ef3e3; do
	$MEMSCALE model program tlb_flush2 --set kernel=$k --check > "$TMP/chk-$k" 2>&1
done
p8=$(per_op "$TMP/chk-8d59d2214c" 'memcg[L1]+192' read '(no lock)')
v8=$(per_op "$TMP/chk-8d59d2214c" 'memcg[L1]+1792' read '(no lock)')
p9=$(per_op "$TMP/chk-9cee7e8ef3e3" 'memcg[L1]+192' read '(no lock)')
pl8=$(per_op "$TMP/chk-8d59d2214c" 'memcg[L1]+192' read 'lock pn')
vl8=$(per_op "$TMP/chk-8d59d2214c" 'memcg[L1]+1792' read 'lock pn')
pl9=$(per_op "$TMP/chk-9cee7e8ef3e3" 'memcg[L1]+192' read 'lock pn')
awk -v p8="$p8" -v v8="$v8" -v p9="$p9" -v pl8="$pl8" -v vl8="$vl8" -v pl9="$pl9" 'BEGIN {
	d = p8 - p9 - v8; exit !(v8 >= 1 && vl8 >= 1 && pl8 == vl8 && pl9 == 0 && p9 < 0.1 &&
				  d < 1e-5 && d > -1e-5) }'
ok $? "8d59d2214c reads css.parent once per level (as vmstats_percpu: $v8 + $vl8 in the LRU lock /op), 9cee7e8ef3e3 only on the charge path ($p9 /op, $pl9 in the lock)"
v9=$(per_op "$TMP/chk-9cee7e8ef3e3" 'memcg[L1]+1792' read '')
[ "$v9" = "0.000000" ]; ok $? "9cee7e8ef3e3 reads no memcg->vmstats_percpu pointer ($v9 /op)"

# 802f1d522d5f moves page_counter.parent off usage's line: in v5.10's
# struct mem_cgroup (4df910620beb: memory at 208) parent sits at 248 (line
# +192, usage's) before and at 312 (line +256) after.  Every
# page_counter level and the v5 walk read it, so reads move from line +192
# to +256 by the same amount; usage's atomics stay on +192.
for k in '802f1d522d5f^' 802f1d522d5f; do
	$MEMSCALE model program page_fault2 --set kernel="$k" --check > "$TMP/pc-$k" 2>&1
done
r0=$(per_op "$TMP/pc-802f1d522d5f^" 'memcg[L1]+192' read '')
r1=$(per_op "$TMP/pc-802f1d522d5f" 'memcg[L1]+192' read '')
s0=$(per_op "$TMP/pc-802f1d522d5f^" 'memcg[L1]+256' read '')
s1=$(per_op "$TMP/pc-802f1d522d5f" 'memcg[L1]+256' read '')
a0=$(per_op "$TMP/pc-802f1d522d5f^" 'memcg[L1]+192' atomic '')
a1=$(per_op "$TMP/pc-802f1d522d5f" 'memcg[L1]+192' atomic '')
awk -v r0="$r0" -v r1="$r1" -v s0="$s0" -v s1="$s1" -v a0="$a0" -v a1="$a1" 'BEGIN {
	d = (r0 - r1) - (s1 - s0); exit !(r0 > r1 && s1 > s0 && d < 1e-5 && d > -1e-5 && a0 == a1 && a0 > 0) }'
ok $? "802f1d522d5f^ -> 802f1d522d5f: parent reads leave usage's line (+192: $r0 -> $r1 /op) for +256 ($s0 -> $s1), usage atomics stay ($a0 /op)"

# Global reclaim (models/memcg.h model_page_free_reclaimed, models/lru.c
# model_reclaim): lru_file_readtwice, 104 containers, v5.11.  The reclaim
# call is recorded apart as the reclaimer's (kswapd's) part; its lruvec
# lock is the walk's; the pages it frees leave through zone->lock
# (free_pcppages_bulk: a NR_FREE_PAGES update per page, 63 per hold), and
# the readers take them back through zone->lock (rmqueue_bulk: one update
# per hold).  A workload whose footprint fits has neither.
$MEMSCALE model program lru_file_readtwice --set kernel=v5.11 --set containers=104 > "$TMP/rt" 2>&1
awk '/^actor:/ { a = 1 } a && /^ +lock +lock zone/ { z++ } a && /^ +lock +lock pn.*\[walk,node\]/ { w++ }
     END { exit !(z > 0 && w > 0) }' "$TMP/rt"
ok $? "readtwice: the reclaimer's part takes zone->lock and the walk's lruvec lock"
awk '/^actor:/ { exit } /^ +lock +lock zone/ { z++ } END { exit !(z > 0) }' "$TMP/rt"
ok $? "readtwice: the readers' part takes zone->lock (rmqueue_bulk)"
grep -q '^inside lock zone+1152, per hold: percpu adds 1.00' "$TMP/rt" &&
	grep -q '^reclaim call: inside lock zone+1152, per hold: percpu adds 63.00' "$TMP/rt"
ok $? "readtwice: readers' zone holds are refills (1 update), the reclaim call's drains (63 pages)"
grep -q '^global reclaim: 0.03' "$TMP/rt"
ok $? "readtwice: one reclaim call per 32 pages read"
for w in aim9_page_test page_fault2; do
	$MEMSCALE model program $w > "$TMP/nr" 2>&1
	! grep -q -e '^actor:' -e '\[walk' -e '^global reclaim' "$TMP/nr"
	ok $? "$w (footprint fits): no reclaimer, no walk"
done

# Issue order: a read that follows the worker's own atomic on the line in
# the same operation (try_charge_memcg's page_counter usage: the atomic
# add, then the reads of usage against max) comes after that atomic in
# the program, so it is the hit it is in the kernel; the line's first
# access is the atomic.
$MEMSCALE model program page_fault1 --set kernel=v6.7 > "$TMP/pf1" 2>&1
first=$(awk '$2 == "memcg[L0]+256" { print $1; exit }' "$TMP/pf1")
[ "$first" = rmw ]; ok $? "the page_counter line's first access is its atomic (got '$first')"
n_read=$(awk '$1 == "read" && $2 == "memcg[L0]+256"' "$TMP/pf1" | wc -l)
at_rmw=$(awk '$1 == "rmw" && $2 == "memcg[L0]+256" { print NR; exit }' "$TMP/pf1")
at_read=$(awk '$1 == "read" && $2 == "memcg[L0]+256" { print NR; exit }' "$TMP/pf1")
[ "$n_read" -ge 1 ] && [ -n "$at_rmw" ] && [ "${at_read:-0}" -gt "$at_rmw" ]
ok $? "its reads are still in the program, after it ($n_read, first at line ${at_read:-none} after ${at_rmw:-none})"

done_testing
