#!/bin/sh
# regenerate.sh - the study data of results-reference/vm-2cpu/ (not the
# calibrations, ledgers, agreement or components, which their own
# commands in ../README.md write): every sweep the paper reads, at 1 and 2
# workers on this 2-CPU machine, each with its sidecars (machine, build,
# commit, command, seed).  Run from the repository root as root (the
# kernel backend needs memory cgroups):
#
#   sh results-reference/vm-2cpu/regenerate.sh [WORK]
#   ONLY="counters kernel_vs_model" sh ...   (those sweeps only)
#
# WORK (default /tmp/memscale-ref-vm2) receives the whole sweeps
# (points/ included); only the files the paper and compare read are
# copied here.  The kernel-shaped work is calibrated by each sweep for
# itself (no machine calibration file is read: MEMSCALE_CALIB points at
# none), so every A/B pair inside a sweep shares one calibration, which
# each row records (calib_hash run-...).
set -eu
M=./bin/memscale
WORK=${1:-/tmp/memscale-ref-vm2}
HERE=results-reference/vm-2cpu
SEED=26
export MEMSCALE_CALIB="$WORK/no-calibration-file"
mkdir -p "$WORK"
rm -f "$MEMSCALE_CALIB"

sweep() { # NAME ARGS...: sweep experiments/NAME.ini into WORK/NAME, copy
	name=$1; shift
	case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	echo "== $name: $M sweep experiments/$name.ini $* (load $(cut -d' ' -f1-3 /proc/loadavg))"
	rm -rf "${WORK:?}/$name"
	$M sweep "experiments/$name.ini" --out "$WORK/$name" --seed "$SEED" "$@" 2> "$WORK/$name.log" ||
		{ tail -n 20 "$WORK/$name.log"; exit 1; }
	tail -n 1 "$WORK/$name.log"
	rm -rf "${HERE:?}/$name"; mkdir -p "$HERE/$name"
	for f in experiment.ini matrix.txt results.csv results.json sweep.json settings.txt adaptive.txt; do
		if [ -f "$WORK/$name/$f" ]; then cp "$WORK/$name/$f" "$HERE/$name/"; fi
	done
}

# the seeds (memscale list experiments): their [quick] profiles at 1 and
# 2 workers, then interleaved A/B sets until each change's interval is
# narrower than 5 pp or 90 s have passed
for s in $($M list experiments); do
	sweep "$s" --quick -O workers=1,2 --ci 5 --budget 90
done
# the lock and counter studies: every lock (counter) of the experiment,
# both variants, 1 s runs, 2 repetitions
sweep locks -O workers=1,2 -O reps=2 -O seconds=1
sweep counters -O workers=1,2 -O reps=2 -O seconds=1
# model against the kernel backend, every workload of the experiment
sweep kernel_vs_model -O workers=1,2 -O reps=3 -O seconds=1
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
