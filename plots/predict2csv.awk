# predict2csv.awk - the table `memscale model predict EXP` prints, as the
# predictions.csv the extrapolation figures and the paper read.
#
#   awk -f plots/predict2csv.awk predict.txt > predictions.csv
#
# Input rows look like
#   page_fault2   layout=v6.10 -> fixed   52   +0.0%   ...
# (workload, knob=base -> patch, cpus, predicted change for 64-byte lines,
# then errors and the published value); "# experiment NAME:" names the seed.
# Output: seed,workload,base_variant,patch_variant,cpus,change_pct

BEGIN { print "seed,workload,base_variant,patch_variant,cpus,change_pct" }
/^# experiment / { seed = $3; sub(/:$/, "", seed); next }
seed != "" && $3 == "->" && $2 ~ /=/ && $5 ~ /^[0-9]+$/ && $6 ~ /^[-+]?[0-9.]+%$/ {
	base = $2; sub(/^[^=]*=/, "", base)
	pct = $6; sub(/%$/, "", pct)
	printf("%s,%s,%s,%s,%d,%s\n", seed, $1, base, $4, $5, pct + 0)
}
