#!/bin/sh
# Target-machine profiles (predict/target.h): every registered profile
# lists a source for every value; predict runs each published row on the
# profile of its machine, other sizes on "here", every parameter with its
# origin; nothing is left assumed; the validation ledger covers every
# published row with its role (counted from the experiment files); bad targets are refused.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
F=tests/fixtures
CAL=$F/model_calib.txt

expect_exit 0 "list targets" -- $MEMSCALE list targets
cp "$TMP/out" "$TMP/targets"
names=$(awk 'NR > 1 && /^[a-z0-9]/ && $1 != "here" { print $1 }' "$TMP/targets")
[ -n "$names" ]; ok $? "at least one target profile is registered"
# A value line: "    NAME  VALUE UNIT  SOURCE"; '-' values still name why.
awk '/^    [a-z_0-9]+ +([-0-9.e+]+|-) / {
	n++; src = $0; sub(/^ *[a-z_]+ +[-0-9.e+]+ +[A-Za-z]* */, "", src)
	if (length(src) < 8) { print "no source: " $0; bad = 1 } }
	END { exit bad || n == 0 }' "$TMP/targets"
ok $? "every profile value carries a source"
grep -q "^here " "$TMP/targets"; ok $? "'here' (this machine) is listed"

for t in $names; do
	expect_exit 0 "predict with --target $t" -- \
		$MEMSCALE model predict lru_lock_split --calib $CAL --target $t --cpus 4 --iters 2000 --line 64
	grep -q "^# target $t:" "$TMP/out"; ok $? "$t: its parameter table is printed"
	# Every parameter line names an origin.
	awk '/^#   [a-z_]+ +[-0-9.e+]+ / { n++
		if ($0 !~ /(measured here|work reference|target profile|model|NOT MEASURED|command line)/) { print; bad = 1 } }
		END { exit bad || n < 10 }' "$TMP/out"
	ok $? "$t: every parameter has an origin"
done
grep -q "assumed" "$TMP/out"; [ $? -ne 0 ]; ok $? "no parameter is 'assumed'"

# Published rows run on their own machine, other sizes on this machine.
expect_exit 0 "predict lru_lock_split per published machine" -- \
	$MEMSCALE model predict lru_lock_split --calib $CAL --cpus 8 --iters 2000
grep -Eq "^aim9_page_test .* 24 .* e5-2630-2s " "$TMP/out"; ok $? "AIM9 row at 24 CPUs runs on e5-2630-2s"
grep -Eq "^aim9_page_test .* 8 .* here " "$TMP/out"; ok $? "an unpublished size runs on 'here'"

# The ancestor-walk cost: not measured without a walk_step probe, measured with one.
expect_exit 0 "predict permemcg_flush without walk_step" -- \
	$MEMSCALE model predict permemcg_flush --calib $CAL --cpus 4 --iters 2000 --target here
grep -Eq "^#   walk_miss .*NOT MEASURED" "$TMP/out"; ok $? "the walk cost says NOT MEASURED"
{ cat $CAL; echo "walk.permemcg.median_ns = 30"; echo "walk.cached.median_ns = 2"; } >"$TMP/walk.calib"
expect_exit 0 "predict permemcg_flush with walk_step" -- \
	$MEMSCALE model predict permemcg_flush --calib "$TMP/walk.calib" --cpus 4 --iters 2000 --target here
grep -Eq "^#   walk_step +30 .*measured here .*walk.permemcg" "$TMP/out"; ok $? "the walk step comes from the walk.permemcg probe"

# Clock scaling: local work in cycles at the target's clock.
{ cat $CAL; echo "meta.cpu_mhz = 5800"; } >"$TMP/clock.calib"
expect_exit 0 "predict on lkp-cpl-4sp2 with a 5.8 GHz calibration" -- \
	$MEMSCALE model predict permemcg_flush --calib "$TMP/clock.calib" --target lkp-cpl-4sp2 --cpus 4 --iters 2000
