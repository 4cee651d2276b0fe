# prednames.awk - predictions.csv in the terms of the recorded sweeps.
#
#   awk -f plots/prednames.awk current.csv recorded.csv predictions.csv
#
# `memscale model predict` keys its rows by the experiment files' variants
# as they are now (kernel profiles: 70a64b7919cb -> fefc6e6631ff); a sweep
# recorded under an older experiment file spells the same pair with
# another knob (layout v6.10 -> fixed), and `memscale published --runs`
# gives each published row in those terms.  current.csv is `memscale
# published`, recorded.csv `memscale published --runs RESULTS`: the same
# rows in the same order, so line i of one names the pair of line i of the
# other.  Each prediction whose (seed, workload, base, patch) is a current
# pair is printed with the recorded names; others unchanged.
# The predictions' columns are found by their header names (seed,
# workload, base_variant or base, patch_variant or patch: predict2csv.awk's
# CSV or `model validate -f csv`'s ledger); without them the file is
# printed unchanged.
BEGIN { FS = OFS = "," }
FNR == 1 { file++ }
file == 3 && FNR == 1 {
	for (i = 1; i <= NF; i++) c[$i] = i
	cb = ("base_variant" in c) ? c["base_variant"] : c["base"]
	cp = ("patch_variant" in c) ? c["patch_variant"] : c["patch"]
	ok = ("seed" in c) && ("workload" in c) && cb && cp
	print; next
}
FNR == 1 { next }
file == 1 { cur[FNR] = $1 SUBSEP $3 SUBSEP $4 SUBSEP $5; next }
file == 2 { if (FNR in cur) { rb[cur[FNR]] = $4; rp[cur[FNR]] = $5 }; next }
{
	k = ok ? $c["seed"] SUBSEP $c["workload"] SUBSEP $cb SUBSEP $cp : ""
	if (k in rb) { $cb = rb[k]; $cp = rp[k] }
	print
}
