# style.gp - the one style every memscale figure loads.
#
# Each lock, counter, variant value and lock class owns one line style,
# found by name through ls_for(name, i), so it has the same colour and
# marker in every figure.  Names not listed fall back to styles 61.. by
# series order.  The caller sets `term` ("png" or "pdf") before loading.

if (!exists("term")) term = "png"
# A figure with a long legend below the plot sets tall = 1.4 first.
if (!exists("tall")) tall = 1
if (term eq "pdf") {
	set terminal pdfcairo enhanced color size 5in,(3.1 * tall)in font "Helvetica,9" linewidth 1
} else {
	set terminal pngcairo enhanced color size 960,(600 * tall) font "Helvetica,12" linewidth 1.2
}

# Okabe-Ito and Tableau colours: distinguishable, also in grey print.
COLORS = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #000000 #6A3D9A #8C564B #7F7F7F #999933 #17BECF"
POINTS = "7 5 9 11 13 15 4 6 8 10 12 14"

# Known names, in groups.  The plug-ins' names (locks, counters, stats
# designs, model workloads) are not written here: plot.sh reads them from
# `memscale list` and passes them to call.gp (plugin_names), a group at a
# time in registry order; the knob values and lock classes follow.
if (!exists("plugin_names")) plugin_names = ""
STYLE_NAMES = plugin_names . " " . \
	"v6.9 v6.10 fixed fixed_padded " . \
	"16 32 64 128 256 512 1024 2048 4096 " . \
	"pgdat lruvec 15 31 touch copy " . \
	"pgdat_lru_lock lruvec_lru_lock page_counter stats_flush bench"

# Marker size: pdfcairo draws markers larger relative to its 9 pt text.
PS = (term eq "pdf" ? 0.6 : 1.1)
do for [k = 1:70] {
	set style line k lc rgb (word(COLORS, (k - 1) % 12 + 1)) pt (word(POINTS, (k - 1) % 12 + 1) + 0) lw 2 ps PS
}
style_index(n) = sum [k = 1:words(STYLE_NAMES)] (word(STYLE_NAMES, k) eq n ? k : 0)
ls_for(n, i) = (style_index(n) > 0 ? style_index(n) : 60 + (i - 1) % 10 + 1)
# Series sharing a style key (the same variant at another depth, say) keep
# the colour; pt_for and dt_for give the dup-th of them an open marker and
# a dash pattern.
# Styles 13.. repeat the 12 colours: their cycle (int((ls - 1) / 12))
# shifts the marker and the dash pattern, so that no two of the first 60
# styles look alike (none and ttas_backoff share a colour, not a marker or
# a dash), with or without dup.
OPEN_POINTS = "4 6 8 10 12 14"
cyc(n, i) = int((ls_for(n, i) - 1) / 12)
pt_for(n, i, dup) = (dup > 0 ? word(OPEN_POINTS, (dup - 1 + cyc(n, i)) % 6 + 1) + 0 : \
	word(POINTS, (ls_for(n, i) - 1 + cyc(n, i)) % 12 + 1) + 0)
dt_for(n, i, dup) = 1 + (dup + 2 * cyc(n, i)) % 5

# x tics of a worker axis: at most about 9 labels, so the numbers of a
# half-width panel do not run together.
xstep(xmax) = xmax <= 8 ? 1 : xmax <= 16 ? 2 : xmax <= 40 ? 5 : xmax <= 80 ? 10 : xmax <= 160 ? 20 : 50
# What the points and bars of a series figure are (reshape.awk).
ERRNOTE = "points: mean over the runs; bars: +-1 sample sd"

# Common look: light grid behind the data, key outside the plot area when
# there are many series (set by the figure), no top/right tics.
set grid back lc rgb "#DDDDDD" lw 1
set border 3
set tics nomirror out
set key noautotitle
set key box lc rgb "#BBBBBB" opaque samplen 2 spacing 1.1
set bars small
set datafile separator whitespace
set datafile commentschars "#"
