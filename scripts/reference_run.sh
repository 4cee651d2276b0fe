#!/bin/sh
# reference_run.sh OUTDIR - the reference study of a many-core machine in
# one command, sized to take about six minutes at 16 CPUs (the studies are
# the experiments' own files; only worker counts, times and repetitions
# are overridden, and recorded in each sweep's sweep.json):
#
#   machine   CPU, topology (hwloc, through memscale's sidecars), kernel,
#             build: OUTDIR/machine.txt
#   calibrate model calibrate --quick into OUTDIR/calib.txt: the sweeps'
#             kernel-shaped work, and model_validate's costs
#   validate  every lock at nproc threads, every counter
#   bench     make bench's figures: bench_locks (registry vs direct, harness
#             per-op cost) and bench_trace (tracing cost at nproc workers)
#   locks     experiments/locks.ini at 1, 2, 4, ... nproc workers
#   seeds     the seed experiments' [quick] profiles at the same counts
#   kernel    experiments/kernel_vs_model.ini [quick] (where memcgs can be
#             created)
#   modes     page_fault2 in thread and in process mode at every count
#   trace     one traced page_fault2 run at nproc workers and its lockstat
#   model_validate  model validate OUTDIR --calib OUTDIR/calib.txt -f csv:
#             the simulator against every point measured here
#
# REF_PARTS="bench_locks trace ..." runs only the named parts (the seeds
# are named by their experiment (the [experiment] name); lockstat goes with
# trace).
#
# Each part runs under its own time limit and the next part runs whatever
# happened; OUTDIR/status.txt has one line per part (name, exit status,
# seconds).  Finished sweep points are never lost (sweeps are resumable:
# rerun with the same OUTDIR to finish the rest).  Run from the
# repository root after `make` (or through scripts/bundle.sh's `run`).
set -u
[ $# -eq 1 ] || { echo "usage: sh scripts/reference_run.sh OUTDIR" >&2; exit 2; }
O=$1
M=./bin/memscale
[ -x $M ] || { echo "reference_run.sh: run 'make' first (no $M)" >&2; exit 2; }
mkdir -p "$O" || exit 2
NPROC=$(nproc)
# 1, 2, 4, ... below nproc, then nproc itself
W=$(awk -v n="$NPROC" 'BEGIN { s = ""; for (w = 1; w < n; w *= 2) s = s w ","; print s n }')
# the seed experiments: those with published rows
SEEDS=$($M list experiments) || exit 2

part() { # part NAME LIMIT_S CMD...: run, log, record status
	name=$1 limit=$2
	shift 2
	case " ${REF_PARTS:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	echo "== $name: $*"
	t0=$(date +%s)
	timeout -k 10 "$limit" "$@" >"$O/$name.log" 2>&1
	st=$?
	echo "$name $st $(( $(date +%s) - t0 ))" >>"$O/status.txt"
	tail -n 40 "$O/$name.log"
	[ $st -eq 0 ] || echo "== $name: exit status $st (see $O/$name.log)"
}

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "kernel: $(uname -srm)"
	echo "nproc: $NPROC; worker counts: $W"
	grep -m1 'model name' /proc/cpuinfo
	grep -c '^processor' /proc/cpuinfo | sed 's/^/processors: /'
	ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l | sed 's/^/numa nodes: /'
	cat /sys/devices/system/cpu/smt/active 2>/dev/null | sed 's/^/smt active: /'
	$M --version
	cat /proc/loadavg | sed 's/^/loadavg at start: /'
} >"$O/machine.txt" 2>&1
cat "$O/machine.txt"

# One calibration taken here serves every part: the sweeps read its
# kernel-shaped work (MEMSCALE_CALIB), and model_validate predicts this
# machine from it.  Anything calibrated once per machine lands in
# OUTDIR/state, beside the results it served, never in /var/lib/memscale.
MEMSCALE_STATE_DIR=$(cd "$O" && pwd)/state
export MEMSCALE_STATE_DIR
case " ${REF_PARTS:-calibrate} " in *" calibrate "*) rm -f "$O/calib.txt" ;; esac
part calibrate 240 $M model calibrate --quick --out "$O/calib.txt"
if [ -s "$O/calib.txt" ]; then
	MEMSCALE_CALIB=$(cd "$O" && pwd)/calib.txt
	export MEMSCALE_CALIB
fi
part validate 120 $M validate --all --threads "$NPROC" --iterations 20000
part bench_locks 120 ./bin/bench/bench_locks
export BENCH_TRACE_REPS=${BENCH_TRACE_REPS:-5}
part bench_trace 240 ./bin/bench/bench_trace
part locks 240 $M sweep experiments/locks.ini --out "$O/locks" --resume \
	-O workers="$W" -O seconds=0.3 -O warmup=1 -O sample_ms=100 -O reps=1
for s in $SEEDS; do
	part "$s" 150 $M sweep "experiments/$s.ini" --quick --out "$O/$s" --resume \
		-O workers="$W" -O reps=2
done
part kernel_vs_model 120 $M sweep experiments/kernel_vs_model.ini --quick \
	--out "$O/kernel_vs_model" --resume -O workers="$W" -O reps=2
part modes 120 sh -c "for w in $(echo "$W" | tr ',' ' '); do
	for m in threads processes; do
		$M run page_fault2 -t \$w -s 1 --mode \$m --out '$O/modes.csv' || exit 1
	done
done"
[ -n "${REF_PARTS:-}" ] && case " $REF_PARTS " in *" trace "*) REF_PARTS="$REF_PARTS lockstat" ;; esac
case " ${REF_PARTS:-trace} " in *" trace "*) rm -rf "$O/trace" ;; esac
part trace 60 $M run page_fault2 -t "$NPROC" -s 1 --trace="$O/trace" --out "$O/trace.csv"
part lockstat 60 $M lockstat "$O/trace"
# How the simulator predicts the machine it measured: every sweep above,
# against this machine's calibration (one row per measured point).
if [ -s "$O/calib.txt" ]; then
	part model_validate 240 sh -c "$M model validate '$O' --calib '$O/calib.txt' -f csv \
		>'$O/model_validate.csv.tmp' && mv '$O/model_validate.csv.tmp' '$O/model_validate.csv'"
fi
echo "loadavg at end: $(cat /proc/loadavg)" >>"$O/machine.txt"
echo "== status (part, exit status, seconds)"
cat "$O/status.txt"
