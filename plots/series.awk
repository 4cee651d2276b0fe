# series.awk - describe the blocks of a reshape.awk data file for gnuplot.
#
#   awk -f plots/series.awk -v ycol=2 DATA > DATA.gp
#
# Prints gnuplot assignments: NSERIES, arrays SNAME (legend titles), SKEY
# (style keys) and SDUP (how many earlier series share the key: those get
# another marker and dash, same colour), the x range XMIN/XMAX, the largest mean+sd of column ycol
# (YMAX), the best per-worker rate at the smallest x of any series (LINEAR,
# the slope of the linear-scaling reference), and a unit for throughput
# axes: YSCALE divides ops/s so that tic labels stay short, YUNIT names it.

# Strings go to gnuplot as data (strings.awk; -v gp_str=DATA.gp.str).
function q(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }

BEGIN { if (ycol == "") ycol = 2; xmin = ""; ymax = 0; linear = 0 }

/^# series\t/ {
	split($0, f, "\t")
	n++; name[n] = f[2]; key[n] = f[3]; first = 1
	next
}

/^[0-9.eE+-]/ {
	x = $1 + 0; y = $(ycol) + 0; e = $(ycol + 1) + 0
	if (xmin == "" || x < xmin) xmin = x
	if (xmax == "" || x > xmax) xmax = x
	if (y + e > ymax) ymax = y + e
	if (first && x > 0) { if (y / x > linear) linear = y / x; first = 0 }
}

END {
	printf("NSERIES = %d\n", n)
	if (n > 0) {
		printf("%s%sarray SDUP[%d]\n", gp_strings(name, "SNAME", n),
		       gp_strings(key, "SKEY", n), n)
		for (i = 1; i <= n; i++)
			printf("SDUP[%d] = %d\n", i, dup[key[i]]++)
	}
	printf("XMIN = %g\nXMAX = %g\nYMAX = %g\nLINEAR = %g\n",
	       xmin + 0, xmax + 0, ymax, linear)
	if (ymax >= 2e9) { s = 1e9; u = "Gops/s" }
	else if (ymax >= 2e6) { s = 1e6; u = "Mops/s" }
	else if (ymax >= 2e3) { s = 1e3; u = "kops/s" }
	else { s = 1; u = "ops/s" }
	printf("YSCALE = %g\nYUNIT = %s\n", s, q(u))
}
