# demo_table.awk - the demo's seed table: per A/B pair, the change measured
# here (with its 95 % interval, or "no significant change"), the change
# predicted for the published machines at their CPU counts (with band and
# regime where the predictor gives them, else n/a) and the published one.
#
#   awk -F, -f plots/abcsv.awk -f scripts/demo_table.awk \
#       -v seed=NAME -v workers=N EXP.ini PREDICTIONS.csv COMPARE.csv
#
# EXP.ini: the sweep's experiment.ini (variant name -> the value of its
# knob, the names predictions are keyed by).  PREDICTIONS.csv:
# seed,workload,base,patch,... with cpus and predicted_pct (the columns of
# `model validate -f csv`) or cpus and change_pct (`memscale paper-tables
# --predictions`).
# COMPARE.csv: `memscale compare --experiment DIR -f csv`; only rows at
# the largest worker count (workers) are shown.
FNR == 1 { file++ }
file == 1 {
	if ($0 ~ /^\[variant /) { v = $0; sub(/^\[variant /, "", v); sub(/\].*/, "", v); need = 1; next }
	if (need && $0 ~ /=/ && $0 !~ /^[#;]/) { val = $0; sub(/^[^=]*= */, "", val); sub(/ *$/, "", val); vv[v] = val; need = 0 }
	next
}
file == 2 && FNR == 1 { for (i = 1; i <= NF; i++) pc[$i] = i; next }
file == 2 {
	if ($(pc["seed"]) != seed) next
	k = $(pc["workload"]) SUBSEP $(pc[("base" in pc) ? "base" : "base_variant"]) SUBSEP $(pc[("patch" in pc) ? "patch" : "patch_variant"])
	p = ("predicted_pct" in pc) ? $(pc["predicted_pct"]) : $(pc["change_pct"])
	if (p == "" || p == "nan") next
	band = ("band_lo_pct" in pc) && $(pc["band_lo_pct"]) != "nan" && $(pc["band_lo_pct"]) != "" ? \
		sprintf("band %+.1f..%+.1f", $(pc["band_lo_pct"]), $(pc["band_hi_pct"])) : "band n/a"
	reg = ("regime" in pc) && $(pc["regime"]) != "" && $(pc["regime"]) != "unknown" ? $(pc["regime"]) : "regime n/a"
	# the regime's first clause (lock-bound, contended, local-bound,
	# undetermined); the per-lock figures are in the ledger
	sub(/;.*/, "", reg)
	s = sprintf("%+.1f%% @%s (%s, %s)", p, $(pc["cpus"]), band, reg)
	# one prediction per line (mawk creates the left-hand element before
	# the test on the right)
	if (k in pred) s = pred[k] "\n" sprintf("%-21s   predicted: ", "") s
	pred[k] = s
	# the same prediction for the reverse pair (the demo's base -> before
	# of a pair published as before -> base): turned over, 100 / (1 +
	# p/100) - 100 (as compare turns a published change), band ends
	# turned and swapped
	if (p + 0 > -100) {
		kr = $(pc["workload"]) SUBSEP $(pc[("patch" in pc) ? "patch" : "patch_variant"]) SUBSEP $(pc[("base" in pc) ? "base" : "base_variant"])
		band = band == "band n/a" || $(pc["band_hi_pct"]) + 0 <= -100 || $(pc["band_lo_pct"]) + 0 <= -100 ? "band n/a" : \
			sprintf("band %+.1f..%+.1f", turn($(pc["band_hi_pct"])), turn($(pc["band_lo_pct"])))
		s = sprintf("%+.1f%% @%s (%s, %s; reverse pair's, turned over)", turn(p), $(pc["cpus"]), band, reg)
		if (kr in predr) s = predr[kr] "\n" sprintf("%-21s   predicted: ", "") s
		predr[kr] = s
	}
	next
}
function turn(x) { return 100 / (1 + x / 100) - 100 }
file == 3 && FNR > 1 && $(AB_COL["workers"]) == workers {
	w = $(AB_COL["workload"]); b = ab_get("base", ""); pt = ab_get("patch", "")
	k = w SUBSEP ((b in vv) ? vv[b] : b) SUBSEP ((pt in vv) ? vv[pt] : pt)
	pub = ab_get("published", "")
	if (pub == "") pub = "not published"
	# compare's label names the axis values too (tlb_flush2-depth5-2)
	lb = ab_get("label", w); if (lb != w) sub(/-[0-9]+$/, "", lb)
	printf("%-21s %-17s %-28s %s\n", seed, lb, b " -> " pt, ab_headline())
	printf("%-21s   predicted: %s\n", "", (k in pred) ? pred[k] : (k in predr) ? predr[k] : "n/a (no prediction for this pair)")
	# one published row per line (compare joins them with "; ")
	np = split(pub, pubs, /; /)
	for (j = 1; j <= np; j++) printf("%-21s   published: %s\n", "", pubs[j])
	if (ab_get("warnings", "") != "") printf("%-21s   warnings: %s\n", "", ab_get("warnings", ""))
	n++
}
END { if (!n) printf("%-21s not measured at %s workers\n", seed, workers) }
