#!/bin/sh
# bench_model_run.sh - the figure of a plain 1-worker model run, the
# number the recorder hooks once cost 15-20 % of (models/record.h: the
# normal objects now carry none; tests/sim_record.t checks that).
#
#   sh scripts/bench_model_run.sh [MEMSCALE]
#
# Prints the median ops/s of 5 runs of `run page_fault2 -t 1 -s 1 --set
# page_work=none` and the load average beside it (a printed figure, never
# a test: the machine's load moves it).
set -u
M=${1:-bin/memscale}
i=0
while [ $i -lt 5 ]; do
	"$M" run page_fault2 -t 1 -s 1 --set page_work=none --format csv 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ops_per_sec") c = i; next } c { print $c }'
	i=$((i + 1))
done | sort -n | awk -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
	{ v[++n] = $1 }
	END { if (n == 0) { print "model run: no result"; exit 1 }
	      printf("model page_fault2, 1 worker, page_work=none: median %.0f ops/s over %d runs (%.0f..%.0f), load %s\n",
		     v[int((n + 1) / 2)], n, v[1], v[n], load) }'
