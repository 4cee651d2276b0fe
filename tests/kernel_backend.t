#!/bin/sh
# The kernel backend: every listed kernel:* workload runs at 1 and 2 workers
# inside a 3-level memcg hierarchy, the faults the kernel counted match the
# workload's per-operation expectation, and the memcgs and the private
# tmpfs are gone afterwards - also after SIGTERM in the middle of a run.
#
# Fault tolerance: getrusage(RUSAGE_THREAD) counts exactly the faults taken
# inside each worker's loop, and an operation is counted right after its
# faults, so the only extra faults are one-time ones (stack, the first
# touch of the shared stop flag, glibc arena set-up): a handful against
# >= 10^3 operations.  We allow 0.02 + 2% per operation.  memory.stat's
# pgfault also holds the worker processes' start-up/exit faults and may
# lag by the per-CPU batch (64 events x CPUs) that has not been flushed,
# so there we allow 5% + 1024 events over the whole run.
. tests/lib.sh

skip_all() { echo "1..0 # SKIP $1"; exit 0; }
[ "$(id -u)" -eq 0 ] || skip_all "needs root to create memory cgroups"
line=$(grep -E '^[0-9]+:([^:]*,)?memory(,[^:]*)?:' /proc/self/cgroup | head -1)
if [ -n "$line" ]; then
	mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
else
	line=$(grep '^0::' /proc/self/cgroup)
	mnt=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
fi
[ -n "$mnt" ] || skip_all "no memory cgroup controller mounted"
ORIGIN=$mnt$(echo "$line" | cut -d: -f3-)
ORIGIN=${ORIGIN%/}
[ -d "$ORIGIN" ] || skip_all "cannot see our memory cgroup $ORIGIN"

# col FILE NAME: the value of column NAME in the first data row of a CSV.
col() {
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i }
		NR == 2 { print (c ? $c : "missing"); exit }' "$1"
}

# leftovers PID: cgroup dirs or tmpfs mounts of that memscale process.
leftovers() {
	ls -d "$ORIGIN/memscale.$1" "$ORIGIN"/memscale.$1.* 2>/dev/null
	grep "memscale-tmpfs.$1\." /proc/mounts
	ls -d /tmp/memscale-tmpfs.$1.* 2>/dev/null
}

# Probe: can we create memcgs at all?
$MEMSCALE run kernel:fallocate1 -t 1 -s 0.05 --sample-ms 50 -w 0 >"$TMP/probe" 2>&1
if [ $? -ne 0 ]; then
	grep -qE 'cannot create memory cgroup|no usable memory cgroup' "$TMP/probe" &&
		skip_all "$(head -1 "$TMP/probe")"
fi

# krun NAME MODE WORKERS: one short run; checks exit, faults, cleanup.
krun() {
	name=$1 mode=$2 n=$3
	csv=$TMP/$name.$mode.$n.csv
	rm -f "$csv"
	# malloc1 must stay above glibc's 32 MB mmap-threshold ceiling (it
	# touches one page per 64 MB, so this is cheap); others map 8 MB.
	# Only the workloads that map a size read ksize_mb; the others refuse it.
	mb=8; [ "$name" = malloc1 ] && mb=64
	size="--set ksize_mb=$mb"
	case $name in page_fault*|malloc1|lru_shm) ;; *) size= ;; esac
	# shellcheck disable=SC2086
	$MEMSCALE run "$name" --backend kernel -m "$mode" -t "$n" -s 0.3 \
		--sample-ms 100 -w 1 $size -o "$csv" \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	wait $pid
	rc=$?
	[ $rc -eq 0 ]; ok $? "$name $mode x$n runs (exit $rc)"
	[ $rc -eq 0 ] || { sed 's/^/#   /' "$TMP/err" | head -3; return; }
	[ -z "$(leftovers $pid)" ]; ok $? "$name $mode x$n: memcgs and tmpfs removed"
	ops=$(col "$csv" k_ops_run)
	want=$(col "$csv" k_faults_expected)
	minflt=$(col "$csv" k_minflt_per_op)
	pgf=$(col "$csv" k_pgfault_per_op)
	level=$(col "$csv" k_memcg_level)
	base=$(echo "$ORIGIN" | sed "s|^$mnt||" | awk -F/ '{ print NF - 1 }')
	[ "$level" = "$((base + 3))" ]; ok $? "$name $mode x$n ran 3 levels below our memcg (level $level)"
	if [ "$want" = "nan" ]; then
		echo "# $name: THP may map large folios here, fault check skipped"
		return
	fi
	awk -v g="$minflt" -v w="$want" -v o="$ops" 'BEGIN {
		d = g - w; if (d < 0) d = -d; exit !(o >= 100 && d <= 0.02 + 0.02 * w) }'
	ok $? "$name $mode x$n: getrusage faults/op $minflt ~ $want (ops $ops)"
	awk -v g="$pgf" -v w="$want" -v o="$ops" 'BEGIN {
		d = (g - w) * o; if (d < 0) d = -d; exit !(d <= 0.05 * w * o + 1024) }'
	ok $? "$name $mode x$n: memory.stat pgfault/op $pgf ~ $want"
}