# A target's local work is the work reference's (predict/work/reference.txt),
# whatever the calibration's clock: its fault.min_ns less its clear and
# syscall minima (the target's entry is added per fault), x its clock /
# the target's 2.9 GHz.
want=$(awk -F' = ' '$1 == "fault.min_ns" { f = $2 } $1 == "clear.min_ns" { c = $2 }
	$1 == "syscall.min_ns" { y = $2 } $1 == "meta.cpu_mhz" { m = $2 }
	END { printf "%.4g", (f - c - y) * m / 1000 / 2.9 }' predict/work/reference.txt)
grep -Eq "^#   fault_ns +$want ns +work reference, clock-scaled" "$TMP/out"
ok $? "fault body: the work reference's, scaled by its clock over the target's ($want ns)"
grep -Eq "^#   remote_factor .*target profile" "$TMP/out"; ok $? "cross-socket factor from the profile"
# Cooper Lake: RDCL_NO and enhanced IBRS, the Skylake-SP round trip
# (120 cycles) at 2.9 GHz in both eras; the syscall probe is not used.
grep -Eq "^#   entry_ns@v4.15 +41.38 ns +target profile" "$TMP/out"; ok $? "lkp-cpl-4sp2: entry 41.38 ns before v5.19"
grep -Eq "^#   entry_ns@v5.19 +41.38 ns +target profile" "$TMP/out"; ok $? "lkp-cpl-4sp2: no IBRS on entry from v5.19 (enhanced IBRS)"
grep -Eq "^#   syscall_ns +0 ns +model .*the work reference's [0-9.]+ ns not used" "$TMP/out"; ok $? "the syscall probe is not used for a target, and says so"
# Skylake-SP: PTI in both eras, IBRS written on entry and exit from v5.19.
expect_exit 0 "predict on lkp-skl-fpga01" -- \
	$MEMSCALE model predict permemcg_flush --calib $CAL --target lkp-skl-fpga01 --cpus 4 --iters 2000
grep -Eq "^#   entry_ns@v4.15 +247.6 ns " "$TMP/out"; ok $? "lkp-skl-fpga01: (120 + 400 PTI) cycles at 2.1 GHz before v5.19"
grep -Eq "^#   entry_ns@v5.19 +1314 ns " "$TMP/out"; ok $? "lkp-skl-fpga01: + 2240 IBRS cycles from v5.19"
# The entry is the target's: a calibration with a 2.5x faster getppid
# gives the same entry, and the same prediction on a syscall-heavy row.
sed 's/^syscall\.\(median\|q1\|q3\|min\|max\)_ns = .*/syscall.\1_ns = 118.87/' $CAL >"$TMP/fastsys.calib"
for c in $CAL "$TMP/fastsys.calib"; do
	expect_exit 0 "readtwice on xeon-2s-32t with $(basename $c)" -- \
		$MEMSCALE model predict --workload lru_file_readtwice --pair v5.10..v5.11 --target xeon-2s-32t \
		--cpus 32 --calib $c --set containers=32 --set depth=1 -f csv
	grep -E "^#   entry_ns@v4.15 " "$TMP/err" >"$TMP/entry.$(basename $c)"
	tail -1 "$TMP/out" | cut -d, -f7 >"$TMP/pct.$(basename $c)"
done
[ -s "$TMP/entry.model_calib.txt" ] && cmp -s "$TMP/entry.model_calib.txt" "$TMP/entry.fastsys.calib"
ok $? "the entry cost does not depend on this machine's syscall probe"
a=$(cat "$TMP/pct.model_calib.txt"); b=$(cat "$TMP/pct.fastsys.calib")
awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d < 3) }'
ok $? "readtwice@32: a 2.5x faster getppid moves the prediction under 3 points ($a vs $b)"
# The knob reaches the simulator: the v5.19 era's IBRS entry on Skylake-SP
# lengthens every fault and system call, so the readtwice change shrinks.
expect_exit 0 "readtwice on lkp-skl-fpga01, v5.19 entry" -- \
	$MEMSCALE model predict --workload lru_file_readtwice --pair v5.10..v5.11 --target lkp-skl-fpga01 \
	--cpus 52 --calib $CAL --set containers=52 --set depth=1 --set mitigations=v5.19 -f csv
c=$(tail -1 "$TMP/out" | cut -d, -f7)
expect_exit 0 "readtwice on lkp-skl-fpga01, v4.15 entry" -- \
	$MEMSCALE model predict --workload lru_file_readtwice --pair v5.10..v5.11 --target lkp-skl-fpga01 \
	--cpus 52 --calib $CAL --set containers=52 --set depth=1 -f csv
d=$(tail -1 "$TMP/out" | cut -d, -f7)
awk -v c="$c" -v d="$d" 'BEGIN { exit !(c != "" && d != "" && c + 0 < d + 0) }'
ok $? "IBRS on entry (mitigations=v5.19) shrinks the readtwice gain ($c vs $d %)"

