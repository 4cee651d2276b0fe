#!/bin/sh
# model predict --workload ... --explain: per side and lock, what the
# simulated critical section is made of (predict/sim_types.h, struct
# sim_explain): the parts add up to the hold, the waiters' traffic and the
# lines with the most transfers are printed; -f csv keeps its one row on
# stdout; the experiment form refuses --explain.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
CAL=tests/fixtures/model_calib.txt
Q="model predict --workload page_fault2 --pair 70a64b7919cb..fefc6e6631ff --target shakeel-52cpu --cpus 52 --calib $CAL --iters 4000"

expect_exit 0 "predict --explain" -- $MEMSCALE $Q --explain
for side in A B; do
	grep -q "^explain: side $side (kernel=" "$TMP/out"; ok $? "side $side explained"
done
[ "$(grep -c "^  lock 'lock pn\[L0\]+[0-9]*': utilisation [0-9.]*, hold [0-9.]* ns, .* folio-ops/hold" "$TMP/out")" -eq 2 ]
ok $? "each side's lock: utilisation, hold and folio-ops per hold"
[ "$(grep -c "^  lock 'lock zone+[0-9]*': utilisation [0-9.]*, hold [0-9.]* ns" "$TMP/out")" -eq 2 ]
ok $? "each side's zone->lock explained too"
# The LRU lock's blocks only (each side has the zone->lock's as well).
awk '/^explain:|^  lock /{ on = ($0 ~ /^  lock .lock pn/) } on' "$TMP/out" > "$TMP/pn"
cp "$TMP/out" "$TMP/all"; cp "$TMP/pn" "$TMP/out"
for part in local hit xfer_waiter xfer_holder xfer_other inval busy atomic "handoff (between holds)"; do
	[ "$(grep -c "^    $part  *[0-9]" "$TMP/out")" -eq 2 ]; ok $? "part '$part' on both sides"
done
# The parts above "all (the hold)" add up to it, on each side.
awk '/^  lock /{ s = 0; n = 1 } n && /^    (local|hit|xfer_[a-z]+|inval|busy|atomic) +[0-9]/{ s += $2 }
     /^    all \(the hold\)/{ d = s - $4; if (d < 0) d = -d; if (d > 0.2 + 0.001 * $4) bad++; seen++; n = 0 }
     END { exit !(seen == 2 && !bad) }' "$TMP/out"
ok $? "the parts add up to the hold on both sides"
# The hold printed beside the utilisation is the one the parts add up to.
awk '/^  lock /{ for (i = 1; i <= NF; i++) if ($i == "hold") h = $(i + 1) }
     /^    all \(the hold\)/{ d = h - $4; if (d < 0) d = -d; if (d > 0.11) bad++; seen++ }
     END { exit !(seen == 2 && !bad) }' "$TMP/out"
ok $? "the composition is that of the simulated hold"
[ "$(grep -c "^    waiters per hold: arrivals [0-9.]* (pending path [0-9.]*), their RMWs [0-9.]*, spinner re-reads [0-9.]*; steals" "$TMP/out")" -eq 2 ]
ok $? "the waiters' traffic per hold on both sides"
grep -q "^    pn\[L0\]+[0-9]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$TMP/out"; ok $? "the top lines by the taker's role"
grep -q "^page_fault2 .*hold [0-9]* ns" "$TMP/all"; ok $? "the prediction line is still printed"
# The band's variants one by one (predict_band_names): all six on a target
# that pairs lines and has caches, and the band is their range with the
# central value (to the 0.1 printed).
awk '/^page_fault2 /{ for (i = 1; i <= NF; i++) if ($i == "band") { split($(i + 1), b, /\.\.|%/); lo = b[1] + 0; hi = b[2] + 0 } }
     /^band: /{ n = split($0, f, ";"); c = $0; sub(/.*over the central /, "", c); mn = mx = c + 0
	for (i = 1; i <= n; i++) { if (f[i] ~ /left out/) out++; x = f[i]; sub(/%[^%]*$/, "", x); sub(/.* /, "", x); x += 0
		if (x < mn) mn = x; if (x > mx) mx = x } v = n }
     END { exit !(v == 6 && !out && (mn - lo) ^ 2 < 0.0101 && (mx - hi) ^ 2 < 0.0101) }' "$TMP/all"
