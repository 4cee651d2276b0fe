#!/bin/sh
# Paper: builds with latexmk from the synthetic fixture (tests/fixtures/
# plots), its generated table holds the fixture's statistics (recomputed
# here independently), and missing data reads "not measured" instead of
# failing the build.  Built in a scratch copy so it never touches paper/.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
FIX=tests/fixtures/plots
# make paper with a RESULTS that does not exist: exit 2 with one line
# naming it, before anything is built (BIN points at a directory that a
# build would create).
expect_usage "make paper RESULTS=nonexistent" "results '$TMP/nosuch' not found" -- \
	make --no-print-directory -s paper RESULTS="$TMP/nosuch" BIN="$TMP/nobin" BUILD="$TMP/nobuild"
[ ! -e "$TMP/nobin" ] && [ ! -e "$TMP/nobuild" ]; ok $? "and it built nothing"
[ ! -s "$TMP/out" ]; ok $? "and printed nothing on stdout"
if ! command -v latexmk >/dev/null || ! command -v pdflatex >/dev/null; then
	TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP latexmk/pdflatex not installed (make deps)"
	done_testing; exit
fi

# build_paper RESULTS DIR: figures, generated tables and PDF under DIR.
build_paper() {
	mkdir -p "$2/paper" && cp paper/memscale.tex paper/latexmkrc paper/references.bib "$2/paper/"
	FORMATS=pdf sh plots/plot.sh "$1" "$2/fig" 2>/dev/null
	GEN="$2/paper/generated" sh paper/gen.sh "$1" "$2/fig" 2>/dev/null || return 1
	( cd "$2/paper" && latexmk -silent memscale.tex > latexmk.out 2>&1 )
}

# (a copy of the fixture whose layout sweep was run into this machine's
# scratch directory: its command names $TMP, which no caption may print)
cp -R "$FIX" "$TMP/fx"
sed "s|--out results/layout_false_sharing|--out $TMP/fx/layout_false_sharing|" "$FIX/layout_false_sharing/sweep.json" \
	> "$TMP/fx/layout_false_sharing/sweep.json"
grep -q -F -- "--out $TMP/fx/" "$TMP/fx/layout_false_sharing/sweep.json"; ok $? "fixture copy: a sweep run into $TMP"
build_paper "$TMP/fx" "$TMP/a"
ok $? "latexmk builds the paper from the fixture"
[ "$(head -c 4 "$TMP/a/paper/memscale.pdf")" = "%PDF" ]; ok $? "memscale.pdf is a PDF"
pdftotext "$TMP/a/paper/memscale.pdf" "$TMP/a.txt" 2>/dev/null
grep -q "TEST FIXTURE" "$TMP/a.txt"; ok $? "fixture data is flagged as such in the abstract"
grep -q "Synthetic CPU (test fixture)" "$TMP/a/paper/generated/macros.tex"
ok $? "machine description comes from the JSON sidecar"
sed 's/\\allowbreak{}//g' "$TMP/a/paper/generated/seed_stats_batch.tex" |
	grep -q -F 'Command: \texttt{memscale sweep experiments/stats\_batch.ini -{}-quick -{}-out results/stats\_batch}'
ok $? "figure captions carry the whole command from the sidecar"

# The stats_batch table row of page_fault2: means of ops_per_sec over the
# repetitions at 2 workers for stats_batch 32 and 512, and their change,
# recomputed from the fixture CSV with a different tool chain (sort+awk
# per variant) than plots/ab.awk.
mean() { # mean VALUE: ops_per_sec of page_fault2, 2 workers, stats_batch=VALUE
	awk -F, -v v="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["workload"] == "page_fault2" && $c["workers"] == 2 && $c["stats_batch"] == v { print $c["ops_per_sec"] }' \
		"$FIX/stats_batch/results.csv" | sort -n | awk '{ s += $1; n++ } END { printf("%.10g %d", s / n, n) }'
}
set -- $(mean 32); b=$1 nb=$2
set -- $(mean 512); p=$1 np=$2
pct=$(awk -v b="$b" -v p="$p" 'BEGIN { printf("%+.1f", (p - b) / b * 100) }')
# ops/s shown with 3 significant digits and a k/M/G prefix
si() { awk -v v="$1" 'BEGIN { u = v >= 1e9 ? "G" : v >= 1e6 ? "M" : v >= 1e3 ? "k" : ""
	d = u == "G" ? 1e9 : u == "M" ? 1e6 : u == "k" ? 1e3 : 1
	printf("%.3g%s", v / d, u == "" ? "" : "\\," u) }'; }
