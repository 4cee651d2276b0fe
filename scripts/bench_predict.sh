#!/bin/sh
# bench_predict.sh - make bench's prediction figures (issues 23, 35): the
# wall time of one prediction at 224 CPUs (with its band; fallocate1 on
# lkp-cpl-4sp2, then page_fault2 on lkp-spr-2sp4) and of `model
# validate -f csv` over every published row (with their bands), against
# the goals (< 2 s and < 60 s on 2 cores), and of the recordings behind
# `memscale layout` and `layout --audit` (every access shape of every
# declared layout or kernel profile; no goal), on the
# reference calibration of this VM, with the default --jobs (the CPUs
# this process may run on) and with --jobs 1; each with the CPU time
# (user+sys) of the run, which a loaded machine disturbs less than the
# wall time, and the load average.  A prediction is run three times and
# the fastest run reported, with the slowest beside it (a VM's steal and
# its neighbours only ever add time).  The simulator's events per second
# are bench_sim's figure.  Prints them; asserts nothing (timings on a
# shared machine are noisy).  Usage: bench_predict.sh MEMSCALE [CALIB]
set -eu
M=${1:-bin/memscale}
CAL=${2:-results-reference/vm-2cpu/calib-quiet.txt}
[ -f "$CAL" ] || CAL=tests/fixtures/model_calib.txt
now() { date +%s.%N; }
# The children's CPU seconds so far (user + sys): this shell's `times`,
# written to a file (in a pipe or $(...) a subshell would answer).
T=$(mktemp)
trap 'rm -f "$T"' EXIT
cpu_read() { awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } print s }' "$T"; }
# figure LABEL TARGET GOAL_S REPS CMD...: runs CMD REPS times (stdout and
# stderr discarded) and prints the fastest run's wall and CPU time, and against the goal
# (GOAL_S seconds of wall time on 2 cores; '-': none) whether the wall
# time meets it and whether the CPU time over 2 cores would (what an
# otherwise idle 2-core machine gives when the run keeps both busy).
figure() {
	label=$1 target=$2 goal=$3 reps=$4
	shift 4
	best= worst= bestc=
	i=0
	while [ $i -lt "$reps" ]; do
		times >"$T"
		c0=$(cpu_read) t0=$(now)
		"$@" >/dev/null 2>&1 || { echo "$label: failed (exit $?)"; return 0; }
		t1=$(now)
		times >"$T"
		c1=$(cpu_read)
		w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf("%.3f", b - a) }')
		c=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf("%.3f", b - a) }')
		if [ -z "$best" ] || awk -v x="$w" -v y="$best" 'BEGIN { exit !(x < y) }'; then
			best=$w bestc=$c
		fi
		if [ -z "$worst" ] || awk -v x="$w" -v y="$worst" 'BEGIN { exit !(x > y) }'; then
			worst=$w
		fi
		i=$((i + 1))
	done
	awk -v l="$label" -v g="$target" -v w="$best" -v c="$bestc" -v worst="$worst" -v n="$reps" \
		-v load="$(cut -d' ' -f1-3 /proc/loadavg)" -v goal="$goal" \
		'BEGIN { printf("%s: %.2f s wall, %.2f s CPU", l, w, c)
			 if (n > 1)
				printf(" (the fastest of %d runs; the slowest %.2f s)", n, worst)
			 printf(" (%s), load %s\n", g, load)
			 if (goal != "-")
				printf("  goal < %s s: wall %s, CPU / 2 cores %.2f s %s\n", goal,
				       w < goal + 0 ? "met" : "NOT met", c / 2,
				       c / 2 < goal + 0 ? "met" : "NOT met") }'
}
echo "calibration $CAL, $(getconf _NPROCESSORS_ONLN) CPUs online"
figure "one prediction at 224 CPUs (fallocate1 v6.7..8d59d2214c on lkp-cpl-4sp2, with its band)" \
	"target < 2 s" 2 3 \
	"$M" model predict --workload fallocate1 --pair v6.7..8d59d2214c --target lkp-cpl-4sp2 \
	--cpus 224 --calib "$CAL" -f csv
figure "one prediction at 224 CPUs (page_fault2 v6.9..70a64b7919cb on lkp-spr-2sp4, with its band)" \
	"target < 2 s" 2 3 \
	"$M" model predict --workload page_fault2 --pair v6.9..70a64b7919cb --target lkp-spr-2sp4 \
	--cpus 224 --calib "$CAL" -f csv
figure "model validate -f csv over every published row, default --jobs" "target < 60 s on 2 cores" 60 1 \
	"$M" model validate --calib "$CAL" -f csv
figure "model validate -f csv over every published row, --jobs 1" "one thread, for comparison" - 1 \
	"$M" model validate --calib "$CAL" -f csv --jobs 1
figure "memscale layout --kconfig rhel-8.3 (the declared layouts' recordings)" "no goal" - 1 \
	"$M" layout --kconfig rhel-8.3
figure "memscale layout --audit --kconfig rhel-8.3 (every kernel profile's recordings)" "no goal" - 1 \
	"$M" layout --audit --kconfig rhel-8.3
