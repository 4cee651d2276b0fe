# ab.awk - the A/B figure of one seed experiment: the measured changes as
# `memscale compare --experiment DIR -f csv` gives them (core/ab.c, the one
# producer of A/B numbers), beside the published ones.  No arithmetic on
# samples here: this program only picks and reformats compare's rows.
#
#   awk -f plots/strings.awk -f plots/ab.awk -v seed=NAME -v tsv=OUT.tsv \
#       -v inc=OUT.gp -v gp_str=OUT.gp.str published.csv AB.csv > OUT.dat
#
# published.csv (`memscale published`: columns seed,knob,workload,
# base_variant,patch_variant,machine,cpus,base,patch,change_pct,source,
# then the optional fields, of which only the first eleven are read here;
# no commas inside fields) gives the pairs (knob, base value, patch value) and
# the workloads.  AB.csv is compare's output for the seed's sweep
# directory (may be empty: nothing measured).  Of its rows, those of a
# published pair (base_value, patch_value) and workload are used, at the
# largest worker count compare has for them; the experiment's axes
# (compare's axes column) are kept apart: one measured series per pair
# and axis value.  A compare row of the reverse pair (patch value the
# published base, base value the published patch: the demo's before vs
# base) is used too, turned into the published direction: change
# 100 / (1 + c/100) - 100, its interval's ends turned and swapped, the
# sides swapped.  A published change_pct left empty is base and patch's
# (patch - base) / base * 100, the published numbers' own arithmetic.
#
# OUT.tsv (for the paper), tab-separated, one line per entry:
#   measured  workload base patch workers base_mean patch_mean n_base
#             n_patch change|NA (empty) (empty) axes p ci_lo ci_hi yes|no
#             change   (fields 11-12 were the samples; compare has them)
#   published workload base patch machine cpus base patch change source
# stdout: gnuplot blocks, one per bar series, lines
#   "x change lo hi label_y unbounded \"label\""
# (lo, hi: compare's 95 % interval of the change; NaN where it has none;
# for a published range LO..HI: LO and HI, and change is their middle,
# drawn as a band from LO to HI, labelled "+LO..+HI%".
# unbounded = 1: compare has the interval columns but leaves them empty
# (Fieller's set is not a bounded interval: a base mean not clear of
# zero), drawn as a dashed line across the axis at the bar's edge; NaN
# without the columns: no error bar, and the series says so.  label: the value as
# the bar's label, "n.s." after a measured change compare does not call
# significant, "(cut)" after a bar cut at the axis limit);
# OUT.gp: NSERIES, SNAME, SKEY, SKIND ("m" measured / "p" published),
# SDUP (index of the axis value among a pair's series: lighter fill),
# NWL and WLNAME (the x tic labels), YMIN, YMAX, CLIP (0, or the value
# beyond which bars are cut at the axis limit).


BEGIN { FS = "," }

FNR == 1 {
	file++; for (i = 1; i <= NF; i++) col[file, $i] = i
	# compare's CSV with its interval columns (they may still be empty)
	if (file == 2) hasci = ((2, "ci_lo_pct") in col) && ((2, "ci_hi_pct") in col)
	next
}

file == 1 {
	if ($1 != seed) next
	w = $3; pair = $2 SUBSEP $4 SUBSEP $5
	if (!(w in wlidx)) { wlidx[w] = ++nwl; wl[nwl] = w }
	if (!(pair in pairidx)) { pairidx[pair] = ++npair; pknob[npair] = $2; pbase[npair] = $4; ppatch[npair] = $5 }
	pct = $10
	if (pct == "" && $8 != "" && $9 != "" && $8 + 0 != 0)
		pct = sprintf("%.2f", ($9 - $8) / $8 * 100)
	np++
	pub_w[np] = w; pub_pair[np] = pairidx[pair]; pub_m[np] = $6; pub_pct[np] = pct
	pub_line[np] = sprintf("published\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s",
			       w, $4, $5, $6, $7, $8, $9, pct, $11)
	if (!($6 in machidx)) { machidx[$6] = ++nmach; mach[nmach] = $6 }
	next
}

