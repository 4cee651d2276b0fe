# extrap.awk - predicted % change against CPU count for one seed, with the
# published changes and this machine's measured changes as points.
#
#   awk -f plots/extrap.awk -v seed=NAME -v inc=OUT.gp \
#       predictions.csv published.csv AB.tsv > OUT.dat
#
# predictions.csv columns: seed,workload,base_variant,patch_variant,cpus,
# change_pct (what `memscale model predict` is expected to write as CSV).
# One line series per (workload, patch variant) from the predictions, then
# one point series of the published values and one of the measured values
# (x = CPUs, resp. workers).  OUT.gp: NSERIES, SNAME, SKEY (the workload:
# colour), SKIND ("l" line, "p" published, "m" measured), SVAR (index of
# the patch variant: dash and marker), XMAX.

function add(kind, name, key, patch, x, y,    id)
{
	id = kind SUBSEP name
	if (!(patch in vidx)) vidx[patch] = ++nv
	if (!(id in sidx)) { sidx[id] = ++ns; sname[ns] = name; skey[ns] = key; skind[ns] = kind
		svar[ns] = vidx[patch] }
	pts[sidx[id]] = pts[sidx[id]] sprintf("%g %s\n", x, y)
	if (x + 0 > xmax) xmax = x + 0
}

BEGIN { FS = "," }
# (FS applies to the next record: the first line of AB.tsv is split again)
FNR == 1 { file++; if (file == 3) { FS = "\t"; $0 = $0 }; if (file < 3) next }
file == 1 && $1 == seed && $6 != "" { npred++
	add("l", "predicted: " $2 " " $4 " vs " $3, $2, $4, $5, $6) }
file == 2 && $1 == seed && $7 != "" {
	pct = $10
	if (pct == "" && $8 != "" && $9 != "" && $8 + 0 != 0) pct = ($9 - $8) / $8 * 100
	if (pct != "") add("p", "published: " $3 " " $5 " vs " $4, $3, $5, $7, pct)
}
file == 3 && $1 == "measured" && $10 != "NA" && $5 != "" {
	add("m", "measured here: " $2 " " $4 " vs " $3, $2, $4, $5, $10)
}

END {
	if (npred == 0) { printf("no predictions for seed '%s'\n", seed) > "/dev/stderr"; exit 3 }
	for (i = 1; i <= ns; i++) {
		if (i > 1) printf("\n\n")
		printf("# series\t%s\t%s\n%s", sname[i], skey[i], pts[i])
	}
	# names as data (strings.awk), never pasted into the script
	gp_str = inc ".str"
	printf("NSERIES = %d\n%s%s%sarray SVAR[%d]\n", ns, gp_strings(sname, "SNAME", ns),
	       gp_strings(skey, "SKEY", ns), gp_strings(skind, "SKIND", ns), ns) > inc
	for (i = 1; i <= ns; i++)
		printf("SVAR[%d] = %d\n", i, svar[i]) > inc
	printf("XMAX = %g\n", xmax) > inc
}
