#!/bin/sh
# Every shipped experiment runs: each experiments/*.ini (found by listing
# the folder) dry-runs, full and --quick, with no point refused (a dry run
# reads each point's knobs as its code path does, the kernel backend's
# too, and fails on one it does not read); and one short real point of
# each workload and variant of kernel_vs_model runs (its kernel:* points
# where this machine can create memory cgroups, else skipped, visibly).
. tests/lib.sh
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP $1"; }

n=0
for f in experiments/*.ini; do
	n=$((n + 1))
	for q in "" --quick; do
		[ -n "$q" ] && ! grep -q '^\[quick\]' "$f" && continue
		$MEMSCALE sweep "$f" -n $q >"$TMP/out" 2>"$TMP/err"; st=$?
		pts=$(grep -c '^p[0-9][0-9]* workload=' "$TMP/out")
		[ "$st" -eq 0 ] && [ "$pts" -ge 1 ] && ! grep -q 'does not read' "$TMP/out" "$TMP/err"
		ok $? "$f${q:+ $q}: dry run lists $pts points, none refused (exit $st)"
		[ "$st" -eq 0 ] || sed 's/^/#   /' "$TMP/err" | head -3
	done
done
[ "$n" -ge 1 ]; ok $? "experiments/ holds experiment files ($n)"

# The dry run checks the kernel backend's knobs: a model-only knob set for
# every workload is refused for a kernel:* point, before anything runs.
sed 's/^\[variant base\]$/[variant base]\npage_work = kernel/' \
	experiments/kernel_vs_model.ini >"$TMP/kvm_bad.ini"
grep -q '^page_work = kernel$' "$TMP/kvm_bad.ini"; ok $? "a copy with page_work in its variant"
$MEMSCALE sweep "$TMP/kvm_bad.ini" -n >"$TMP/out" 2>"$TMP/err"; st=$?
[ "$st" -eq 2 ] && grep -q "^memscale: knob 'page_work' is set (kernel) but the code path workload kernel:[a-z_0-9]* (kernel backend) does not read it$" "$TMP/err"
ok $? "... its dry run refuses a kernel:* point for page_work (exit $st)"

# One short point of each workload x variant: workers=1, one rep.
SW="sweep experiments/kernel_vs_model.ini -o $TMP/kvm -r 1 -O workers=1 -O seconds=0.2 -O sample_ms=100 -O warmup=0"
$MEMSCALE $SW -n >"$TMP/points" 2>"$TMP/err"; ok $? "kernel_vs_model: the one-rep matrix"
nw=$(sed -n 's/^workloads *= *//p' experiments/kernel_vs_model.ini | head -1 | tr ',' '\n' | grep -c .)
nv=$(grep -c '^\[variant ' experiments/kernel_vs_model.ini)
[ "$(grep -c '^p[0-9]* workload=' "$TMP/points")" -eq $((nw * nv)) ]
ok $? "... one point per workload and variant ($nw x $nv)"

# Can this machine run the kernel backend in memory cgroups?
why=
if [ "$(id -u)" -ne 0 ]; then
	why="needs root to create memory cgroups"
elif ! $MEMSCALE run kernel:page_fault2 -t 1 -s 0.05 --sample-ms 50 -w 0 \
	--set ksize_mb=4 >"$TMP/probe" 2>&1; then
	why="the kernel backend cannot run here: $(head -1 "$TMP/probe")"
fi
grep '^p[0-9]* workload=' "$TMP/points" | while read -r id wl var rest; do
	wl=${wl#workload=} var=${var#variant=}
	case $wl in kernel:*) [ -n "$why" ] && { echo "SKIP $id $wl $var"; continue; };; esac
	$MEMSCALE $SW --point "$id" >"$TMP/run.$id" 2>&1; echo "RC $id $wl $var $?"
done >"$TMP/ran"
while read -r tag id wl var st; do
	if [ "$tag" = SKIP ]; then
		skip "$wl ($var): $why"
		continue
	fi
	csv=$TMP/kvm/points/$id.csv
	[ "$st" -eq 0 ] && awk -F, -v w="$wl" -v v="$var" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR == 2 && $c["workload"] == w && $c["variant"] == v && $c["ops_per_sec"] > 0 { good = 1 }
		END { exit !good }' "$csv"
	ok $? "$wl ($var): a real point ran, its row has ops/s (exit $st)"
	[ "$st" -eq 0 ] || sed 's/^/#   /' "$TMP/run.$id" | tail -3
done <"$TMP/ran"
done_testing
