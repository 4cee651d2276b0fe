#!/bin/sh
# The default study (make demo): validate every lock, then a short sweep of
# every lock at 1..online CPUs, printed as one table.
set -eu
M=./bin/memscale
OUT=${OUT:-results/demo}
mkdir -p "$OUT"
echo "== validating every lock"
$M validate --all --threads 2 --iterations 100000
echo "== lock sweep: 1..$(nproc) workers, cs=100ns think=100ns"
rm -f "$OUT/locks.csv"
for lock in $($M list locks | awk 'NR>1 {print $1}'); do
	$M run lock --lock "$lock" --seconds 1 --warmup 1 --sample-ms 250 \
		--set cs=100ns --set think=100ns --out "$OUT/locks.csv" --format csv >/dev/null
done
awk -F, 'NR==1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%-16s %3s workers %14.0f ops/s  cv %.3f\n", $c["lock"], $c["workers"], $c["ops_per_sec"], $c["fairness_cv"] }' "$OUT/locks.csv"
echo "results: $OUT/locks.csv (+ .json sidecar)"
