# ab.awk - the A/B comparison of one seed experiment, measured beside
# published.
#
#   awk -f plots/ab.awk -v seed=NAME -v tsv=OUT.tsv -v inc=OUT.gp \
#       published.csv all.csv > OUT.dat
#
# The pairs (knob, base value, patch value) and the workloads come from
# published.csv (`memscale published`: columns seed,knob,workload,base_variant,patch_variant,
# machine,cpus,base,patch,change_pct,source; no commas inside fields).
# Measured: mean ops_per_sec of every result row of the workload whose knob
# column holds the base or the patch value, at the largest worker count
# present for both; rows of the sweep directory named like the seed are
# used when there are any, else rows from anywhere.  The experiment's axes
# (-v axes="depth ...": columns, from its [axis] section) are kept apart:
# one measured series per pair and axis value, as compare's table has
# them; only columns not named there are averaged alike on both sides.
# change = (patch - base) / base * 100.  A published change_pct left empty
# is computed from its base and patch values the same way.
#
# OUT.tsv (for the paper), tab-separated, one line per entry:
#   measured  workload base patch workers base_mean patch_mean n_base n_patch change|NA
#             base_samples patch_samples (space-separated, for significance)
#             axis values ("depth=5"; empty without axes)
#   published workload base patch machine cpus base patch change source
# stdout: gnuplot blocks, one per bar series, lines "x change lo hi label_y"
# (lo, hi: the 95 % interval of a measured change, from -v ci=FILE, the
# output of plots/abci.sh on OUT.tsv, i.e. what `memscale compare` says;
# NaN where there is none: no error bar, and the series says so; the bar
# height is compare's change_pct from the same file where it has one);
# OUT.gp: NSERIES, SNAME, SKEY, SKIND ("m" measured / "p" published),
# SDUP (index of the axis value among a pair's series: lighter fill),
# NWL and WLNAME (the x tic labels), YMIN, YMAX, CLIP (0, or the value
# beyond which bars are cut at the axis limit).


BEGIN {
	FS = ","
	nax = split(axes, ax, " ")
	if (ci != "") while ((getline l < ci) > 0) {
		split(l, f, "\t")
		# measured lines: 13 fields of ours, then abci.sh's p, lo, hi, yes/no
		if (f[1] == "measured" && f[15] != "NA" && f[15] != "" && f[16] != "NA")
			{ cilo[f[2], f[3], f[4], f[13]] = f[15]; cihi[f[2], f[3], f[4], f[13]] = f[16] }
		# the bar itself: compare's change where it gave one
		if (f[1] == "measured" && f[18] != "NA" && f[18] != "")
			cchg[f[2], f[3], f[4], f[13]] = f[18]
	}
}

FNR == 1 { file++; for (i = 1; i <= NF; i++) col[file, $i] = i; next }