# The ledger: every published row, roles from docs/validation.md.
expect_exit 0 "validate: the ledger" -- $MEMSCALE model validate --calib $CAL --iters 2000
# The counts come from the data: the seeds `memscale list experiments`
# names, their rows as `memscale published` prints them, role=dev as the
# [published] lines give it (the default role is held).
seeds=$($MEMSCALE list experiments)
npub=$($MEMSCALE published | tail -n +2 | wc -l)
ndev=$(cat experiments/*.ini | grep -Ec '^[a-z0-9_]+ *=.*, *role *= *dev *(,|$)')
rows=$(grep -Ec "^($(printf '%s\n' $seeds | paste -sd '|' -)) " "$TMP/out")
[ "$npub" -gt 0 ] && [ "$rows" -eq "$npub" ]; ok $? "ledger has the $npub published rows ($rows)"
dev=$(grep -Ec "^[a-z_]+ +[a-z0-9_]+ .* dev " "$TMP/out")
[ "$dev" -eq "$ndev" ]; ok $? "$ndev rows are development rows ($dev; docs/validation.md)"
[ "$(grep -c '^# summary [a-z_]*:' "$TMP/out")" -eq "$(printf '%s\n' $seeds | wc -l)" ]; ok $? "one summary per seed"
grep -Eq "^# summary, held-out rows: +$((npub - ndev)) rows," "$TMP/out"; ok $? "held-out summary: $((npub - ndev)) rows"
mkdir -p "$TMP/res/seed"; cp $F/model_results.csv "$TMP/res/seed/results.csv"
# (-f csv: the measured points' table alone, without the ledger again)
expect_exit 0 "validate a results directory" -- $MEMSCALE model validate "$TMP/res" --calib $CAL --iters 2000 -f csv
grep -q "^$TMP/res/seed/results.csv,[0-9]*,page_fault2," "$TMP/out"; ok $? "the directory's results.csv is validated"

# Calibration: one fault per fault probe, the unmap apart, the machine's conditions recorded.
expect_exit 0 "calibrate --quick" -- \
	$MEMSCALE model calibrate --quick --no-locks --no-workloads --reps 2 --out "$TMP/q.calib"
grep -q "^unmap.median_ns" "$TMP/q.calib"; ok $? "unmap probe recorded apart from fault"
grep -Eq "^meta.hypervisor = (yes|no)$" "$TMP/q.calib"; ok $? "hypervisor recorded"
# The running kernel's mitigations, as /sys lists them (one line, or why not).
if [ -d /sys/devices/system/cpu/vulnerabilities ]; then
	want=$(for f in /sys/devices/system/cpu/vulnerabilities/*; do
		head -1 "$f" | grep -qv '^Not affected' && echo "${f##*/}"; done | LC_ALL=C sort | head -1)
	if [ -n "$want" ]; then
		grep -Eq "^meta.mitigations = (.*, )?$want: " "$TMP/q.calib"
	else
		grep -q "^meta.mitigations = none reported$" "$TMP/q.calib"
	fi
else
	grep -q "^meta.mitigations = unknown" "$TMP/q.calib"
fi
ok $? "the calibrating kernel's mitigations recorded (meta.mitigations)"

# A profile is a data file: given by path wherever a name works, refused
# with one line when malformed or when a fact has no source.
first=$(echo $names | awk '{ print $1 }')
sed "s/^name = .*/name = my-box/" predict/targets/$first.ini > "$TMP/my-box.ini"
expect_exit 0 "predict with --target FILE" -- \
	$MEMSCALE model predict lru_lock_split --calib $CAL --target "$TMP/my-box.ini" --cpus 4 --iters 2000
grep -q "^# target my-box:" "$TMP/out"; ok $? "--target FILE: the file's profile is used"
grep -v "^ghz.source\|^ghz = " "$TMP/my-box.ini" | sed "s/^\[facts\]/[facts]\nghz = 2.0/" > "$TMP/nosrc.ini"
expect_usage "a fact without a source" "ghz" -- \
	$MEMSCALE model predict lru_lock_split --calib $CAL --target "$TMP/nosrc.ini"
{ cat "$TMP/my-box.ini"; echo "bogus_fact = 3"; } > "$TMP/bad.ini"
expect_usage "an unknown fact" "bogus_fact" -- \
	$MEMSCALE model predict lru_lock_split --calib $CAL --target "$TMP/bad.ini"
