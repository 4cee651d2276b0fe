#!/bin/sh
# gen.sh - write paper/generated/*.tex from results, so that no number in
# the paper is typed by hand.
#
#   paper/gen.sh RESULTS FIGDIR
#
# FIGDIR is where plots/plot.sh already rendered the figures of RESULTS
# (PDF) together with data/ and figures.tsv.  Reads the published numbers
# (FIGDIR/data/published.csv, which plot.sh wrote with `memscale published`
# from the experiment files), FIGDIR/data/ab_<seed>.tsv (measured changes as `memscale compare`
# computes them, beside the published ones, in plots/ab.awk's table), FIGDIR/data/predictions.csv and the JSON sidecars under
# RESULTS (machine and command for captions, read with jq).  Missing data
# gives the text "not measured", never a failure.  GEN=DIR writes
# elsewhere (tests).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
[ $# -eq 2 ] || { echo "usage: paper/gen.sh RESULTS FIGDIR" >&2; exit 2; }
RESULTS=$1 FIG=$(cd "$2" 2>/dev/null && pwd) || { echo "gen: no figure directory '$2'" >&2; exit 2; }
GEN=${GEN:-$HERE/generated}
MEMSCALE=${MEMSCALE:-$ROOT/bin/memscale}
command -v jq >/dev/null || { echo "gen: jq not installed (make deps)" >&2; exit 2; }
mkdir -p "$GEN"
rm -f "$GEN"/*.tex "$GEN"/*.tsv "$GEN"/*.csv
PUB=${PUBLISHED:-$FIG/data/published.csv}
if [ ! -s "$PUB" ]; then
	PUB=$GEN/published.csv
	RABS=; [ -d "$RESULTS" ] && RABS=$(cd "$RESULTS" && pwd)
	(cd "$ROOT" && if [ -n "$RABS" ]; then "$MEMSCALE" published --runs "$RABS"
	 else "$MEMSCALE" published; fi) > "$PUB" 2>/dev/null ||
		echo "seed,knob,workload,base_variant,patch_variant,machine,cpus,base,patch,change_pct,source" > "$PUB"
fi

ledger_csvs=$( { [ -s "$RESULTS/ledger.csv" ] && echo "$RESULTS/ledger.csv"
	for f in "$RESULTS"/ledger-*.csv; do [ -s "$f" ] && echo "$f"; done; } 2>/dev/null)
primary=
if [ -n "${LEDGER:-}" ] && [ -s "$RESULTS/ledger-$LEDGER.csv" ]; then primary=$RESULTS/ledger-$LEDGER.csv
elif [ -s "$RESULTS/ledger.csv" ]; then primary=$RESULTS/ledger.csv
elif [ -s "$RESULTS/ledger-shared.csv" ]; then primary=$RESULTS/ledger-shared.csv
else primary=$(printf '%s\n' "$ledger_csvs" | head -1); fi
# The seeds' Extrapolated column: the predictions.csv files under RESULTS
# (plots/predict2csv.awk's seed,workload,base,patch,cpus,change_pct), else
# the primary ledger's rows in those columns (the same question:
# `model validate` predicts each published row for the machine it ran on).
PRED=$FIG/data/predictions.csv
npred=$(grep -c . "$PRED" 2>/dev/null); if [ "${npred:-0}" -lt 2 ] && [ -n "$primary" ]; then
	PRED=$GEN/predictions.csv
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "seed,workload,base_variant,patch_variant,cpus,change_pct"; next }
		$c["predicted_pct"] != "" && $c["predicted_pct"] != "nan" {
		print $c["seed"] "," $c["workload"] "," $c["base"] "," $c["patch"] "," $c["cpus"] "," $c["predicted_pct"] }' "$primary" > "$PRED"
fi

# shortpath PATH: a path as a reader can use it: relative to the
# repository when under it, else its last component (no machine paths in
# the paper: /tmp/... or a home directory says nothing to a reader).
shortpath() { case $1 in "$ROOT"/*) printf '%s' "${1#"$ROOT"/}" ;; /*) printf '%s' "${1##*/}" ;; *) printf '%s' "$1" ;; esac; }
# nopaths: a command line with every absolute path cut to its last
# component (the --out of a sweep run into a scratch directory)
nopaths() { sed -e 's#\(^\| \)/[^ ]*/\([^ /]\)#\1\2#g'; }
RSHOW=$(shortpath "$RESULTS")
# the figures as the .tex beside GEN/.. finds them (relative: no machine
# path in the generated files)
FIGREL=$(realpath --relative-to="$(dirname "$GEN")" "$FIG" 2>/dev/null) || FIGREL=$FIG

# tex-escape stdin, line by line: memscale's own TeX escaper (core/escape.c)
texesc() { "$MEMSCALE" escape tex; }
# the same escaper for the awk programs below (put in front of each)
TEXAWK=$(cat "$HERE/tex.awk")

# a command line for \texttt: escaped, breakable after each '/'
cmdesc() { texesc | sed -e 's|[/,=]|&\\allowbreak{}|g' -e 's|\\_|\\_\\allowbreak{}|g'; }

