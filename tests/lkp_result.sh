#!/bin/sh
# lkp_result.sh DIR - how lkp-tests (intel/lkp-tests bbbc29c495d9, 2026)
# reads a result root, rewritten in sh+jq for tests/export.t so the check
# needs neither lkp-tests nor Ruby.  DIR stands for RESULT_ROOT_DIR
# (/lkp/result):
#
#   layout   lib/result.rb ResultPath, default scheme: DIR/testcase/
#            path_params/tbox_group/rootfs/kconfig/compiler/commit/run;
#            a job's run directory (rt) is a number of 1-3 digits
#            (sbin/compare add_stats) holding stats.json, its parent (_rt)
#            matrix.json
#   stats    stats.json: an object of stat name -> number
#   matrix   matrix.json: stat name -> array of samples, one per run
#            (lib/stats.rb matrix_cols: the length of stats_source),
#            stats_source naming each run's stats.json
#
# Output: "TESTCASE PARAMS HOST COMMIT RUN STAT VALUE" per stat of each
# stats.json, after checking that matrix.json holds the same value at the
# run's place; exit 1 with the complaint on stderr otherwise.
set -u
D=$1
cd "$D" || exit 1
st=0
for f in $(find . -name stats.json | sort); do
	set -- $(echo "$f" | sed 's|^\./||' | tr '/' ' ')
	[ $# -eq 9 ] || { echo "$f: not testcase/7 axes/run/stats.json" >&2; st=1; continue; }
	echo "$8" | grep -Eq '^[0-9]{1,3}$' || { echo "$f: run '$8' is not a number" >&2; st=1; continue; }
	m=$(dirname "$(dirname "$f")")/matrix.json
	jq -e 'type == "object" and ([.[] | type == "number"] | all)' "$f" >/dev/null ||
		{ echo "$f: not an object of numbers" >&2; st=1; continue; }
	[ -r "$m" ] || { echo "no $m" >&2; st=1; continue; }
	i=$(jq -r --arg s "${f#./}" '.stats_source | map(endswith($s)) | index(true)' "$m")
	[ "$i" != null ] || { echo "$m: stats_source lacks $f" >&2; st=1; continue; }
	for k in $(jq -r 'keys[]' "$f"); do
		jq -e --arg k "$k" --argjson i "$i" --slurpfile s "$f" \
			'(.[$k] | length) == (.stats_source | length) and .[$k][$i] == $s[0][$k]' "$m" \
			>/dev/null || { echo "$m: $k at run $8 differs from $f" >&2; st=1; }
		echo "$1 $2 $3 $7 $8 $k $(jq -r --arg k "$k" '.[$k]' "$f")"
	done
done
exit $st