# compare's rows, by column name
function cv(name) { return (file, name) in col ? $(col[file, name]) : "" }
# the change of A vs B from a change x (%) of B vs A: 100 / (1 + x/100) - 100
# (harness/published.c's published_reverse_pct); "" for none
function turn(x) {
	if (x == "" || x == "nan" || x + 0 <= -100) return ""
	return sprintf("%.10g", 100 / (1 + x / 100) - 100)
}
{
	w = cv("workload")
	if (!(w in wlidx)) next
	pair = ""; rev = 0
	for (p = 1; p <= npair; p++) {
		if (cv("base_value") == pbase[p] && cv("patch_value") == ppatch[p]) { pair = p; break }
		# compare measured the published pair the other way round (the
		# demo's before vs base of a row published as before -> base)
		if (cv("base_value") == ppatch[p] && cv("patch_value") == pbase[p]) { pair = p; rev = 1; break }
	}
	if (pair == "") next
	al = cv("axes")
	if (!(al in alidx)) { alidx[al] = ++nal; alv[nal] = al }
	n = cv("workers") + 0
	k = w SUBSEP pair SUBSEP al
	# the largest worker count (the first row of it: one per mode)
	if ((k in best) && best[k] >= n) next
	best[k] = n
	lo = cv("ci_lo_pct"); hi = cv("ci_hi_pct"); c = cv("change_pct")
	bm = cv("base_mean"); pm = cv("patch_mean"); nb = cv("n_base"); npt = cv("n_patch")
	if (rev) {
		# in the published direction: the change turned over (ratio of
		# the means inverted), the interval's ends turned and swapped,
		# the sides' means and counts swapped
		c = turn(c); t = turn(hi); hi = turn(lo); lo = t
		t = bm; bm = pm; pm = t; t = nb; nb = npt; npt = t
	}
	krev[k] = rev
	sg = cv("significant")
	row[k] = sprintf("measured\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t\t\t%s\t%s\t%s\t%s\t%s\t%s",
		w, pbase[pair], ppatch[pair], n, bm, pm,
		nb, npt, c == "" || c == "nan" ? "NA" : sprintf("%.2f", c), al,
		cv("p") == "" ? "NA" : cv("p"), lo == "" || lo == "nan" ? "NA" : lo,
		hi == "" || hi == "nan" ? "NA" : hi, sg == "yes" ? "yes" : "no",
		c == "" || c == "nan" ? "NA" : c)
	chg[k] = c; clo[k] = lo; chi[k] = hi; anyrow[w, pair] = 1; ksig[k] = (sg == "yes")
}

