#!/bin/sh
# calib_agree.sh OUT_PREFIX CAL1 CAL2 [CAL...]
# calib_agree.sh --ledgers LEDGER1 LEDGER2 [LEDGER...]
# The validation ledger
# ('memscale model validate', every published row predicted for the
# machine it ran on) with each calibration, then one table of the per-row
# predictions side by side and, for every pair of calibrations, the mean
# and largest |difference| in pp.  The ledgers are kept as
# OUT_PREFIX.<n>.ledger (n = the calibration's position); --ledgers takes
# ledgers written before.  A calibration is only ever data to memscale:
# paths go to it as arguments.
set -eu
MEMSCALE=${MEMSCALE:-./bin/memscale}
[ $# -ge 3 ] || { echo "usage: calib_agree.sh OUT_PREFIX|--ledgers CAL1 CAL2 [CAL...]" >&2; exit 2; }
out=$1
shift
i=0
for cal in "$@"; do
	i=$((i + 1))
	if [ "$out" = --ledgers ]; then
		echo "# ledger $i: $cal"
	else
		"$MEMSCALE" model validate --calib "$cal" >"$out.$i.ledger"
		echo "# calibration $i: $cal"
	fi
done
i=0
for cal in "$@"; do
	i=$((i + 1))
	ledger=$out.$i.ledger
	[ "$out" = --ledgers ] && ledger=$cal
	# one "key<TAB>predicted" line per published row: seed, workload,
	# pair (the words up to the one after "->"), target and cpus name it
	awk -v n=$i '/^#/ || /^seed / || NF < 8 { next }
		{ for (a = 1; a <= NF && $a != "->"; a++) ;
		  if (a > NF) next
		  key = $1
		  for (k = 2; k <= a + 3; k++) key = key " " $k
		  pred = $(a + 6); sub(/%$/, "", pred)
		  if (pred !~ /^[-+]?[0-9.]+$/) next
		  print n "\t" key "\t" pred }' "$ledger"
done | awk -F'\t' -v ncal=$# '
	{ if (!($2 in seen)) { seen[$2] = 1; order[++nrow] = $2 }
	  v[$2, $1] = $3 }
	END {
		printf "%-90s", "# row (seed workload pair target cpus)"
		for (c = 1; c <= ncal; c++) printf " %8s", "cal" c
		printf "\n"
		for (r = 1; r <= nrow; r++) {
			printf "%-90s", order[r]
			for (c = 1; c <= ncal; c++)
				printf " %8s", ((order[r], c) in v) ? sprintf("%+.1f", v[order[r], c]) : "-"
			printf "\n"
		}
		for (a = 1; a <= ncal; a++) for (b = a + 1; b <= ncal; b++) {
			n = 0; sum = 0; max = 0; at = ""
			for (r = 1; r <= nrow; r++) {
				if (!((order[r], a) in v) || !((order[r], b) in v)) continue
				d = v[order[r], a] - v[order[r], b]; if (d < 0) d = -d
				n++; sum += d; if (d >= max) { max = d; at = order[r] }
			}
			if (n) printf "# cal%d vs cal%d: %d rows, mean |diff| %.1f pp, max %.1f pp (%s)\n", a, b, n, sum / n, max, at
		}
	}'
