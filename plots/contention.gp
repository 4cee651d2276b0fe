# contention.gp - lock contention against workers, one line per lock class
# (colour) and variant (dash): contended acquisitions in percent and average wait.
# Data columns: workers, contended_pct mean, sd, avg_wait_ns mean, sd, n.
load plotdir . "/style.gp"
load inc
set output out
set multiplot layout 1, 2 title ttl noenhanced
set xlabel "workers (threads or processes)"
set xrange [0 : XMAX + 1]
if (XMAX <= 16) { set xtics 1 }
set key top left noenhanced font ",9"
set title "contended acquisitions"
set ylabel "contended (% of acquisitions)"
set yrange [0 : *]
plot for [i = 1:NSERIES] data index (i - 1) using 1:2:3 \
	with yerrorlines ls ls_for(SKEY[i], i) \
		pt pt_for(SKEY[i], i, SDUP[i]) dt dt_for(SDUP[i]) title SNAME[i]
set title "average wait"
set ylabel "average wait (ns)"
plot for [i = 1:NSERIES] data index (i - 1) using 1:4:5 \
	with yerrorlines ls ls_for(SKEY[i], i) \
		pt pt_for(SKEY[i], i, SDUP[i]) dt dt_for(SDUP[i]) title SNAME[i]
unset multiplot