END {
	if (np == 0) {
		printf("no published entry for seed '%s'\n", seed) > "/dev/stderr"
		exit 3
	}
	if (nal == 0) { nal = 1; alv[1] = "" }
	# axis values in order (insertion sort; "depth=1" .. "depth=5")
	for (a = 2; a <= nal; a++) { t = alv[a]; for (b = a - 1; b >= 1 && alv[b] > t; b--) alv[b + 1] = alv[b]; alv[b + 1] = t }
	printf("") > tsv
	nser = 0
	ymin = 0; ymax = 0
	for (p = 1; p <= npair; p++) for (ai = 1; ai <= nal; ai++) {
		have = 0; al = alv[ai]
		for (i = 1; i <= nwl; i++) {
			w = wl[i]; k = w SUBSEP p SUBSEP al
			if (!(k in row) || chg[k] == "" || chg[k] == "nan") {
				# one "not measured" line per pair, not per axis value
				if (!((w, p) in anyrow) && !((w, p) in nm_said)) {
					nm_said[w, p] = 1
					printf("measured\t%s\t%s\t%s\t\t\t\t0\t0\tNA\t\t\t\tNA\tNA\tNA\tno\tNA\n", w, pbase[p], ppatch[p]) > tsv
				}
				if (k in row) print row[k] > tsv
				continue
			}
			print row[k] > tsv
			if (!have) { nser++; nmeas++; have = 1; skind[nser] = "m"; skey[nser] = ppatch[p]
				workers_of[nser] = best[k]; sdup[nser] = ai - 1
				sname[nser] = sprintf("measured here: %s vs %s%s%s", ppatch[p], pbase[p], al == "" ? "" : ", " al,
						      krev[k] ? ", turned over from " pbase[p] " vs " ppatch[p] : "") }
			else if (best[k] != workers_of[nser]) workers_of[nser] = "various"
			bar[nser, i] = chg[k] + 0
			bsig[nser, i] = ksig[k]
			if (!ksig[k]) ns[nser] = 1
			if (clo[k] != "" && clo[k] != "nan" && chi[k] != "" && chi[k] != "nan") {
				blo[nser, i] = clo[k]; bhi[nser, i] = chi[k]
			} else if (!hasci) noci[nser] = 1
			else { bunb[nser, i] = 1; unb[nser] = 1 }
		}
		if (have) sname[nser] = sname[nser] " (" workers_of[nser] (workers_of[nser] == 1 ? " worker" : " workers") \
			(noci[nser] ? "; no interval from compare" : "; bars: 95 % interval") \
			(unb[nser] ? ", dashed across the axis: unbounded" : "") (ns[nser] ? "; n.s.: not significant" : "") ")"
	}
	for (e = 1; e <= np; e++) print pub_line[e] > tsv
	# One published series per (machine, pair).
	for (mi = 1; mi <= nmach; mi++) for (p = 1; p <= npair; p++) {
		have = 0
		for (e = 1; e <= np; e++) {
			if (pub_m[e] != mach[mi] || pub_pair[e] != p || pub_pct[e] == "") continue
			if (!have) { nser++; have = 1; skind[nser] = "p"; skey[nser] = "published " mach[mi]
				sname[nser] = "published: " mach[mi] (npair > 1 ? sprintf(" (%s vs %s)", ppatch[p], pbase[p]) : "") }
			i = wlidx[pub_w[e]]
			bar[nser, i] = pub_pct[e]
			# a published range LO..HI (worst and best subcase): a
			# band from LO to HI, not a bar at LO; field 2 is its
			# middle (where the label is anchored, not a value)
			if (split(pub_pct[e], rg, /\.\./) == 2) {
				blo[nser, i] = rg[1] + 0; bhi[nser, i] = rg[2] + 0
				bar[nser, i] = (rg[1] + rg[2]) / 2; brange[nser, i] = 1
			}
		}
	}
	# A measured change far beyond every published one (a model without
	# the kernel's other costs can show +1000 %) would flatten the
	# published bars: clip the axis at 3x the largest published change
	# (at least 10 %); ab.gp labels every bar with its true value.
	pubmax = 0; allmax = 0
	for (t = 1; t <= nser; t++) for (i = 1; i <= nwl; i++) if ((t, i) in bar) {
		a = bar[t, i] < 0 ? -bar[t, i] : bar[t, i]
		if (a > allmax) allmax = a
		if (skind[t] == "p" && a > pubmax) pubmax = a
	}
	clip = (pubmax < 10 ? 10 : pubmax) * 3
	if (allmax <= clip * 1.2) clip = 0
	for (t = 1; t <= nser; t++) {
		if (t > 1) printf("\n\n")
		printf("# series\t%s\t%s\n", sname[t], skey[t])
		for (i = 1; i <= nwl; i++) {
			if (!((t, i) in bar)) continue
			x = i - 0.4 + (t - 0.5) * 0.8 / nser
			# field 5: where the bar's label goes (beyond its error bar)
			a = bar[t, i] + 0
			v = a < 0 ? -a : a
			lbl = sprintf(v >= 10 ? "%+.0f%%" : "%+.1f%%", a)
			if ((t, i) in brange) lbl = sprintf("%+.1f..%+.1f%%", blo[t, i], bhi[t, i])
			if (clip && v > clip) lbl = lbl " (cut)"
			if (skind[t] == "m" && !bsig[t, i]) lbl = lbl " n.s."
			if ((t, i) in blo) {
				if (a < 0 && blo[t, i] + 0 < a) a = blo[t, i] + 0
				if (a >= 0 && bhi[t, i] + 0 > a) a = bhi[t, i] + 0
				printf("%.4f %s %s %s %s 0 \"%s\"\n", x, bar[t, i], blo[t, i], bhi[t, i], a, lbl)
			} else printf("%.4f %s NaN NaN %s %s \"%s\"\n", x, bar[t, i], a,
				      (t, i) in bunb ? 1 : "NaN", lbl)
			# the axis holds the bars, their error bars and labels
			for (e = 0; e < 3; e++) {
				v = e == 0 ? bar[t, i] + 0 : e == 1 ? blo[t, i] : bhi[t, i]
				if (e > 0 && !((t, i) in blo)) continue
				v += 0
				if (clip && v > clip) v = clip
				if (clip && v < -clip) v = -clip
				if (v < ymin) ymin = v
				if (v > ymax) ymax = v
			}
		}
	}
	printf("NSERIES = %d\nNWL = %d\nBARW = %g\n", nser, nwl, 0.8 / (nser > 0 ? nser : 1)) > inc
	# names as data (strings.awk), never pasted into the script; SDUP is a number
	gp_str = inc ".str"
	printf("%s%s%s%s", gp_strings(sname, "SNAME", nser), gp_strings(skey, "SKEY", nser),
	       gp_strings(skind, "SKIND", nser), gp_strings(wl, "WLNAME", nwl)) > inc
	printf("array SDUP[%d]\n", nser ? nser : 1) > inc
	for (t = 1; t <= nser; t++) printf("SDUP[%d] = %d\n", t, sdup[t] + 0) > inc
	printf("YMIN = %g\nYMAX = %g\nMEASURED = %d\nCLIP = %g\n", ymin, ymax, nmeas + 0, clip) > inc
}
