# extrap.gp - extrapolated % change to many CPUs (lines; a prediction for
# one CPU count is a point with a cross), published values
# (open markers) and this machine's measurements (filled markers); the
# colour names the workload, dash and marker shape the patch variant.
# Columns 3 and 4 of the data (plots/extrap.awk) are drawn as bars where
# given: the prediction's band, a published range (LO..HI), the measured
# 95 % interval.  Called by plot.sh: term, out, data, inc, ttl.
tall = 1.45
load plotdir . "/style.gp"
load inc
set output out
set title ttl noenhanced
set xlabel "CPUs (predictions, published) / workers (measured here)"
set ylabel "change, patch vs base (%); bars: band, range or 95 % CI"
set xrange [0 : (XMAX > 224 ? XMAX : 224) * 1.05]
set xzeroaxis lt -1 lw 1
# Marker per patch variant: open for published, filled for measured.
# (Arrays, not word(): string functions in plot options crash gnuplot 5.4.)
array PUBPT[4] = [6, 8, 12, 4]
array MEASPT[4] = [7, 9, 13, 5]
# Legend under the plot: one row per series, placed by hand because
# gnuplot's "key below" lets it touch the x label.
set bmargin NSERIES * 1.4 + 4
set key at screen 0.07, screen 0.01 left bottom Left reverse noenhanced maxcols 1
# the bars first, the markers over them
plot for [i = 1:NSERIES] data index (i - 1) using 1:2:3:4 \
	with yerrorbars ls ls_for(SKEY[i], i) pt 0 lw 1 notitle, \
     for [i = 1:NSERIES] data index (i - 1) using 1:(SKIND[i] eq "l" ? $2 : NaN) \
	with linespoints ls ls_for(SKEY[i], i) dt 0 + SVAR[i] pt 1 ps PS title (SKIND[i] eq "l" ? SNAME[i] : ""), \
     for [i = 1:NSERIES] data index (i - 1) using 1:(SKIND[i] eq "p" ? $2 : NaN) \
	with points ls ls_for(SKEY[i], i) pt PUBPT[(SVAR[i] - 1) % 4 + 1] ps PS * 1.3 lw 2 title (SKIND[i] eq "p" ? SNAME[i] : ""), \
     for [i = 1:NSERIES] data index (i - 1) using 1:(SKIND[i] eq "m" ? $2 : NaN) \
	with points ls ls_for(SKEY[i], i) pt MEASPT[(SVAR[i] - 1) % 4 + 1] ps PS title (SKIND[i] eq "m" ? SNAME[i] : "")
