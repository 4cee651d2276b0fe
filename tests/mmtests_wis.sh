#!/bin/sh
# mmtests_wis.sh DIR - how mmtests 827b444a (2019) reads a log tree for its
# will-it-scale benchmarks, rewritten in sh+awk for tests/export.t so the
# check needs neither mmtests nor Perl:
#
#   runs        shellpacks/common.sh run_results: the runs whose
#               RUN/tests-activity has "run-mmtests: Start", ordered by
#               that line's time stamp (compare-kernels.sh's baseline is
#               the first)
#   benchmarks  run_report_name: $4 of "N run-mmtests: begin BENCH" lines
#               of the baseline, up to "Iteration 0 end"
#   samples     compare-mmtests.pl: every RUN/iter-*/BENCH/logs through
#               ExtractWiscommon: workloads and models are comma lists
#               (first line), thread counts the last '-' field of
#               wis-WL-*.log, and it opens wis-WL-MODEL-N.log for every
#               model x workload x thread count (a missing one is fatal);
#               each line matching ^min:[0-9]+ max:[0-9]+ total:[0-9]+ is a
#               sample of operation WL-MODEL-N, its value the total.
#
# Output: "RUN BENCH OP SAMPLE" lines, runs in order; exit 1 with
# mmtests' complaint on stderr where it would die.
set -u
D=$1
cd "$D" || exit 1
runs=$(grep -H "run-mmtests: Start$" */tests-activity 2>/dev/null | cut -d ' ' -f 1 |
	sort -n -k 2 -t ':' | cut -d ':' -f 1 | sed -e 's|/tests-activity||')
[ -n "$runs" ] || { echo "This does not look like a mmtests results directory" >&2; exit 1; }
base=$(echo "$runs" | head -1)
benches=$(awk '/^[0-9]* run-mmtests: begin / { print $4 } /^[0-9]* run-mmtests: Iteration 0 end/ { exit }' \
	"$base/tests-activity")
for bench in $benches; do
	for run in $runs; do
		for it in "$run"/iter-*; do
			logs=$it/$bench/logs
			[ -d "$logs" ] || continue
			wls=$(head -1 "$logs/workloads" 2>/dev/null | tr ',' ' ') ||
				{ echo "Failed to open $logs/workloads" >&2; exit 1; }
			models=$(head -1 "$logs/models" 2>/dev/null | tr ',' ' ') ||
				{ echo "Failed to open $logs/models" >&2; exit 1; }
			threads=$(for wl in $wls; do ls "$logs" | grep "^wis-$wl-.*\.log$" |
				awk -F - '{ sub(/\.log$/, "", $NF); print $NF }'; done | sort -n | uniq)
			for model in $models; do for wl in $wls; do for n in $threads; do
				f=$logs/wis-$wl-$model-$n.log
				[ -r "$f" ] || { echo "No such file or directory Failed to open $f" >&2; exit 1; }
				awk -v run="$run" -v bench="$bench" -v op="$wl-$model-$n" \
					'match($0, /^min:[0-9]+ max:[0-9]+ total:[0-9]+/) {
						split($3, t, ":"); print run, bench, op, t[2] }' "$f"
			done; done; done
		done
	done
done