# json_field FILE KEY: the value of the first KEY in FILE (at any depth),
# whole: a command line keeps its commas and quotes.
json_field() {
	jq -r --arg k "$2" 'first(.. | objects | select(has($k)) | .[$k]) // empty
		| if type == "string" then . else tojson end' "$1" 2>/dev/null | head -1
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

# machine_first KEY FILE...: KEY of the machine description (the object
# holding cpu_model) of the first file that has one: a sweep's knobs have
# a "kernel" too (a kernel profile), the machine's is the running kernel.
machine_first() {
	k=$1; shift
	for f in "$@"; do
		v=$(jq -r --arg k "$k" 'first(.. | objects | select(has("cpu_model")) | .[$k]) // empty
			| if type == "string" then . else tojson end' "$f" 2>/dev/null | head -1)
		[ -n "$v" ] && { printf '%s' "$v"; return; }
	done
}

machine_of() { # sidecar files -> "CPU model, N CPUs (cores, NUMA nodes), kernel"
	m=$(machine_first cpu_model "$@")
	[ -n "$m" ] || { echo "machine not recorded"; return; }
	printf '%s, %s CPUs (%s cores, %s NUMA node(s)), %s' "$m" "$(machine_first pus "$@")" \
		"$(machine_first cores "$@")" "$(machine_first numa_nodes "$@")" "$(machine_first kernel "$@")"
}

# --- macros: the machine and the data set ------------------------------
sidecars=$(find "$RESULTS" -name '*.json' ! -path '*/points/*' ! -path "$FIG/*" 2>/dev/null | sort)
first=$(for f in $sidecars; do grep -q '"cpu_model"' "$f" && { echo "$f"; break; }; done)
MACH=; [ -n "$first" ] && MACH=$(machine_of "$first")
nrows=0
[ -f "$FIG/data/all.csv" ] && nrows=$(($(wc -l < "$FIG/data/all.csv") - 1))
[ "$nrows" -ge 0 ] || nrows=0
{
	printf '\\newcommand{\\MachineDesc}{%s}\n' "$( [ -n "$first" ] && machine_of "$first" | texesc || echo 'not measured')"
	printf '\\newcommand{\\ResultRows}{%d}\n' "$nrows"
	printf '\\newcommand{\\ResultsDir}{%s}\n' "$(printf '%s' "$RSHOW" | texesc)"
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
	# no data, no figure: the tables say what was not measured
	if [ -z "$line" ] || [ ! -f "$FIG/$1.pdf" ]; then return; fi
	title=$(printf '%s' "$line" | cut -f2) src=$(printf '%s' "$line" | cut -f3)
	[ "$(printf '%s' "$line" | cut -f4)" = "not measured" ] && title="$title (published values only; not measured here)"
	sc=$(sidecars_for "$src")
	cmd=$(json_first command $sc)
	# two-panel figures with a legend below get the full width
	w=0.55; case $1 in ab_*|locks_*|contention_*|counter_*) w=0.75 ;; esac
	printf '\\begin{figure}[tbp]\n\\centering\n\\includegraphics[width=%s\\linewidth]{%s}\n' "$w" "$FIGREL/$1.pdf"
	case $1 in throughput_*|locks_*|contention_*|counter_*) title="$title; points: mean over the runs, bars: +/-1 sample sd" ;; esac
	note=; [ -f "$RESULTS/$src/NOTE.md" ] && note=" Data caveats: \\texttt{$(printf '%s' "$RSHOW/$src/NOTE.md" | cmdesc)}."
	# the machine is said once (Method); a caption names it only when
	# its data come from another one
	mach=$(machine_of $sc); [ "$mach" = "$MACH" ] && mach= || mach=" Machine: $mach."
	printf '\\caption{%s.%s Command: \\texttt{%s}.%s}\n' \
		"$(printf '%s' "$title" | texesc)" "$(printf '%s' "$mach" | texesc)" \
		"$(printf '%s' "${cmd:-not recorded}" | nopaths | cmdesc)" "$note"
	printf '\\label{fig:%s}\n\\end{figure}\n\n' "$1"
}

# calibration behind the predictions of a seed, from RESULTS/SEED/predict.txt
calib_of() {
	sed -n 's/^# calibration: //p' "$RESULTS/$1/predict.txt" 2>/dev/null | head -1
}

# --- one section body per seed: table + figures ------------------------
for seed in $(awk -F, 'NR > 1 && !s[$1]++ { print $1 }' "$PUB"); do
	out=$GEN/seed_$seed.tex
	tsv=$FIG/data/ab_$seed.tsv
	if [ ! -f "$tsv" ]; then # no figures made: compare's rows, read by ab.awk
		tsv=$GEN/ab_$seed.tsv
		: > "$GEN/ab_${seed}_compare.csv"
		[ -f "$RESULTS/$seed/experiment.ini" ] && [ -f "$RESULTS/$seed/results.csv" ] &&
			{ "$MEMSCALE" compare --experiment "$RESULTS/$seed" -f csv > "$GEN/ab_${seed}_compare.csv" 2>/dev/null ||
			  : > "$GEN/ab_${seed}_compare.csv"; }
		awk -f "$ROOT/plots/strings.awk" -f "$ROOT/plots/ab.awk" -v seed="$seed" -v tsv="$tsv" \
			-v inc=/dev/null -v gp_str=/dev/null "$PUB" "$GEN/ab_${seed}_compare.csv" > /dev/null 2>&1
	fi
	# ab.awk's table carries compare's p, interval and verdict (core/ab.c)
	cp "$tsv" "$GEN/ab_${seed}_p.tsv" 2>/dev/null || : > "$GEN/ab_${seed}_p.tsv"
	cal=$(calib_of "$seed" | texesc)
	if [ -z "$cal" ] && [ "$PRED" = "$GEN/predictions.csv" ]; then
		cn=$(basename "$primary" .csv); cn=${cn#ledger}; cn=${cn#-}
		cal=$(printf '%s' "the ledger $(basename "$primary")${cn:+, with calib-$cn.txt}" | texesc)
	fi
	awk -F'\t' -v seed="$seed" -v pred="$PRED" -v cal="$(printf '%s' "$cal" | "$MEMSCALE" escape awk)" "$TEXAWK"'
	# a name that may break after each underscore (narrow columns)
	function brk(s) { s = tex(s); gsub(/\\_/, "\\_\\allowbreak{}", s); return s }
	function pct(v) { return sprintf("%+.1f\\,\\%%", v) }
	# a published change, or a published range LO..HI (memscale published)
	function pubpct(v,  r) { if (!index(v, "..")) return pct(v)
		split(v, r, /\.\./); return sprintf("%+.1f..%+.1f\\,\\%%", r[1], r[2]) }
	function si(v) { return v >= 1e9 ? sprintf("%.3g\\,G", v / 1e9) : v >= 1e6 ? sprintf("%.3g\\,M", v / 1e6) : v >= 1e3 ? sprintf("%.3g\\,k", v / 1e3) : sprintf("%.3g", v) }
	function pval(p) { return p == "NA" || p == "" ? "" : p + 0 < 0.001 ? ", $p<0.001$" : sprintf(", $p=%.2g$%s", p, p + 0 < 0.05 ? "" : " (n.s.)") }
	BEGIN {
		while ((getline l < pred) > 0) {
			split(l, f, ",")
			if (f[1] != seed || f[6] == "") continue
			k = f[2] SUBSEP f[3] SUBSEP f[4]
			if (!(k in pc) || f[5] + 0 > pc[k]) { pc[k] = f[5] + 0; pv[k] = f[6] }
		}
	}
	$1 == "measured" {
		n++; w[n] = $2; b[n] = $3; p[n] = $4; ax[n] = $13
		if ($10 == "NA") m[n] = "not measured"
		else {
			# the change compare gave (field 18, plots/ab.awk), where it gave one
			if ($18 != "NA" && $18 != "") $10 = $18
			iv = ($15 != "NA" && $15 != "" && $16 != "NA" && $16 != "") ? sprintf("%+.1f..%+.1f\\,\\%%", $15, $16) : ""
			# a change whose interval spans zero has no signed headline
			# (no sign at all: "n.s." and the interval, or that there is
			# none when compare found the base mean indistinguishable from 0)
			head = $17 == "yes" ? pct($10) (iv != "" ? " [" iv "]" : "") : \
				"n.s., interval " (iv != "" ? "[" iv "]" : "unbounded")
			m[n] = sprintf("%s at %d worker%s\\newline %s $\\rightarrow$ %s ops/s (%d+%d runs%s)",
				       head, $5, $5 == 1 ? "" : "s", si($6), si($7), $8, $9, pval($14))
		}
	}
	$1 == "published" {
		k = $2 SUBSEP $3 SUBSEP $4
		pub[k] = pub[k] (npub[k]++ ? "\\newline " : "") ($9 == "" ? "n/a" : pubpct($9)) " (" tex($5) ")"
	}
	END {
		print "\\begin{table}[tbp]\\centering\\small\\setlength{\\tabcolsep}{4pt}"
		printf("\\caption{%s: published change, measured here (mean over runs at the largest worker count run for both; $p$: Welch'"'"'s t-test over the runs), extrapolated by the model (patch vs base, throughput)%s.}\n",
		       tex(seed), cal != "" ? ". Model calibration: " cal : "")
		printf("\\label{tab:%s}\n", seed)
		print "\\begin{tabular}{@{}>{\\raggedright}p{0.13\\linewidth}>{\\raggedright}p{0.15\\linewidth}>{\\raggedright}p{0.25\\linewidth}>{\\raggedright}p{0.25\\linewidth}>{\\raggedright\\arraybackslash}p{0.14\\linewidth}@{}}"
		print "\\toprule"
		print "Workload & Variant & Published & Measured here & Extrapolated \\\\"
		print "\\midrule"
		for (i = 1; i <= n; i++) {
			k = w[i] SUBSEP b[i] SUBSEP p[i]
			if (!(k in npub) && !(k in pv) && m[i] == "not measured") continue
			printf("%s & %s vs %s%s & %s & %s & %s \\\\\n", brk(w[i]), brk(p[i]), brk(b[i]), ax[i] != "" ? ", " brk(ax[i]) : "",
			       (k in pub) ? pub[k] : "not published", m[i],
			       (k in pv) ? pct(pv[k]) sprintf(" at %d CPUs", pc[k]) : "no prediction")
		}
		if (n == 0) print "\\multicolumn{5}{c}{not measured} \\\\"
		print "\\bottomrule\n\\end{tabular}\n\\end{table}\n"
	}' "$GEN/ab_${seed}_p.tsv" 2>/dev/null > "$out" || true
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

