# strings.awk - strings for gnuplot as data, never as source text.
#
# Loaded before series.awk, ab.awk and extrap.awk (awk -f plots/strings.awk
# -f ...).  Names in results (workloads, sources, variants, machines) come
# from CSV files exchanged between machines; gnuplot substitutes `...` in
# double-quoted strings, so a name pasted into a script would run as a
# command.  Instead gp_strings(ARR, NAME, N) returns the lines that declare
# array NAME[N] and fill it by reading block K of the file `gp_str` (the
# include file's path with ".str" appended: plot.sh passes it as inc, and
# the script reads inc . ".str") as data, one value per line.  Each value
# is written after a "=" (so none reads as a blank or comment line), with
# control characters and tabs as spaces and '"' as "'" (gnuplot's data
# reader would take '"' as a field quote).  The returned text holds only
# the array name, numbers and fixed words.

function gp_clean(s) { gsub(/[\001-\037\177]/, " ", s); gsub(/"/, "'", s); return "=" s }

function gp_strings(arr, name, n,    i, t) {
	t = sprintf("array %s[%d]\n", name, n > 0 ? n : 1)
	if (n < 1) return t
	t = t sprintf("set datafile separator \"\\t\"\nset table $ms_strings\n" \
		"plot inc . \".str\" index %d using (%s[int($0) + 1] = strcol(1)[2:], 0):(0) with table\n" \
		"unset table\nset datafile separator whitespace\nundefine $ms_strings\n", gp_block + 0, name)
	for (i = 1; i <= n; i++) print gp_clean(arr[i]) > gp_str
	printf("\n\n") > gp_str
	gp_block++
	return t
}