ok $? "the band's six variants printed, their range with the central value the band"
# Beside the simulated hold, the hold the published absolute implies
# (layout_false_sharing's row at 52 CPUs, seed 000 line 36): with the
# busiest lock's n instances in use saturated (one node here: n = 1),
# n x 1e9 / (published ops/s x folio-ops per op).
[ "$(grep -c "^  published absolute: [0-9.e+]* ops/s (seed 000_781c09509806b304 line 36 " "$TMP/all")" -eq 2 ] &&
	grep -q "^  published absolute: 2.376e+06 ops/s" "$TMP/all" &&
	grep -q "^  published absolute: 3.573e+06 ops/s" "$TMP/all"
ok $? "each side's published absolute, base for A and patch for B"
[ "$(grep -c "^    assumption: lock 'lock pn\[L0\]+[0-9]*' (the busiest here, utilisation [0-9.]*; 1 instance in use) is saturated in the kernel, so folio-ops/s = 1 / hold" "$TMP/all")" -eq 2 ]
ok $? "the saturation assumption is said, naming the lock and its one instance (one node)"
awk '/^  lock .lock pn/{ for (i = 1; i <= NF; i++) { if ($i == "holds/op,") h = $(i - 1)
		if ($i == "folio-ops/hold") f = $(i - 1) } }
     /^    all \(the hold\)/ && !got { sim = $5; got = 1 }
     /^explain:/{ got = 0 }
     /^    implied hold per folio-op = [0-9]+ \/ \(/{ n = $6; ops = substr($8, 2); fo = $11; imp = $14; s = $17
	e = 1e9 * n / (ops * fo) / imp - 1; if (e < 0) e = -e; if (e > 0.002 || n != 1) bad++
	d = fo - h * f; if (d < 0) d = -d; if (d > 0.02 * fo) bad++
	d = s - sim; if (d < 0) d = -d; if (d > 0.051) bad++; seen++ }
     END { exit !(seen == 2 && !bad) }' "$TMP/all"
ok $? "implied hold = 1 x 1e9 / (ops/s x folio-ops/op), folio-ops/op = holds/op x folio-ops/hold, beside the simulated hold"
# tlb_flush2 at 52 (issue 35's third row): LKP's per_process_ops x 52
# give each side's absolute, so each prints its implied hold; the fix's
# row (lore, a percentage only) has none and says so.  lkp-skl-fpga01
# has two nodes, the workers on both: the lruvec lock has two instances
# in use, and the published ops/s are two locks' worth.
T="model predict --workload tlb_flush2 --pair v6.7..8d59d2214c --target lkp-skl-fpga01 --cpus 52 --calib $CAL --iters 2000 --explain"
$MEMSCALE $T >"$TMP/tlb" 2>&1
[ "$(grep -c "^    implied hold per folio-op = 2 / ([0-9.e+]* ops/s x [0-9.]* folio-ops/op) = [0-9.]* ns; simulated [0-9.]* ns" "$TMP/tlb")" -eq 2 ] &&
	[ "$(grep -c "^    assumption: lock 'lock pn\[L0\]+[0-9]*' (the busiest here, utilisation [0-9.]*; 2 instances in use)" "$TMP/tlb")" -eq 2 ]
ok $? "tlb_flush2 at 52 on two nodes: two instances, the implied hold beside the simulated one, per side"
awk '/^    implied hold per folio-op = /{ n = $6; ops = substr($8, 2); fo = $11; imp = $14
	e = 1e9 * n / (ops * fo) / imp - 1; if (e < 0) e = -e; if (e > 0.002) bad++; seen++ }
     END { exit !(seen == 2 && !bad) }' "$TMP/tlb"