# --- the seed sections, in `memscale list experiments` order ------------
# Heading and paragraph are the experiment's title and about (plain text,
# escaped here; `code` in typewriter); a seed with no table yet says so.
(cd "$ROOT" && "$MEMSCALE" list experiments --long) 2>/dev/null |
while IFS='	' read -r seed rows title about; do
	# the name goes into a file name and an \input: a plain name only
	case $seed in *[!a-z0-9_]*|'') echo "gen.sh: experiment name '$seed' skipped (want [a-z0-9_])" >&2; continue ;; esac
	[ -s "$GEN/seed_$seed.tex" ] ||
		printf 'Seed %s: not measured.\n\n' "$(printf '%s' "$seed" | texesc)" > "$GEN/seed_$seed.tex"
	printf '\\subsection{%s}\n%s\n\\input{generated/seed_%s.tex}\n\n' \
		"$(printf '%s' "$title" | texesc | sed 's/`\([^`]*\)`/\\texttt{\1}/g')" \
		"$(printf '%s' "$about" | texesc | sed 's/`\([^`]*\)`/\\texttt{\1}/g')" "$seed"
done > "$GEN/seeds.tex"
[ -s "$GEN/seeds.tex" ] || echo 'Seed experiments: none listed (memscale list experiments).' > "$GEN/seeds.tex"

# --- lock and counter studies --------------------------------------------
{
	l=$(awk -F'\t' '$1 ~ /^locks_/ { print $1 }' "$FIG/figures.tsv" 2>/dev/null)
	if [ -z "$l" ]; then echo 'Lock study: not measured.'; echo; fi
	for f in $l; do figure "$f"; done
} > "$GEN/locks.tex"
{
	c=$(awk -F'\t' '$1 ~ /^counter_tradeoff_/ { print $1 }' "$FIG/figures.tsv" 2>/dev/null)
	cr=$RESULTS/counters/results.csv
	if [ -z "$c" ] && [ ! -s "$cr" ]; then echo 'Counter study: not measured.'; echo; fi
	# per counter and threshold at the most workers: mean add throughput,
	# the largest read error any run observed and the scheme's bound
	if [ -s "$cr" ]; then
		awk -F, "$TEXAWK"'
		function si(v) { return v >= 1e9 ? sprintf("%.3g\\,G", v / 1e9) : v >= 1e6 ? sprintf("%.3g\\,M", v / 1e6) : v >= 1e3 ? sprintf("%.3g\\,k", v / 1e3) : sprintf("%.3g", v) }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["workload"] == "counter" { n++; w[n] = $c["workers"] + 0; if (w[n] > mw) mw = w[n]; row[n] = $0
			if ("pattern" in c && !pseen[$c["pattern"]]++) pat = pat (pat == "" ? "" : ", ") $c["pattern"] }
		END {
			for (i = 1; i <= n; i++) {
				if (w[i] != mw) continue
				split(row[i], f, ","); k = f[c["counter"]] SUBSEP f[c["threshold"]]
				if (!(k in cnt)) { order[++nk] = k }
				cnt[k]++; ops[k] += f[c["ops_per_sec"]]
				e = f[c["max_error_observed"]] + 0; if (!(k in err) || e > err[k]) err[k] = e
				bound[k] = f[c["error_bound"]]
			}
			if (!nk) exit
			# one row per counter, one column pair per threshold
			for (i = 1; i <= nk; i++) { split(order[i], kk, SUBSEP)
				if (!(kk[1] in cs)) { cs[kk[1]] = 1; cn[++ncn] = kk[1] }
				if (!(kk[2] in ts)) { ts[kk[2]] = 1; tn[++ntn] = kk[2] } }
			# thresholds in numeric order
			for (i = 2; i <= ntn; i++) for (j = i; j > 1 && tn[j - 1] + 0 > tn[j] + 0; j--) { t = tn[j]; tn[j] = tn[j - 1]; tn[j - 1] = t }
			print "\\begin{table}[tbp]\\centering\\small"
			printf("\\caption{Counter schemes at %d workers%s, per fold threshold: mean add throughput over the runs, and the largest read error a concurrent reader observed in any run / the scheme'"'"'s bound ($-1$: none; exact schemes have no approximate read).}\n", mw, pat != "" ? ", update pattern " tex(pat) : "")
			print "\\label{tab:counters}"
			printf("\\begin{tabular}{@{}l")
			for (j = 1; j <= ntn; j++) printf("rr")
			print "@{}}\\toprule"
			printf("Counter")
			for (j = 1; j <= ntn; j++) printf(" & \\multicolumn{2}{c}{threshold %s}", texnum(tn[j]))
			print " \\\\"
			printf("")
			for (j = 1; j <= ntn; j++) printf(" & adds/s & error/bound")
			print " \\\\ \\midrule"
			for (i = 1; i <= ncn; i++) {
				printf("%s", tex(cn[i]))
				for (j = 1; j <= ntn; j++) { k = cn[i] SUBSEP tn[j]
					if (k in cnt) printf(" & %s & %d/%s", si(ops[k] / cnt[k]), err[k], texnum(bound[k]))
					else printf(" & -- & --") }
				print " \\\\"
			}
			print "\\bottomrule\\end{tabular}\\end{table}"
			print ""
		}' "$cr"
	fi
	for f in $c; do figure "$f"; done
} > "$GEN/counters.tex"

