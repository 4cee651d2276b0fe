# counter.gp - the batched-counter trade-off: throughput and error against
# the fold threshold, one line per counter.  Data columns: threshold,
# ops/s mean, sd, max_error_observed mean, sd, error_bound mean, sd, n.
load plotdir . "/style.gp"
load inc
set output out
set multiplot layout 1, 2 title ttl noenhanced
set xlabel "fold threshold (updates per worker, log scale)"
set logscale x 2
set xrange [XMIN / 1.5 : XMAX * 1.5]
set format x "%g"
# one key, below the throughput panel (inside, 7 counters would cover
# the data); the error panel uses the same colours and says how
set key below center horizontal maxcols 2 noenhanced font ",7" samplen 2
set bmargin 8
set title "throughput"
set ylabel sprintf("throughput (%s)", YUNIT)
set yrange [0 : YMAX / YSCALE * 1.15]
plot for [i = 1:NSERIES] data index (i - 1) using 1:($2 / YSCALE):($3 / YSCALE) \
	with yerrorlines ls ls_for(SKEY[i], i) title SNAME[i]
set title "counter error (read vs exact)"
# Errors are often exactly 0 (exact counters, or no race caught), which a
# log axis cannot show: plot error + 1.  A negative bound means "none".
set ylabel "error + 1 (counts, log scale)"
e1(v) = (v >= 0 ? v + 1 : NaN)
set logscale y 10
set yrange [0.8 : *]
unset key
set label 2 "colours as in the left panel\nsolid: largest error seen; dotted: bound" \
	at graph 0.5, graph -0.30 center font ",7" noenhanced
# The bound is drawn last, thick and dotted, so it stays visible where the
# observed error reaches it.
plot for [i = 1:NSERIES] data index (i - 1) using 1:(e1($4)):5 \
	with yerrorlines ls ls_for(SKEY[i], i) lw 1 pt pt_for(SKEY[i], i, SDUP[i]) title SNAME[i] . " observed max", \
     for [i = 1:NSERIES] data index (i - 1) using 1:(e1($6)) \
	with lines ls ls_for(SKEY[i], i) dt 3 lw 4 title SNAME[i] . " bound"
unset multiplot
