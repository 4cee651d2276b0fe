# call.gp - plot.sh's way into every figure script: gnuplot -c call.gp
# PLOTDIR TERM OUT DATA INC TITLE SCRIPT.  Each value arrives as an
# argument (ARG1..ARG7), which gnuplot keeps as a string and never parses:
# no path or title from the results is pasted into source text.
plotdir = ARG1
term = ARG2
out = ARG3
data = ARG4
inc = ARG5
ttl = ARG6
load ARG7