# --- model vs kernel: the same workloads in both backends ----------------
# From RESULTS/kernel_vs_model/results.csv (experiments/kernel_vs_model.ini):
# per workload and backend, mean ops/s at 1 and at the most workers, the
# scaling between them, ns per operation at 1 worker and charges per op.
kvm=$RESULTS/kernel_vs_model/results.csv
{
	if [ -f "$kvm" ]; then
		awk -F, "$TEXAWK"'
		function si(v) { return v >= 1e9 ? sprintf("%.3g\\,G", v / 1e9) : v >= 1e6 ? sprintf("%.3g\\,M", v / 1e6) : v >= 1e3 ? sprintf("%.3g\\,k", v / 1e3) : sprintf("%.3g", v) }
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
			print "\\begin{table}[tbp]\\centering\\small"
			print "\\caption{The same workloads in the userspace model and as real syscalls in real memory cgroups (kernel backend), on this machine: mean ops/s over the repetitions.}"
			print "\\label{tab:kernel_vs_model}"
			print "\\begin{tabular}{@{}llrrrrr@{}}\\toprule"
			print "Backend & Workload & ops/s, 1 worker & ops/s, $N$ workers & $N$ & scaling & ns/op, 1 worker \\\\ \\midrule"
			# both backends per workload, model first; a backend with no
			# rows says so in its row
			for (i = 1; i <= nw; i++) { name = order[i]; sub(/^kernel:/, "", name); if (!(name in wseen)) { wseen[name] = 1; names[++nn] = name } }
			for (j = 1; j <= nn; j++) for (bi = 0; bi < 2; bi++) {
				b = bi ? "kernel" : "model"; w = bi ? "kernel:" names[j] : names[j]
				k1 = w SUBSEP 1; kn = w SUBSEP maxw[w]
				if (!(w in seen)) {
					printf("%s & %s & \\multicolumn{5}{l}{not measured: these results have no \\texttt{%s} rows} \\\\\n", b, tex(names[j]), tex(w))
					continue
				}
				if (!(k1 in cnt)) { printf("%s & %s & \\multicolumn{5}{l}{not measured at 1 worker} \\\\\n", b, tex(names[j])); continue }
				o1 = sum[k1] / cnt[k1]; on = sum[kn] / cnt[kn]
				printf("%s & %s & %s & %s & %d & %.2f$\\times$ & %.1f \\\\\n", b, tex(names[j]), si(o1), si(on), maxw[w], on / o1, 1e9 / o1)
				# the direction of the scaling as printed (two decimals)
				dir[j, bi] = sprintf("%.2f", on / o1) + 0 > 1 ? 1 : sprintf("%.2f", on / o1) + 0 < 1 ? -1 : 0
			}
			print "\\bottomrule\\end{tabular}\\end{table}"
			# workloads whose two backends scale in opposite directions,
			# for the text: counted from the ratios the table prints
			for (j = 1; j <= nn; j++) if (((j, 0) in dir) && ((j, 1) in dir)) { both++; if (dir[j, 0] * dir[j, 1] < 0) opp++ }
			printf("\\newcommand{\\KvmOpposite}{%d}\\newcommand{\\KvmBoth}{%d}\n", opp, both)
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
		printf '%s\n' '\newcommand{\KvmOpposite}{0}\newcommand{\KvmBoth}{0}'
	fi
} > "$GEN/kernel_vs_model.tex"

# --- provenance: every results source and the command that wrote it ----
{
	printf '%s\n' '{\raggedright\begin{itemize}'
	n=0
	for src in $(awk -F'\t' '!s[$3]++ { print $3 }' "$FIG/figures.tsv" 2>/dev/null); do
		sc=$(sidecars_for "$src")
		[ -n "$sc" ] || continue
		n=$((n + 1))
		c=$(json_first command $sc)
		printf '\\item \\texttt{%s}: %s; %s.\n' "$(printf '%s' "$src" | texesc)" \
			"$( [ -n "$c" ] && printf '\\texttt{%s}' "$(printf '%s' "$c" | nopaths | cmdesc)" || echo 'command not recorded')" \
			"$(machine_of $sc | texesc)"
	done
	[ "$n" -gt 0 ] || printf '%s\n' '\item not measured (no results with JSON sidecars)'
	printf '%s\n' '\end{itemize}\par}'
} > "$GEN/provenance.tex"
echo "gen: wrote $(ls "$GEN" | wc -l) files in $GEN" >&2

# --- the load the data were measured under --------------------------------
# Each sweep's sidecar records the 1-minute load average at its start and
# the machine's CPU count: the range, said beside the threats.
{
	lo=; hi=; n=0; pus=
	for f in $sidecars; do
		l=$(jq -r 'first(.. | objects | select(has("loadavg")) | .loadavg[0]) // empty' "$f" 2>/dev/null)
		# a number or nothing: it goes into LaTeX as it is
		case $l in ''|*[!0-9.]*|*.*.*|.*) continue ;; esac
		n=$((n + 1))
		lo=$(awk -v a="${lo:-$l}" -v b="$l" 'BEGIN { print (b < a ? b : a) }')
		hi=$(awk -v a="${hi:-$l}" -v b="$l" 'BEGIN { print (b > a ? b : a) }')
		[ -n "$pus" ] || pus=$(machine_first pus "$f")
		case $pus in *[!0-9]*) pus= ;; esac
	done
	if [ "$n" -gt 0 ]; then
		printf '\\newcommand{\\LoadNote}{The sidecars of these results record a load average of %s to %s at the start of their runs on %s CPUs%s.}\n' \
			"$lo" "$hi" "${pus:-?}" "$(awk -v h="$hi" -v c="${pus:-0}" 'BEGIN { if (c > 0 && h > c / 2) printf(": the machine was busy with other work, which widens every interval here") }')"
	else
		printf '\\newcommand{\\LoadNote}{}\n'
	fi
} >> "$GEN/macros.tex"