ok $? "tlb_flush2: implied hold = 2 x 1e9 / (ops/s x folio-ops/op)"
# Saturated or not, n instances pass at most n / hold folio-ops a second:
# the implied hold bounds the kernel's from above, the same figure.
awk '/^    implied hold per folio-op = /{ imp = $14 }
     /^    without the assumption, an upper bound: 2 instances cannot pass more than 2 \/ hold folio-ops\/s, so the kernel.s hold was at most /{
	if ($NF != "ns" || $(NF - 1) != imp) bad++; seen++ }
     END { exit !(seen == 2 && !bad) }' "$TMP/tlb"
ok $? "tlb_flush2: the implied hold is also said as an upper bound, per side"
T="model predict --workload tlb_flush2 --pair v6.7..9cee7e8ef3e3 --target lkp-skl-fpga01 --cpus 52 --calib $CAL --iters 2000 --explain"
$MEMSCALE $T >"$TMP/tlb" 2>&1
[ "$(grep -c "^  published absolute: none (the \[published\] row, lore .* gives no base_ops_s/patch_ops_s): no implied hold$" "$TMP/tlb")" -eq 2 ]
ok $? "a row without a published absolute says so in one line per side"
grep -q "benchmark's own window" "$TMP/tlb"; [ $? -eq 1 ]
ok $? "tlb_flush2's benchmark times its whole loop: no window line"

# lru_shm at 224 on a target: usemem's timer leaves out the munmap and
# the rm, so the prediction records the reads alone and says so per side
# (wl_lru_shm.c's spec, .untimed); its implied hold has one folio-op per
# operation, the LRU add (the delete is outside the window).
T="model predict --workload lru_shm --pair v6.7..8d59d2214c --target lkp-cpl-4sp2 --cpus 224 --calib $CAL --iters 2000 --explain"
$MEMSCALE $T >"$TMP/shm" 2>&1
[ "$(grep -c "^  the benchmark's own window: lru-shm's timer leaves out usemem's munmap at its exit and the case script's rm after 'wait', so it is not recorded$" "$TMP/shm")" -eq 2 ]
ok $? "lru_shm on a target: the benchmark's window is named on each side"
[ "$(grep -c "^    implied hold per folio-op = 4 / ([0-9.e+]* ops/s x 1.000 folio-ops/op)" "$TMP/shm")" -eq 2 ]
ok $? "lru_shm: one folio-op per operation in the window, four nodes' locks"

# The workers' local work outside the lock sections, by the parts the
# builder priced (predict/sim_types.h sim_local_parts): on each side, the
# parts add up to the total printed above them.
awk '/^  local work per operation outside the lock sections: /{ t = $9 + 0; s = 0; on = 1; k = 0; next }
     on && /^    part /{ next }
     on && /^    [^ ]/{ s += $(NF - 1); k++; next }
     on { on = 0; d = s - t; if (d < 0) d = -d; if (k < 2 || d > 0.05 * k + 0.001 * t) bad++; seen++ }
     END { exit !(seen == 2 && !bad) }' "$TMP/all"
ok $? "each side's local work: its parts add up to the printed total"
# page_fault3 takes one fault an operation (its munmap once in 32768
# pages, will-it-scale tests/page_fault3.c), no lock: the entry part is
# one entry_ns of its kernel's era, and with no lock to imply a hold the
# published absolute gives the time per operation per worker,
# 52 x 1e9 / ops/s, beside the simulated one.
P="model predict --workload page_fault3 --pair 70a64b7919cb..fefc6e6631ff --target shakeel-52cpu --cpus 52 --calib $CAL --iters 2000 --explain"
$MEMSCALE $P >"$TMP/pf3" 2>&1; ok $? "predict page_fault3 --explain"
awk '/^#   entry_ns@v5.19 /{ e = $3 }
     /^    kernel entry \(faults \+ system calls\) x entry_ns /{ n++; x = $NF; x = $(NF - 1) / e
	if (!(x >= 1 && x <= 1.001)) bad++ }
     END { exit !(e > 0 && n == 2 && !bad) }' "$TMP/pf3"
