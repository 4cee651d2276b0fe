# merge.awk - concatenate harness result CSVs into one table.
#
#   awk -f plots/merge.awk -v knobs=KNOBS.txt A.csv B.csv ... > all.csv
#
# Headers may differ between files (each experiment records its own knobs
# and workload metrics), so the output carries the union of the columns,
# empty where a file lacks one.  A first column `source` names where each
# row came from: the directory holding results.csv (a sweep directory such
# as results/stats_batch), else the file name without ".csv".  Fields are
# read as RFC 4180 CSV; the output is plain comma-separated (a comma inside
# a value becomes ';') so the later awk steps can split on commas.
# Files whose header lacks ops_per_sec are not result files and are skipped.
# The knob columns (between `oversubscribed` and `ops_per_sec` in the
# harness header) are written one per line to the file named by `knobs`.

function parse_csv(line, out,    n, i, c, f, inq)
{
	n = 0; f = ""; inq = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (inq) {
			if (c == "\"") {
				if (substr(line, i + 1, 1) == "\"") { f = f "\""; i++ }
				else inq = 0
			} else f = f c
		} else if (c == "\"") inq = 1
		else if (c == ",") { out[++n] = f; f = "" }
		else f = f c
	}
	out[++n] = f
	return n
}

function source_of(path,    s)
{
	s = path
	if (s ~ /(^|\/)results\.csv$/) {
		sub(/\/?results\.csv$/, "", s)
		if (s == "") s = "."
	} else sub(/\.csv$/, "", s)
	sub(/.*\//, "", s)
	return s
}

BEGIN { ncols = 0; nrows = 0 }

FNR == 1 {
	sub(/\r$/, "")
	nh = parse_csv($0, hdr)
	skip = 1
	for (i = 1; i <= nh; i++)
		if (hdr[i] == "ops_per_sec") skip = 0
	if (hdr[1] == "source") skip = 1 # an all.csv this script wrote
	if (skip) {
		printf("plot: %s: not a results CSV (no ops_per_sec column), ignored\n",
		       FILENAME) > "/dev/stderr"
		next
	}
	inknobs = 0
	for (i = 1; i <= nh; i++) {
		if (hdr[i] == "ops_per_sec") inknobs = 0
		if (inknobs && !(hdr[i] in isknob)) { isknob[hdr[i]] = 1; knoblist[++nknobs] = hdr[i] }
		if (hdr[i] == "oversubscribed") inknobs = 1
		if (!(hdr[i] in colidx)) { colidx[hdr[i]] = ++ncols; colname[ncols] = hdr[i] }
	}
	src = source_of(FILENAME)
	next
}

skip || /^[ \t\r]*$/ { next }

{
	sub(/\r$/, "")
	nf = parse_csv($0, v)
	nrows++
	cell[nrows, 0] = src
	for (i = 1; i <= nf && i <= nh; i++) {
		gsub(/,/, ";", v[i])
		cell[nrows, colidx[hdr[i]]] = v[i]
	}
}

END {
	printf("source")
	for (c = 1; c <= ncols; c++) printf(",%s", colname[c])
	printf("\n")
	for (r = 1; r <= nrows; r++) {
		printf("%s", cell[r, 0])
		for (c = 1; c <= ncols; c++) printf(",%s", cell[r, c])
		printf("\n")
	}
	if (knobs != "") {
		printf("") > knobs
		for (i = 1; i <= nknobs; i++) print knoblist[i] > knobs
	}
}
