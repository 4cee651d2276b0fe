# locks.gp - lock algorithms: throughput and fairness against workers.
# Data columns: workers, ops/s mean, sd, fairness_cv mean, sd, n.
load plotdir . "/style.gp"
load inc
set output out
set multiplot layout 1, 2 title ttl noenhanced
set xlabel "workers (threads)"
set xrange [0 : XMAX + 1]
if (XMAX <= 16) { set xtics 1 }
set key top left noenhanced font ",9"
set title "throughput"
set ylabel sprintf("throughput (%s)", YUNIT)
set yrange [0 : YMAX / YSCALE * 1.45]
plot LINEAR * x / YSCALE with lines dt 2 lc rgb "#999999" lw 1.5 title "linear (best 1-worker rate x N)", \
     for [i = 1:NSERIES] data index (i - 1) using 1:($2 / YSCALE):($3 / YSCALE) \
	with yerrorlines ls ls_for(SKEY[i], i) \
		pt pt_for(SKEY[i], i, SDUP[i]) dt dt_for(SDUP[i]) title SNAME[i]
set title "fairness (lower is fairer)"
set ylabel "CV of per-worker rates (stddev/mean)"
set yrange [0 : *]
set key top left
plot for [i = 1:NSERIES] data index (i - 1) using 1:4:5 \
	with yerrorlines ls ls_for(SKEY[i], i) \
		pt pt_for(SKEY[i], i, SDUP[i]) dt dt_for(SDUP[i]) title SNAME[i]
unset multiplot