ok $? "page_fault3: the entry part is one entry_ns@v5.19 an operation"
awk '/^    implied time per operation per worker = 52 workers \/ /{ n++; ops = $11 + 0; imp = $14 + 0; sim = $17 + 0
	if (!(ops > 0 && imp > 0 && sim > 0)) { bad++; next }
	w = 52e9 / ops; if ((imp - w) ^ 2 > (0.0005 * w + 0.06) ^ 2) bad++ }
     END { exit !(n == 2 && !bad) }' "$TMP/pf3"
ok $? "page_fault3: the implied time per operation is 52 x 1e9 / the published ops/s, per side"

expect_exit 0 "predict --explain -f csv" -- $MEMSCALE $Q --explain -f csv
[ "$(wc -l <"$TMP/out")" -eq 2 ] && head -1 "$TMP/out" | grep -q "^workload,base,patch,target,cpus,mode,predicted_pct,band_lo_pct,band_hi_pct,regime,base_ops_s,patch_ops_s$"
ok $? "-f csv: stdout keeps its header and one row"
grep -q "^explain: side B" "$TMP/err"; ok $? "-f csv: the explanation goes to stderr"

expect_usage "--explain with an experiment" "explain" -- $MEMSCALE model predict lru_lock_split --explain --calib $CAL
# The reclaimer's CPU share (predict/sim_memcg.h MEMCG_KSWAPD_SHARE) is
# said where the explanation prints kswapd; the sensitivity override
# MEMSCALE_KSWAPD_SHARE is named there and in the regime, and a share
# outside (0, 1] is refused.
H="model predict --workload page_fault2 --pair 70a64b7919cb..fefc6e6631ff --target here --cpus 2 --calib $CAL --iters 4000 --explain"
$MEMSCALE $H >"$TMP/here" 2>&1
[ "$(grep -c "^band: .*left out (it changes nothing here)" "$TMP/here")" -eq 1 ] &&
	[ "$(grep "^band: " "$TMP/here" | grep -o "left out" | wc -l)" -eq 2 ]
ok $? "this machine's model (64-byte lines, no cache sizes): the two modelling variants left out"
R="model predict --workload lru_file_readtwice --pair v5.10..v5.11 --target xeon-2s-32t --cpus 32 --calib $CAL --explain"
$MEMSCALE $R >"$TMP/rt" 2>&1
[ "$(grep -c "^  global reclaim: kswapd, one per node at 0.333 of a CPU (default MEMCG_KSWAPD_SHARE)" "$TMP/rt")" -eq 2 ] &&
	! grep -q "override" "$TMP/rt"
ok $? "kswapd's default share is printed for both sides"
# Global reclaim adds the walk's twin of the lruvec lock on side B: every
# lock still gets its folio-ops per hold from the recording (by name and
# scope, not by index), and the twin says what it is.
! grep -q "nan folio-ops/hold" "$TMP/rt" &&
	grep -q "^  lock 'lock pn\[L0\]+64' (global reclaim's memcg walk): .* [0-9.]* folio-ops/hold" "$TMP/rt"
ok $? "readtwice: every lock has its folio-ops per hold, the reclaim walk's twin named"
# A full node's drained pages each read a far struct page line under
# zone->lock (buddy_merge_likely's order-1 buddy): the footprint model
# finds it in the target's caches with the printed chances, and its cost
# is their mix of the target's l2_ns, llc_ns and miss_ns (DRAM); the
# reclaim calls drain pcp->batch = 63 pages a hold.
awk '/^#   l2_ns /{ l2 = $3 } /^#   llc_ns /{ llc = $3 } /^#   miss_ns /{ dram = $3 }
     /^    far struct page lines: /{ n++
	for (i = 1; i <= NF; i++) { if ($i == "at") ns = $(i + 1) + 0; if ($i == "(L2") pl2 = $(i + 1) + 0
		if ($i == "LLC") pllc = $(i + 1) + 0; if ($i == "DRAM") pd = $(i + 1) + 0
		if ($(i + 1) == "per" && $(i + 2) == "hold") per = $i + 0 }
	want = (pl2 * l2 + pllc * llc + pd * dram) / 100
	if ((ns - want) ^ 2 > 0.05 ^ 2 || pd < 99 || per != 63) bad++ }
     END { exit !(n == 2 && !bad) }' "$TMP/rt"
