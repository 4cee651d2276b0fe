# reshape.awk - turn the merged results table into gnuplot data blocks.
#
#   awk -F, -f plots/reshape.awk -v x=workers -v y="ops_per_sec fairness_cv" \
#       -v series="lock" [-v where="workload=lock;source=locks"] \
#       [-v prefix="label "] [-v stylekey=NAME | -v keycol=COLUMN] all.csv
#
# Rows matching every `where` term (k=v, k!=v, k=* for "not empty") are
# grouped by the `series` columns and by x.  For each series one block is
# printed, headed by "# series<TAB>label<TAB>style-key", with one line per
# x value: x, then mean and sample standard deviation of every y column
# over the repetitions, then the number of rows averaged.  Blocks are
# separated by two blank lines (gnuplot's `index`).  The style key is the
# value of the last series column (or of `keycol`, or `stylekey`), which
# style.gp maps to a fixed colour
# and marker (a lock name, a variant value, a threshold).

function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }

function numeric(s) { return s ~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ }

# Insertion sort of a[1..n]; numerically when every entry is a number.
function sort_list(a, n,    i, j, t, num)
{
	num = 1
	for (i = 1; i <= n; i++) if (!numeric(a[i])) num = 0
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1; j--) {
			if (num ? (a[j] + 0 <= t + 0) : (a[j] <= t)) break
			a[j + 1] = a[j]
		}
		a[j + 1] = t
	}
}

BEGIN {
	FS = ","
	nw = split(where, wterm, ";")
	ny = split(y, ycol, " ")
	ns = split(series, scol, " ")
}

NR == 1 {
	for (i = 1; i <= NF; i++) col[$i] = i
	for (i = 1; i <= nw; i++) {
		t = trim(wterm[i])
		if (t == "") continue
		neg = index(t, "!=") > 0
		split(t, kv, neg ? "!=" : "=")
		if (!(kv[1] in col)) { missing = kv[1]; exit }
		wc[++nwc] = col[kv[1]]; wv[nwc] = kv[2]; wneg[nwc] = neg
	}
	if (!(x in col)) { missing = x; exit }
	for (i = 1; i <= ny; i++) if (!(ycol[i] in col)) { missing = ycol[i]; exit }
	for (i = 1; i <= ns; i++) if (!(scol[i] in col)) { missing = scol[i]; exit }
	next
}

{
	for (i = 1; i <= nwc; i++) {
		v = $(wc[i])
		hit = (wv[i] == "*") ? (v != "") : (v == wv[i])
		if (hit == wneg[i]) next
	}
	if ($(col[x]) == "" || $(col[ycol[1]]) == "") next
	label = prefix; key = ""
	for (i = 1; i <= ns; i++) {
		v = $(col[scol[i]])
		label = label (i > 1 ? " " : "") ((ns > 1 || prefix != "") && v != "" ? scol[i] "=" : "") v
		key = v
	}
	if (label == "") label = "all"
	if (keycol != "" && (keycol in col)) key = $(col[keycol])
	if (stylekey != "") key = stylekey
	if (!(label in seen)) { seen[label] = 1; slist[++nsl] = label; skey[label] = key }
	xv = $(col[x]) + 0
	if (!((label, xv) in cnt)) xlist[label, ++nx[label]] = xv
	cnt[label, xv]++
	for (i = 1; i <= ny; i++) {
		v = $(col[ycol[i]]) + 0
		sum[label, xv, i] += v
		sq[label, xv, i] += v * v
	}
}

END {
	if (missing != "") {
		printf("no column '%s'\n", missing) > "/dev/stderr"
		exit 3
	}
	sort_list(slist, nsl)
	for (s = 1; s <= nsl; s++) {
		label = slist[s]
		n = 0
		for (i = 1; i <= nx[label]; i++) xs[++n] = xlist[label, i]
		sort_list(xs, n)
		if (s > 1) printf("\n\n")
		printf("# series\t%s\t%s\n", label, skey[label])
		for (i = 1; i <= n; i++) {
			xv = xs[i]; c = cnt[label, xv]
			printf("%g", xv)
			for (j = 1; j <= ny; j++) {
				m = sum[label, xv, j] / c
				var = c > 1 ? (sq[label, xv, j] - c * m * m) / (c - 1) : 0
				printf(" %.6g %.6g", m, var > 0 ? sqrt(var) : 0)
			}
			printf(" %d\n", c)
		}
	}
}
