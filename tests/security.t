#!/bin/sh
# Security (issue 25): memscale runs as root for tracing and the kernel
# backend, so nobody else's input may steer it.
#  - the tracing state directory and its files: a state file owned by
#    another user, a symbolic link planted there, a group-writable or
#    symlinked directory are refused (exit 2, one line) and nothing they
#    point at is touched;
#  - concurrent traced runs share the session daemon by reference count:
#    the first to end does not stop the other's daemon;
#  - results reach gnuplot as data: names holding ', `, $() or newlines
#    run nothing on `plot`;
#  - --emit-jobs refuses control characters in what it writes into
#    jobs.txt and jobs.sbatch.
. tests/lib.sh
XDG=$TMP/xdg
mkdir -m 700 "$XDG"
S=$XDG/memscale
trun() { # a short traced run with the state under $XDG
	XDG_RUNTIME_DIR=$XDG $MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 \
		--sample-ms 50 -w 0 --trace "$1"
}
traced=1
if ! command -v lttng >/dev/null 2>&1 || ! command -v lttng-sessiond >/dev/null 2>&1; then
	traced=0; why="lttng-tools not installed"
elif ! trun "$TMP/probe" >/dev/null 2>"$TMP/err"; then
	traced=0; why="no LTTng session possible here (or TRACE=0): $(head -1 "$TMP/err")"
fi

