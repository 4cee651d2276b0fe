#!/bin/sh
# Every shipped experiment runs: each experiments/*.ini (found by listing
# the folder) dry-runs, full and --quick, with no point refused (a dry run
# reads each point's knobs as its code path does, the kernel backend's
# too, and fails on one it does not read); and one short real point of
# each workload and variant of every experiment runs (kernel:* points
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

# Can this machine run the kernel backend in memory cgroups?
why=
if [ "$(id -u)" -ne 0 ]; then
	why="needs root to create memory cgroups"
elif ! $MEMSCALE run kernel:page_fault2 -t 1 -s 0.05 --sample-ms 50 -w 0 \
	--set ksize_mb=4 >"$TMP/probe" 2>&1; then
	why="the kernel backend cannot run here: $(head -1 "$TMP/probe")"
fi

# One short real point of each workload x variant of every experiment:
# workers=1, one rep, 0.05 s (the first point the matrix lists for the
# pair; axes beyond it are what the dry runs above checked).
for f in experiments/*.ini; do
	x=$(basename "$f" .ini)
	SW="sweep $f -o $TMP/x-$x -r 1 -O workers=1 -O seconds=0.05 -O sample_ms=50 -O warmup=0"
	# shellcheck disable=SC2086
	$MEMSCALE $SW -n >"$TMP/points" 2>"$TMP/err"
	ok $? "$x: the one-rep matrix"
	awk '/^p[0-9]+ workload=/ { k = $2 " " $3; if (!(k in seen)) { seen[k] = 1; print $1, $2, $3 } }' \
		"$TMP/points" >"$TMP/pairs"
	nw=$(awk '{ print $2 }' "$TMP/pairs" | sort -u | wc -l)
	nv=$(awk '{ print $3 }' "$TMP/pairs" | sort -u | wc -l)
	[ "$(wc -l <"$TMP/pairs")" -ge 1 ]
	ok $? "... $x: $(wc -l <"$TMP/pairs") workload x variant pairs ($nw workloads, $nv variants)"
	while read -r id wl var; do
		wl=${wl#workload=} var=${var#variant=}
		case $wl in kernel:*) if [ -n "$why" ]; then echo "SKIP $id $wl $var"; continue; fi ;; esac
		# shellcheck disable=SC2086
		$MEMSCALE $SW --point "$id" >"$TMP/run.$x.$id" 2>&1; echo "RC $id $wl $var $?"
	done <"$TMP/pairs" >"$TMP/ran"
	while read -r tag id wl var st; do
		if [ "$tag" = SKIP ]; then
			skip "$x: $wl ($var): $why"
			continue
		fi
		csv=$TMP/x-$x/points/$id.csv
		[ "$st" -eq 0 ] && awk -F, -v w="$wl" -v v="$var" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
			NR == 2 && $c["workload"] == w && $c["variant"] == v && $c["ops_per_sec"] > 0 { good = 1 }
			END { exit !good }' "$csv"
		ok $? "$x: $wl ($var): a real point ran, its row has ops/s (exit $st)"
		[ "$st" -eq 0 ] || sed 's/^/#   /' "$TMP/run.$x.$id" | tail -3
	done <"$TMP/ran"
done
done_testing
