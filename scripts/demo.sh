#!/bin/sh
# The default study (make demo): validate every lock and counter, a short
# table of every lock at 1..online CPUs, the four seed A/B experiments in
# their quick profile at all online CPUs with measured % change beside the
# published one, and the figures.
set -eu
M=./bin/memscale
OUT=${OUT:-results/demo}
SEEDS="layout_false_sharing stats_batch permemcg_flush lru_lock_split"
mkdir -p "$OUT"

echo "== validating every lock and counter"
$M validate --all --threads 2

echo "== every lock, 1..$(nproc) workers, cs=100ns think=100ns (0.5 s each)"
rm -f "$OUT/locks.csv" "$OUT/locks.json"
for lock in $($M list locks | awk 'NR > 1 { print $1 }'); do
	$M run lock --lock "$lock" --seconds 0.5 --sample-ms 250 --set cs=100ns \
		--set think=100ns --out "$OUT/locks.csv" --format csv >/dev/null
done
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i;
		printf "%-16s %7s %14s %14s %8s\n", "lock", "workers", "ops/s", "per-worker", "cv"; next }
	{ printf "%-16s %7s %14.0f %14.0f %8.3f\n", $c["lock"], $c["workers"],
		$c["ops_per_sec"], $c["per_worker_ops"], $c["fairness_cv"] }' "$OUT/locks.csv"

for s in $SEEDS; do
	echo "== $s (quick profile)"
	rm -rf "$OUT/$s"
	$M sweep "experiments/$s.ini" --quick --out "$OUT/$s" >"$OUT/$s.log" 2>&1 || { cat "$OUT/$s.log"; exit 1; }
done

echo
echo "== seed A/B on this machine ($(nproc) CPUs, quick profile) vs published"
printf '%-22s %-20s %7s %-42s %10s %8s  %s\n' experiment workload workers \
	"variants (base -> patch)" measured p published
for s in $SEEDS; do
	$M compare --experiment "$OUT/$s" -f csv | awk -F, -v seed="$s" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%-22s %-20s %7s %-42s %+9.2f%% %8.3f  %s\n", seed,
			$c["label"], $c["workers"], $c["base"] " -> " $c["patch"],
			$c["change_pct"], $c["welch_p"], $c["published"] }'
done

echo
echo "== figures"
$M plot "$OUT" --out "$OUT/figures" 2>&1 | tail -n 3 || true
ls "$OUT/figures"/*.png 2>/dev/null | sed 's/^/  /'
echo "results: $OUT/<experiment>/results.csv (+ sweep.json); 'memscale compare --experiment DIR -f mmtests' for details"
