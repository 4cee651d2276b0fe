# prednorm.awk - every predictions.csv under the results in one form.
#
#   awk -f plots/prednorm.awk FILE... > predictions.csv
#
# Each FILE is either the ledger `memscale model validate -f csv` writes
# (seed,workload,base,patch,target,cpus,role,published_pct,predicted_pct,
# band_lo_pct,band_hi_pct,regime) or plots/predict2csv.awk's
# seed,workload,base_variant,patch_variant,cpus,change_pct; its columns
# are found by its own header's names.  Output, one header:
# seed,workload,base_variant,patch_variant,cpus,change_pct,band_lo_pct,
# band_hi_pct (bands empty where a file has none), the form extrap.awk,
# prednames.awk and paper/gen.sh read.  A file without one of the needed
# columns is skipped with a line on stderr naming it.
BEGIN { FS = OFS = ","; print "seed,workload,base_variant,patch_variant,cpus,change_pct,band_lo_pct,band_hi_pct" }
FNR == 1 {
	split("", c)
	for (i = 1; i <= NF; i++) { h = $i; gsub(/^[ \t"]+|[ \t"\r]+$/, "", h); c[h] = i }
	cb = ("base_variant" in c) ? c["base_variant"] : c["base"]
	cp = ("patch_variant" in c) ? c["patch_variant"] : c["patch"]
	cv = ("predicted_pct" in c) ? c["predicted_pct"] : c["change_pct"]
	miss = !("seed" in c) ? "seed" : !("workload" in c) ? "workload" : !cb ? "base_variant|base" : \
	       !cp ? "patch_variant|patch" : !("cpus" in c) ? "cpus" : !cv ? "predicted_pct|change_pct" : ""
	if (miss != "") printf("plot: predictions '%s' skipped: no column %s\n", FILENAME, miss) > "/dev/stderr"
	next
}
miss == "" {
	print $c["seed"], $c["workload"], $cb, $cp, $c["cpus"], $cv, \
	      ("band_lo_pct" in c) ? $c["band_lo_pct"] : "", ("band_hi_pct" in c) ? $c["band_hi_pct"] : ""
}
