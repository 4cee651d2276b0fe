# extrap.awk - predicted % change against CPU count for one seed, with the
# published changes and this machine's measured changes as points.
#
#   awk -f plots/strings.awk -f plots/extrap.awk -v seed=NAME -v inc=OUT.gp \
#       predictions.csv published.csv AB.tsv > OUT.dat
#
# predictions.csv: either `memscale model validate -f csv` (the ledger:
# seed,workload,base,patch,target,cpus,role,published_pct,predicted_pct,
# band_lo_pct,band_hi_pct,regime) or `memscale paper-tables --predictions`'
# seed,workload,base_variant,patch_variant,cpus,change_pct.  Columns are
# found by their header names, never by position: seed, workload,
# base_variant|base, patch_variant|patch, cpus, predicted_pct|change_pct,
# and band_lo_pct/band_hi_pct where present.  A missing column is an
# error (exit 3, one line naming it).  published.csv (`memscale
# published`) is read by header names too; a published range LO..HI is a
# point at its middle with LO and HI as its bar.  AB.tsv is plots/ab.awk's
# table (measured: field 5 workers, 10 change, 15/16 interval).
#
# One line series per (workload, base, patch) of the predictions, points
# in CPU order, then point series of the published values and of the
# measured ones (x = CPUs, resp. workers).  stdout: gnuplot blocks, lines
# "x y lo hi" (lo, hi: the prediction's band, the published range or the
# measured 95 % interval; NaN where there is none).  OUT.gp: NSERIES,
# SNAME, SKEY (the workload: colour), SKIND ("l" line, "p" published, "m"
# measured), SVAR (index of the patch variant: dash and marker), XMAX.

function add(kind, name, key, patch, x, y, lo, hi,    id, s, n)
{
	id = kind SUBSEP name
	if (!(patch in vidx)) vidx[patch] = ++nv
	if (!(id in sidx)) { sidx[id] = ++ns; sname[ns] = name; skey[ns] = key; skind[ns] = kind
		svar[ns] = vidx[patch] }
	s = sidx[id]; n = ++npt[s]
	px[s, n] = x + 0
	pl[s, n] = sprintf("%g %s %s %s", x, y, num(lo), num(hi))
	if (x + 0 > xmax) xmax = x + 0
}

# a number as gnuplot data; NaN for none ("", NA, nan)
function num(v) { return (v == "" || v == "NA" || tolower(v) == "nan" || tolower(v) == "-nan") ? "NaN" : v + 0 }

# the first of the names (blank-separated) in file f's header; "" if none
function pick(f, names,    n, a, i) {
	n = split(names, a, " ")
	for (i = 1; i <= n; i++) if ((f, a[i]) in col) return a[i]
	return ""
}
function need(f, what, names,    c) {
	c = pick(f, names)
	if (c == "") {
		printf("%s: no column %s in the header\n", FILENAME, what) > "/dev/stderr"
		bad = 1; exit 3
	}
	return col[f, c]
}
function opt(f, names,    c) { c = pick(f, names); return c == "" ? 0 : col[f, c] }
function fv(i) { return i ? $i : "" }

BEGIN { FS = "," }
# (FS applies to the next record: the first line of AB.tsv is split again)
FNR == 1 { file++; if (file == 3) { FS = "\t"; $0 = $0 } }
file < 3 && FNR == 1 {
	for (i = 1; i <= NF; i++) { h = $i; gsub(/^[ \t"]+|[ \t"\r]+$/, "", h); col[file, h] = i }
	if (file == 1) {
		P_SEED = need(1, "seed", "seed"); P_WL = need(1, "workload", "workload")
		P_BASE = need(1, "base_variant|base", "base_variant base")
		P_PATCH = need(1, "patch_variant|patch", "patch_variant patch")
		P_CPUS = need(1, "cpus", "cpus")
		P_PCT = need(1, "predicted_pct|change_pct", "predicted_pct change_pct")
		P_LO = opt(1, "band_lo_pct"); P_HI = opt(1, "band_hi_pct")
	} else {
		U_SEED = need(2, "seed", "seed"); U_WL = need(2, "workload", "workload")
		U_BASE = need(2, "base_variant", "base_variant"); U_PATCH = need(2, "patch_variant", "patch_variant")
		U_CPUS = need(2, "cpus", "cpus"); U_PCT = need(2, "change_pct", "change_pct")
		U_B = opt(2, "base"); U_P = opt(2, "patch")
	}
	next
}
file == 1 && $P_SEED == seed && num($P_PCT) != "NaN" && $P_CPUS ~ /^[0-9]+$/ {
	npred++
	add("l", "predicted: " $P_WL " " $P_PATCH " vs " $P_BASE, $P_WL, $P_PATCH, $P_CPUS, $P_PCT + 0,
	    fv(P_LO), fv(P_HI))
}
file == 2 && $U_SEED == seed && $U_CPUS ~ /^[0-9]+$/ {
	pct = $U_PCT; lo = hi = ""
	if (split(pct, rg, /\.\./) == 2) { lo = rg[1] + 0; hi = rg[2] + 0; pct = (lo + hi) / 2 }
	if (pct == "" && fv(U_B) != "" && fv(U_P) != "" && fv(U_B) + 0 != 0)
		pct = (fv(U_P) - fv(U_B)) / fv(U_B) * 100
	if (pct != "") add("p", "published: " $U_WL " " $U_PATCH " vs " $U_BASE, $U_WL, $U_PATCH, $U_CPUS, pct + 0, lo, hi)
}
file == 3 && $1 == "measured" && $10 != "NA" && $5 != "" {
	add("m", "measured here: " $2 " " $4 " vs " $3, $2, $4, $5, $10, $15, $16)
}

END {
	if (bad) exit 3
	if (npred == 0) { printf("no predictions for seed '%s'\n", seed) > "/dev/stderr"; exit 3 }
	for (i = 1; i <= ns; i++) {
		if (i > 1) printf("\n\n")
		printf("# series\t%s\t%s\n", sname[i], skey[i])
		# points in x order (insertion sort): a line joins them left to right
		n = npt[i]
		for (a = 1; a <= n; a++) ord[a] = a
		for (a = 2; a <= n; a++) { t = ord[a]; for (b = a - 1; b >= 1 && px[i, ord[b]] > px[i, t]; b--) ord[b + 1] = ord[b]; ord[b + 1] = t }
		for (a = 1; a <= n; a++) print pl[i, ord[a]]
	}
	# names as data (strings.awk), never pasted into the script
	gp_str = inc ".str"
	printf("NSERIES = %d\n%s%s%sarray SVAR[%d]\n", ns, gp_strings(sname, "SNAME", ns),
	       gp_strings(skey, "SKEY", ns), gp_strings(skind, "SKIND", ns), ns) > inc
	for (i = 1; i <= ns; i++)
		printf("SVAR[%d] = %d\n", i, svar[i]) > inc
	printf("XMAX = %g\n", xmax) > inc
}
