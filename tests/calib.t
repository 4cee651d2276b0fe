#!/bin/sh
# The machine's one calibration file (predict/calib.h, format 3): model
# calibrate writes it where run and the sweeps look for it; a model run's
# kernel-shaped work comes from it and every result row and sidecar
# records its path and hash (knobs calib_file, calib_hash); a hash asked
# for and not found, and a file of an older format version, are refused in
# one line; run and the sweeps share their defaults (page_work=kernel);
# without a file the first run calibrates once for the machine, keeps it in
# the state directory and says where; calib_file=none calibrates for the
# run alone.  No timing is asserted.
. tests/lib.sh
F=tests/fixtures
CAL=$PWD/$F/model_calib.txt

col() { # col CSV NAME: the value of column NAME in the first data row
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
		NR == 2 && c { print $c }' "$1"
}

# model calibrate without --out writes the machine's file ($MEMSCALE_CALIB)
MEMSCALE_CALIB="$TMP/state/memscale/calib.txt" \
	$MEMSCALE model calibrate --quick --no-locks --no-workloads --reps 2 \
	>"$TMP/out" 2>"$TMP/err"
st=$?
[ $st -eq 0 ] && grep -q "^format = memscale-calib 4" "$TMP/state/memscale/calib.txt" &&
	grep -q "wrote $TMP/state/memscale/calib.txt" "$TMP/err" && ! [ -s "$TMP/out" ]
ok $? "model calibrate writes the machine's file (exit $st), nothing on stdout"
for k in fault fault.first fault.zero fault.cow fault.shared fault.populate syscall \
	syscall.falloc clear; do
	grep -q "^$k.median_ns = " "$TMP/state/memscale/calib.txt"
	ok $? "probe $k measured"
done
grep -q "^part.fault_page_ns = " "$TMP/state/memscale/calib.txt" &&
	grep -q "^part.syscall_shmem_page_ns = " "$TMP/state/memscale/calib.txt" &&
	grep -q "^meta.instructions = " "$TMP/state/memscale/calib.txt"
ok $? "fault and syscall components, and how instructions were counted"

# a run reads the kwork from the file and records it
expect_exit 0 "run with --calib" -- $MEMSCALE run page_fault1 -t 1 -s 0.1 --sample-ms 50 \
	--calib $CAL -o "$TMP/a.csv"
h=$(col "$TMP/a.csv" calib_hash)
[ "$(col "$TMP/a.csv" calib_file)" = "$CAL" ] && echo "$h" | grep -Eq '^[0-9a-f]{16}$' &&
	[ "$(col "$TMP/a.csv" kwork_units)" = "$(sed -n 's/^kwork.page_fault1.units = //p' $CAL)" ]
ok $? "row records calib_file, calib_hash ($h) and the file's kwork_units"
grep -q "\"calib_file\": \"$CAL\"" "$TMP/a.json" && grep -q "\"calib_hash\": \"$h\"" "$TMP/a.json"
ok $? "sidecar records the same path and hash"
[ "$(col "$TMP/a.csv" page_work)" = kernel ]
ok $? "run's default is the sweeps' page_work=kernel"
# the machine's file ($MEMSCALE_CALIB, set by lib.sh) gives the same hash
expect_exit 0 "run with the machine's file" -- $MEMSCALE run page_fault1 -t 1 -s 0.1 \
	--sample-ms 50 -o "$TMP/b.csv"
[ "$(col "$TMP/b.csv" calib_hash)" = "$h" ]
ok $? "the machine's file is the same calibration (same hash)"
expect_exit 0 "the hash asked for is the file's" -- $MEMSCALE run page_fault1 -t 1 -s 0.1 \
	--sample-ms 50 --set calib_hash=$h
expect_usage "another hash asked for" "not the calib_hash=0123456789abcdef" -- \
	$MEMSCALE run page_fault1 -t 1 -s 0.1 --sample-ms 50 --set calib_hash=0123456789abcdef
expect_usage "a malformed hash" "calib_hash" -- \
	$MEMSCALE run page_fault1 -t 1 -s 0.1 --set calib_hash=xyz
sed 's/^format = memscale-calib 4/format = memscale-calib 1/' $CAL >"$TMP/old.calib"
sed 's/^format = memscale-calib 4/format = memscale-calib 2/' $CAL >"$TMP/v2.calib"
sed 's/^format = memscale-calib 4/format = memscale-calib 3/' $CAL >"$TMP/v3.calib"
expect_usage "a version-3 file (walk probes timed with the footprint walk)" "format version 3 is too old" -- \
	$MEMSCALE model predict stats_batch --calib "$TMP/v3.calib"
expect_usage "a version-2 file (loop probes timed as one loop)" "format version 2 is too old" -- \
	$MEMSCALE model predict stats_batch --calib "$TMP/v2.calib"
