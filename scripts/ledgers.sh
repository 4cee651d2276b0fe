#!/bin/sh
# ledgers.sh DIR [LABEL=CALIB ...] - the validation ledgers of a machine's
# committed calibrations and the agreement between them (issues 23, 24):
# for each calibration, `memscale model validate --calib CALIB -f csv`
# (every published row predicted for the machine it ran on) into
# DIR/ledger-LABEL.csv, its summaries and parameter tables (stderr) into
# DIR/ledger-LABEL.txt; then DIR/predictions-agreement.txt: the per-row
# predicted_pct side by side with their spread (largest - smallest), and
# for every pair of calibrations the mean and largest |difference| in pp.  Without LABEL=CALIB arguments, every
# DIR/calib-LABEL.txt.  A calibration is only ever data to memscale:
# paths go to it as arguments.  Each output is written to a temporary
# file and renamed, so an interrupted run leaves the old one whole.
set -eu
MEMSCALE=${MEMSCALE:-./bin/memscale}
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: ledgers.sh DIR [LABEL=CALIB ...]" >&2; exit 2; }
dir=$1
shift
if [ $# -eq 0 ]; then
	for f in "$dir"/calib-*.txt; do
		[ -f "$f" ] || continue
		l=${f##*/calib-}
		set -- "$@" "${l%.txt}=$f"
	done
fi
[ $# -ge 1 ] || { echo "ledgers.sh: no calibration in $dir" >&2; exit 2; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
labels=
for lc in "$@"; do
	label=${lc%%=*}
	cal=${lc#*=}
	case $label in *[!A-Za-z0-9_.-]*|'') echo "ledgers.sh: bad label '$label'" >&2; exit 2 ;; esac
	[ -f "$cal" ] || { echo "ledgers.sh: $cal: no such calibration" >&2; exit 2; }
	echo "== $label: $MEMSCALE model validate --calib $cal -f csv (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
	"$MEMSCALE" model validate --calib "$cal" -f csv >"$dir/.ledger-$label.csv.tmp" \
		2>"$dir/.ledger-$label.txt.tmp"
	mv "$dir/.ledger-$label.csv.tmp" "$dir/ledger-$label.csv"
	mv "$dir/.ledger-$label.txt.tmp" "$dir/ledger-$label.txt"
	grep '^# summary, all' "$dir/ledger-$label.txt" >&2 || true
	labels="$labels $label"
done
# one table: the rows keyed by seed..cpus (columns 1-6 of the CSV), one
# predicted_pct column per calibration, then the pairwise differences
set --
for l in $labels; do set -- "$@" "$dir/ledger-$l.csv"; done
awk -F, -v labels="$labels" -v commit="$commit" '
	FNR == 1 { f++; for (i = 1; i <= NF; i++) col[f, $i] = i; next }
	{ key = $1 FS $2 FS $3 FS $4 FS $5 FS $6
	  if (!(key in seen)) { seen[key] = 1; order[++n] = key; pub[key] = $col[f, "published_pct"] }
	  v[key, f] = $col[f, "predicted_pct"] }
	END {
		nl = split(labels, lab, " ")
		printf "# per-row predicted_pct of memscale model validate --calib FILE -f csv (commit %s), one column per calibration:\n", commit
		for (c = 1; c <= nl; c++) printf "# cal%d = calib-%s\n", c, lab[c]
		printf "%-20s %-18s %-14s %-20s %-15s %4s %10s", "seed", "workload", "base", "patch", "target", "cpus", "published"
		for (c = 1; c <= nl; c++) printf " %7s", "cal" c
		printf " %7s\n", "spread"
		for (r = 1; r <= n; r++) {
			split(order[r], k, FS)
			printf "%-20s %-18s %-14s %-20s %-15s %4s %10s", k[1], k[2], k[3], k[4], k[5], k[6], pub[order[r]]
			lo = hi = v[order[r], 1]
			for (c = 1; c <= nl; c++) {
				printf " %7.1f", v[order[r], c]
				if (v[order[r], c] < lo) lo = v[order[r], c]
				if (v[order[r], c] > hi) hi = v[order[r], c]
			}
			printf " %7.1f\n", hi - lo
		}
		printf "# agreement per pair of calibrations over the %d rows: mean |difference|, largest |difference| (row)\n", n
		for (a = 1; a <= nl; a++) for (b = a + 1; b <= nl; b++) {
			s = 0; mx = -1
			for (r = 1; r <= n; r++) {
				d = v[order[r], a] - v[order[r], b]; if (d < 0) d = -d
				s += d; if (d > mx) { mx = d; at = order[r] }
			}
			gsub(FS, " ", at)
			printf "# cal%d vs cal%d: mean %.1f pp, largest %.1f pp (%s)\n", a, b, s / n, mx, at
		}
	}' "$@" >"$dir/.predictions-agreement.txt.tmp"
mv "$dir/.predictions-agreement.txt.tmp" "$dir/predictions-agreement.txt"
tail -n +1 "$dir/predictions-agreement.txt" | grep '^# cal[0-9]* vs' >&2
