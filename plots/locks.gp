# locks.gp - lock algorithms: throughput and fairness against workers.
# Data columns: workers, ops/s mean, sd, fairness_cv mean, sd, n.
# Legend: below both panels, in columns, drawn by a third plot of the
# same series (their lines outside its range) so the panels keep their
# size and the data stay uncovered.
load inc
KEYCOLS = (NSERIES > 16 ? 3 : NSERIES > 4 ? 2 : 1)
KEYROWS = int((NSERIES + KEYCOLS - 1) / KEYCOLS)
tall = 1 + 0.045 * KEYROWS
load plotdir . "/style.gp"
set output out
keyh = (0.045 * KEYROWS + 0.04) / tall
top = 0.92
set multiplot title ttl noenhanced
set xrange [0 : XMAX + 1]
set xtics xstep(XMAX)
unset key
set xlabel "workers (threads)"
set label 1 ERRNOTE at screen 0.5, screen 0.935 center font ",8" tc rgb "#555555"
set origin 0, keyh
set size 0.5, top - keyh
set title "throughput"
set ylabel sprintf("throughput (%s)", YUNIT)
set yrange [0 : YMAX / YSCALE * 1.1]
plot LINEAR * x / YSCALE with lines dt 2 lc rgb "#999999" lw 1.5, \
     for [i = 1:NSERIES] data index (i - 1) using 1:($2 / YSCALE):($3 / YSCALE) \
	with yerrorlines ls ls_for(SKEY[i], i) \
		pt pt_for(SKEY[i], i, SDUP[i]) dt dt_for(SKEY[i], i, SDUP[i])
unset label 1
set origin 0.5, keyh
set title "fairness (lower is fairer)"
set ylabel "CV of per-worker rates (stddev/mean)"
set yrange [0 : *]
plot for [i = 1:NSERIES] data index (i - 1) using 1:4:5 \
	with yerrorlines ls ls_for(SKEY[i], i) \
		pt pt_for(SKEY[i], i, SDUP[i]) dt dt_for(SKEY[i], i, SDUP[i])
# the legend panel
set origin 0, 0
set size 1, keyh
unset border
unset tics
unset grid
unset xlabel
unset ylabel
unset title
unset label
set lmargin 1
set rmargin 1
set tmargin 0
set bmargin 0
set xrange [0 : 1]
set yrange [0 : 1]
set key center center horizontal maxcols KEYCOLS noenhanced font ",8" samplen 2 width -2
plot 2 with lines dt 2 lc rgb "#999999" lw 1.5 title "linear (best 1-worker rate x N)", \
     for [i = 1:NSERIES] 2 with linespoints ls ls_for(SKEY[i], i) \
	pt pt_for(SKEY[i], i, SDUP[i]) dt dt_for(SKEY[i], i, SDUP[i]) title SNAME[i]
unset multiplot