# --- the state directory and its files ------------------------------------
if [ "$traced" -eq 1 ] && [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	[ -d "$S" ] && [ "$(stat -c %a "$S")" = 700 ]; ok $? "state directory $S is created 0700"
	# A state file another user planted, naming a process to kill.
	sleep 60 & bystander=$!
	printf '%d\n' "$bystander" > "$S/sessiond"; chown nobody "$S/sessiond"
	expect_usage "a foreign-owned state file" "owned by uid 65534" -- trun "$TMP/t1"
	kill -0 $bystander 2>/dev/null; ok $? "the pid it names was not signalled"
	grep -qx "$bystander" "$S/sessiond"; ok $? "the foreign file was left as it was"
	rm -f "$S/sessiond"
	# A user file of another owner (counts as a live run) is refused too.
	printf '1\n' > "$S/user.1"; chown nobody "$S/user.1"
	expect_usage "a foreign-owned user file" "owned by uid 65534" -- trun "$TMP/t1b"
	rm -f "$S/user.1"
	# Symbolic links planted where state files go: never followed.
	echo precious > "$TMP/victim"
	ln -s "$TMP/victim" "$S/sessiond"
	expect_usage "a symbolic link as the sessiond file" "symbolic link" -- trun "$TMP/t2"
	rm -f "$S/sessiond"; rm -f "$S/lock"; ln -s "$TMP/victim" "$S/lock"
	expect_usage "a symbolic link as the lock file" "symbolic link" -- trun "$TMP/t3"
	[ "$(cat "$TMP/victim")" = precious ]; ok $? "the symlinks' target is untouched"
	rm -f "$S/lock"
	# The directory itself: group-writable, another owner's, a symlink.
	chmod 770 "$S"
	expect_usage "a group-accessible state directory" "mode 0770" -- trun "$TMP/t4"
	chmod 700 "$S"; chown nobody "$S"
	expect_usage "a foreign-owned state directory" "owned by uid 65534" -- trun "$TMP/t5"
	chown root "$S"; mv "$S" "$XDG/real"; ln -s "$XDG/real" "$S"
	expect_usage "a symlinked state directory" "symbolic link" -- trun "$TMP/t6"
	rm "$S"; mv "$XDG/real" "$S"
	expect_exit 0 "with the planted files gone, tracing works again" -- trun "$TMP/t7"
	kill $bystander 2>/dev/null; wait $bystander 2>/dev/null

	# --- two traced runs: the one that started the daemon ends first -----
	sd() { pgrep -x lttng-sessiond >/dev/null 2>&1; }
	had=0; sd && had=1
	XDG_RUNTIME_DIR=$XDG $MEMSCALE run lock --lock pthread_mutex -t 1 -s 1 \
		--sample-ms 100 -w 0 --trace "$TMP/a" >/dev/null 2>"$TMP/a.err" & first=$!
	i=0; while [ $i -lt 100 ] && ! lttng list 2>/dev/null | grep -q "memscale-$first-"; do
		sleep 0.1; i=$((i + 1)); done
	XDG_RUNTIME_DIR=$XDG $MEMSCALE run lock --lock pthread_mutex -t 1 -s 3 \
		--sample-ms 100 -w 0 --trace "$TMP/b" >/dev/null 2>"$TMP/b.err" & second=$!
	wait $first; st1=$?
	sleep 0.5
	if kill -0 $second 2>/dev/null; then
		sd; ok $? "the daemon is still there after the first traced run ended"
	else
		ok 0 "# SKIP the second run ended first (machine too slow to overlap them)"
	fi
	wait $second; st2=$?
	[ $st1 -eq 0 ] && [ $st2 -eq 0 ]; ok $? "both overlapping traced runs succeed (exit $st1, $st2)"
	grep -q 'events, 0 discarded\|events, [0-9]* discarded' "$TMP/b.err" && ! grep -q 'could not be read' "$TMP/b.err"
	ok $? "the second run's trace was recorded and read back"
	ls "$S" | grep -q '^user\.'; [ $? -ne 0 ]; ok $? "no reference is left once both ended"
	if [ "$had" -eq 0 ]; then
		i=0; while [ $i -lt 50 ] && sd; do sleep 0.1; i=$((i + 1)); done
		! sd; ok $? "the last run stopped the daemon memscale started"
	fi
else
	[ "$traced" -eq 1 ] || echo "# SKIP state-file tests: $why"
	[ "$traced" -eq 1 ] && echo "# SKIP state-file tests: need root and user nobody"
fi

# --- results reach gnuplot as data -----------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	R=$TMP/res; mkdir -p "$R"
	P=$TMP/pwned
	# The issue's reproducer, then names of our own: a backtick in a
	# series (lock) name, $() and a double quote, a path with a quote.
	W="x'.system('touch\${IFS}$P.1').'"
	L1="q\`touch $P.2\`"; L2="m\$(touch $P.3)\"x"
	{
		echo "workload,lock,counter,mode,affinity,workers,rep,ops_per_sec"
		for w in 1 2; do
			echo "$W,$L1,,threads,cores,$w,0,$((100 * w))"
			echo "$W,\"$(echo "$L2" | sed 's/"/""/g')\",,threads,cores,$w,0,$((90 * w))"
			echo "page_fault2,qspinlock,,threads,cores,$w,0,$((80 * w))"
		done
	} > "$R/it's \`touch PWNED_4\`.csv"
	FORMATS=png sh plots/plot.sh "$R" "$TMP/fig'\`touch PWNED_5\`" >/dev/null 2>"$TMP/plot.err"
	st=$?
	[ $st -eq 0 ]; ok $? "plot.sh on hostile names exits 0 (exit $st)"
	ls "$P".* PWNED_4 PWNED_5 "$R/PWNED_4" >/dev/null 2>&1; [ $? -ne 0 ]; ok $? "no command in a name or path ran"
	n=$(ls "$TMP/fig'\`touch PWNED_5\`"/throughput_*.png 2>/dev/null | wc -l)
	[ "$n" -ge 2 ]; ok $? "the figures were drawn all the same ($n throughput figures)"
	grep -q "$L1" "$TMP/fig'\`touch PWNED_5\`"/data/*.gp.str; ok $? "series names went to gnuplot in a data file"
	! grep -q 'touch' "$TMP/fig'\`touch PWNED_5\`"/data/*.gp; ok $? "no name appears in a generated gnuplot script"
else
	echo "# SKIP plot tests: gnuplot not installed"
fi

# --- generated job scripts -------------------------------------------------
EXP=tests/fixtures/lock_ab.ini
cd "$TMP" || exit 1
OLDPWD_=$OLDPWD
M=$MEMSCALE; case $M in /*) ;; *) M=$OLDPWD_/$MEMSCALE ;; esac
X=$OLDPWD_/$EXP
expect_usage "--emit-jobs: a newline in --out (the reproducer)" "control character" -- \
	$M sweep "$X" --emit-jobs -o "$(printf 'd\ntouch /tmp/P_%s #' $$)"
[ ! -e "$(printf 'd\ntouch /tmp/P_%s #' $$)" ]; ok $? "no directory was made for it"
expect_usage "--emit-jobs: a carriage return in --out" "byte 0x0d" -- \
	$M sweep "$X" --emit-jobs -o "$(printf 'jobs\rx')"
expect_usage "--emit-jobs: an escape in an --override" "an --override holds a control" -- \
	$M sweep "$X" --emit-jobs -o jobs1 -O "$(printf 'seconds=0.1\033')"
mkdir -p "$(printf 'cw\nd')" && cp "$X" "$(printf 'cw\nd')/e.ini"
(cd "$(printf 'cw\nd')" && $M sweep e.ini --emit-jobs -o j) >/dev/null 2>"$TMP/cwd.err"
[ $? -eq 2 ] && grep -q "the current directory holds a control" "$TMP/cwd.err"
ok $? "--emit-jobs from a directory whose name holds a newline: refused"
cp "$X" "$(printf 'e\tx.ini')"
expect_usage "--emit-jobs: a tab in the experiment path" "experiment path holds" -- \
	$M sweep "$(printf 'e\tx.ini')" --emit-jobs -o jobs2
expect_exit 0 "--emit-jobs with a space and a quote in --out (quoted, fine)" -- \
	$M sweep "$X" --emit-jobs -o "j o'b"
ls /tmp/P_$$ >/dev/null 2>&1; [ $? -ne 0 ]; ok $? "nothing ran"
cd "$OLDPWD_" || exit 1
done_testing
