#!/bin/sh
# plot.sh - render every memscale figure a results directory supports.
#
#   plots/plot.sh RESULTS [OUTDIR]
#
# RESULTS is a results CSV or a directory searched for them (a sweep
# directory, or results/ holding one directory per experiment; points/
# subdirectories and OUTDIR are skipped).  OUTDIR (default RESULTS/plots,
# or plots/ beside a CSV) receives NAME.png and NAME.pdf per figure, the
# gnuplot data under data/, and figures.tsv: name, title, sources and
# notes, which paper/gen.sh turns into captions.  FORMATS="png" renders
# PNG only.  A figure whose columns are missing is skipped with a line on
# stderr; no figure at all is not an error (exit 0).  Exit 2: bad usage.
set -u
PLOTDIR=$(cd "$(dirname "$0")" && pwd)
FORMATS=${FORMATS:-png pdf}
ROOT=$(dirname "$PLOTDIR")
MEMSCALE=${MEMSCALE:-$ROOT/bin/memscale}

usage() { echo "usage: plots/plot.sh RESULTS [OUTDIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
RESULTS=${1%/}
if [ -d "$RESULTS" ]; then OUT=${2:-$RESULTS/plots}
elif [ -f "$RESULTS" ]; then OUT=${2:-$(dirname "$RESULTS")/plots}
else echo "plot: results '$RESULTS' not found" >&2; exit 2; fi
command -v gnuplot >/dev/null || { echo "plot: gnuplot not installed (make deps)" >&2; exit 2; }
mkdir -p "$OUT/data" || exit 2
OUT=$(cd "$OUT" && pwd)
D=$OUT/data
: > "$OUT/figures.tsv"

say() { echo "plot: $*" >&2; }
slug() { printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_'; }

# --- gather the result files -------------------------------------------
if [ -d "$RESULTS" ]; then
	RABS=$(cd "$RESULTS" && pwd)
	# Skip our own outputs below RESULTS (DIR/plots/, or any OUTDIR: it
	# holds figures.tsv) and the per-point files of sweeps.
	outs=$(find "$RABS" -name figures.tsv -exec dirname {} \; | sed 's/$/\//')
	ours() { awk -v outs="$outs" 'BEGIN { n = split(outs, o, "\n") }
		{ for (i = 1; i <= n; i++) if (o[i] != "" && index($0, o[i]) == 1) next; print }'; }
	find "$RABS" -name '*.csv' -type f ! -name predictions.csv ! -path '*/points/*' \
		! -path "$OUT/*" | ours | sort > "$D/files.txt"
	find "$RABS" -name predictions.csv -type f ! -path "$OUT/*" | ours | sort > "$D/pred_files.txt"
else
	echo "$RESULTS" > "$D/files.txt"; : > "$D/pred_files.txt"
fi
if [ ! -s "$D/files.txt" ]; then say "no result CSV under '$RESULTS'"; fi
# One file name per line, each one word (blanks, quotes and glob
# characters in names are the files' own).
NL='
'
IFS_SAVED=$IFS; IFS=$NL; set -f
# shellcheck disable=SC2046
awk -f "$PLOTDIR/merge.awk" -v knobs="$D/knobs.txt" $(cat "$D/files.txt") /dev/null > "$D/all.csv"
# every predictions.csv in one form, whatever its columns' order, each
# pair named as the recorded sweeps name it (memscale paper-tables, in C:
# the ledger of model validate -f csv by its header names)
if [ -s "$D/pred_files.txt" ]; then
	(cd "$ROOT" && "$MEMSCALE" paper-tables --predictions "$D/predictions.csv" ${RABS:+--runs} ${RABS:+"$RABS"} \
		$(cat "$D/pred_files.txt")) 2>&1 | sed 's/^memscale: //' >&2
else : > "$D/predictions.csv"; fi
IFS=$IFS_SAVED; set +f
ALL=$D/all.csv
# Published numbers: the experiment files' [published] sections, the one
# source compare and demo read too (PUBLISHED=FILE overrides, for tests).
if [ -n "${PUBLISHED:-}" ]; then cp "$PUBLISHED" "$D/published.csv"
# --runs: rows in the terms of the recorded sweeps (their variants' knob).
elif ! (cd "$ROOT" && if [ -n "${RABS:-}" ]; then "$MEMSCALE" published --runs "$RABS"
	 else "$MEMSCALE" published; fi) > "$D/published.csv" 2>"$D/published.err"; then
	say "no published numbers: $(head -1 "$D/published.err") (build bin/memscale first)"
	echo "seed,knob,workload,base_variant,patch_variant,machine,cpus,base,patch,change_pct,source,workers,target,role,build,base_ops_s,patch_ops_s,abs_source" > "$D/published.csv"
fi
PUBLISHED=$D/published.csv
NROWS=$(($(wc -l < "$ALL") - 1))
[ "$NROWS" -gt 0 ] || NROWS=0
say "$NROWS result rows from $(wc -l < "$D/files.txt") file(s); figures in $OUT"

has_col() { head -1 "$ALL" | tr ',' '\n' | grep -qx "$1"; }

# The plug-ins' names, which keep one style in every figure
# (plots/style.gp, plots/plugins.sh).
PLUGINS=$(MEMSCALE=$MEMSCALE sh "$PLOTDIR/plugins.sh")
[ -n "$PLUGINS" ] || say "no plug-in names from $MEMSCALE list: series styles by order only"

# render NAME SCRIPT DATA INC TITLE SOURCES NOTE
# Every value reaches gnuplot as an argument of call.gp (data, never
# source text: a title or path holding ' or ` cannot run anything), and
# the names in INC as data too (strings.awk).
render() {
	for fmt in $FORMATS; do
		gnuplot -c "$PLOTDIR/call.gp" "$PLOTDIR" "$fmt" "$OUT/$1.$fmt" "$3" "$4" "$5" \
			"$PLOTDIR/$2" "$PLUGINS" 2> "$D/$1.$fmt.log"
		if [ ! -s "$OUT/$1.$fmt" ] || grep -q -i 'error' "$D/$1.$fmt.log"; then
			say "gnuplot failed for $1.$fmt:"; sed 's/^/  /' "$D/$1.$fmt.log" >&2
			rm -f "$OUT/$1.$fmt"
			return 1
		fi
	done
	printf '%s\t%s\t%s\t%s\n' "$1" "$5" "$6" "$7" >> "$OUT/figures.tsv"
}

# series_plot NAME SCRIPT TITLE SOURCES NOTE YCOL -- reshape.awk arguments...
series_plot() {
	name=$1 script=$2 title=$3 srcs=$4 note=$5 ycol=$6; shift 7
	if ! awk -f "$PLOTDIR/reshape.awk" "$@" "$ALL" > "$D/$name.dat" 2> "$D/$name.err"; then
		say "skipping $name: $(cat "$D/$name.err")"; return 0
	fi
	if ! grep -q '^[0-9]' "$D/$name.dat"; then say "skipping $name: no matching rows"; return 0; fi
	# a "scaling" line needs two x values; one point is the A/B figure's job
	if [ "$(awk '/^[0-9]/ { x[$1] = 1 } END { n = 0; for (k in x) n++; print n }' "$D/$name.dat")" -lt 2 ]; then
		say "skipping $name: one x value only (see the A/B figure)"; return 0
	fi
	awk -f "$PLOTDIR/strings.awk" -f "$PLOTDIR/series.awk" -v ycol="$ycol" \
		-v gp_str="$D/$name.gp.str" "$D/$name.dat" > "$D/$name.gp"
	render "$name" "$script" "$D/$name.dat" "$D/$name.gp" "$title" "$srcs" "$note"
}

# Columns (lock, counter, mode, affinity, knobs) with more than one value
# among rows of source $1 and workload $2, minus any named in $3.
varying() {
	cols="lock counter mode affinity $(cat "$D/knobs.txt" 2>/dev/null | tr '\n' ' ')"
	awk -F, -v s="$1" -v w="$2" -v cols="$cols" -v drop=" $3 " '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(cols, cl, " "); next }
	$(c["source"]) == s && $(c["workload"]) == w {
		for (i = 1; i <= n; i++) if (cl[i] in c) {
			v = $(c[cl[i]])
			if (!((i, v) in seen)) { seen[i, v] = 1; nv[i]++ }
		}
	}
	END { for (i = 1; i <= n; i++) if (nv[i] > 1 && index(drop, " " cl[i] " ") == 0) printf("%s ", cl[i]) }' "$ALL"
}

# The column whose value picks a series' colour: the knob a seed experiment
# is about, else the lock or counter when those vary, else (empty) the last
# series column.
keycol_for() {
	kc=$(awk -F, -v s="$1" '$1 == s { print $2; exit }' "$PUBLISHED")
	case " $2 " in *" $kc "*) echo "$kc"; return ;; esac
	case " $2 " in *" lock "*) echo lock ;; *" counter "*) echo counter ;; esac
}