ok $? "readtwice: a far struct page line per drained page on both sides, priced from the footprint's chances"
MEMSCALE_KSWAPD_SHARE=0.5 $MEMSCALE $R >"$TMP/rt" 2>&1
[ "$(grep -c "^  global reclaim: kswapd, one per node at 0.5 of a CPU (MEMSCALE_KSWAPD_SHARE)" "$TMP/rt")" -eq 2 ] &&
	grep -q "^lru_file_readtwice .*kswapd reclaims A .* at the MEMSCALE_KSWAPD_SHARE override" "$TMP/rt"
ok $? "the override is named in the explanation and the regime"
MEMSCALE_KSWAPD_SHARE=2 $MEMSCALE $R >"$TMP/rt" 2>&1; st=$?
[ "$st" -eq 2 ] && [ "$(wc -l <"$TMP/rt")" -eq 1 ] && grep -q "MEMSCALE_KSWAPD_SHARE: '2' is not a share" "$TMP/rt"
ok $? "a share outside (0, 1] gets one line and exit 2"
# The stats flushers beside the program (predict/sim_flusher.c memcg_flusher):
# 70a64b7919cb's sides flush every 2 s only; aa48e47e3906's update path
# queues a flush every 32 lruvec updates per CPU (1f828223b799^), which
# then runs back to back (1 / its flush time) and takes a share of each
# core; 1f828223b799 asks for none.
grep -q "^  stats flushers: 0.5 flushes/s (periodic 0.5/s, asked for on the update path and by readers at most 0/s," "$TMP/all"
ok $? "70a64b7919cb: the periodic flusher alone"
F="model predict --workload page_fault2 --pair 1f828223b799^..1f828223b799 --target lkp-skl-fpga01 --cpus 104 --calib $CAL --iters 4000 --explain"
expect_exit 0 "predict --explain of aa48e47e3906's queued flush" -- $MEMSCALE $F
awk '/^explain: side A/{ s = "A" } /^explain: side B/{ s = "B" }
     /^  stats flushers: /{ n[s]++
	for (i = 1; i <= NF; i++) { if ($i == "flushes/s") r[s] = $(i - 1); if ($i == "most" && $(i + 2) == "one") a[s] = $(i + 1) + 0
		if ($i == "1" && $(i + 1) == "/") cap[s] = 1e6 / $(i + 2); if ($i == "loses") sh[s] = $(i + 1) + 0 } }
     END { exit !(n["A"] == 1 && n["B"] == 1 && a["A"] > r["A"] && (r["A"] - cap["A"]) ^ 2 < (0.01 * cap["A"]) ^ 2 &&
		  sh["A"] > 1 && a["B"] == 0 && r["B"] == 0.5 && sh["B"] < 0.001) }' "$TMP/out"
ok $? "1f828223b799^: asked for more than one at a time runs, flushes back to back, takes over 1% of each core; 1f828223b799: periodic only"
# The LRU-size slots of the lruvec's and the memcg's per-CPU state, written
# only under the lruvec lock, come back inside each hold after a flush: 2
# lines x the mean transfer to the flusher's CPU, half of the owners on the
# other socket, 47 x (1 + 0.5 x (2.851 - 1)) = 90.5 ns: 181 ns.
grep -q "^  after a flush, 2 per-CPU lines written only under a lock come back inside its section: a flush came since the core's last hold with chance 1 (its iteration from a first run), +181 ns per hold$" "$TMP/out"
ok $? "1f828223b799^: 2 lines taken back inside every hold, +181 ns"
[ "$(grep -c "^  after a flush" "$TMP/out")" -eq 1 ]; ok $? "1f828223b799: no line taken back inside a hold"
done_testing