kb=$(si "$b") kp=$(si "$p")
row=$(sed 's/\\allowbreak{}//g' "$TMP/a/paper/generated/seed_stats_batch.tex" | grep '^page\\_fault2 & 512 vs 32')
printf '# row: %s\n' "$row"
# the change, then its interval where compare gives one, at the size
printf '%s\n' "$row" | grep -q -F "& $pct\\,\\% " && printf '%s\n' "$row" | grep -q -F " at 2 workers"
ok $? "measured change $pct % matches the fixture"
printf '%s\n' "$row" | grep -q -F "$kb \$\\rightarrow\$ $kp ops/s ($nb+$np runs, \$p"
ok $? "base and patch means $kb -> $kp ops/s over $nb+$np runs match the fixture"
printf '%s\n' "$row" | grep -q -F "+13.7..+26.2\\,\\% (several Xeon generations (worst..best))"
ok $? "published range comes from the experiment files"
x=$(awk -F, '$1 == "stats_batch" && $2 == "page_fault2" && $5 == 224 { printf("%+.1f", $6) }' "$FIX/predictions.csv")
printf '%s\n' "$row" | grep -q -F "& $x\\,\\% at 224 CPUs"
ok $? "extrapolated column comes from predictions.csv ($x % at 224 CPUs)"
grep -q "not measured" "$TMP/a/paper/generated/seed_layout_false_sharing.tex"
ok $? "a published pair without measurements says 'not measured'"

# The table of every published row: one row per row `memscale published`
# writes (read from the CSV plot.sh wrote with it), each pair's measured
# cell the one the seed table has, no signed headline for a change that
# is not significant, and no machine path anywhere in what gen wrote.
G=$TMP/a/paper/generated
# body rows: the lines between the last \endhead and \bottomrule
body() { awk '/\\endhead/ { on = 1; next } /\\bottomrule/ { on = 0 } on' "$1"; }
np=$(($(grep -c . "$TMP/a/fig/data/published.csv") - 1))
nr=$(body "$G/allrows.tex" | grep -c '\\\\$')
[ "$np" -ge 1 ] && [ "$nr" -eq "$np" ]; ok $? "the all-rows table has one row per published row ($nr of $np)"
grep -q -F "\\newcommand{\\AllRows}{$np}" "$G/macros.tex"
ok $? "the abstract's row count is the published rows' count"
r=$(sed 's/\\allowbreak{}//g' "$G/allrows.tex" | grep -F '& page\_fault2 & 512 vs 32 &')
printf '# all-rows: %s\n' "$r"
printf '%s\n' "$r" | grep -q -F "+13.7..+26.2\\,\\% (several Xeon generations (worst..best))" &&
	printf '%s\n' "$r" | grep -q -F " at 2 workers"
