#!/bin/sh
# The default study (make demo): validate every lock and counter, a short
# table of every lock at 1..online CPUs, the four seed A/B experiments in
# their quick profile, and per seed pair, side by side: the change measured
# here (with its 95 % interval; "no significant change" when the interval
# spans zero), the change the model predicts for the published machines at
# their CPU counts (band and regime where the predictor gives them), and
# the published change.  Then the figures.  Every step that takes longer
# than a few seconds prints its progress (done/total, ETA) on stdout;
# warnings (load, descheduled workers) go into the summary.
set -eu
M=./bin/memscale
OUT=${OUT:-results/demo}
SEEDS=${DEMO_SEEDS:-"layout_false_sharing stats_batch permemcg_flush lru_lock_split"}
NCPU=$(nproc)
# Interval width wanted (pp) and seconds per seed sweep (matrix included):
# 4 x 25 s of sweeps are meant to keep `make demo` under 4 minutes on a
# quiet 2-CPU machine.
CI=${DEMO_CI:-5}
BUDGET=${DEMO_BUDGET:-25}
mkdir -p "$OUT"
WARN=$OUT/warnings.txt
: > "$WARN"
t0=$(date +%s)

# step N TOTAL WHAT: a progress line with elapsed time and ETA
step() {
	now=$(date +%s); el=$((now - t0))
	eta=; [ "$1" -gt 0 ] && eta=$(( el * ($2 - $1) / $1 ))
	printf '  [%d/%d] %s (elapsed %ds%s)\n' "$1" "$2" "$3" "$el" "${eta:+, ETA ${eta}s}"
}

# A loaded machine measures the load: say so before anything runs.
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" -v n="$NCPU" 'BEGIN { exit !(l > n / 2) }'; then
	echo "WARNING: load average $load on $NCPU CPUs (above half the CPUs): other work will disturb every measurement below" | tee -a "$WARN"
fi

echo "== validating every lock and counter"
$M validate --all --threads 2

locks=$($M list locks | awk 'NR > 1 { print $1 }')
nl=$(echo $locks | wc -w)
echo "== every lock, 1..$NCPU workers, cs=100ns think=100ns (0.5 s each; $nl locks)"
rm -f "$OUT/locks.csv" "$OUT/locks.json"
i=0
for lock in $locks; do
	$M run lock --lock "$lock" --seconds 0.5 --sample-ms 250 --set cs=100ns \
		--set think=100ns --out "$OUT/locks.csv" --format csv >/dev/null
	i=$((i + 1)); step "$i" "$nl" "lock $lock"
done
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i;
		printf "%-16s %7s %14s %14s %8s\n", "lock", "workers", "ops/s", "per-worker", "cv"; next }
	{ printf "%-16s %7s %14.0f %14.0f %8.3f\n", $c["lock"], $c["workers"],
		$c["ops_per_sec"], $c["per_worker_ops"], $c["fairness_cv"] }' "$OUT/locks.csv"

# The sweeps print "sweep: DONE/TOTAL POINT: ops/s (elapsed, ETA)" on
# stderr when it is not a terminal: that line goes to stdout, the rest to
# the log.
for s in $SEEDS; do
	echo "== $s (quick profile)"
	rm -rf "$OUT/$s"
	# the matrix, then interleaved A/B sets until every change's 95 %
	# interval is narrower than DEMO_CI pp or DEMO_BUDGET s have passed
	{ $M sweep "experiments/$s.ini" --quick --out "$OUT/$s" --ci "$CI" --budget "$BUDGET" 2>&1
	  echo $? > "$OUT/$s.rc"; } | tee "$OUT/$s.log" |
		awk '/^sweep: ([0-9]+\/[0-9]+|extra [0-9]+) / { sub(/^sweep: /, "  "); print; fflush() }
			/^sweep: adaptive repetition: / { sub(/^sweep: /, "  "); print; fflush() }'
	[ "$(cat "$OUT/$s.rc")" = 0 ] || { cat "$OUT/$s.log"; exit 1; }
