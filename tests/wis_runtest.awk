# wis_runtest.awk - the output parsing of will-it-scale's runtest.py
# (antonblanchard/will-it-scale, runtest.py; LKP runs the same loop under
# python3), rewritten in awk for tests/publish.t so the check does not need
# Python.  runtest.py reads the stdout of one X_processes / X_threads run:
#
#   for line in pipe.readlines():
#       if 'testcase:' in line: (testcase, val) = line.split(':')
#       if 'average:' in line:  (name, val) = line.split(':'); avg = int(val)
#
# A tuple assignment raises ValueError unless split gives exactly two
# fields; int() accepts optional blanks and sign around decimal digits
# only.  mmtests' wis-bench deletes the first 8 lines (testcase, warmup,
# six warm-up samples) and takes every following "total:" as a sample.
#
# Input: the output of one or more runs, each starting at "testcase:".
# Output: one line per run, "average TOTAL_SAMPLES"; exit 1 with the
# Python error on stderr where runtest.py would crash.
function fail(msg) { print "runtest.py: " msg " at line " NR ": " $0 > "/dev/stderr"; bad = 1; exit 1 }
function flush_run() {
	if (!started) return
	if (avg == "") fail("no average: line (runtest.py keeps -1)")
	print avg, nsamp
}
/testcase:/ {
	flush_run()
	started = 1; avg = ""; nsamp = 0; line_in_run = 0
	if (split($0, f, ":") != 2) fail("ValueError: too many values to unpack (testcase)")
}
{ line_in_run++ }
/average:/ {
	if (split($0, f, ":") != 2) fail("ValueError: too many values to unpack (average)")
	if (f[2] !~ /^[ \t]*[+-]?[0-9]+[ \t\r]*$/) fail("ValueError: invalid literal for int()")
	avg = f[2] + 0
}
# mmtests: lines after the first 8 of a run, "total:" values are samples
line_in_run > 8 && /total:/ { nsamp++ }
END { if (!bad) flush_run() }
