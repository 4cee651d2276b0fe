# call.gp - plot.sh's way into every figure script: gnuplot -c call.gp
# PLOTDIR TERM OUT DATA INC TITLE SCRIPT PLUGINS.  Each value arrives as
# an argument (ARG1..ARG8), which gnuplot keeps as a string and never
# parses: no path or title from the results is pasted into source text.
# PLUGINS: the plug-ins' names style.gp gives fixed styles (plot.sh).
plotdir = ARG1
term = ARG2
out = ARG3
data = ARG4
inc = ARG5
ttl = ARG6
plugin_names = ARG8
load ARG7