groups() { # source,workload pairs present, one per line
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ k = $(c["source"]) "," $(c["workload"]); if (!(k in s)) { s[k] = 1; print k } }' "$ALL"
}

# --- 1a. one workload from several result files (a base.csv and a
# patch.csv, say): one overlay figure, a series per file --------------------
# Sources that are single CSVs (not sweep directories) and workloads that
# two or more of them hold.
awk -F/ '$NF != "results.csv" { n = $NF; sub(/\.csv$/, "", n); print n }' "$D/files.txt" > "$D/plain_sources.txt"
awk -F, -v list="$D/plain_sources.txt" '
	BEGIN { while ((getline l < list) > 0) plain[l] = 1 }
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	($(c["source"]) in plain) { k = $(c["workload"]) SUBSEP $(c["source"])
		if (!(k in seen)) { seen[k] = 1; n[$(c["workload"])]++ } }
	END { for (w in n) if (n[w] > 1 && w != "lock" && w != "counter") print w }' "$ALL" | sort > "$D/overlays.txt"
IFS=$NL; set -f
for wl in $(cat "$D/overlays.txt"); do
	IFS=$IFS_SAVED; set +f
	awk -F, -v list="$D/plain_sources.txt" -v w="$wl" '
		BEGIN { while ((getline l < list) > 0) plain[l] = 1 }
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		($(c["source"]) in plain) && $(c["workload"]) == w' "$ALL" > "$D/overlay.csv"
	srcs=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		!s[$(c["source"])]++ { printf("%s%s", n++ ? " " : "", $(c["source"])) }' "$D/overlay.csv")
	ALL_SAVED=$ALL ALL=$D/overlay.csv
	series_plot "throughput_overlay_$(slug "$wl")" throughput.gp \
		"$wl: throughput vs workers, $srcs" "$(echo "$srcs" | tr ' ' '+')" "series: source file" 2 -- \
		-v x=workers -v y=ops_per_sec -v series=source -v where="workload=$wl"
	ALL=$ALL_SAVED