# --- which data, which code ---------------------------------------------
# The commit the results were measured at (sidecars) against the code this
# paper was generated by: a reader sees when the data are older.
now=$(cd "$ROOT" && git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# data_vs_code COMMIT...: what the data's commits are to this one: the
# same, the same code (C sources, Makefile, experiment files unchanged
# since: a later commit touched only the paper, docs, tests or data), or
# older code
data_vs_code() {
	same=1
	for c in "$@"; do
		case $now in "${c%-dirty}"*) continue ;; esac
		case $c in *-dirty) ;; *) (cd "$ROOT" && git cat-file -e "$c^{commit}" 2>/dev/null &&
			git diff --quiet "$c" HEAD -- '*.c' '*.h' Makefile experiments 2>/dev/null) && { same=2; continue; } ;; esac
		# which code differs, named (up to three files) so a reader can
		# judge whether it touches what was measured
		d=$( (cd "$ROOT" && git cat-file -e "$c^{commit}" 2>/dev/null &&
			git diff --name-only "${c%-dirty}" HEAD -- '*.c' '*.h' Makefile experiments 2>/dev/null) )
		nd=$(printf '%s' "$d" | grep -c .)
		printf '%s' '; the data are older than the code, so tables reflect the models as they were then'
		[ "$nd" -gt 0 ] && printf ' (%s file(s) of code differ since %s: %s%s)' "$nd" "$(printf '%s' "${c%-dirty}" | texesc)" \
			"$(printf '%s\n' "$d" | head -3 | paste -sd ' ' - | sed 's/ /, /g' | texesc | sed 's/^/\\texttt{/; s/, /}, \\texttt{/g; s/$/}/')" \
			"$([ "$nd" -gt 3 ] && printf ', ...')"
		return
	done
	[ "$same" = 2 ] && printf '%s' '; the C sources, Makefile and experiment files of the data'"'"'s commit(s) are those of this one'
}
{
	# every commit the sidecars name (a results directory may hold sweeps
	# run at several)
	dc=$(for f in $sidecars; do json_field "$f" git_commit; done | sort -u | paste -sd ' ' -)
	dc=$(printf '%s' "$dc" | sed 's/ /, /g')
	case $RESULTS in *history/*) hist=" (historical reference data, kept under \\texttt{results-reference/history/})" ;; *) hist= ;; esac
	printf '\\newcommand{\\DataSet}{The reference data of this paper are \\texttt{%s}%s, measured with the code at commit(s) \\texttt{%s}; this paper was generated by the code at commit \\texttt{%s}%s.}\n' \
		"$(printf '%s' "$RSHOW" | cmdesc)" "$hist" "$(printf '%s' "${dc:-not recorded}" | texesc)" \
		"$(printf '%s' "$now" | texesc)" \
		"$( [ -n "$dc" ] && data_vs_code $(printf '%s' "$dc" | tr -d ','))"
} >> "$GEN/macros.tex"

# --- the validation ledger: summary and every row the model misses -------
# RESULTS/ledger.csv or RESULTS/ledger-NAME.csv, one per calibration
# (`memscale model validate --calib calib-NAME.txt -f csv`: seed,workload,
# base,patch,target,cpus,role,published_pct,predicted_pct,band_lo_pct,
# band_hi_pct,regime), else the older RESULTS/ledger.txt (its text table).
# Every CSV gets a summary row; the misses are listed for the primary one
# (LEDGER=NAME picks it; else ledger-shared.csv, else the first).  A row is
# missed when the predicted sign differs from a signed published change or
# when the error exceeds 8 pp (the targets of docs/validation.md); a missed
# row whose published change lies outside the band says so too.
ledger_rows() { # FILE -> seed|workload|pair|target|cpus|role|published|predicted|lo|hi|regime
	if [ -n "$1" ]; then
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ # the regime holds no comma before its first ";": keep its class
		  r = $c["regime"]; sub(/;.*/, "", r)
		  printf("%s|%s|%s -> %s|%s|%s|%s|%s|%s|%s|%s|%s\n", $c["seed"], $c["workload"], $c["base"], $c["patch"],
			 $c["target"], $c["cpus"], $c["role"], $c["published_pct"], $c["predicted_pct"],
			 $c["band_lo_pct"], $c["band_hi_pct"], r) }' "$1"
	elif [ -s "$RESULTS/ledger.txt" ]; then
		awk '/^#/ || NF < 12 || $4 != "->" { next }
		{ pub = $9; sub(/%$/, "", pub); pr = $10; sub(/%$/, "", pr)
		  a = $3; sub(/^[^=]*=/, "", a)
		  printf("%s|%s|%s -> %s|%s|%s|%s|%s|%s|nan|nan|unknown\n", $1, $2, a, $5, $6, $7, $8, pub, pr) }' "$RESULTS/ledger.txt"
	fi
}
# The one scoring of a ledger (summary and misses), for ledger.tex (mode
# full) and the per-calibration summary rows (mode row).
LEDGER_AWK='
function tex(s) { gsub(/\\/, "\\textbackslash{}", s); gsub(/[_%&#${}]/, "\\\\&", s); gsub(/~/, "\\textasciitilde{}", s); gsub(/\^/, "\\textasciicircum{}", s)
	gsub(/->/, "\001", s); gsub(/[|<>]/, "$&$", s); gsub(/\001/, "$\\rightarrow$", s); gsub(/\\_/, "\\_\\allowbreak{}", s); return s }
function num(v) { return v ~ /^[-+]?[0-9.]+$/ }
function pct(v) { return num(v) ? sprintf("%+.1f\\,\\%%", v) : "--" }
{
	n++; if (!num($8)) { unpred++; next }
	pred++
	# published "+13.7..+26.2": a range; its midpoint for the error
	lo = $7; hi = $7; if (index($7, "..")) { split($7, r, /\.\./); lo = r[1]; hi = r[2] }
	if (!num(lo) || !num(hi)) { unpub++; next }
	mid = (lo + hi) / 2; err = $8 - mid; if (err < 0) err = -err
	if (lo + 0 > hi + 0) { t = lo; lo = hi; hi = t }
	inside = ($8 + 0 >= lo + 0 && $8 + 0 <= hi + 0)
	# within the published range counts as no error
	if (inside) err = 0
	sum += err; nerr++
	am = mid < 0 ? -mid : mid; ap = $8 < 0 ? -$8 : $8
	if (am >= 2) { nbig++; if (ap < 0.5 * am) small++ }
	why = ""
	signed = (lo + 0 > 0 && hi + 0 > 0) || (lo + 0 < 0 && hi + 0 < 0)
	# the sign rule of predict/ledger.c: a published change or range
	# that excludes zero is signed; the prediction matches when it is
	# positive exactly when that is
	if (signed) { nsign++; if (($8 + 0 > 0) == (lo + 0 > 0)) okay++; else why = "sign" }
	if (err > 8) why = why (why ? ", " : "") sprintf("error %.1f\\,pp", err)
	# missed: the sign or the error; the band is said where it misses too
	if (why != "" && num($9) && num($10) && !(mid >= $9 + 0 && mid <= $10 + 0)) why = why ", outside band"
	if (why != "") { m++; row[m] = sprintf("%s & %s & %s & %s, %s & %s & %s%s & %s \\\\", tex($1), tex($2), tex($3), tex($4), $5, tex($7) "\\,\\%", pct($8),
		num($9) && num($10) ? sprintf("\\newline [%+.1f..%+.1f]", $9, $10) : "", why (($11 != "" && $11 != "unknown") ? "; " tex($11) : "")) }
}
END {
	met = (okay == nsign && nerr && sum / nerr <= 8)
	if (mode == "row") {
		# the ledger'"'"'s own tally where its text is beside it (the CSV
		# rounds to 0.01 %, which can hide the sign the ledger scored)
		if (own ~ /mean \|error\| *[0-9.]+ pp, signs [0-9]+\/[0-9]+/) {
			o = own; sub(/;.*/, "", o); sub(/.*mean \|error\| */, "", o); e = o + 0
			sub(/.*signs /, "", o); split(o, sg, /[\/;]/)
			sum = e * nerr; okay = sg[1] + 0; nsign = sg[2] + 0
			met = (okay == nsign && nerr && e <= 8)
		}
		printf("%s & %d of %d & %.1f\\,pp & %d of %d & %d & %s \\\\\n", tex(name), pred, n, nerr ? sum / nerr : 0, okay, nsign, m, met ? "met" : "not met")
		exit
	}
	if (own != "") {
		# the ledger'"'"'s own summary, as it printed it
		printf("The validation ledger (\\texttt{%s}) says of itself: \\emph{%s}; \\emph{%s}.  ", tex(src), tex(own), tex(target))
		met = (target ~ /: MET$/)
	} else {
	printf("The validation ledger (\\texttt{%s}) predicts %d of the %d published rows for the machines they ran on", tex(src), pred, n)
	printf("; mean $|$error$|$ %.1f\\,pp over %d rows with a published number, ", nerr ? sum / nerr : 0, nerr)
	printf("the sign right in %d of %d signed rows.  ", okay, nsign)
	}
	printf("The target (every sign right, mean $|$error$|$ $\\le 8$\\,pp) is \\textbf{%s}.  ", met ? "met" : "not met")
	printf("The model misses %d row%s", m, m == 1 ? "" : "s")
	printf("%s\n\n", m ? " (the predicted change with its sensitivity band, and the regime of the patch side):" : ".")
	if (m) {
		print "{\\footnotesize\\setlength{\\tabcolsep}{3pt}\\begin{longtable}{@{}>{\\raggedright\\arraybackslash}p{0.12\\linewidth}>{\\raggedright\\arraybackslash}p{0.12\\linewidth}>{\\raggedright\\arraybackslash}p{0.17\\linewidth}>{\\raggedright\\arraybackslash}p{0.13\\linewidth}r>{\\raggedright\\arraybackslash}p{0.14\\linewidth}>{\\raggedright\\arraybackslash}p{0.15\\linewidth}@{}}"
		printf("\\caption{Published rows the model misses (predicted for the machine each ran on; \\texttt{%s}).}\\label{tab:misses}\\\\\n", tex(src))
		# the caption and its label in the first head only: a head that
		# repeats on every page would define the label once per page
		hd = "\\toprule Seed & Workload & Variants & Target, CPUs & Published & Predicted [band] & Missed by; regime \\\\ \\midrule"
		print hd "\\endfirsthead"
		print hd "\\endhead"
		for (i = 1; i <= m; i++) print row[i]
		print "\\bottomrule\\end{longtable}}"
	}
	printf("\\newcommand{\\LedgerVerdict}{%s}\n", met ? "meets" : "does not meet")
	printf("\\newcommand{\\LedgerSmaller}{%d of the %d}\n", small, nbig)
	if (own != "") printf("\\newcommand{\\LedgerSummary}{%s; %d row%s missed}\n", tex(own), m, m == 1 ? "" : "s")
	else printf("\\newcommand{\\LedgerSummary}{%d of %d published rows predicted, mean $|$error$|$ %.1f\\,pp, signs %d of %d, %d row%s missed}\n",
	       pred, n, nerr ? sum / nerr : 0, okay, nsign, m, m == 1 ? "" : "s")
}'
ledger_rows "$primary" > "$GEN/ledger.rows"
{
	if [ -s "$GEN/ledger.rows" ]; then
		nl=$(printf '%s\n' "$ledger_csvs" | grep -c .)
		if [ "$nl" -gt 1 ]; then
			# every calibration's ledger, scored alike
			printf '%s\n' "The ledger was computed once per calibration (\\texttt{ledger-NAME.csv}, with the calibration its name says: \\texttt{calib-NAME.txt} where there is one, the README of the results directory says which otherwise); each scored as below:" ''
			printf '%s\n' '\begin{table}[tbp]\centering\small' \
				'\caption{The validation ledger per calibration: rows predicted, mean $|$error$|$ (zero inside a published range), signs right of the signed rows, rows missed, and the target (every sign right, mean $|$error$|$ $\le 8$\,pp).}\label{tab:ledgers}' \
				'\begin{tabular}{@{}lrrrrl@{}}\toprule' \
				'Ledger & predicted & mean $|$error$|$ & signs & missed & target \\ \midrule'
			for f in $ledger_csvs; do
				fown=$(sed -n 's/^# summary, all published rows: *//p' "${f%.csv}.txt" 2>/dev/null | tr -s ' ')
				ledger_rows "$f" | awk -F'|' -v mode=row -v name="$(basename "$f")" -v own="$fown" "$LEDGER_AWK"
			done
			printf '%s\n' '\bottomrule\end{tabular}\end{table}' ''
		fi
		own=; target=
		if [ -n "$primary" ] && [ -s "${primary%.csv}.txt" ]; then
			# the ledger's own summary, printed beside its CSV
			own=$(sed -n 's/^# summary, all published rows: *//p' "${primary%.csv}.txt" | tr -s ' ')
			target=$(sed -n 's/^# target of issue [0-9]*: //p' "${primary%.csv}.txt" | tail -n 1)
		elif [ -z "$primary" ]; then
			own=$(sed -n 's/^# summary, all published rows: *//p' "$RESULTS/ledger.txt" 2>/dev/null | tr -s ' ')
			target=$(sed -n 's/^# target of issue [0-9]*: //p' "$RESULTS/ledger.txt" 2>/dev/null | tail -n 1)
		fi
		awk -F'|' -v src="$(basename "${primary:-ledger.txt}")" -v own="$own" -v target="$target" "$LEDGER_AWK" "$GEN/ledger.rows"
	else
		echo 'Validation ledger: not in these results (\texttt{memscale model validate -f csv > RESULTS/ledger.csv}).'
		printf '%s\n' '\newcommand{\LedgerVerdict}{cannot be said to meet}' '\newcommand{\LedgerSummary}{no ledger in these results}' '\newcommand{\LedgerSmaller}{(no ledger)}'
	fi
} > "$GEN/ledger.tex"

# --- where measured and published disagree --------------------------------
# Every measured change that is significant (its 95 % interval excludes
# zero) and differs from every published value of its pair by more than
# half of that value or by 20 pp, said plainly; the rest are listed as
# agreeing or as not significant in the seed tables.
for t in "$GEN"/ab_*_p.tsv; do [ -f "$t" ] && cat "$t"; done | awk -F'\t' "$TEXAWK"'
	$1 == "published" && $9 != "" { k = $2 SUBSEP $3 SUBSEP $4; pub[k] = pub[k] (pub[k] == "" ? "" : " ") $9 }
	$1 == "measured" && $10 != "NA" && $17 == "yes" { if ($18 != "NA" && $18 != "") $10 = $18; nm++; mk[nm] = $2 SUBSEP $3 SUBSEP $4; mw[nm] = $2; mb[nm] = $3; mp[nm] = $4; mc[nm] = $10; mn[nm] = $5 }
	END {
		for (i = 1; i <= nm; i++) {
			if (!(mk[i] in pub)) continue
			np = split(pub[mk[i]], v, " "); far = 1
			for (j = 1; j <= np; j++) { d = mc[i] - v[j]; if (d < 0) d = -d
				if (d <= 20 || d <= 0.5 * (v[j] < 0 ? -v[j] : v[j])) far = 0 }
			if (!far) continue
			printf("\\item %s, %s vs %s: measured %+.1f\\,\\%% at %d workers, published %s\\,\\%%.\n",
			       tex(mw[i]), tex(mp[i]), tex(mb[i]), mc[i], mn[i], tex(pub[mk[i]]))
			n++
		}
		if (!n) print "\\item none: every significant measured change is within 20\\,pp or half of a published value of its pair."
	}' > "$GEN/discrepancies.tex"

# --- every published row: published, measured here, predicted ------------
# One row per row of the published numbers (PUB: `memscale published`,
# the same rows `model validate -f csv` predicts): the published change
# with its machine and, where published, the absolute throughputs; the
# change measured here for the pair (compare's change and 95 % interval
# from the seed tables' data, "n.s." without a sign where the interval
# holds zero); the primary ledger's prediction for the row's machine with
# its sensitivity band and regime class.  A ledger row is matched by seed,
# workload, pair and published value (its CPU count is the target
# profile's), the n-th occurrence to the n-th.  Every number printed is
# checked numeric; every string goes through tex().
for t in "$GEN"/ab_*_p.tsv; do [ -f "$t" ] && sed "s|^|$(basename "$t" _p.tsv | sed 's/^ab_//')	|" "$t"; done > "$GEN/allrows.ab"
awkv() { printf '%s' "$1" | "$MEMSCALE" escape awk; } # a value for awk -v, as given
awk -F, -v ledger="$(awkv "${primary:-/dev/null}")" -v ab="$(awkv "$GEN/allrows.ab")" -v mac="$(awkv "$GEN/allrows.mac")" \
	-v src="$(awkv "$(basename "${primary:-none}")")" "$TEXAWK"'
# a name that may break after each underscore (narrow columns)
function brk(s) { s = tex(s); gsub(/\\_/, "\\_\\allowbreak{}", s); return s }
function num(v) { return v ~ /^[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ }
function pct(v) { return num(v) ? sprintf("%+.1f\\,\\%%", v) : "--" }
function pubpct(v,  r) { if (!index(v, "..")) return pct(v)
	split(v, r, /\.\./); return num(r[1]) && num(r[2]) ? sprintf("%+.1f..%+.1f\\,\\%%", r[1], r[2]) : "--" }
function si(v) { return !num(v) ? "--" : v >= 1e9 ? sprintf("%.3g\\,G", v / 1e9) : v >= 1e6 ? sprintf("%.3g\\,M", v / 1e6) : v >= 1e3 ? sprintf("%.3g\\,k", v / 1e3) : sprintf("%.3g", v) }
BEGIN {
	# the ledger: its rows by seed|workload|base|patch|published
	while ((getline l < ledger) > 0) {
		nf = split(l, f, ",")
		if (!lh++) { for (i = 1; i <= nf; i++) lc[f[i]] = i; continue }
		if (!("predicted_pct" in lc)) break
		k = f[lc["seed"]] SUBSEP f[lc["workload"]] SUBSEP f[lc["base"]] SUBSEP f[lc["patch"]] SUBSEP f[lc["published_pct"]]
		# the regime: its class, before the first ";" (no comma before it)
		r = f[lc["regime"]]; sub(/;.*/, "", r)
		j = ++ln[k]; lp[k, j] = f[lc["predicted_pct"]]; llo[k, j] = f[lc["band_lo_pct"]]; lhi[k, j] = f[lc["band_hi_pct"]]
		lreg[k, j] = r; ltg[k, j] = f[lc["target"]]; lcpu[k, j] = f[lc["cpus"]]
	}
	# measured: plots/ab.awk rows (seed prepended), one cell per pair
	FS = "\t"
	while ((getline l < ab) > 0) {
		split(l, f, "\t")
		if (f[2] != "measured" || !num(f[11])) continue
		k = f[1] SUBSEP f[3] SUBSEP f[4] SUBSEP f[5]
		chg = num(f[19]) ? f[19] : f[11]
		iv = num(f[16]) && num(f[17]) ? sprintf("[%+.1f..%+.1f\\,\\%%]", f[16], f[17]) : ""
		cell = f[18] == "yes" ? pct(chg) " " iv : "n.s., interval " (iv != "" ? iv : "unbounded")
		if (num(f[6])) cell = cell sprintf(" at %d worker%s", f[6], f[6] == 1 ? "" : "s")
		if (f[14] != "") cell = cell ", " brk(f[14])
		meas[k] = meas[k] (meas[k] == "" ? "" : "\\newline ") cell
		ncell++; if (f[18] == "yes") nsig++
	}
	FS = ","
}
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
{
	n++
	k = $c["seed"] SUBSEP $c["workload"] SUBSEP $c["base_variant"] SUBSEP $c["patch_variant"]
	lk = k SUBSEP $c["change_pct"]; j = ++seen[lk]
	pub = pubpct($c["change_pct"]) " (" brk($c["machine"]) ")"
	if (num($c["base"]) && num($c["patch"]) && $c["base"] > 0) pub = pub "\\newline " si($c["base"]) " $\\rightarrow$ " si($c["patch"]) "/s"
	pr = "no prediction"
	if ((lk, j) in lp && num(lp[lk, j])) {
		pr = pct(lp[lk, j])
		if (num(llo[lk, j]) && num(lhi[lk, j])) pr = pr sprintf(" [%+.1f..%+.1f]", llo[lk, j], lhi[lk, j])
		pr = pr "\\newline " brk(ltg[lk, j]) (num(lcpu[lk, j]) ? sprintf(", %d CPUs", lcpu[lk, j]) : "")
		if (lreg[lk, j] != "" && lreg[lk, j] != "unknown") pr = pr "; " brk(lreg[lk, j])
		npred++
	}
	# the seed once per group of rows
	sd = $c["seed"] == last ? "" : brk($c["seed"]); last = $c["seed"]
	row[n] = sprintf("%s & %s & %s vs %s & %s & %s & %s \\\\", sd, brk($c["workload"]), brk($c["patch_variant"]), brk($c["base_variant"]),
		pub, (k in meas) ? meas[k] : "not measured", pr)
	if (k in meas) nmeas++
}
END {
	# counts for the abstract (macros.tex): rows, rows with a measured
	# pair, measured cells and how many of those are significant
	printf("\\newcommand{\\AllRows}{%d}\n\\newcommand{\\AllRowsMeasured}{%d}\n\\newcommand{\\AllRowsPredicted}{%d}\n", n, nmeas, npred) > mac
	printf("\\newcommand{\\MeasuredCells}{%d}\n\\newcommand{\\MeasuredSignificant}{%d}\n", ncell, nsig) > mac
	print "{\\footnotesize\\setlength{\\tabcolsep}{3pt}\\begin{longtable}{@{}>{\\raggedright\\arraybackslash}p{0.10\\linewidth}>{\\raggedright\\arraybackslash}p{0.10\\linewidth}>{\\raggedright\\arraybackslash}p{0.12\\linewidth}>{\\raggedright\\arraybackslash}p{0.20\\linewidth}>{\\raggedright\\arraybackslash}p{0.20\\linewidth}>{\\raggedright\\arraybackslash}p{0.21\\linewidth}@{}}"
	printf("\\caption{Every published row (%d): the published change on its machine and, where published, the absolute throughputs base $\\rightarrow$ patch; the change measured here for the pair (change of the mean and its 95\\,\\%% interval, ``n.s.\\@'\'''\'' where the interval holds zero); the change predicted for the row'\''s machine (\\texttt{%s}) with its sensitivity band and its regime class.}\\label{tab:allrows}\\\\\n", n, brk(src))
	hd = "\\toprule Seed & Workload & Variants & Published & Measured here & Predicted [band] \\\\ \\midrule"
	print hd "\\endfirsthead"
	print hd "\\endhead"
	for (i = 1; i <= n; i++) print row[i]
	if (!n) print "\\multicolumn{6}{l}{no published rows} \\\\"
	print "\\bottomrule\\end{longtable}}"
}' "$PUB" > "$GEN/allrows.tex"
rm -f "$GEN/allrows.ab"
# the ledger's own summary of all published rows (computed by `model
# validate`, printed in ledger-NAME.txt): mean |error| and signs, each
# number checked numeric before it reaches TeX
own=$(sed -n 's/^# summary, all published rows: *//p' "${primary%.csv}.txt" 2>/dev/null | head -1)
# (the first figures of the line: all rows, not the determined ones)
err=$(printf '%s' "$own" | sed -n 's/^[^|]*|error| *\([0-9][0-9.]*\) pp.*/\1/p')
sg=$(printf '%s' "$own" | sed -n 's/^[^/]*signs \([0-9][0-9]*\)\/\([0-9][0-9]*\).*/\1 of \2/p')
case $err in ''|*[!0-9.]*) err='--' ;; esac
case $sg in ''|*[!0-9\ ofs]*) sg='--' ;; esac
# the ledger's own verdict on its last target line (": MET" or not)
tgt=$(sed -n 's/^# target of issue [0-9]*: //p' "${primary%.csv}.txt" 2>/dev/null | tail -n 1)
case $tgt in '') tgt='cannot be said to meet' ;; *': MET') tgt=meets ;; *) tgt='does not meet' ;; esac
{ [ -f "$GEN/allrows.mac" ] && cat "$GEN/allrows.mac"
  printf '\\newcommand{\\LedgerMeanErr}{%s}\n\\newcommand{\\LedgerSigns}{%s}\n\\newcommand{\\LedgerTarget}{%s}\n' "$err" "$sg" "$tgt"; } >> "$GEN/macros.tex"
