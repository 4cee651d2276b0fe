#!/bin/sh
# gen.sh - write paper/generated/*.tex from results, so that no number in
# the paper is typed by hand.
#
#   paper/gen.sh RESULTS FIGDIR
#
# FIGDIR is where plots/plot.sh already rendered the figures of RESULTS
# (PDF) together with data/ and figures.tsv.  Reads the published numbers
# (FIGDIR/data/published.csv, `memscale published`), FIGDIR/data/ab_SEED.tsv
# (plots/ab.awk's A/B table of `memscale compare`), FIGDIR/data/
# predictions.csv and the JSON sidecars under RESULTS (machine and command
# for captions, read with jq).  Every table and macro made from numbers
# (the seed, ledger, all-rows, counter, model-vs-kernel and discrepancy
# tables, the desched and load macros) is written in C by `memscale
# paper-tables`; this script calls it and puts the pieces together.
# Missing data gives the text "not measured", never a failure.  GEN=DIR
# writes elsewhere (tests).
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
# (FIG/data/predictions.csv), else the primary ledger's predictions (the
# same question: `model validate` predicts each published row for the
# machine it ran on), put in that form in C (memscale paper-tables).
PRED=$FIG/data/predictions.csv
npred=$(grep -c . "$PRED" 2>/dev/null); if [ "${npred:-0}" -lt 2 ] && [ -n "$primary" ]; then
	PRED=$GEN/predictions.csv
	"$MEMSCALE" paper-tables --predictions "$PRED" "$primary" || : > "$PRED"
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
# the seeds of the published rows (plain names: `memscale published`)
seeds=$(sed 1d "$PUB" | cut -d, -f1 | sort -u)
for seed in $seeds; do
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
	cal=$(calib_of "$seed")
	if [ -z "$cal" ] && [ "$PRED" = "$GEN/predictions.csv" ]; then
		cn=$(basename "$primary" .csv); cn=${cn#ledger}; cn=${cn#-}
		cal="the ledger $(basename "$primary")${cn:+, with calib-$cn.txt}"
	fi
	# the table, written in C: the A/B rows beside the prediction at the
	# most CPUs that PRED has for each pair (memscale paper-tables)
	"$MEMSCALE" paper-tables --seed "$seed" --ab "$GEN/ab_${seed}_p.tsv" --pred "$PRED" \
		--cal "$cal" --out "$out" 2>/dev/null || : > "$out"
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
	# per counter and threshold at the most workers (memscale paper-tables)
	if [ -s "$cr" ]; then
		"$MEMSCALE" paper-tables --table counters --out "$GEN/counters_table.tex" "$cr" &&
			cat "$GEN/counters_table.tex"; rm -f "$GEN/counters_table.tex"
	fi
	for f in $c; do figure "$f"; done
} > "$GEN/counters.tex"

# --- model vs kernel: the same workloads in both backends ----------------
# The table of RESULTS/kernel_vs_model/results.csv (memscale paper-tables):
# per workload and backend, mean ops/s at 1 and at the most workers, the
# scaling, ns per operation, \KvmOpposite/\KvmBoth and charges per op.
kvm=$RESULTS/kernel_vs_model/results.csv
{
	if [ -s "$kvm" ] && "$MEMSCALE" paper-tables --table kernel_vs_model --out "$GEN/kvm.tex" "$kvm"; then
		cat "$GEN/kvm.tex"; rm -f "$GEN/kvm.tex"
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
# the machine's CPU count: the range (memscale paper-tables), said beside
# the threats.
for f in $sidecars; do
	printf '%s\t%s\n' "$(jq -r 'first(.. | objects | select(has("loadavg")) | .loadavg[0]) // empty' "$f" 2>/dev/null)" \
		"$(machine_first pus "$f")"
done > "$GEN/load.tsv"
"$MEMSCALE" paper-tables --table load --out "$GEN/load.tex" "$GEN/load.tsv" &&
	cat "$GEN/load.tex" >> "$GEN/macros.tex"; rm -f "$GEN/load.tex" "$GEN/load.tsv"

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

# --- the ledger, its summary and misses, and every published row ---------
# Written in C (memscale paper-tables): the ledger CSVs of RESULTS scored
# by predict/ledger.c (LEDGER=NAME picks the primary), every row of PUB
# with the seed tables' measured change (GEN/ab_SEED_p.tsv) and the
# primary ledger's prediction; ledger_macros.tex goes into macros.tex below.
"$MEMSCALE" paper-tables "$RESULTS" --out "$GEN" ${LEDGER:+--ledger "$LEDGER"} --published "$PUB" ||
	{ echo "gen: memscale paper-tables failed" >&2; exit 1; }

# --- where measured and published disagree --------------------------------
# Every measured change that is significant (its 95 % interval excludes
# zero) and differs from every published value of its pair by more than
# half of that value or by 20 pp, said plainly; the rest are listed as
# agreeing or as not significant in the seed tables.
set -- "$GEN"/ab_*_p.tsv; [ -f "$1" ] || set --
"$MEMSCALE" paper-tables --table discrepancies --out "$GEN/discrepancies.tex" "$@" ||
	{ echo "gen: memscale paper-tables --table discrepancies failed" >&2; exit 1; }

# the ledger macros of the abstract, from `memscale paper-tables` above
cat "$GEN/ledger_macros.tex" >> "$GEN/macros.tex"
rm -f "$GEN/ledger_macros.tex"
# How many result rows of the seed sweeps at their largest worker count
# had a worker descheduled while it held or waited for a modelled lock
# (the harness's desched_flag: a wait or hold of 1 ms or more), for the
# text on the millisecond lock waits: counted, not computed.
set --
for seed in $seeds; do [ -s "$RESULTS/$seed/results.csv" ] && set -- "$@" "$RESULTS/$seed/results.csv"; done
"$MEMSCALE" paper-tables --table desched --out "$GEN/desched.tex" "$@" ||
	{ echo "gen: memscale paper-tables --table desched failed" >&2; exit 1; }
cat "$GEN/desched.tex" >> "$GEN/macros.tex"; rm -f "$GEN/desched.tex"