# Each fact has a range and the cache latencies grow outwards: a value
# outside either is refused with one line naming the fact.
bad_fact() { # KEY VALUE DESC PATTERN
	awk -v k="$1" -v v="$2" '($1 == k || $1 == k ".source") && $2 == "=" { skip = 1; next }
		skip && /^[ \t]/ { next } { skip = 0; print }
		END { print k " = " v; print k ".source = a made-up value for this test" }' \
		"$TMP/my-box.ini" > "$TMP/badval.ini"
	expect_usage "$3" "$4" -- \
		$MEMSCALE model predict lru_lock_split --calib $CAL --target "$TMP/badval.ini"
}
for kv in "l2_cycles 0.5" "llc_cycles 1e9" "dram_ns 3" "smt 1.5" "llc_victim 2" "llc_victim 0.5"; do
	set -- $kv
	bad_fact "$1" "$2" "fact $1 = $2 out of range" "$1 '$2' is out of range"
done
bad_fact l2_cycles 3 "L2 latency below the L1 hit" "hit_cycles 4 is not below l2_cycles 3"
bad_fact llc_cycles 10 "LLC latency below the L2's" "l2_cycles 12 is not below llc_cycles 10"
bad_fact xfer_remote_ns 2 "cross-socket transfer below the same-socket one" "is not below xfer_remote_ns 2"
bad_fact l2_cycles 12x "a fact that is not a number" "l2_cycles '12x' is not a number"
# SMT siblings are placed as CPU c + cores (predict/sim.c), so the
# threads per core must multiply the cores out to the CPUs.
c=$(awk '$1 == "cores" && $2 == "=" { print $3; exit }' "$TMP/my-box.ini")
bad_fact smt 4 "smt that does not multiply the cores out to the CPUs" "$c cores x smt 4 is not its"

# The cache facts reach the prediction's parameter table, with origins.
expect_exit 0 "predict on lkp-skl-fpga01 (cache latencies)" -- \
	$MEMSCALE model predict lru_lock_split --calib $CAL --target lkp-skl-fpga01 --cpus 4 --iters 2000
for p in l2_ns llc_ns llc_victim l2_bytes; do
	grep -Eq "^#   $p +[-0-9.e+]+ .*target profile" "$TMP/out"; ok $? "lkp-skl-fpga01: $p from the profile"
done
grep -Eq "^#   miss_ns +89.7 .*target profile" "$TMP/out"; ok $? "lkp-skl-fpga01: miss_ns is the sourced DRAM latency"
grep -Eq "^    (l2_cycles|llc_cycles|llc_victim) " "$TMP/targets"; ok $? "list targets shows the cache latencies"
expect_exit 0 "predict on lkp-spr-2sp4 (no LLC latency)" -- \
	$MEMSCALE model predict lru_lock_split --calib $CAL --target lkp-spr-2sp4 --cpus 4 --iters 2000
grep -Eq "^#   llc_ns .*NOT MEASURED" "$TMP/out"; ok $? "lkp-spr-2sp4: llc_ns says NOT MEASURED"

mkdir -p "$TMP/tdir"; cp predict/targets/*.ini "$TMP/tdir/"; cp "$TMP/my-box.ini" "$TMP/tdir/my-box.ini"
expect_exit 0 "list targets of another directory" -- env MEMSCALE_TARGETS="$TMP/tdir" $MEMSCALE list targets
grep -q "^my-box " "$TMP/out"; ok $? "a new profile file is listed without a rebuild"

# messages name the real line; a NUL byte, a FIFO and a device are
# said to be what they are (were: line 0, "line too long", a hang)
bad_fact l2_cycles 12y "a bad fact" "l2_cycles '12y'"
n=$(grep -n "^l2_cycles = 12y" "$TMP/badval.ini" | cut -d: -f1)
[ -n "$n" ] && grep -q "badval.ini:$n: l2_cycles '12y'" "$TMP/err"; ok $? "... names its line ($n), not line 0"
printf '[target]\nname = x\n\0\n' > "$TMP/nul.ini"
expect_usage "a target with a NUL byte" "nul.ini:3: not a text file (a NUL byte)" -- \
	$MEMSCALE model predict lru_lock_split --calib $CAL --target "$TMP/nul.ini"
mkfifo "$TMP/fifo.ini"
expect_usage "a FIFO as --target" "fifo.ini: is a FIFO" -- \
	timeout 20 $MEMSCALE model predict lru_lock_split --calib $CAL --target "$TMP/fifo.ini"
expect_usage "/dev/full as --target" "/dev/full: is a special file" -- \
	timeout 20 $MEMSCALE model predict lru_lock_split --calib $CAL --target /dev/full
expect_usage "unknown --target" "nosuchbox" -- \
	$MEMSCALE model predict stats_batch --calib $CAL --target nosuchbox
expect_usage "validate a missing directory" "nonexistent" -- \
	$MEMSCALE model validate "$TMP/nonexistent" --calib $CAL
done_testing
