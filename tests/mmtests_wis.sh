#!/bin/sh
# mmtests_wis.sh DIR - how today's mmtests (gormanm/mmtests 638401e07e70,
# 2026) reads a log tree for its will-it-scale benchmarks, rewritten in
# sh+awk for tests/export.t so the check needs neither mmtests nor Perl:
#
#   runs        shellpacks/common.sh run_results: the runs of every
#               RUN/iter-*/tests-activity and RUN/mmtests-activity with
#               "run-mmtests: Start", ordered by that line's time stamp
#               (compare-kernels.sh's baseline is the first)
#   benchmarks  run_report_name: the baseline's activity file
#               (mmtests-activity, else iter-0/tests-activity), $4 of
#               "T run-mmtests: begin BENCH" and $6 of "T run-mmtests:
#               test start :: BENCH T" lines, up to "Iteration 1 end"
#   state       every iteration has tests-timestamp (compare-kernels.sh's
#               fingerprint; MonitorDuration reads "time :: BENCH U user
#               S system E elapsed") and tests-sysstate (MonitorMmtests-
#               vmstat, -schedstat: "test begin :: BENCH")
#   samples     compare-mmtests.pl: every RUN/iter-*/BENCH/logs through
#               shellpack_src/src/wis/parse-results = line-parse-results
#               'total:' ops 3: for each benchlog-A-B (A = 2nd, B = 3rd
#               '-' field of the name), each line matching total: gives
#               operation ops-A-B, sample = 3rd field less "total:".
#
# Output: "RUN BENCH OP SAMPLE" lines, runs in order; exit 1 with the
# complaint on stderr where a file the readers need is missing.
set -u
D=$1
cd "$D" || exit 1
runs=$(grep -H "run-mmtests: Start" $(find . -maxdepth 3 -name tests-activity -o -maxdepth 3 \
	-name mmtests-activity) 2>/dev/null | cut -d ' ' -f 1 | sort -n -k 2 -t ':' |
	cut -d ':' -f 1 | sed -e "s|/iter-.*/tests-activity||" -e "s|/mmtests-activity||" \
	-e 's|^./||' | uniq)
[ -n "$runs" ] || { echo "This does not look like a mmtests results directory" >&2; exit 1; }
[ "$(echo "$runs" | sort | uniq -d)" = "" ] ||
	{ echo "runs interleave in time: $(echo "$runs" | tr '\n' ' ')" >&2; exit 1; }
base=$(echo "$runs" | head -1)
act=$base/mmtests-activity
[ -e "$act" ] || act=$base/iter-0/tests-activity
benches=$(awk '/^[0-9]* run-(mmtests|kvm): begin / { print $4 }
	/[^[0-9]* run-(mmtests|kvm): test start :: / { print $6 }
	/^[0-9]* run-(mmtests|kvm): Iteration 1 end/ { exit }' "$act")
[ -n "$benches" ] || { echo "$act: no benchmark" >&2; exit 1; }
for run in $runs; do
	for it in "$run"/iter-*; do
		for f in tests-timestamp tests-sysstate; do
			[ -r "$it/$f" ] || [ -r "$it/$f.gz" ] || { echo "no $it/$f" >&2; exit 1; }
		done
		for bench in $benches; do
			grep -q "^time :: $bench [^ ]* user [^ ]* system [0-9.]* elapsed" \
				"$it/tests-timestamp" || { echo "$it/tests-timestamp: no time of $bench" >&2; exit 1; }
		done
	done
done
for bench in $benches; do
	for run in $runs; do
		for it in "$run"/iter-*; do
			logs=$it/$bench/logs
			[ -d "$logs" ] || continue
			(cd "$logs" && for a in $(ls benchlog-* 2>/dev/null | cut -f2 -d- | sort -u); do
				for b in $(ls benchlog-$a-* | cut -f3 -d- | sort -u); do
					[ -e "benchlog-$a-$b" ] || continue
					grep -E 'total:' "benchlog-$a-$b" | awk -v p="$run $bench ops-$a-$b" \
						'{ v = $3; sub(/total:/, "", v); print p, v }'
				done
			done)
		done
	done
done