expect_usage "a version-1 file" "format version 1 is too old" -- \
	$MEMSCALE run page_fault1 -t 1 -s 0.1 --calib "$TMP/old.calib"
expect_usage "model predict on a version-1 file" "format version 1 is too old" -- \
	$MEMSCALE model predict stats_batch --calib "$TMP/old.calib"
# numbers are whole tokens and keys are known: a file cut mid-number
# (162.791 left as 162, no newline) and an unknown key are refused
head -c -5 $CAL >"$TMP/cut.calib"
expect_usage "a calibration cut mid-number" "line [0-9]*: cut short" -- \
	$MEMSCALE model predict stats_batch --calib "$TMP/cut.calib"
{ cat $CAL; echo "fault.medain_ns = 3"; } >"$TMP/unk.calib"
expect_usage "an unknown calibration key" "unknown key 'fault.medain_ns'" -- \
	$MEMSCALE model predict stats_batch --calib "$TMP/unk.calib"
{ cat $CAL; echo "lock.nosuchlock.pair.median_ns = 3"; } >"$TMP/unk2.calib"
expect_usage "a probe of a lock that does not exist" "unknown key 'lock.nosuchlock.pair.median_ns'" -- \
	$MEMSCALE run page_fault1 -t 1 -s 0.1 --calib "$TMP/unk2.calib"
{ head -5 $CAL; printf 'hit.q1_ns = 1\0\n'; tail -n +6 $CAL; } >"$TMP/nul.calib"
expect_usage "a NUL byte in a calibration (was: line too long)" "line 6: not a text file (a NUL byte)" -- \
	$MEMSCALE model predict stats_batch --calib "$TMP/nul.calib"
expect_usage "--calib missing" "nonexistent" -- \
	$MEMSCALE run page_fault1 -t 1 -s 0.1 --calib "$TMP/nonexistent"
# kwork given as a number: no calibration consulted, recorded as none
expect_exit 0 "kwork=100" -- $MEMSCALE run page_fault1 -t 1 -s 0.1 --sample-ms 50 \
	--set kwork=100 -o "$TMP/k.csv"
[ "$(col "$TMP/k.csv" calib_file)" = none ] && [ "$(col "$TMP/k.csv" calib_hash)" = none ]
ok $? "a kwork given by the knob records calib_file=none, calib_hash=none"
# page_work other than kernel: no calibration, no columns
expect_exit 0 "page_work=touch" -- $MEMSCALE run page_fault1 -t 1 -s 0.1 --sample-ms 50 \
	--set page_work=touch -o "$TMP/t.csv"
[ -z "$(col "$TMP/t.csv" calib_hash)" ]
ok $? "page_work=touch consults no calibration"
# no file: the first run calibrates once for this machine, keeps it in
# the state directory and says where; the next run reads it (no second
# calibration) and records the same hash, so compare takes both
MEMSCALE_CALIB="$TMP/none.calib" $MEMSCALE run page_fault3 -t 1 -s 0.1 --sample-ms 50 \
	-o "$TMP/n.csv" >"$TMP/out" 2>"$TMP/err"
st=$?
store=$MEMSCALE_STATE_DIR/kwork.ini
hn=$(col "$TMP/n.csv" calib_hash)
[ $st -eq 0 ] && grep -q "page_fault3: calibrating the kernel-shaped work once for this machine (kept in $store)" "$TMP/err" &&
	grep -q "page_fault3: kernel-shaped work written to $store (hash $hn)" "$TMP/err" &&
	[ "$(col "$TMP/n.csv" calib_file)" = "$store" ] && echo "$hn" | grep -Eq '^[0-9a-f]{16}$' &&
	grep -q "^\[page_fault3\]" "$store" && grep -q "^hash = $hn" "$store"
ok $? "without a file: calibrated once, kept in the state directory, said where (exit $st)"
[ $st -eq 0 ] || sed 's/^/#   /' "$TMP/err" | head -5
MEMSCALE_CALIB="$TMP/none.calib" $MEMSCALE run page_fault3 -t 1 -s 0.1 --sample-ms 50 \
	-o "$TMP/n2.csv" >"$TMP/out" 2>"$TMP/err"
st=$?
[ $st -eq 0 ] && ! grep -q "calibrating" "$TMP/err" && [ "$(col "$TMP/n2.csv" calib_hash)" = "$hn" ]
ok $? "the next run reuses it: no calibration, the same hash (exit $st)"
MEMSCALE_CALIB="$TMP/none.calib" expect_exit 0 "compare of the two runs" -- \
	$MEMSCALE compare "$TMP/n.csv" "$TMP/n2.csv"
# another workload's section leaves the first one's hash alone
MEMSCALE_CALIB="$TMP/none.calib" $MEMSCALE run page_fault1 -t 1 -s 0.1 --sample-ms 50 \
	-o "$TMP/n3.csv" >/dev/null 2>&1
