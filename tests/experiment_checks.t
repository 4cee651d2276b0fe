#!/bin/sh
# Experiment files and small commands that used to accept nonsense in
# silence (issue 25 items 10 and 12): every case gives one line naming
# the file and line (or the argument) and exit 2, and a refused
# `sweep --point` leaves no directory behind.
. tests/lib.sh

# exp NAME: writes $TMP/NAME.ini from stdin after a common head.
head_ini() {
	cat <<EOT
[experiment]
name = checks
workloads = lock
workers = 1
seconds = 0.05
warmup = 0
sample_ms = 50
lock = pthread_mutex
EOT
}
exp() { { head_ini; cat; } >"$TMP/$1.ini"; }

exp axis_over_variant <<'EOT'
[variant base]
cs = 0
[variant patch]
cs = 200
[axis]
cs = 10, 20
EOT
expect_usage "an axis over a key a variant sets" "axis 'cs' would override \[variant base\]" -- \
	$MEMSCALE sweep "$TMP/axis_over_variant.ini" --dry-run
grep -q "axis_over_variant.ini:14:" "$TMP/err"; ok $? "blamed on the axis line (14)"

{ head_ini | sed 's/workloads = lock/workloads = page_fault2/; /^lock =/d'; cat <<'EOT'; } >"$TMP/kernel_axis.ini"
[variant base]
kernel = 70a64b7919cb
[variant patch]
stats_batch = 64
[axis]
stats_batch = 16, 32
EOT
expect_usage "an axis over a per-kernel knob a variant's kernel presets" "per-kernel value" -- \
	$MEMSCALE sweep "$TMP/kernel_axis.ini" --dry-run

exp quick_twice <<'EOT'
[variant base]
cs = 0
[quick]
reps = 1
seconds = 0.02
reps = 3
EOT
expect_usage "a key twice in [quick]" "quick_twice.ini:14: 'reps' is set twice in \[quick\] (first on line 12)" -- \
	$MEMSCALE sweep "$TMP/quick_twice.ini" --dry-run

exp no_quick <<'EOT'
[variant base]
cs = 0
EOT
expect_usage "--quick without a [quick] section" "has no \[quick\] section" -- \
	$MEMSCALE sweep "$TMP/no_quick.ini" --quick --dry-run
expect_exit 0 "the same file without --quick" -- $MEMSCALE sweep "$TMP/no_quick.ini" --dry-run