file == 1 {
	if ($1 != seed) next
	w = $3; pair = $2 SUBSEP $4 SUBSEP $5
	if (!($2 in isknob)) { isknob[$2] = 1; knobs[++nknobs] = $2 }
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

# all.csv: the merged results
{
	w = $(col[file, "workload"])
	if (!(w in wlidx)) next
	src = ($(col[file, "source"]) == seed)
	n = $(col[file, "workers"]) + 0
	y = $(col[file, "ops_per_sec"])
	if (y == "") next
	al = ""
	for (ai = 1; ai <= nax; ai++)
		if ((file, ax[ai]) in col) al = al (al == "" ? "" : " ") ax[ai] "=" $(col[file, ax[ai]])
	if (!(al in alidx)) { alidx[al] = ++nal; alv[nal] = al }
	# a seed's pairs may name different knobs (a recorded sweep spells
	# some variants with an older knob): the row counts under each
	for (kq = 1; kq <= nknobs; kq++) {
		if (!((file, knobs[kq]) in col)) continue
		v = $(col[file, knobs[kq]])
		k = src SUBSEP w SUBSEP knobs[kq] SUBSEP v SUBSEP al SUBSEP n
		sum[k] += y; cnt[k]++; vals[k] = vals[k] (cnt[k] > 1 ? " " : "") y
		if (src) anysrc = 1
	}
	if (!((w, n) in haven)) { haven[w, n] = 1; nlist[w] = nlist[w] " " n }
}

END {
	if (np == 0) {
		printf("no published entry for seed '%s'\n", seed) > "/dev/stderr"
		exit 3
	}
	s = anysrc ? 1 : 0
	if (nal == 0) { nal = 1; alv[1] = "" }
	# axis values in order (insertion sort; "depth=1" .. "depth=5")
	for (a = 2; a <= nal; a++) { t = alv[a]; for (b = a - 1; b >= 1 && alv[b] > t; b--) alv[b + 1] = alv[b]; alv[b + 1] = t }
	printf("") > tsv
	nser = 0
	ymin = 0; ymax = 0
	for (p = 1; p <= npair; p++) for (ai = 1; ai <= nal; ai++) {
		have = 0; al = alv[ai]
		for (i = 1; i <= nwl; i++) {
			w = wl[i]; best = -1
			m = split(nlist[w], ns, " ")
			for (j = 1; j <= m; j++) {
				kb = s SUBSEP w SUBSEP pknob[p] SUBSEP pbase[p] SUBSEP al SUBSEP ns[j]
				kp = s SUBSEP w SUBSEP pknob[p] SUBSEP ppatch[p] SUBSEP al SUBSEP ns[j]
				if ((kb in cnt) && (kp in cnt) && ns[j] + 0 > best) best = ns[j] + 0
			}
			if (best < 0) {
				# one "not measured" line per pair, not per axis value
				if (ai == 1 && !((w, p) in nm_said)) { nm_said[w, p] = 1
					printf("measured\t%s\t%s\t%s\t\t\t\t0\t0\tNA\t\t\t\n", w, pbase[p], ppatch[p]) > tsv }
				continue
			}
			kb = s SUBSEP w SUBSEP pknob[p] SUBSEP pbase[p] SUBSEP al SUBSEP best
			kp = s SUBSEP w SUBSEP pknob[p] SUBSEP ppatch[p] SUBSEP al SUBSEP best
			mb = sum[kb] / cnt[kb]; mp = sum[kp] / cnt[kp]
			pct = mb != 0 ? (mp - mb) / mb * 100 : 0
			printf("measured\t%s\t%s\t%s\t%d\t%.10g\t%.10g\t%d\t%d\t%.2f\t%s\t%s\t%s\n", w, pbase[p],
			       ppatch[p], best, mb, mp, cnt[kb], cnt[kp], pct, vals[kb], vals[kp], al) > tsv
			if (!have) { nser++; nmeas++; have = 1; skind[nser] = "m"; skey[nser] = ppatch[p]
				workers_of[nser] = best; sdup[nser] = ai - 1
				sname[nser] = sprintf("measured here: %s vs %s%s", ppatch[p], pbase[p], al == "" ? "" : ", " al) }
			else if (best != workers_of[nser]) workers_of[nser] = "various"
			bar[nser, i] = ((w, pbase[p], ppatch[p], al) in cchg) ? cchg[w, pbase[p], ppatch[p], al] + 0 : pct
			if ((w, pbase[p], ppatch[p], al) in cilo) {
				blo[nser, i] = cilo[w, pbase[p], ppatch[p], al]; bhi[nser, i] = cihi[w, pbase[p], ppatch[p], al]
			} else noci[nser] = 1
		}
		if (have) sname[nser] = sname[nser] " (" workers_of[nser] (workers_of[nser] == 1 ? " worker" : " workers") \
			(noci[nser] ? "; no interval from compare)" : "; bars: 95 % interval)")
	}
	for (e = 1; e <= np; e++) print pub_line[e] > tsv
	# One published series per (machine, pair).
	for (mi = 1; mi <= nmach; mi++) for (p = 1; p <= npair; p++) {
		have = 0
		for (e = 1; e <= np; e++) {
			if (pub_m[e] != mach[mi] || pub_pair[e] != p || pub_pct[e] == "") continue
			if (!have) { nser++; have = 1; skind[nser] = "p"; skey[nser] = "published " mach[mi]
				sname[nser] = "published: " mach[mi] (npair > 1 ? sprintf(" (%s vs %s)", ppatch[p], pbase[p]) : "") }
			bar[nser, wlidx[pub_w[e]]] = pub_pct[e]
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
			if ((t, i) in blo) {
				if (a < 0 && blo[t, i] + 0 < a) a = blo[t, i] + 0
				if (a >= 0 && bhi[t, i] + 0 > a) a = bhi[t, i] + 0
				printf("%.4f %s %s %s %s\n", x, bar[t, i], blo[t, i], bhi[t, i], a)
			} else printf("%.4f %s NaN NaN %s\n", x, bar[t, i], a)
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
