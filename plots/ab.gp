# ab.gp - A/B change per workload for one seed experiment: bars measured
# here (solid) beside the published values (hatched), in percent; a
# published range LO..HI (fields 3 and 4 of a published line, plots/
# ab.awk) is a hatched band from LO to HI, not a bar from zero.
# Called by plot.sh with: term, out, data, inc, ttl.
tall = 1.45
load plotdir . "/style.gp"
load inc
set output out
set title ttl noenhanced
set ylabel "change, patch vs base (%)"
set xrange [0.5 : NWL + 0.5]
set xtics () 
do for [i = 1:NWL] { set xtics add (WLNAME[i] i) }
set xtics noenhanced
if (NWL > 5) { set xtics rotate by -20 }
set grid noxtics ytics
# room beyond the bars for their labels, written upwards (downwards
# below zero) so that neighbouring bars' labels never meet
room = (YMAX - YMIN + 4) * 0.35
lo = (YMIN < 0 ? YMIN - room : 0) - 2
hi = (YMAX > 0 ? YMAX + room : 0) + 2
set yrange [lo : hi]
# Legend under the plot: one row per series, placed by hand because
# gnuplot's "key below" lets it touch the x label.
set bmargin NSERIES * 1.4 + 4
set key at screen 0.02, screen 0.01 left bottom Left reverse noenhanced maxcols 1 font ",8"
# Bars beyond CLIP are cut at the axis limit (their label says "(cut)").
cl(v) = (CLIP > 0 && v > CLIP ? CLIP : CLIP > 0 && v < -CLIP ? -CLIP : v)
pad = (hi - lo) * 0.015
lfont = (term eq "pdf" ? ",6" : ",9")
# A label of the other sign's clause goes far off the axis, not to NaN:
# gnuplot 5.4.4 crashes on a labels plot with undefined coordinates.
away = hi + 100 * (hi - lo)
set xzeroaxis lt -1 lw 1
set boxwidth BARW * 0.95 absolute
plot for [i = 1:NSERIES] data index (i - 1) using 1:(SKIND[i] eq "m" ? cl($2) : NaN) \
	with boxes ls ls_for(SKEY[i], i) fs solid (SDUP[i] > 0 ? 0.85 / (1 + SDUP[i]) : 0.85) border lc rgb "#333333" \
	title (SKIND[i] eq "m" ? SNAME[i] : ""), \
     for [i = 1:NSERIES] data index (i - 1) using 1:(SKIND[i] eq "p" && !valid(3) ? cl($2) : NaN) \
	with boxes ls ls_for(SKEY[i], i) fs pattern 4 border \
	title (SKIND[i] eq "p" ? SNAME[i] : ""), \
     for [i = 1:NSERIES] data index (i - 1) \
	using 1:(SKIND[i] eq "p" && valid(3) ? cl($2) : NaN):($1 - BARW * 0.475):($1 + BARW * 0.475):(cl($3)):(cl($4)) \
	with boxxyerror ls ls_for(SKEY[i], i) fs pattern 4 border notitle, \
     for [i = 1:NSERIES] data index (i - 1) using 1:(SKIND[i] eq "m" ? cl($3) : NaN):(0):(cl($4) - cl($3)) \
	with vectors heads size screen 0.004,90 lc rgb "#333333" lw 1 notitle, \
     for [i = 1:NSERIES] data index (i - 1) using ($1 - BARW * 0.5):(SKIND[i] eq "m" && $6 == 1 ? lo : NaN):(0):(hi - lo) \
	with vectors nohead dt 2 lc rgb "#333333" lw 1 notitle, \
     for [i = 1:NSERIES] data index (i - 1) using 1:($2 >= 0 ? cl($5) + pad : away):(stringcolumn(7)) \
	with labels rotate by 90 left font lfont notitle, \
     for [i = 1:NSERIES] data index (i - 1) using 1:($2 < 0 ? cl($5) - pad : away):(stringcolumn(7)) \
	with labels rotate by 90 right font lfont notitle