MEMSCALE_CALIB="$TMP/none.calib" $MEMSCALE run page_fault3 -t 1 -s 0.1 --sample-ms 50 \
	-o "$TMP/n4.csv" >/dev/null 2>&1
grep -q "^\[page_fault1\]" "$store" && [ "$(col "$TMP/n4.csv" calib_hash)" = "$hn" ]
ok $? "adding page_fault1 to the store keeps page_fault3's hash"
# a store whose figures do not match their hash is refused in one line
sed 's/^units = .*/units = 1/' "$store" > "$TMP/bad.ini" && cp "$TMP/bad.ini" "$store"
MEMSCALE_CALIB="$TMP/none.calib" expect_usage "a tampered store" "does not match its figures" -- \
	$MEMSCALE run page_fault3 -t 1 -s 0.1 --sample-ms 50
# calib_file=none: this run's own calibration, a hash of its own
$MEMSCALE run page_fault3 -t 1 -s 0.1 --sample-ms 50 --set calib_file=none \
	-o "$TMP/r.csv" >"$TMP/out" 2>"$TMP/err"
st=$?
[ $st -eq 0 ] && [ "$(col "$TMP/r.csv" calib_file)" = none ] &&
	col "$TMP/r.csv" calib_hash | grep -Eq '^run-[0-9a-f]{16}$'
ok $? "calib_file=none: calibrated for this run, hash run-... (exit $st)"
# predict --sensitivity: every measured input doubled alone; one that
# moves no row says why (here: the target profile gives the transfer)
expect_exit 0 "predict --sensitivity" -- $MEMSCALE model predict stats_batch --cpus published \
	--calib $CAL --iters 2000 --sensitivity
grep -q "^# sensitivity of stats_batch over its 4 published rows" "$TMP/out" &&
	[ "$(grep -Ec '^# (fault|syscall|page|list|percpu|xfer.atomic|atomic.uncontended|hit|miss|walk.permemcg|walk.cached|meta.cpu_mhz) ' "$TMP/out")" -eq 12 ]
ok $? "one sensitivity line per measured input"
grep -q "^# xfer.atomic .*unused: not read for target lkp-skl-fpga01: xfer_ns comes from the target profile" "$TMP/out"
ok $? "an input the target profile replaces says so"
awk '$2 == "fault" && $4 + 0 > 0 { f = 1 } END { exit !f }' "$TMP/out"
ok $? "the fault cost moves the page-fault rows"
grep -q "fault_ns .*steady-state re-fault" "$TMP/out" || grep -q "fault_ns .*fault probe" "$TMP/out"
ok $? "the fault parameter says which probe figure it is"
# the one-question form reports the same, per input, on stderr with -f csv
$MEMSCALE model predict --workload page_fault2 --pair v5.11..memcg_update_batch \
	--target lkp-skl-fpga01 --cpus 104 --calib $CAL --iters 2000 --sensitivity -f csv \
	>"$TMP/qout" 2>"$TMP/qerr"
st=$?
[ $st -eq 0 ] && [ "$(wc -l <"$TMP/qout")" -eq 2 ] &&
	grep -q "^# sensitivity of page_fault2 kernel=v5.11..kernel=memcg_update_batch at 104 CPUs" "$TMP/qerr" &&
	[ "$(grep -Ec '^# (fault|syscall|page|clear|list|percpu|xfer.atomic|atomic.uncontended|hit|miss|walk.permemcg|walk.cached|meta.cpu_mhz) ' "$TMP/qerr")" -eq 13 ]
ok $? "predict --workload --sensitivity: one line per measured input on stderr, the CSV alone on stdout (exit $st)"
grep -q "^# xfer.atomic .*unused: not read for target lkp-skl-fpga01: xfer_ns comes from the target profile" "$TMP/qerr" &&
	! grep -q "^# walk.permemcg .*not in this calibration" "$TMP/qerr"
ok $? "an input the target replaces says so; one the fixture lacks is read from the work reference"
awk '$2 == "fault" && ($4 + 0 > 0 || $4 + 0 < 0) { f = 1 } END { exit !f }' "$TMP/qerr"
ok $? "the fault cost moves the page-fault question"

# a sweep point runs with the same defaults as run
cat >"$TMP/pw.ini" <<EOI
[experiment]
name = pw
description = default page work of a sweep point
reproduces = none (test)
workloads = page_fault1
workers = 1
mode = processes
seconds = 0.1
warmup = 0
sample_ms = 50
reps = 1
trace = no

[variant base]
charge_batch = 64
EOI
expect_exit 0 "sweep of a model workload" -- $MEMSCALE sweep "$TMP/pw.ini" --out "$TMP/pw"
f=$(ls "$TMP"/pw/*.csv 2>/dev/null | head -1)
[ -n "$f" ] && [ "$(col "$f" page_work)" = kernel ] && [ "$(col "$f" calib_hash)" = "$h" ]
ok $? "sweep point: page_work=kernel and the same calibration hash as run"
done_testing
