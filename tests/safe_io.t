#!/bin/sh
# Safe input and output (issue 36, items 1 and 2): every reproducer of the
# report as a test.
#  - run -o appends only to a regular file of ours or root's, never
#    through a symbolic link (planted in a sticky directory, or anywhere);
#  - model calibrate --out writes an unpredictable O_EXCL temporary, so
#    links planted at the old FILE.tmp.PID names are never followed;
#  - a FIFO as model predict --target, or named *.csv in plot's results
#    directory, is never waited on; stats - stops at a NUL byte;
#  - jobs.sbatch quotes its paths: a blank in --out adds no option;
#  - paper/gen.sh escapes every value it puts into LaTeX (no ^^
#    sequence, no \input from a results directory).
. tests/lib.sh
R="run lock --lock pthread_mutex -s 0.1 -w 0 --sample-ms 50 -t 1"
M=$MEMSCALE; case $M in /*) ;; *) M=$(pwd)/$MEMSCALE ;; esac

# --- run -o: appends --------------------------------------------------------
echo precious > "$TMP/victim"
mkdir -m 1777 "$TMP/sticky"
ln -s "$TMP/victim" "$TMP/sticky/out.csv"
if id nobody >/dev/null 2>&1; then chown -h nobody "$TMP/sticky/out.csv"; fi
expect_usage "run -o through a symlink planted in a sticky directory" "symbolic link" -- \
	$M $R -o "$TMP/sticky/out.csv"
[ "$(cat "$TMP/victim")" = precious ]; ok $? "the link's target was not appended to"
rm -f "$TMP/sticky/out.csv"; ln -s "$TMP/victim" "$TMP/own.csv"
expect_usage "run -o through any symlink" "symbolic link" -- $M $R -o "$TMP/own.csv"
[ "$(cat "$TMP/victim")" = precious ]; ok $? "its target is untouched"
rm -f "$TMP/sticky/out.csv"; ln -s "$TMP/nothing-here" "$TMP/sticky/dangling.csv"
expect_usage "run -o through a dangling symlink" "symbolic link" -- \
	$M $R -o "$TMP/sticky/dangling.csv"
[ ! -e "$TMP/nothing-here" ]; ok $? "no file was created where the link points"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	printf 'workload,ops_per_sec\n' > "$TMP/sticky/theirs.csv"; chown nobody "$TMP/sticky/theirs.csv"
	cp "$TMP/sticky/theirs.csv" "$TMP/theirs.before"
	expect_usage "run -o into another user's file" "owned by uid 65534" -- \
		$M $R -o "$TMP/sticky/theirs.csv"
	cmp -s "$TMP/sticky/theirs.csv" "$TMP/theirs.before"; ok $? "their file is unchanged"
fi
ln "$TMP/victim" "$TMP/hard.csv"
expect_usage "run -o into a file with a second hard link" "hard link" -- $M $R -o "$TMP/hard.csv"
expect_exit 0 "run -o into a new file" -- $M $R -o "$TMP/sticky/new.csv"
expect_exit 0 "run -o appending to it" -- $M $R -o "$TMP/sticky/new.csv"
n=$(awk 'END { print NR }' "$TMP/sticky/new.csv")
[ "$n" -eq 3 ]; ok $? "both runs' rows are there under one header ($n lines)"

# --- model calibrate --out: the temporary file ------------------------------
mkdir "$TMP/cal"; echo precious > "$TMP/cal-victim"
# The old temporary was cal.txt.tmp.PID: links for the next PIDs.
# (one process plants them all, so the PIDs are not used up doing it)
p=$(sh -c 'echo $$')
perl -e 'symlink($ARGV[0], "$ARGV[1]." . ($ARGV[2] + $_)) for 1 .. 3000' \
	"$TMP/cal-victim" "$TMP/cal/cal.txt.tmp" "$p"
expect_exit 0 "model calibrate --out with links planted at FILE.tmp.PID" -- \
	$M model calibrate --quick --no-locks --no-workloads --reps 2 --out "$TMP/cal/cal.txt"
[ "$(cat "$TMP/cal-victim")" = precious ]; ok $? "no planted link was written through"
[ -f "$TMP/cal/cal.txt" ] && [ ! -L "$TMP/cal/cal.txt" ] && grep -q '^format = memscale-calib' "$TMP/cal/cal.txt"
ok $? "cal.txt is the calibration, a regular file, not a link"
n=$(find "$TMP/cal" -name 'cal.txt.tmp.*' ! -type l | wc -l)
[ "$n" -eq 0 ]; ok $? "no temporary file is left ($n)"

# --- FIFOs and endless streams are never waited on --------------------------
mkfifo "$TMP/target.ini"
timeout 10 $M model predict --workload lru_file_readtwice --pair v5.10..v5.11 \
	--target "$TMP/target.ini" --cpus 4 >"$TMP/out" 2>"$TMP/err"; st=$?
[ $st -eq 2 ] && grep -q "is a FIFO" "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ]
ok $? "a FIFO as --target: exit 2, one line naming it (exit $st)"
timeout 10 $M stats - </dev/zero >"$TMP/out" 2>"$TMP/err"; st=$?
[ $st -eq 2 ] && grep -q "NUL byte" "$TMP/err"
ok $? "stats - </dev/zero stops at the first NUL: exit 2 (exit $st)"
printf '1\n2\n3\n' | timeout 10 $M stats - >"$TMP/out" 2>&1
ok $? "stats - still reads a plain stream"
if command -v gnuplot >/dev/null 2>&1; then
	mkdir "$TMP/res"
	printf 'workload,lock,counter,mode,affinity,workers,rep,ops_per_sec\n' > "$TMP/res/a.csv"
	for w in 1 2; do echo "page_fault2,qspinlock,,threads,cores,$w,0,$((100 * w))"; done >> "$TMP/res/a.csv"
	mkfifo "$TMP/res/stuck.csv" "$TMP/res/predictions.csv"
	FORMATS=png timeout 60 sh plots/plot.sh "$TMP/res" "$TMP/fig" >/dev/null 2>"$TMP/err"; st=$?
	[ $st -eq 0 ]; ok $? "plot with FIFOs named *.csv in the results: finishes, exit 0 (exit $st)"
	ls "$TMP/fig"/throughput_*.png >/dev/null 2>&1; ok $? "the real CSV was plotted"
else
	ok 0 "# SKIP gnuplot not installed"
fi

# --- jobs.sbatch: paths quoted ----------------------------------------------
(cd "$TMP" && $M sweep "$OLDPWD/tests/fixtures/lock_ab.ini" --emit-jobs -o "j o --wrap=id") >/dev/null 2>&1
ok $? "--emit-jobs with a blank and an option in --out"
s="$TMP/j o --wrap=id/jobs.sbatch"
grep -qxF '#SBATCH --output="j o --wrap=id/slurm-%A_%a.out"' "$s"; ok $? "--output is one quoted value"
grep -qxF "#SBATCH --chdir=\"$TMP\"" "$s"; ok $? "--chdir is one quoted value"
# As sbatch reads a directive: outside double quotes a blank ends the value.
awk '/^#SBATCH/ { v = $0; sub(/^#SBATCH +/, "", v); q = 0
	for (i = 1; i <= length(v); i++) { c = substr(v, i, 1)
		if (c == "\\") { i++; continue } if (c == "\"") q = !q
		else if (c == " " && !q) bad = 1 } } END { exit bad }' "$s"
ok $? "no #SBATCH line holds an unquoted blank (a second option)"

# --- paper/gen.sh: every value escaped --------------------------------------
P=$TMP/paper; mkdir -p "$P/counters" "$P/kernel_vs_model" "$P/fig"; : > "$P/fig/figures.tsv"
HAT='^^5cinput^^7b/etc/hostname^^7d'
printf '%s\n' 'workload,counter,threshold,workers,ops_per_sec,max_error_observed,error_bound' \
	"counter,percpu,$HAT,2,1000,0,\\input{/etc/hostname}" \
	"counter,atomic,\\input{/etc/hostname},2,900,0,0" > "$P/counters/results.csv"
printf '%s\n' 'workload,workers,ops_per_sec,charges_per_op' \
	"$HAT,1,1000,1" "$HAT,2,1500,1" "kernel:$HAT,1,100,1" "kernel:$HAT,2,150,1" \
	> "$P/kernel_vs_model/results.csv"
printf '{"run":{"loadavg":["\\\\input{/etc/hostname}",1,1]}}\n' > "$P/counters/results.json"
printf '{"run":{"loadavg":["^^5cinput^^7b/etc/hostname^^7d",1,1]}}\n' > "$P/kernel_vs_model/results.json"
GEN="$P/gen" MEMSCALE=$M sh paper/gen.sh "$P" "$P/fig" >/dev/null 2>"$TMP/gen.err"
ok $? "gen.sh on a results directory with planted values"
grep -q '^percpu' "$P/gen/counters.tex" && grep -q '^kernel & .*5cinput' "$P/gen/kernel_vs_model.tex"
ok $? "the planted rows reached the tables"
! grep -q '\^^' "$P"/gen/*.tex; ok $? "no ^^ sequence in any generated .tex"
# (gen.sh's own \input of each seed's generated section, by its plain
# name, is the one \input allowed)
! grep -n '\\input\|\\include\|\\openin\|\\read\|\\write\|\\catcode\|\\csname\|\\def' "$P"/gen/*.tex |
	grep -v ':\\input{generated/seed_[a-z0-9_]*\.tex}$'
ok $? "no \\input or other planted control sequence in any generated .tex"
! grep -q 'LoadNote}{The sidecars' "$P/gen/macros.tex"; ok $? "a non-numeric loadavg is not quoted in \\LoadNote"
done_testing