done

# Predictions for the published machines: one calibration of this machine,
# then the ledger (`model validate -f csv`, with band and regime) where this
# build has it, else `model predict` per seed (no band, no regime: n/a).
echo "== predictions for the published machines (calibrating this machine first)"
CAL=$OUT/calib.txt
$M model calibrate --quick --out "$CAL" >/dev/null 2>"$OUT/calib.log" || { CAL=; echo "  calibration failed (see $OUT/calib.log): predictions n/a"; }
PRED=$OUT/predictions.csv
if [ -n "$CAL" ] && $M model validate -f csv --calib "$CAL" > "$PRED" 2>/dev/null && [ -s "$PRED" ]; then
	echo "  ledger: model validate -f csv"
else
	echo "seed,workload,base_variant,patch_variant,cpus,change_pct" > "$PRED"
	i=0; ns=$(echo $SEEDS | wc -w)
	for s in $SEEDS; do
		[ -n "$CAL" ] || break
		$M model predict "$s" --cpus published --calib "$CAL" 2>/dev/null |
			awk -f plots/predict2csv.awk | awk 'NR > 1' >> "$PRED" || true
		i=$((i + 1)); step "$i" "$ns" "model predict $s"
	done
fi

echo
echo "== seed A/B: measured here ($NCPU CPUs, quick profile, 95 % interval), predicted, published"
printf '%-21s %-17s %-28s %s\n' experiment workload "variants (base -> patch)" "measured here at the most workers"
for s in $SEEDS; do
	maxw=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "workers") c = i; next } $c + 0 > m { m = $c + 0 } END { print m + 0 }' "$OUT/$s/results.csv")
	$M compare --experiment "$OUT/$s" -f csv 2>"$OUT/$s.compare.err" > "$OUT/$s.compare.csv" || true
	# compare's warnings travel along, and what the rows themselves say
	# of descheduled workers and stolen time
	sed "s/^/$s: /" "$OUT/$s.compare.err" >> "$WARN"
	awk -F, -v s="$s" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ n++; if (("desched_flag" in c) && $c["desched_flag"] + 0 > 0) d++
		  if (("steal_pct" in c) && $c["steal_pct"] + 0 > st) st = $c["steal_pct"] + 0 }
		END { if (d) printf("%s: %d of %d runs had a worker descheduled while holding or waiting for a modelled spinlock\n", s, d, n)
		      if (st >= 1) printf("%s: up to %.1f %% of CPU time stolen by the hypervisor during a run\n", s, st) }' \
		"$OUT/$s/results.csv" >> "$WARN"
	[ -s "$OUT/$s/adaptive.txt" ] && printf '%s: repetition: %s\n' "$s" "$(tail -n 1 "$OUT/$s/adaptive.txt")" >> "$WARN"
	awk -F, -f plots/abcsv.awk -f scripts/demo_table.awk -v seed="$s" -v workers="$maxw" \
		"$OUT/$s/experiment.ini" "$PRED" "$OUT/$s.compare.csv"
done
echo
range=$($M published | awk -F, 'NR > 1 && $7 != "" { c = $7 + 0; if (!n++ || c < lo) lo = c; if (c > hi) hi = c }
	END { print (n ? lo " to " hi : "larger") }')
echo "What this machine can show: $NCPU CPUs run at most $NCPU workers, so contention that the"
echo "published numbers show on machines of $range CPUs appears here weakly or not at all; the"
echo "'predicted' lines are the model's extrapolation to those machines, not measurements."
if [ -s "$WARN" ]; then
	echo
	echo "== warnings (they apply to the numbers above)"
	sed 's/^/  /' "$WARN"
fi

echo
echo "== figures"
$M plot "$OUT" --out "$OUT/figures" 2>&1 | tail -n 3 || true
ls "$OUT/figures"/*.png 2>/dev/null | sed 's/^/  /'
echo "results: $OUT/<experiment>/results.csv (+ sweep.json); 'memscale compare --experiment DIR -f mmtests' for details"
