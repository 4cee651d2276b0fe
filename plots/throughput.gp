# throughput.gp - throughput against workers, one line per variant, with
# the linear-scaling reference (best single-worker rate times N).
# Called by plot.sh with: term, out, data, inc, ttl.
load plotdir . "/style.gp"
load inc
set output out
# the note on the bars goes under the title: below the axis it ran into
# the x label in PDF output
set title sprintf("%s\n%s", ttl, ERRNOTE) noenhanced
set xlabel "workers (threads or processes)"
set ylabel sprintf("throughput (%s)", YUNIT)
set xrange [0 : XMAX + 1]
set xtics xstep(XMAX)
set yrange [0 : YMAX / YSCALE * 1.35]
set key top left noenhanced
plot LINEAR * x / YSCALE with lines dt 2 lc rgb "#999999" lw 1.5 title "linear (best 1-worker rate x N)", \
     for [i = 1:NSERIES] data index (i - 1) using 1:($2 / YSCALE):($3 / YSCALE) \
	with yerrorlines ls ls_for(SKEY[i], i) \
		pt pt_for(SKEY[i], i, SDUP[i]) dt dt_for(SKEY[i], i, SDUP[i]) title SNAME[i]
