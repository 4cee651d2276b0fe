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
BEGIN { FS = OFS = "," }
FNR == 1 { file++; if (file == 3) print; next }
file == 1 { cur[FNR] = $1 SUBSEP $3 SUBSEP $4 SUBSEP $5; next }
file == 2 { if (FNR in cur) { rb[cur[FNR]] = $4; rp[cur[FNR]] = $5 }; next }
{
	k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
	if (k in rb) { $3 = rb[k]; $4 = rp[k] }
	print
}
