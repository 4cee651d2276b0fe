#!/bin/sh
# gen.sh - write paper/generated/*.tex from results, so that no number in
# the paper is typed by hand.
#
#   paper/gen.sh RESULTS FIGDIR
#
# FIGDIR is where plots/plot.sh already rendered the figures of RESULTS
# (PDF) together with data/ and figures.tsv.  Reads plots/published.csv,
# FIGDIR/data/ab_<seed>.tsv (measured and published changes, computed by
# plots/ab.awk), FIGDIR/data/predictions.csv and the JSON sidecars under
# RESULTS (machine and command for captions).  Missing data gives the text
# "not measured", never a failure.  GEN=DIR writes elsewhere (tests).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
[ $# -eq 2 ] || { echo "usage: paper/gen.sh RESULTS FIGDIR" >&2; exit 2; }
RESULTS=$1 FIG=$(cd "$2" 2>/dev/null && pwd) || { echo "gen: no figure directory '$2'" >&2; exit 2; }
GEN=${GEN:-$HERE/generated}
PUB=${PUBLISHED:-$ROOT/plots/published.csv}
mkdir -p "$GEN"
rm -f "$GEN"/*.tex "$GEN"/*.tsv

# tex-escape stdin
texesc() { sed -e 's/\\/\\textbackslash{}/g' -e 's/[_%&#$]/\\&/g' -e 's/[{}]/\\&/g' -e 's/~/\\textasciitilde{}/g' -e 's/\^/\\textasciicircum{}/g' -e 's/\\textbackslash\\{\\}/\\textbackslash{}/g' -e 's/--/-{}-/g'; }

# a command line for \texttt: escaped, breakable after each '/'
cmdesc() { texesc | sed 's|/|/\\allowbreak{}|g'; }

# json_field FILE KEY: first "KEY": value in FILE, quotes stripped.
json_field() {
	sed -n "s/.*\"$2\"[ ]*:[ ]*\"\{0,1\}\([^\",}]*\)\"\{0,1\}.*/\1/p" "$1" 2>/dev/null | head -1
}

# The sidecars describing a results source (a sweep directory or a CSV),
# most specific first: sweep.json has the command, results.json (the
# harness sidecar) the machine; a plain CSV has FILE.json.
sidecars_for() {
	for f in "$RESULTS/$1/sweep.json" "$RESULTS/$1/results.json" "$RESULTS/$1.json"; do
		[ -f "$f" ] && echo "$f"
	done
	if [ "$1" = "$(basename "$RESULTS")" ]; then
		for f in "$RESULTS/sweep.json" "$RESULTS/results.json"; do [ -f "$f" ] && echo "$f"; done
	fi
	if [ -f "$RESULTS" ]; then echo "${RESULTS%.csv}.json"; fi
}

# json_first KEY FILE...: the KEY of the first file that has it.
json_first() {
	k=$1; shift
	for f in "$@"; do
		v=$(json_field "$f" "$k")
		[ -n "$v" ] && { printf '%s' "$v"; return; }
	done
}

machine_of() { # sidecar files -> "CPU model, N CPUs (cores, NUMA nodes), kernel"
	m=$(json_first cpu_model "$@")
	[ -n "$m" ] || { echo "machine not recorded"; return; }
	printf '%s, %s CPUs (%s cores, %s NUMA node(s)), %s' "$m" "$(json_first pus "$@")" \
		"$(json_first cores "$@")" "$(json_first numa_nodes "$@")" "$(json_first kernel "$@")"
}

# --- macros: the machine and the data set ------------------------------
sidecars=$(find "$RESULTS" -name '*.json' ! -path '*/points/*' ! -path "$FIG/*" 2>/dev/null | sort)
first=$(for f in $sidecars; do grep -q '"cpu_model"' "$f" && { echo "$f"; break; }; done)
nrows=0
[ -f "$FIG/data/all.csv" ] && nrows=$(($(wc -l < "$FIG/data/all.csv") - 1))
[ "$nrows" -ge 0 ] || nrows=0
{
	printf '\\newcommand{\\MachineDesc}{%s}\n' "$( [ -n "$first" ] && machine_of "$first" | texesc || echo 'not measured')"
	printf '\\newcommand{\\ResultRows}{%d}\n' "$nrows"
	printf '\\newcommand{\\ResultsDir}{%s}\n' "$(printf '%s' "$RESULTS" | texesc)"
	printf '\\newcommand{\\BuildCommit}{%s}\n' "$( [ -n "$first" ] && json_field "$first" git_commit | texesc || echo 'not recorded')"
	printf '\\newcommand{\\BuildCompiler}{%s}\n' "$( [ -n "$first" ] && json_field "$first" compiler | texesc || echo 'not recorded')"
	if [ -n "$sidecars" ] && grep -q -i 'fixture' $sidecars; then
		printf '\\newcommand{\\DataWarning}{\\textbf{These results are the synthetic TEST FIXTURE, not measurements.}}\n'
	else
		printf '\\newcommand{\\DataWarning}{}\n'
	fi
} > "$GEN/macros.tex"