rm -f "$GEN/allrows.mac"
# How many result rows of the seed sweeps at their largest worker count
# had a worker descheduled while it held or waited for a modelled lock
# (the harness's desched_flag: a wait or hold of 1 ms or more), for the
# text on the millisecond lock waits: counted, not computed.
dfiles=$(for seed in $(awk -F, 'NR > 1 && !s[$1]++ { print $1 }' "$PUB"); do
	[ -s "$RESULTS/$seed/results.csv" ] && printf '%s\n' "$RESULTS/$seed/results.csv"; done)
# (each file its own header: the seeds have different knob columns)
[ -n "$dfiles" ] || dfiles=/dev/null
printf '%s\n' "$dfiles" | tr '\n' '\0' | xargs -0 awk -F, '
	FNR == 1 { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
	("desched_flag" in c) && $c["desched_flag"] != "" { n++; w[n] = $c["workers"] + 0; f[n] = $c["desched_flag"] + 0; if (w[n] > mw) mw = w[n]
		# the longest average lock wait of the row, any class
		a[n] = 0; for (k in c) if (k ~ /_wait_avg_ns$/ && $c[k] ~ /^[0-9.eE+-]+$/ && $c[k] + 0 > a[n]) a[n] = $c[k] + 0 }
	END { for (i = 1; i <= n; i++) if (w[i] == mw) { t++; if (f[i] > 0) { d++; if (a[i] > fm) fm = a[i] } else if (a[i] > um) um = a[i] }
		printf("\\newcommand{\\DeschedRows}{%d of %d}\n\\newcommand{\\DeschedWorkers}{%d}\n", d, t, mw)
		# the largest average wait of a flagged and of an unflagged row
		printf("\\newcommand{\\DeschedFlaggedMaxMs}{%.1f}\n\\newcommand{\\DeschedUnflaggedMaxUs}{%.1f}\n", fm / 1e6, um / 1e3) }' >> "$GEN/macros.tex"