ok $? "its stats_batch page_fault2 row has the published range and the measured pair"
! grep -q -E 'no significant change \(|n\.s\.[^&]*\([+-]' "$G"/seed_*.tex "$G/allrows.tex"
ok $? "no signed headline for a change that is not significant"
grep -h 'n\.s\.' "$G"/seed_*.tex "$G/allrows.tex" | head -1 | grep -q -E 'n\.s\., interval (\[[-+][0-9.]+\.\.[-+][0-9.]+\\,\\%\]|unbounded)'
ok $? "a non-significant change is printed as n.s. with its interval"
! grep -q -e '/tmp/' -e "$TMP" paper/memscale.tex "$G"/*.tex
ok $? "no machine path in the .tex or the generated files"
for f in seed_layout_false_sharing provenance; do
	sed 's/\\allowbreak{}//g' "$G/$f.tex" | grep -q -F -- '-{}-out layout\_false\_sharing' || echo "# not in $f.tex"
done | { ! grep -q .; }
ok $? "the scratch --out is cut to its last component in captions and provenance"

ns=$("$MEMSCALE" list experiments | grep -c .)
[ "$ns" -ge 1 ] && [ "$(grep -c '^\\subsection{' "$G/seeds.tex")" -eq "$ns" ]
ok $? "one seed section per \`memscale list experiments\` line ($ns)"

# No results at all: every table says "not measured", the paper still builds.
mkdir -p "$TMP/empty"
build_paper "$TMP/empty" "$TMP/b"
ok $? "the paper builds without any results"
n=$(cat "$TMP"/b/paper/generated/seed_*.tex | grep -c "not measured")
[ "$n" -ge "$($MEMSCALE list experiments | wc -l)" ]; ok $? "each seed section says 'not measured' ($n mentions)"
! grep -q "includegraphics" "$TMP"/b/paper/generated/*.tex
ok $? "without data no figure is included (published values only beside measured ones)"
grep -q '\\section{Conclusion}' paper/memscale.tex && grep -q 'bibliography{references}' paper/memscale.tex
ok $? "the paper has a conclusion and BibTeX references"
grep -q "Validation ledger: not in these results" "$TMP/b/paper/generated/ledger.tex"
ok $? "without a ledger its section says so"
grep -q -F 'not measured (run \texttt{memscale sweep experiments/kernel\_vs\_model.ini}' "$TMP/b/paper/generated/kernel_vs_model.tex"
ok $? "without a kernel_vs_model sweep its section says 'not measured' and how to measure it"

# Model vs kernel table from a tiny hand-made sweep: model page_fault2 at
# 1 worker 1e6 and 3e6 ops/s (mean 2e6: 500 ns/op), at 2 workers 3e6;
# kernel page_fault2 at 1 worker 1e5, at 2 workers 1.5e5 and 2.5e5 (mean 2e5).
mkdir -p "$TMP/k/kernel_vs_model" "$TMP/k/fig" && : > "$TMP/k/fig/figures.tsv"
cat > "$TMP/k/kernel_vs_model/results.csv" <<'CSV'
workload,workers,ops_per_sec,charges_per_op
page_fault2,1,1000000,1
page_fault2,1,3000000,1
page_fault2,2,3000000,1
kernel:page_fault2,1,100000,1.25
kernel:page_fault2,2,150000,1.25
kernel:page_fault2,2,250000,1.25
CSV
GEN="$TMP/k/gen" sh paper/gen.sh "$TMP/k" "$TMP/k/fig" 2>/dev/null
t="$TMP/k/gen/kernel_vs_model.tex"
grep -q -F 'model & page\_fault2 & 2\,M & 3\,M & 2 & 1.50$\times$ & 500.0 \\' "$t"
ok $? "model row: means over repetitions, scaling 1.50x, 500 ns/op"
grep -q -F 'kernel & page\_fault2 & 100\,k & 200\,k & 2 & 2.00$\times$ & 10000.0 \\' "$t"
ok $? "kernel row: scaling 2.00x, 10000 ns/op"
grep -q -F 'kernel:page\_fault2 charged 1.250 pages per operation' "$t"
ok $? "charges per operation are reported per backend"

# The study tables are written in C (paper-tables --table), from what the
# real producers wrote: the reference counter sweep (its mean adds/s at
# the most workers recomputed here), the seeds' sweeps (rows flagged
# descheduled, counted here) and plots/ab.awk's A/B tables of the fixture.
R=results-reference/vm-2cpu
"$MEMSCALE" paper-tables --table counters --out "$TMP/ct.tex" "$R/counters/results.csv"
ok $? "paper-tables --table counters reads the reference counter sweep"
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["workload"] == "counter" { w = $c["workers"] + 0; if (w > mw) { mw = w; s = n = 0 }
		if (w == mw && $c["counter"] == "atomic" && $c["threshold"] == 32) { s += $c["ops_per_sec"]; n++ } }
	END { if (n) printf("%.3g", s / n / 1e6) }' "$R/counters/results.csv")
[ -n "$want" ] && grep -q -F "atomic & $want\\,M & " "$TMP/ct.tex" &&
	grep -q -F 'threshold 32} & \multicolumn{2}{c}{threshold 64} & \multicolumn{2}{c}{threshold 512}' "$TMP/ct.tex"
ok $? "the counter table: atomic at threshold 32 adds $want M/s, thresholds in numeric order"
set --
for s in $("$MEMSCALE" list experiments); do
	[ -f "$R/$s/results.csv" ] && set -- "$@" "$R/$s/results.csv"
done
"$MEMSCALE" paper-tables --table desched --out "$TMP/ds.tex" "$@"
want=$(awk -F, 'FNR == 1 { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["desched_flag"] != "" { n++; w[n] = $c["workers"] + 0; f[n] = $c["desched_flag"] > 0; if (w[n] > mw) mw = w[n] }
	END { for (i = 1; i <= n; i++) if (w[i] == mw) { t++; d += f[i] } printf("%d of %d", d, t) }' "$@")
grep -q -F "\\newcommand{\\DeschedRows}{$want}" "$TMP/ds.tex"
ok $? "the desched macros count the seed sweeps' flagged rows ($want)"
set -- "$TMP"/a/paper/generated/ab_*_p.tsv
grep -q -F '\item page\_fault3, fixed vs v6.10: measured +27.3\,\% at 2 workers, published 0.11 0.65\,\%.' \
	"$TMP/a/paper/generated/discrepancies.tex"
ok $? "a significant change far from every published value of its pair is listed"
want=$(awk -F'\t' '$1 == "published" && $9 != "" { p[$2 SUBSEP $3 SUBSEP $4] = p[$2 SUBSEP $3 SUBSEP $4] " " $9 }
	$1 == "measured" && $17 == "yes" { m[++n] = $2 SUBSEP $3 SUBSEP $4; c[n] = $18 }
	END { for (i = 1; i <= n; i++) if (m[i] in p) { k = split(p[m[i]], v, " "); far = 1
		for (j = 1; j <= k; j++) { d = c[i] - v[j]; d = d < 0 ? -d : d; a = v[j] < 0 ? -v[j] : v[j]; if (d <= 20 || d <= a / 2) far = 0 }
		x += far } print x + 0 }' "$@")
[ "$want" -gt 0 ] && [ "$(grep -c '^\\item' "$TMP/a/paper/generated/discrepancies.tex")" -eq "$want" ]
ok $? "one discrepancy per such pair of the fixture's A/B tables ($want)"
expect_usage "paper-tables --table with a directory" "is a directory" -- \
	"$MEMSCALE" paper-tables --table counters --out "$TMP/x.tex" "$TMP"
expect_usage "paper-tables --table counters on a CSV without its columns" "has no column 'workers'" -- \
	"$MEMSCALE" paper-tables --table counters --out "$TMP/x.tex" "$R/ledger-quiet.csv"
[ ! -e "$TMP/x.tex" ]; ok $? "and it wrote no file"

# Ledgers per calibration (ledger-NAME.csv): a summary row for each, the
# misses of the primary one (ledger-shared.csv) with band and regime, and
# the seed tables' Extrapolated column from it where no predictions.csv is.
mkdir -p "$TMP/l/fig" && : > "$TMP/l/fig/figures.tsv"
H=seed,workload,base,patch,target,cpus,role,published_pct,predicted_pct,band_lo_pct,band_hi_pct,regime
printf '%s\n' "$H" \
	'stats_batch,page_fault2,32,512,t1,224,dev,+13.7..+26.2,+20.0,10,30,lock-bound; A lock util 0.5' \
	'lru_lock_split,lru_file_readtwice,pgdat,lruvec,t2,104,held,80,291.0,106,598,lock-bound; B util 0.06' \
	> "$TMP/l/ledger-shared.csv"
printf '%s\n' "$H" 'stats_batch,page_fault2,32,512,t1,224,dev,+13.7..+26.2,-5.0,nan,nan,unknown' > "$TMP/l/ledger-other.csv"
GEN="$TMP/l/gen" PUBLISHED=/dev/null sh paper/gen.sh "$TMP/l" "$TMP/l/fig" 2>/dev/null
t="$TMP/l/gen/ledger.tex"
# (scored as predict/ledger.c scores a row: -5.0 is 18.7 pp below the
# published range 13.7..26.2; +20.0 inside it is no error)
grep -q -F 'ledger-other.csv & 1 of 1 & 18.7\,pp & 0 of 1 & 1 & not met \\' "$t" &&
	grep -q -F 'ledger-shared.csv & 2 of 2 & 105.5\,pp & 2 of 2 & 1 & not met \\' "$t"
ok $? "one summary row per ledger CSV, scored from its rows"
grep -q -F '+291.0\,\%\newline [+106.0..+598.0] & error 211.0\,pp, outside band; lock-bound \\' "$t" && ! grep -q 'page\\_fault2 & 32' "$t"
ok $? "the primary ledger's missed row with its band and regime class; the row it gets right is not listed"
grep -q 'stats_batch,page_fault2,32,512,224,+20.0' "$TMP/l/gen/predictions.csv"
ok $? "the Extrapolated column falls back to the primary ledger's predictions"
# The producer itself (memscale paper-tables): a hostile seed, workload,
# target and regime in a ledger reach the TeX only escaped, and the CSV's
# own verdict columns (error_pp, sign_ok, determined) are what it scores.
mkdir -p "$TMP/h/out"
printf '%s\n' "$H,error_pp,sign_ok,determined" \
	'"s\{x}$%#&_~^",w\input{evil},a$,b%,t{1}\relax,52,dev,10,50.0,40,60,lock-bound\x; more,40.00,yes,yes' \
	> "$TMP/h/ledger-h.csv"
"$MEMSCALE" paper-tables "$TMP/h" --out "$TMP/h/out" 2>"$TMP/h/err"
ok $? "paper-tables writes the tables of a ledger with hostile names"
t="$TMP/h/out/ledger.tex"
grep -q -F 's\textbackslash{}\{x\}\$\%\#\&\_\allowbreak{}\textasciitilde{}\textasciicircum{}' "$t" &&
	grep -q -F 'w\textbackslash{}input\{evil\} & a\$ $\rightarrow$ b\% & t\{1\}\textbackslash{}relax, 52' "$t" &&
	grep -q -F 'lock-bound\textbackslash{}x \\' "$t"
ok $? "every string of the ledger reaches ledger.tex through the TeX escaper"
! grep -q -F '\input{evil}' "$t" && ! grep -q -F '\relax' "$t"
ok $? "no control sequence from the data survives"
grep -q -F 'error 40.0\,pp' "$t" && grep -q -F '\newcommand{\LedgerMeanErr}{40.0}' "$TMP/h/out/ledger_macros.tex"
ok $? "the error is the CSV's error_pp column"
expect_usage "paper-tables without --out" "want RESULTS --out DIR" -- "$MEMSCALE" paper-tables "$TMP/h"
# A seed's table (paper-tables --seed): a hostile workload, variant and
# machine in its A/B rows reach the TeX escaped; a seed name that is not
# plain is refused.
printf 'measured\tw$\\x{y}\ta%%\tb#\t2\t1000\t2000\t3\t3\t100\t\t\t\t0.01\t50\t150\tyes\t100\n' > "$TMP/h/ab.tsv"
printf 'published\tw$\\x{y}\ta%%\tb#\tm\\input{z}\t\t\t\t+5\n' >> "$TMP/h/ab.tsv"
"$MEMSCALE" paper-tables --seed s1 --ab "$TMP/h/ab.tsv" --out "$TMP/h/seed.tex" --cal 'c\relax'
t="$TMP/h/seed.tex"
grep -q -F 'w\$\textbackslash{}x\{y\} & b\# vs a\% & +5.0\,\% (m\textbackslash{}input\{z\}) & +100.0\,\% [+50.0..+150.0\,\%] at 2 workers' "$t" &&
	grep -q -F 'Model calibration: c\textbackslash{}relax.' "$t" && ! grep -q -F '\input{z}' "$t"
ok $? "a seed table's strings reach the TeX through the escaper"
expect_usage "paper-tables --seed with a name that is not plain" "bad --seed" -- \
	"$MEMSCALE" paper-tables --seed 'a}b' --ab "$TMP/h/ab.tsv" --out "$TMP/h/x.tex"
# The all-rows table joins each published row to its ledger row (by
# seed, workload, pair and published value, not by position): a ledger
# made from what `memscale published` writes, in reverse order, row i
# predicted +i % with band [i-1, i+1], target ti, regime lock-bound.
mkdir -p "$TMP/j/fig" && : > "$TMP/j/fig/figures.tsv"
"$MEMSCALE" published > "$TMP/j/pub.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n = NR - 1; printf("%s,%s,%s,%s,t%d,%s,dev,%s,%d,%d,%d,lock-bound; A lock util 0.5\n", $c["seed"], $c["workload"],
		$c["base_variant"], $c["patch_variant"], n, $c["cpus"] == "" ? 104 : $c["cpus"], $c["change_pct"], n, n - 1, n + 1) }' \
	"$TMP/j/pub.csv" | sort -r | { echo "$H"; cat; } > "$TMP/j/ledger-shared.csv"
GEN="$TMP/j/gen" PUBLISHED="$TMP/j/pub.csv" sh paper/gen.sh "$TMP/j" "$TMP/j/fig" 2>/dev/null
n=$(($(grep -c . "$TMP/j/pub.csv") - 1))
body "$TMP/j/gen/allrows.tex" | grep '\\\\$' | awk -v n="$n" '
	{ i++; want = sprintf("%+.1f\\,\\%% [%+.1f..%+.1f]\\newline t%d, ", i, i - 1, i + 1, i)
	  if (!index($0, want) || !index($0, "; lock-bound \\\\")) bad++ }
	END { exit !(i == n && n > 0 && !bad) }'
ok $? "the all-rows table has one row per published row ($n), each with its own ledger row's prediction, band and regime"

# The text about the data (paper-tables --table macros, provenance,
# figures): read from the JSON sidecars with jansson, every string
# through the TeX escaper, machine paths cut, a commit git is not given.
mkdir -p "$TMP/m/res/a" "$TMP/m/res/b" "$TMP/m/fig"
printf '{"command":"memscale sweep --out /scratch/x/a -O w=1,2","machine":{"cpu_model":"C\\\\input{evil} $&_^~","pus":4,"cores":2,"numa_nodes":1,"kernel":"k<1>"},"git_commit":"--output=%s/gitout","compiler":"cc{1}","run":{"loadavg":[0.5,1,1]}}\n' "$TMP" \
	> "$TMP/m/res/a/results.json"
printf '{"command":"memscale run","machine":{"cpu_model":"Other","pus":8,"cores":8,"numa_nodes":2,"kernel":"j"},"environment":{"start":{"loadavg":[2.3500000000000001,1,1]}}}\n' > "$TMP/m/res/b/results.json"
printf 'ab_a\tA/B of a\ta\tseries: none\nab_b\tA/B of b\tb\tseries: none\n' > "$TMP/m/fig/figures.tsv"
: > "$TMP/m/fig/ab_a.pdf"; : > "$TMP/m/fig/ab_b.pdf"
pt() { t=$1; shift; "$MEMSCALE" paper-tables --table "$t" --results "$TMP/m/res" --fig "$TMP/m/fig" --figrel fig --root . "$@"; }
pt macros --out "$TMP/m/macros.tex" && pt provenance --out "$TMP/m/prov.tex" &&
	pt figures --out "$TMP/m/fa.tex" seed a && pt figures --out "$TMP/m/fb.tex" seed b
ok $? "paper-tables --table macros, provenance and figures on hostile sidecars"
want=$(jq -r '.machine | "\(.cpu_model), \(.pus) CPUs (\(.cores) cores, \(.numa_nodes) NUMA node(s)), \(.kernel)"' "$TMP/m/res/a/results.json" |
	"$MEMSCALE" escape tex)
grep -q -F "\\newcommand{\\MachineDesc}{$want}" "$TMP/m/macros.tex" &&
	grep -q -F 'C\textbackslash{}input\{evil\} \$\&\_\textasciicircum{}\textasciitilde{}' "$TMP/m/macros.tex" &&
	grep -q -F '\newcommand{\BuildCompiler}{cc\{1\}}' "$TMP/m/macros.tex"
ok $? "the machine (as jq reads it) and the compiler reach the macros escaped"
! grep -q -F '\input{evil}' "$TMP/m/macros.tex" "$TMP/m/prov.tex" "$TMP/m/fa.tex" "$TMP/m/fb.tex"
ok $? "no control sequence from the sidecars survives"
grep -q -F 'commit(s) \texttt{-{}-output=' "$TMP/m/macros.tex"
ok $? "\\DataSet names the commit the sidecar records"
[ ! -e "$TMP/gitout" ] && grep -q 'the data are older than the code, so tables reflect the models as they were then\.}$' "$TMP/m/macros.tex"
ok $? "a commit that is not hex is never given to git"
sed 's/\\allowbreak{}//g' "$TMP/m/prov.tex" | grep -q -F '\item \texttt{a}: \texttt{memscale sweep -{}-out a -O w=1,2}; C\textbackslash{}'
ok $? "provenance: the command with its scratch path cut, and the machine"
grep -q -F '\includegraphics[width=0.75\linewidth]{fig/ab_a.pdf}' "$TMP/m/fa.tex" && ! grep -q 'Machine:' "$TMP/m/fa.tex" &&
	grep -q -F 'Machine: Other, 8 CPUs (8 cores, 2 NUMA node(s)), j.' "$TMP/m/fb.tex"
ok $? "a caption names the machine only when its data come from another one"
lo=$(jq -r '.run.loadavg[0]' "$TMP/m/res/a/results.json") hi=$(jq -r '.environment.start.loadavg[0]' "$TMP/m/res/b/results.json")
grep -q -F "record a load average of $lo to $hi at the start of their runs on 4 CPUs: the machine was busy" "$TMP/m/macros.tex"
ok $? "\\LoadNote: the sidecars' load averages as jq prints them ($lo to $hi), the first machine's CPUs"
expect_usage "paper-tables --table figures with an unknown set" "wants seed NAME, locks" -- pt figures --out - nosuch

done_testing