done
IFS=$IFS_SAVED; set +f
in_overlay() { # SOURCE WORKLOAD: drawn in an overlay figure above
	grep -qx "$2" "$D/overlays.txt" && grep -qx "$1" "$D/plain_sources.txt"
}

# --- 1. throughput against workers, per experiment and workload ----------
IFS=$NL; set -f
for g in $(groups); do
	IFS=$IFS_SAVED; set +f
	src=${g%%,*} wl=${g#*,}
	case $wl in lock|counter) continue ;; esac
	in_overlay "$src" "$wl" && continue
	ser=$(varying "$src" "$wl" "")
	kc=$(keycol_for "$src" "$ser")
	series_plot "throughput_$(slug "$src")_$(slug "$wl")" throughput.gp \
		"$wl ($src): throughput vs workers" "$src" "series: ${ser:-none}" 2 -- \
		-v x=workers -v y=ops_per_sec -v series="$ser" -v keycol="$kc" \
		-v where="source=$src;workload=$wl"
done
IFS=$IFS_SAVED; set +f

# --- 2. lock algorithms: throughput and fairness ------------------------
IFS=$NL; set -f
for g in $(groups); do
	IFS=$IFS_SAVED; set +f
	src=${g%%,*} wl=${g#*,}
	[ "$wl" = lock ] || continue
	rest=$(varying "$src" lock lock)
	split=${rest%% *}
	if [ -z "$split" ]; then
		series_plot "locks_$(slug "$src")" locks.gp "lock algorithms ($src): throughput and fairness" \
			"$src" "" 2 -- -v x=workers -v y="ops_per_sec fairness_cv" -v series="lock" -v keycol=lock \
			-v where="source=$src;workload=lock"
		continue
	fi
	# small multiples: one figure per value of the first other varying
	# column (the critical section, say), the locks as its series, so no
	# panel holds locks x variants lines
	ser="lock ${rest#"$split"}"
	vals=$(awk -F, -v s="$src" -v k="$split" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["source"]) == s && $(c["workload"]) == "lock" && !seen[$(c[k])]++ { print $(c[k]) }' "$ALL")
	for v in $vals; do
		series_plot "locks_$(slug "$src")_$(slug "$split")_$(slug "$v")" locks.gp \
			"lock algorithms ($src, $split=$v): throughput and fairness" \
			"$src" "$split=$v" 2 -- -v x=workers -v y="ops_per_sec fairness_cv" -v series="$ser" -v keycol=lock \
			-v where="source=$src;workload=lock;$split=$v"
	done
done
IFS=$IFS_SAVED; set +f

# --- 3. counter trade-off ------------------------------------------------
IFS=$NL; set -f
for g in $(groups); do
	IFS=$IFS_SAVED; set +f
	src=${g%%,*} wl=${g#*,}
	[ "$wl" = counter ] || continue
	for c in threshold error_bound max_error_observed; do
		has_col $c || { say "skipping counter_$src: no column '$c'"; continue 2; }
	done
	maxw=$(awk -F, -v s="$src" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["source"]) == s && $(c["workload"]) == "counter" && $(c["workers"]) + 0 > m { m = $(c["workers"]) + 0 }
		END { print m + 0 }' "$ALL")
	ser="counter $(varying "$src" counter "counter threshold")"
	series_plot "counter_tradeoff_$(slug "$src")" counter.gp \
		"counter trade-off ($src, $maxw workers)" "$src" "at $maxw workers" 2 -- \
		-v x=threshold -v y="ops_per_sec max_error_observed error_bound" -v series="$ser" -v keycol=counter \
		-v where="source=$src;workload=counter;workers=$maxw;threshold=*"
done
IFS=$IFS_SAVED; set +f

# --- 4. contention against workers (when the tracing columns exist) -----
# Classes are found by their <class>_contended_pct column.
classes=$(head -1 "$ALL" | tr ',' '\n' | sed -n 's/_contended_pct$//p')
if [ -z "$classes" ]; then say "skipping contention figures: no <class>_contended_pct columns"; fi
IFS=$NL; set -f
for g in $(groups); do
	IFS=$IFS_SAVED; set +f
	[ -n "$classes" ] || break
	src=${g%%,*} wl=${g#*,}
	name="contention_$(slug "$src")_$(slug "$wl")"
	ser=$(varying "$src" "$wl" "")
	: > "$D/$name.dat"
	used=
	for cl in $classes; do
		# The wait column is <class>_avg_wait_ns or <class>_wait_avg_ns.
		wait=
		for wc in "${cl}_avg_wait_ns" "${cl}_wait_avg_ns"; do has_col "$wc" && wait=$wc; done
		[ -n "$wait" ] || { say "contention: class $cl has no average-wait column, left out"; continue; }
		# Only classes this workload actually contended.
		awk -F, -v s="$src" -v w="$wl" -v k="${cl}_contended_pct" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$(c["source"]) == s && $(c["workload"]) == w && $(c[k]) + 0 > 0 { f = 1 }
			END { exit !f }' "$ALL" && used="$used $cl:$wait"
	done
	# Colour by lock class when several are contended, else by variant.
	set -- $used
	for cw in $used; do
		cl=${cw%%:*} wait=${cw#*:}
		key=; [ $# -gt 1 ] || [ -z "$ser" ] && key=$cl
		kc=$(keycol_for "$src" "$ser")
		[ -s "$D/$name.dat" ] && printf '\n\n' >> "$D/$name.dat"
		awk -f "$PLOTDIR/reshape.awk" -v x=workers -v y="${cl}_contended_pct $wait" \
			-v series="$ser" -v prefix="$cl " -v stylekey="$key" -v keycol="$kc" \
			-v where="source=$src;workload=$wl" "$ALL" >> "$D/$name.dat"
	done
	if ! grep -q '^[0-9]' "$D/$name.dat"; then continue; fi
	if [ "$(awk '/^[0-9]/ { x[$1] = 1 } END { n = 0; for (k in x) n++; print n }' "$D/$name.dat")" -lt 2 ]; then
		say "skipping $name: one worker count only"; continue
	fi
	awk -f "$PLOTDIR/strings.awk" -f "$PLOTDIR/series.awk" -v gp_str="$D/$name.gp.str" \
		"$D/$name.dat" > "$D/$name.gp"
	render "$name" contention.gp "$D/$name.dat" "$D/$name.gp" \
		"$wl ($src): lock contention vs workers" "$src" "series: lock class${ser:+ and $ser}"
done
IFS=$IFS_SAVED; set +f

# The sweep directory of a seed among the result files: the one named
# like it, else one whose experiment.ini names it (RESULTS may be the
# sweep directory itself).
sweep_dir_of() {
	IFS=$NL; set -f
	for f in $(cat "$D/files.txt"); do
		dd=$(dirname "$f")
		[ "$(basename "$f")" = results.csv ] && [ -f "$dd/experiment.ini" ] || continue
		if [ "$(basename "$dd")" = "$1" ]; then echo "$dd"; IFS=$IFS_SAVED; set +f; return; fi
	done
	for f in $(cat "$D/files.txt"); do
		dd=$(dirname "$f")
		[ "$(basename "$f")" = results.csv ] && [ -f "$dd/experiment.ini" ] || continue
		if awk -v s="$1" '/^[[:space:]]*\[/ { e = ($0 ~ /^[[:space:]]*\[experiment\]/); next }
			e && /^[[:space:]]*name[[:space:]]*=/ { v = $0; sub(/^[^=]*=[[:space:]]*/, "", v); sub(/[[:space:]]*$/, "", v); f = (v == s); exit }
			END { exit !f }' "$dd/experiment.ini"; then echo "$dd"; break; fi
	done
	IFS=$IFS_SAVED; set +f
}

# --- 5. seed A/B: measured beside published ------------------------------
IFS=$NL; set -f
for seed in $(awk -F, 'NR > 1 && !s[$1]++ { print $1 }' "$PUBLISHED"); do
	IFS=$IFS_SAVED; set +f
	name="ab_$(slug "$seed")"
	# The measured changes: `memscale compare` over the seed's sweep
	# directory (core/ab.c computes change, interval and p; ab.awk only
	# picks and reformats its rows).  No sweep of the seed: nothing measured.
	: > "$D/${name}_compare.csv"
	sdir=$(sweep_dir_of "$seed")
	if [ -n "$sdir" ]; then
		"$MEMSCALE" compare --experiment "$sdir" -f csv > "$D/${name}_compare.csv" 2> "$D/${name}_compare.err" ||
			{ say "$name: compare: $(head -1 "$D/${name}_compare.err")"; : > "$D/${name}_compare.csv"; }
	fi
	awk -f "$PLOTDIR/strings.awk" -f "$PLOTDIR/ab.awk" -v seed="$seed" -v tsv="$D/$name.tsv" -v inc="$D/$name.gp" \
		-v gp_str="$D/$name.gp.str" "$PUBLISHED" "$D/${name}_compare.csv" > "$D/$name.dat" || { say "skipping $name"; continue; }
	note=measured
	# published values only beside measured ones: no figure of a seed
	# these results do not contain
	grep -q '^MEASURED = 0' "$D/$name.gp" && { say "skipping $name: $seed not measured here"; continue; }
	render "$name" ab.gp "$D/$name.dat" "$D/$name.gp" "$seed: change per workload, measured vs published" \
		"$seed" "$note"

	# --- 6. extrapolation to 224 CPUs, when predictions exist ---------
	if [ ! -s "$D/predictions.csv" ]; then continue; fi
	xname="extrapolation_$(slug "$seed")"
	if awk -f "$PLOTDIR/strings.awk" -f "$PLOTDIR/extrap.awk" -v seed="$seed" -v inc="$D/$xname.gp" \
		"$D/predictions.csv" "$PUBLISHED" "$D/$name.tsv" > "$D/$xname.dat" 2> "$D/$xname.err"; then
		render "$xname" extrap.gp "$D/$xname.dat" "$D/$xname.gp" \
			"$seed: extrapolated change vs CPUs" "$seed" "predictions"
	else
		say "skipping $xname: $(cat "$D/$xname.err")"
	fi
done
IFS=$IFS_SAVED; set +f
[ -s "$D/predictions.csv" ] || say "skipping extrapolation figures: no predictions.csv"
say "$(wc -l < "$OUT/figures.tsv") figure(s) written"
exit 0
