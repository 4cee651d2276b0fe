# abcsv.awk - reading `memscale compare -f csv` rows by column name, and
# the one wording of an A/B change that demo, paper and report print.
#
#   awk -F, -f plots/abcsv.awk -e 'NR > 1 { print ab_headline() }'
#
# The columns (docs: compare -f csv): change_pct, ci_lo_pct, ci_hi_pct (the
# 95 % interval of the change), p or welch_p, significant (yes|no; older
# builds print 1|0 for mmtests' p < 0.10, not used), warnings (';'-separated).  A compare without interval
# columns gives "NA" for them, and a change is then significant only when
# compare said so.  No arithmetic on the samples here: compare does it.

# ab_get(NAME, DEFAULT): the field of the current row named NAME.
function ab_get(name, dflt) { return (name in AB_COL) && $(AB_COL[name]) != "" ? $(AB_COL[name]) : dflt }
function ab_has(name) { return name in AB_COL }
# yes | no
function ab_sig(    s, lo, hi) {
	lo = ab_get("ci_lo_pct", "NA"); hi = ab_get("ci_hi_pct", "NA")
	if (lo != "NA" && hi != "NA" && lo != "nan" && hi != "nan")
		return (lo + 0 > 0 || hi + 0 < 0) ? "yes" : "no"
	# no interval columns: Welch's p < 0.05 is the same test as a 95 %
	# Welch interval excluding zero (this build's "significant" column
	# is mmtests' p < 0.10)
	s = ab_get("welch_p", ab_get("p", "NA"))
	if (s != "NA" && s != "nan") return s + 0 < 0.05 ? "yes" : "no"
	s = ab_get("significant", "no")
	return (s == "yes") ? "yes" : "no"
}
function ab_interval(    lo, hi) {
	lo = ab_get("ci_lo_pct", "NA"); hi = ab_get("ci_hi_pct", "NA")
	if (lo == "NA" || hi == "NA" || lo == "nan" || hi == "nan") return "interval n/a"
	return sprintf("%+.1f..%+.1f %%", lo, hi)
}
# "+12.3 % (95 %: +4.0..+20.6 %)" or "no significant change (interval -3.1..+5.9 %)"
function ab_headline(    c, iv) {
	c = ab_get("change_pct", "nan")
	if (c == "nan" || c == "NA") return "not measured"
	iv = ab_interval()
	if (ab_sig() == "yes") return sprintf("%+.1f %% (95 %%: %s)", c, iv)
	if (iv == "interval n/a")
		return sprintf("no significant change (%+.1f %%, p = %.2g, interval n/a)", c,
			       ab_get("welch_p", ab_get("p", "nan")))
	return "no significant change (interval " iv ")"
}
FNR == 1 { delete AB_COL; for (AB_I = 1; AB_I <= NF; AB_I++) AB_COL[$AB_I] = AB_I }
# With -v emit=paper: for the first data row,
# "p<TAB>ci_lo<TAB>ci_hi<TAB>yes|no<TAB>change_pct" (plots/abci.sh for the
# figures and paper/gen.sh).  Otherwise the including program prints what
# it wants.
emit == "paper" && FNR == 2 {
	printf("%s\t%s\t%s\t%s\t%s", ab_get("welch_p", ab_get("p", "NA")),
	       ab_get("ci_lo_pct", "NA"), ab_get("ci_hi_pct", "NA"), ab_sig(),
	       ab_get("change_pct", "NA")); exit
}
