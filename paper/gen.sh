#!/bin/sh
# gen.sh - write paper/generated/*.tex from results, so that no number in
# the paper is typed by hand.
#
#   paper/gen.sh RESULTS FIGDIR
#
# FIGDIR is where plots/plot.sh already rendered the figures of RESULTS
# (PDF) together with data/ and figures.tsv.  Every table, macro and
# caption is written in C by `memscale paper-tables` (cli/cmd_paper_tables.c,
# cli/paper_*.c): the published numbers (FIGDIR/data/published.csv,
# `memscale published`), the A/B tables (FIGDIR/data/ab_SEED.tsv,
# plots/ab.awk's table of `memscale compare`), the predictions and ledgers,
# and the JSON sidecars under RESULTS (machine, command, commit, load).
# This script runs it and puts the pieces together.  Missing data gives
# the text "not measured", never a failure.  GEN=DIR writes elsewhere
# (tests).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
[ $# -eq 2 ] || { echo "usage: paper/gen.sh RESULTS FIGDIR" >&2; exit 2; }
RESULTS=$1 FIG=$(cd "$2" 2>/dev/null && pwd) || { echo "gen: no figure directory '$2'" >&2; exit 2; }
GEN=${GEN:-$HERE/generated}
MEMSCALE=${MEMSCALE:-$ROOT/bin/memscale}
mkdir -p "$GEN" && GEN=$(cd "$GEN" && pwd) || { echo "gen: cannot make '$GEN'" >&2; exit 2; }
rm -f "$GEN"/*.tex "$GEN"/*.tsv "$GEN"/*.csv
PUB=${PUBLISHED:-$FIG/data/published.csv}
if [ ! -s "$PUB" ]; then
	PUB=$GEN/published.csv
	RABS=; [ -d "$RESULTS" ] && RABS=$(cd "$RESULTS" && pwd)
	(cd "$ROOT" && if [ -n "$RABS" ]; then "$MEMSCALE" published --runs "$RABS"
	 else "$MEMSCALE" published; fi) > "$PUB" 2>/dev/null ||
		echo "seed,knob,workload,base_variant,patch_variant,machine,cpus,base,patch,change_pct,source,workers,target,role,build,base_ops_s,patch_ops_s,abs_source" > "$PUB"
fi

# the primary ledger (LEDGER=NAME: ledger-NAME.csv, else ledger.csv, else
# ledger-shared.csv, else the first), as paper-tables picks it below
primary=$("$MEMSCALE" paper-tables "$RESULTS" --primary ${LEDGER:+--ledger "$LEDGER"} 2>/dev/null)
# The seeds' Extrapolated column: the predictions.csv files under RESULTS
# (FIG/data/predictions.csv), else the primary ledger's predictions (the
# same question: `model validate` predicts each published row for the
# machine it ran on), put in that form in C (memscale paper-tables).
PRED=$FIG/data/predictions.csv
npred=$(grep -c . "$PRED" 2>/dev/null); if [ "${npred:-0}" -lt 2 ] && [ -n "$primary" ]; then
	PRED=$GEN/predictions.csv
	"$MEMSCALE" paper-tables --predictions "$PRED" "$primary" || : > "$PRED"
fi

# the figures as the .tex beside GEN/.. finds them (relative: no machine
# path in the generated files)
FIGREL=$(realpath --relative-to="$(dirname "$GEN")" "$FIG" 2>/dev/null) || FIGREL=$FIG
# meta TABLE ARG...: the text about the data (sidecars, figures.tsv, git)
meta() { t=$1; shift; "$MEMSCALE" paper-tables --table "$t" --results "$RESULTS" --fig "$FIG" \
	--figrel "$FIGREL" --root "$ROOT" "$@"; }
meta macros --out "$GEN/macros.tex" || exit 1

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
	[ -s "$out" ] || printf 'Seed %s: not measured.\n\n' "$("$MEMSCALE" escape tex -- "$seed")" > "$out"
	meta figures --out - seed "$seed" >> "$out"
done

# --- the seed sections, in `memscale list experiments` order ------------
# Heading and paragraph are the experiment's title and about; a seed
# with no table yet says so (seed_SEED.tex beside seeds.tex).
(cd "$ROOT" && "$MEMSCALE" paper-tables --table seeds --out "$GEN/seeds.tex") ||
	echo 'Seed experiments: none listed (memscale list experiments).' > "$GEN/seeds.tex"

# --- lock and counter studies, model vs kernel ----------------------------
meta figures --out - locks > "$GEN/locks.tex"
# per counter and threshold at the most workers
cr=$RESULTS/counters/results.csv
{ [ ! -s "$cr" ] || "$MEMSCALE" paper-tables --table counters --out - "$cr"
  meta figures --out - counters; } > "$GEN/counters.tex"
# per workload and backend of RESULTS/kernel_vs_model/results.csv: mean
# ops/s at 1 and at the most workers, the scaling, ns per operation,
# \KvmOpposite/\KvmBoth and charges per op
kvm=$RESULTS/kernel_vs_model/results.csv
if [ -s "$kvm" ] && "$MEMSCALE" paper-tables --table kernel_vs_model --out "$GEN/kernel_vs_model.tex" "$kvm"; then
	meta figures --out - kernel_vs_model >> "$GEN/kernel_vs_model.tex"
else
	printf '%s\n\n%s\n' 'Model vs kernel: not measured (run \texttt{memscale sweep experiments/kernel\_vs\_model.ini}; needs root and a memory cgroup controller).' \
		'\newcommand{\KvmOpposite}{0}\newcommand{\KvmBoth}{0}' > "$GEN/kernel_vs_model.tex"
fi

# --- provenance: every results source and the command that wrote it ----
meta provenance --out "$GEN/provenance.tex" || exit 1
echo "gen: wrote $(ls "$GEN" | wc -l) files in $GEN" >&2

# --- the ledger, its summary and misses, and every published row ---------
# The ledger CSVs of RESULTS scored by predict/ledger.c (LEDGER=NAME picks
# the primary), every row of PUB with the seed tables' measured change
# (GEN/ab_SEED_p.tsv) and the primary ledger's prediction.
"$MEMSCALE" paper-tables "$RESULTS" --out "$GEN" ${LEDGER:+--ledger "$LEDGER"} --published "$PUB" ||
	{ echo "gen: memscale paper-tables failed" >&2; exit 1; }

# --- where measured and published disagree --------------------------------
# Every significant measured change (its 95 % interval excludes zero) that
# differs from every published value of its pair by more than half of
# that value or by 20 pp; the rest are in the seed tables.
set -- "$GEN"/ab_*_p.tsv; [ -f "$1" ] || set --
"$MEMSCALE" paper-tables --table discrepancies --out "$GEN/discrepancies.tex" "$@" ||
	{ echo "gen: memscale paper-tables --table discrepancies failed" >&2; exit 1; }

# How many result rows of the seed sweeps at their largest worker count
# had a worker descheduled while it held or waited for a modelled lock
# (the harness's desched_flag: a wait or hold of 1 ms or more).
set --
for seed in $seeds; do [ -s "$RESULTS/$seed/results.csv" ] && set -- "$@" "$RESULTS/$seed/results.csv"; done
{ cat "$GEN/ledger_macros.tex" && "$MEMSCALE" paper-tables --table desched --out - "$@"; } >> "$GEN/macros.tex" ||
	{ echo "gen: memscale paper-tables --table desched failed" >&2; exit 1; }
rm -f "$GEN/ledger_macros.tex"