# figure NAME: a figure environment with a provenance caption, or a note.
figure() {
	line=$(awk -F'\t' -v n="$1" '$1 == n' "$FIG/figures.tsv" 2>/dev/null)
	if [ -z "$line" ] || [ ! -f "$FIG/$1.pdf" ]; then
		printf '\\paragraph{Figure %s:} not measured (no data for this figure).\n\n' "$(printf '%s' "$1" | texesc)"
		return
	fi
	title=$(printf '%s' "$line" | cut -f2) src=$(printf '%s' "$line" | cut -f3)
	[ "$(printf '%s' "$line" | cut -f4)" = "not measured" ] && title="$title (published values only; not measured here)"
	sc=$(sidecars_for "$src")
	cmd=$(json_first command $sc)
	printf '\\begin{figure}[H]\n\\centering\n\\includegraphics[width=0.7\\linewidth]{%s}\n' "$FIG/$1.pdf"
	printf '\\caption{%s. Machine: %s. Command: \\texttt{%s}.}\n' \
		"$(printf '%s' "$title" | texesc)" "$(machine_of $sc | texesc)" \
		"$(printf '%s' "${cmd:-not recorded}" | cmdesc)"
	printf '\\label{fig:%s}\n\\end{figure}\n\n' "$1"
}

# --- one section body per seed: table + figures ------------------------
for seed in $(awk -F, 'NR > 1 && !s[$1]++ { print $1 }' "$PUB"); do
	out=$GEN/seed_$seed.tex
	tsv=$FIG/data/ab_$seed.tsv
	if [ ! -f "$tsv" ]; then # no figures made: published values only
		tsv=$GEN/ab_$seed.tsv
		awk -f "$ROOT/plots/ab.awk" -v seed="$seed" -v tsv="$tsv" -v inc=/dev/null \
			"$PUB" /dev/null > /dev/null 2>&1
	fi
	awk -F'\t' -v seed="$seed" -v pred="$FIG/data/predictions.csv" '
	function tex(s) { gsub(/\\/, "\\textbackslash{}", s); gsub(/[_%&#$]/, "\\\\&", s); return s }
	function pct(v) { return sprintf("%+.1f\\,\\%%", v) }
	function si(v) { return v >= 1e9 ? sprintf("%.3g\\,G", v / 1e9) : v >= 1e6 ? sprintf("%.3g\\,M", v / 1e6) : v >= 1e3 ? sprintf("%.3g\\,k", v / 1e3) : sprintf("%.3g", v) }
	BEGIN {
		while ((getline l < pred) > 0) {
			split(l, f, ",")
			if (f[1] != seed || f[6] == "") continue
			k = f[2] SUBSEP f[3] SUBSEP f[4]
			if (!(k in pc) || f[5] + 0 > pc[k]) { pc[k] = f[5] + 0; pv[k] = f[6] }
		}
	}
	$1 == "measured" {
		n++; w[n] = $2; b[n] = $3; p[n] = $4
		if ($10 == "NA") m[n] = "not measured"
		else m[n] = sprintf("%s at %d worker%s\\newline %s $\\rightarrow$ %s ops/s (%d+%d runs)",
				    pct($10), $5, $5 == 1 ? "" : "s", si($6), si($7), $8, $9)
	}
	$1 == "published" {
		k = $2 SUBSEP $3 SUBSEP $4
		pub[k] = pub[k] (npub[k]++ ? "\\newline " : "") ($9 == "" ? "n/a" : pct($9)) " (" tex($5) ")"
	}
	END {
		print "\\begin{table}[H]\\centering\\small"
		printf("\\caption{%s: published change, measured here, extrapolated (patch vs base, throughput).}\n", tex(seed))
		printf("\\label{tab:%s}\n", seed)
		print "\\begin{tabular}{@{}>{\\raggedright}p{0.12\\linewidth}>{\\raggedright}p{0.14\\linewidth}>{\\raggedright}p{0.28\\linewidth}>{\\raggedright}p{0.22\\linewidth}>{\\raggedright\\arraybackslash}p{0.1\\linewidth}@{}}"
		print "\\toprule"
		print "Workload & Variant & Published & Measured here & Extrapolated \\\\"
		print "\\midrule"
		for (i = 1; i <= n; i++) {
			k = w[i] SUBSEP b[i] SUBSEP p[i]
			if (!(k in npub) && !(k in pv) && m[i] == "not measured") continue
			printf("%s & %s vs %s & %s & %s & %s \\\\\n", tex(w[i]), tex(p[i]), tex(b[i]),
			       (k in pub) ? pub[k] : "not published", m[i],
			       (k in pv) ? pct(pv[k]) sprintf(" at %d CPUs", pc[k]) : "not available")
		}
		if (n == 0) print "\\multicolumn{5}{c}{not measured} \\\\"
		print "\\bottomrule\n\\end{tabular}\n\\end{table}\n"
	}' "$tsv" 2>/dev/null > "$out" || true
	[ -s "$out" ] || printf 'Seed %s: not measured.\n\n' "$(printf '%s' "$seed" | texesc)" > "$out"
	{
		figure "ab_$seed"
		figure "extrapolation_$seed"
		for f in $(awk -F'\t' -v s="$seed" '$3 == s && $1 ~ /^throughput_/ { print $1 }' "$FIG/figures.tsv" 2>/dev/null | head -2); do
			figure "$f"
		done
		c=$(awk -F'\t' -v s="$seed" '$3 == s && $1 ~ /^contention_/ { print $1; exit }' "$FIG/figures.tsv" 2>/dev/null)
		[ -n "$c" ] && figure "$c"
	} >> "$out"
done

# --- lock and counter studies --------------------------------------------
{
	l=$(awk -F'\t' '$1 ~ /^locks_/ { print $1 }' "$FIG/figures.tsv" 2>/dev/null)
	if [ -z "$l" ]; then echo 'Lock study: not measured.'; echo; fi
	for f in $l; do figure "$f"; done
} > "$GEN/locks.tex"
{
	c=$(awk -F'\t' '$1 ~ /^counter_tradeoff_/ { print $1 }' "$FIG/figures.tsv" 2>/dev/null)
	if [ -z "$c" ]; then echo 'Counter study: not measured.'; echo; fi
	for f in $c; do figure "$f"; done
} > "$GEN/counters.tex"

# --- model vs kernel: the same workloads in both backends ----------------
# From RESULTS/kernel_vs_model/results.csv (experiments/kernel_vs_model.ini):
# per workload and backend, mean ops/s at 1 and at the most workers, the
# scaling between them, ns per operation at 1 worker and charges per op.
kvm=$RESULTS/kernel_vs_model/results.csv
{
	if [ -f "$kvm" ]; then
		awk -F, '
		function tex(s) { gsub(/\\/, "\\textbackslash{}", s); gsub(/[_%&#$]/, "\\\\&", s); return s }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			w = $c["workload"]; n = $c["workers"] + 0
			k = w SUBSEP n
			sum[k] += $c["ops_per_sec"]; cnt[k]++
			if ("charges_per_op" in c && $c["charges_per_op"] != "") { ch[w] += $c["charges_per_op"]; chn[w]++ }
			if (!(w in seen)) { seen[w] = 1; order[++nw] = w }
			if (n > maxw[w]) maxw[w] = n
		}
		END {
			print "\\begin{table}[H]\\centering\\small"
			print "\\caption{The same workloads in the userspace model and as real syscalls in real memory cgroups (kernel backend), on this machine: mean ops/s over the repetitions.}"
			print "\\label{tab:kernel_vs_model}"
			print "\\begin{tabular}{@{}llrrrrr@{}}\\toprule"
			print "Backend & Workload & ops/s, 1 worker & ops/s, $N$ workers & $N$ & scaling & ns/op, 1 worker \\\\ \\midrule"
			for (i = 1; i <= nw; i++) {
				w = order[i]; b = (w ~ /^kernel:/) ? "kernel" : "model"; name = w; sub(/^kernel:/, "", name)
				k1 = w SUBSEP 1; kn = w SUBSEP maxw[w]
				if (!(k1 in cnt)) continue
				o1 = sum[k1] / cnt[k1]; on = sum[kn] / cnt[kn]
				printf("%s & %s & %.3g & %.3g & %d & %.2f$\\times$ & %.1f \\\\\n", b, tex(name), o1, on, maxw[w], on / o1, 1e9 / o1)
			}
			print "\\bottomrule\\end{tabular}\\end{table}"
			for (i = 1; i <= nw; i++) {
				w = order[i]
				if (chn[w]) printf("%s charged %.3f pages per operation.\n", tex(w), ch[w] / chn[w])
			}
			print ""
		}' "$kvm"
		for f in $(awk -F'\t' '$3 == "kernel_vs_model" && $1 ~ /^throughput_/ { print $1 }' "$FIG/figures.tsv" 2>/dev/null | head -2); do
			figure "$f"
		done
	else
		echo 'Model vs kernel: not measured (run \texttt{memscale sweep experiments/kernel\_vs\_model.ini}; needs root and a memory cgroup controller).'
		echo
	fi
} > "$GEN/kernel_vs_model.tex"

# --- provenance: every results source and the command that wrote it ----
{
	printf '%s\n' '\begin{itemize}'
	n=0
	for src in $(awk -F'\t' '!s[$3]++ { print $3 }' "$FIG/figures.tsv" 2>/dev/null); do
		sc=$(sidecars_for "$src")
		[ -n "$sc" ] || continue
		n=$((n + 1))
		c=$(json_first command $sc)
		printf '\\item \\texttt{%s}: %s; %s.\n' "$(printf '%s' "$src" | texesc)" \
			"$( [ -n "$c" ] && printf '\\texttt{%s}' "$(printf '%s' "$c" | cmdesc)" || echo 'command not recorded')" \
			"$(machine_of $sc | texesc)"
	done
	[ "$n" -gt 0 ] || printf '%s\n' '\item not measured (no results with JSON sidecars)'
	printf '%s\n' '\end{itemize}'
} > "$GEN/provenance.tex"
echo "gen: wrote $(ls "$GEN" | wc -l) files in $GEN" >&2
