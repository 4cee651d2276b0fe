# lkp_compare.awk - the layout of `lkp compare` (intel/lkp-tests
# lib/compare.rb: show_group_header, show_perf_header, show_perf_change,
# show_stat; ABS_WIDTH 10, REL_WIDTH 10, ERR_WIDTH 6) and the KPI order of
# its bisect reports (lib/stats.rb sort_bisect_stats over
# etc/index-perf.yaml), rewritten in awk for tests/compare.t so the check
# needs no Ruby.  Per group:
#
#   89 '='; "AXES:"; "  VALUES"; ""; "commit: "; "  NAME" per commit; "";
#   names right-aligned, "%16s " then "%27s " each, cut to the width;
#   "-" x 16 " " then "-" x 27 " " each;
#   "         %stddev" + "     %change         %stddev" per further commit;
#   "             \  " + "        |                \  " per further commit;
#   rows: "%10s" avg, 6 columns " ±NN%" or blank, then per further commit
#   "%+10.1f%% " change, "%10s" avg, 6 columns; then "  KEY".
#
# Checks each of those, that KPI keys (will-it-scale.*_ops,
# aim9.*.ops_per_sec, vm-scalability.throughput) come before other keys
# of the group, and that a change agrees with its averages to 0.1 %.
# Prints "groups N commits C rows R"; exit 1 with the reason on stderr.
function fail(msg) { print "lkp layout: " msg " at line " NR ": " $0 > "/dev/stderr"; bad = 1; exit 1 }
function kpi(k) { return k ~ /^will-it-scale\..+_ops$/ || k ~ /^aim9\..+\.ops_per_sec$/ || k == "vm-scalability.throughput" }
function rep(s, n,   r, i) { r = ""; for (i = 0; i < n; i++) r = r s; return r }
function num(s) { gsub(/ /, "", s); return s + 0 }
BEGIN { state = "start"; eq = rep("=", 89) }
$0 == eq { if (state != "start" && state != "rows") fail("group header inside a group"); state = "axes"; ngroups++; ncommit = 0; seen_other = 0; next }
state == "axes" { if ($0 !~ /^[^ ].*:$/) fail("axes line"); state = "values"; next }
state == "values" { if ($0 !~ /^  [^ ]/) fail("values line"); state = "blank1"; next }
state == "blank1" { if ($0 != "") fail("blank after values"); state = "commit"; next }
state == "commit" { if ($0 != "commit: ") fail("'commit: ' line"); state = "names"; next }
state == "names" { if ($0 == "") { state = "namerow"; next } if ($0 !~ /^  /) fail("commit name"); name[++ncommit] = substr($0, 3); next }
state == "namerow" {
	want = sprintf("%16s ", substr(name[1], 1, 16))
	for (i = 2; i <= ncommit; i++) want = want sprintf("%27s ", substr(name[i], 1, 27))
	if ($0 != want) fail("commit names not right-aligned in 16/27 columns")
	state = "dashes"; next
}
state == "dashes" { if ($0 != rep("-", 16) " " rep(rep("-", 27) " ", ncommit - 1)) fail("dash row"); state = "legend1"; next }
state == "legend1" { if ($0 != "         %stddev" rep("     %change         %stddev", ncommit - 1)) fail("%stddev legend"); state = "legend2"; next }
state == "legend2" { if ($0 != "             \\  " rep("        |                \\  ", ncommit - 1)) fail("legend marks"); state = "rows"; next }
state == "rows" && $0 == "" { next }
state == "rows" {
	gsub(/\302\261/, "+")   # "±" (UTF-8) as one column
	w = 16 + (ncommit - 1) * 28
	if (length($0) < w + 3 || substr($0, w + 1, 2) != "  ") fail("row width")
	key = substr($0, w + 3)
	avg0 = num(substr($0, 1, 10))
	for (i = 2; i <= ncommit; i++) {
		o = 17 + (i - 2) * 28
		ch = substr($0, o, 12); av = num(substr($0, o + 12, 10))
		if (ch !~ /^ *[+-][0-9.e+]+% $/ && ch !~ /^ *[+-][0-9.e+]+  $/) fail("change field '" ch "'")
		if (avg0 != 0 && ch ~ /%/ && av < 1e8 && avg0 < 1e8) {
			d = (av - avg0) / avg0 * 100 - num(substr(ch, 1, 10))
			if (d > 0.06 + 100 * 1 / avg0 + 100 * 1 / av || d < -(0.06 + 100 * 1 / avg0 + 100 * 1 / av)) fail("change does not match the averages")
		}
	}
	if (kpi(key) && seen_other) fail("KPI " key " after another key")
	if (!kpi(key)) seen_other = 1
	nrows++; ncommits_total += ncommit; next
}
state != "start" && state != "rows" { fail("unexpected line in state " state) }
END { if (bad) exit 1; if (state != "rows") { print "lkp layout: no complete group" > "/dev/stderr"; exit 1 } print "groups " ngroups " commits " ncommit " rows " nrows }