for spec in "banana%:bad change 'banana%'" "+12:bad change '+12'" "--5%:bad change" \
	    "+90%:contradicts BASE 100 and PATCH 150" "-50%:contradicts"; do
	change=${spec%%:*}; why=${spec#*:}
	exp pub <<EOT
[variant base]
cs = 0
[published]
lock = 100, 150, $change, a machine
EOT
	expect_usage "[published] change $change" "pub.ini:12: published 'lock': .*$why" -- \
		$MEMSCALE sweep "$TMP/pub.ini" --dry-run
done
exp pub_ok <<'EOT'
[variant base]
cs = 0
[published]
lock = 100, 150, +50.0%, a machine
lock = 1031081, 1431291, +38.80%, rounded upstream, cpus=52
lock = -, -, -7%, no numbers
EOT
expect_exit 0 "[published] rows that agree with themselves" -- $MEMSCALE sweep "$TMP/pub_ok.ini" --dry-run
for cpus in -4 0 many 2.5; do
	exp pub_cpus <<EOT
[variant base]
cs = 0
[published]
lock = -, -, +1%, a machine, cpus=$cpus
EOT
	expect_usage "[published] cpus=$cpus" "pub_cpus.ini:12: .*bad cpus '$cpus'" -- \
		$MEMSCALE sweep "$TMP/pub_cpus.ini" --dry-run
done

# Duplicates would run or count points twice; a published row names a
# registered workload (issue 36).
{ head_ini | sed 's/workloads = lock/workloads = lock, counter, lock/'; cat <<'EOT'; } >"$TMP/dup_wl.ini"
[variant base]
cs = 0
EOT
expect_usage "a workload listed twice" "dup_wl.ini:3: 'workloads' lists 'lock' twice" -- \
	$MEMSCALE sweep "$TMP/dup_wl.ini" --dry-run
exp dup_axis <<'EOT'
[variant base]
think = 0
[axis]
cs = 10, 20, 10
EOT
expect_usage "an axis value given twice" "dup_axis.ini:12: 'cs' lists '10' twice" -- \
	$MEMSCALE sweep "$TMP/dup_axis.ini" --dry-run
exp dup_quick <<'EOT'
[variant base]
cs = 0
[quick]
variants = base, base
EOT
expect_usage "a [quick] variant given twice" "dup_quick.ini:12: 'variants' lists 'base' twice" -- \
	$MEMSCALE sweep "$TMP/dup_quick.ini" --dry-run
exp pub_unknown <<'EOT'
[variant base]
cs = 0
[published]
no_such_workload = 100, 150, +50.0%, a machine
EOT
expect_usage "a [published] row for an unknown workload" "pub_unknown.ini:12: .*unknown workload 'no_such_workload'" -- \
	$MEMSCALE sweep "$TMP/pub_unknown.ini" --dry-run
exp pub_dup <<'EOT'
[variant base]
cs = 0
[published]
lock = 100, 150, +50.0%, a machine, cpus=4
lock = 100, 160, +60.0%, another machine, cpus=4
lock = 100, 150, +50.0%, a machine, cpus=4, source=again
EOT
expect_usage "a [published] row given twice" "pub_dup.ini:14: published 'lock' repeats the row of line 12" -- \
	$MEMSCALE sweep "$TMP/pub_dup.ini" --dry-run
# Linear time in line length: a 4 MB line is read in well under the
# timeout (a 1 MB one took 19 s when each part was joined by copying
# what came before; 4 MB then take some minutes).
{ head_ini; awk 'BEGIN { printf "description ="; for (i = 0; i < 200000; i++) printf " aaaaaaaaaaaaaaaaaaa"; print "" }'
  printf '[variant base]\ncs = 0\n'; } >"$TMP/long.ini"
timeout 60 $MEMSCALE sweep "$TMP/long.ini" --dry-run >"$TMP/out" 2>"$TMP/err"
ok $? "a 4 MB line read in linear time (bounded by timeout 60)"

# Workers beyond what this machine runs (64 per CPU): blamed on the line.
max=$(( $(nproc) * 64 ))
exp workers <<EOT
[variant base]
cs = 0
[quick]
workers = 1,$((max + 1))
EOT
expect_usage "[quick] workers above the limit" "workers.ini:12: bad workers '1,$((max + 1))' (want counts 1..$max" -- \
	$MEMSCALE sweep "$TMP/workers.ini" --quick --dry-run
sed 's/^workers = 1$/workers = 10000/' "$TMP/no_quick.ini" >"$TMP/w10000.ini"
expect_usage "workers = 10000" "w10000.ini:4: bad workers '10000'" -- $MEMSCALE sweep "$TMP/w10000.ini" --dry-run

# A point that does not exist: refused before the directory is made.
expect_usage "sweep --point of no point" "no point 'p9999'" -- \
	$MEMSCALE sweep "$TMP/no_quick.ini" --point p9999 --out "$TMP/sweepdir"
[ ! -e "$TMP/sweepdir" ]; ok $? "no directory left behind"
expect_usage "sweep --point of a bad id" "no point 'zz'" -- \
	$MEMSCALE sweep "$TMP/no_quick.ini" --point zz --out "$TMP/sweepdir2"
[ ! -e "$TMP/sweepdir2" ]; ok $? "no directory left behind (bad id)"

expect_usage "--version with an argument" "takes no arguments" -- $MEMSCALE --version --bogus
expect_exit 0 "--version alone" -- $MEMSCALE --version
expect_usage "list locks extra" "unexpected argument 'extra'" -- $MEMSCALE list locks extra
expect_usage "list counters twice" "unexpected argument 'counters'" -- $MEMSCALE list counters counters
printf '1 0\n2 0\n4 0\n8 0\n' >"$TMP/zeros.dat"
expect_usage "model fit usl on zero throughputs" "throughput above 0" -- $MEMSCALE model fit usl "$TMP/zeros.dat"
printf 'workload,workers,ops_per_sec\nw,1,0\nw,2,0\nw,3,0\nw,4,1\n' >"$TMP/zeros.csv"
expect_usage "model fit usl on a CSV of (nearly) zero throughputs" "1 of 4 worker counts" -- \
	$MEMSCALE model fit usl "$TMP/zeros.csv"
echo "not BTF at all" >"$TMP/junk"
expect_usage "layout --btf on a file without BTF" "holds no BTF" -- $MEMSCALE layout --btf "$TMP/junk"
expect_usage "layout --btf on a directory" "is a directory" -- $MEMSCALE layout --btf "$TMP"
expect_usage "layout --pahole on a directory" "is a directory" -- $MEMSCALE layout --pahole "$TMP"
done_testing