# Every kernel workload `memscale list workloads` shows (FLAGS starting
# with "kernel") runs, so a new kernel workload file is tested without
# editing this one: one thread and two processes, or (processes_only, its
# own mm) one and two processes.
$MEMSCALE list workloads >"$TMP/list" 2>&1
for wl in page_fault1 page_fault2 page_fault3 fallocate1 fallocate2 \
	  tlb_flush2 malloc1 lru_shm aim9_page_test aim9_brk_test; do
	grep -q "^kernel:$wl  *kernel[, ]" "$TMP/list"; ok $? "list workloads shows kernel:$wl"
done
for entry in $(awk 'NR > 1 && $2 ~ /^kernel(,|$)/ { sub(/^kernel:/, "", $1); print $1 "=" $2 }' "$TMP/list"); do
	wl=${entry%%=*}
	case ",${entry#*=}," in
	*,processes_only,*) krun $wl processes 1 ;;
	*) krun $wl threads 1 ;;
	esac
	krun $wl processes 2
done
krun page_fault2 threads 2

# SIGTERM in the middle of a run: everything is removed all the same.
for mode in processes threads; do
	$MEMSCALE run page_fault2 --backend kernel -m $mode -t 2 -s 30 \
		--sample-ms 100 --set ksize_mb=8 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	i=0
	while [ ! -d "$ORIGIN/memscale.$pid/l2/c0" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	sleep 0.3
	tasks=$(cat "$ORIGIN/memscale.$pid/l2/c0/cgroup.procs" 2>/dev/null | wc -l)
	[ "$tasks" -ge 1 ]; ok $? "SIGTERM/$mode: workers were inside the leaf memcg ($tasks)"
	grep -q "memscale-tmpfs.$pid\." /proc/mounts; ok $? "SIGTERM/$mode: private tmpfs was mounted"
	kill -TERM $pid
	wait $pid
	rc=$?
	[ $rc -eq 130 ]; ok $? "SIGTERM/$mode: run stops as interrupted (exit $rc)"
	[ -z "$(leftovers $pid)" ]; ok $? "SIGTERM/$mode: memcgs and tmpfs removed"
done

# SIGKILL cannot be caught: the next run sweeps what the dead one left.
$MEMSCALE run page_fault2 --backend kernel -t 1 -s 30 --sample-ms 100 \
	--set ksize_mb=8 >"$TMP/out" 2>"$TMP/err" &
pid=$!
i=0
while [ ! -d "$ORIGIN/memscale.$pid/l2/c0" ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
kill -KILL $pid
{ wait $pid; } 2>/dev/null
[ -n "$(leftovers $pid)" ]; ok $? "SIGKILL leaves its memcgs and tmpfs behind"
$MEMSCALE run kernel:fallocate2 -t 1 -s 0.1 --sample-ms 50 -w 0 >"$TMP/out" 2>"$TMP/err"
ok $? "next run succeeds"
[ -z "$(leftovers $pid)" ]; ok $? "next run swept the killed run's memcgs and tmpfs"

# Outside memcgs only when asked.
$MEMSCALE run kernel:page_fault3 --no-memcg -t 1 -s 0.2 --sample-ms 100 -w 0 \
	--set ksize_mb=4 -o "$TMP/nomemcg.csv" >"$TMP/out" 2>"$TMP/err"
ok $? "--no-memcg runs"
[ "$(col "$TMP/nomemcg.csv" k_cgroup_version)" = 0 ]; ok $? "--no-memcg records cgroup version 0"
grep -q '"kernel"' "$TMP/nomemcg.json" && grep -q '"thp_enabled"' "$TMP/nomemcg.json"
ok $? "JSON sidecar carries the kernel facts"

expect_usage "brk workload refuses threads" "processes" -- \
	$MEMSCALE run aim9_page_test --backend kernel -m threads -t 1 -s 0.1
expect_usage "threads with 2 containers refused" "containers" -- \
	$MEMSCALE run page_fault1 --backend kernel -t 1 -s 0.1 --set containers=2
expect_usage "bad backend" "gpu" -- $MEMSCALE run page_fault1 --backend gpu -t 1
expect_usage "workload without kernel backend" "lock" -- \
	$MEMSCALE run lock --backend kernel -t 1 -s 0.1
expect_usage "bad ktmpdir" "/nonexistent" -- \
	$MEMSCALE run page_fault2 --backend kernel -t 1 -s 0.1 --set ktmpdir=/nonexistent
done_testing
