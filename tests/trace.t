#!/bin/sh
# Tracing end to end: `memscale run --trace` under a real LTTng session, the
# trace read back by `memscale lockstat` and by babeltrace2 itself, counts
# from the trace equal to the program's own counts, and the error paths
# (no lttng in PATH, unwritable or reused trace directory, bad lockstat
# arguments) exiting 2 with one clear line.
. tests/lib.sh

# csv_col FILE COLUMN [ROW]: value of COLUMN in data row ROW (default 1).
csv_col() {
	awk -F, -v c="$2" -v r="${3:-1}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		NR == r + 1 { print (k ? $k : "missing") }' "$1"
}
# lockstat_sum FILE COLUMN NAME: sum of COLUMN over `lockstat --csv` rows of NAME.
lockstat_sum() {
	awk -F, -v c="$2" -v n="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		/^#/ { next } $1 == n { s += $k } END { print s + 0 }' "$1"
}
sessiond_running() { pgrep -x lttng-sessiond >/dev/null 2>&1; }

# --- errors that need no tracer ---
expect_usage "lockstat without a directory" "TRACE_DIR" -- $MEMSCALE lockstat
expect_usage "lockstat bad --sort" "sideways" -- $MEMSCALE lockstat "$TMP" --sort sideways
expect_usage "lockstat on a directory without a trace" "no CTF trace" -- $MEMSCALE lockstat "$TMP"
expect_usage "--trace without lttng in PATH names the package" "lttng-tools" -- \
	env PATH=/nonexistent $MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 --trace "$TMP/nopath"
if [ -x bin/notrace/memscale ]; then
	expect_usage "TRACE=0 build: --trace says compiled out" "compiled out" -- \
		bin/notrace/memscale run lock --lock pthread_mutex -t 1 -s 0.1 --trace "$TMP/t0"
fi

if ! command -v lttng >/dev/null 2>&1 || ! command -v lttng-sessiond >/dev/null 2>&1; then
	echo "# SKIP traced runs: lttng-tools not installed"
	done_testing; exit $?
fi
if $MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 --trace "$TMP/probe" \
	>/dev/null 2>"$TMP/err"; then :; else
	if grep -q "compiled out" "$TMP/err"; then
		echo "# SKIP traced runs: this memscale was built with TRACE=0"
	else
		echo "# SKIP traced runs: no LTTng session possible here:"; sed 's/^/#   /' "$TMP/err"
	fi
	done_testing; exit $?
fi
# The environment's settings reach lttng's arguments only when valid:
# one line naming the variable, exit 2, before any session is made.
for spec in "SUBBUF:4M --no-such-option" "SUBBUF:3M" "SUBBUF:1k" "NSUBBUF:3" "NSUBBUF:-4" \
	    "EVENTS:memscale:lock_agg,--x" "EVENTS:kernel:*" "EVENTS:memscale:a b"; do
	var=MEMSCALE_TRACE_${spec%%:*} val=${spec#*:}
	expect_usage "$var='$val'" "bad $var" -- \
		env "$var=$val" $MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 --trace "$TMP/env"
	[ ! -e "$TMP/env" ]; ok $? "... and no trace directory was made"
done
: >"$TMP/file"
expect_usage "trace directory under a regular file" "cannot create trace directory" -- \
	$MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 --trace "$TMP/file/sub"
expect_usage "reusing a directory that holds a trace" "already holds a trace" -- \
	$MEMSCALE run lock --lock pthread_mutex -t 1 -s 0.1 --trace "$TMP/probe"

# --- a deterministic traced run: 2 workers, threads ---
had_sessiond=0; sessiond_running && had_sessiond=1
expect_exit 0 "traced lock run, 2 threads" -- $MEMSCALE run lock --lock pthread_mutex -t 2 \
	-s 0.5 --sample-ms 100 --trace "$TMP/tr" --format csv -o "$TMP/r.csv"
grep -q "discarded by the tracer" "$TMP/err"; ok $? "run reports discarded (lost) events"
if [ "$had_sessiond" -eq 0 ]; then
	sessiond_running; [ $? -ne 0 ]; ok $? "the session daemon we started is gone"
fi
expect_exit 0 "lockstat --csv reads it" -- $MEMSCALE lockstat "$TMP/tr" --csv
cp "$TMP/out" "$TMP/ls.csv"
own=$(( $(csv_col "$TMP/r.csv" acq_min) + $(csv_col "$TMP/r.csv" acq_max) ))
traced=$(lockstat_sum "$TMP/ls.csv" acquired bench)
[ "$traced" -eq "$own" ] && [ "$own" -gt 0 ]; ok $? "acquisitions from the trace ($traced) = the workload's own count ($own)"
contended=$(lockstat_sum "$TMP/ls.csv" contended bench)
records=$(lockstat_sum "$TMP/ls.csv" contention_records bench)
lost=$(sed -n 's/.*discarded_events=\([0-9]*\).*/\1/p' "$TMP/ls.csv")
[ "$records" -eq "$contended" ] || [ "$lost" -gt 0 ]
ok $? "contention records ($records) = contended ($contended), or discarded events ($lost) explain it"
pct=$(csv_col "$TMP/r.csv" bench_contended_pct)
[ "$pct" != missing ]; ok $? "results CSV has bench_contended_pct ($pct)"
expect_exit 0 "lockstat -t" -- $MEMSCALE lockstat "$TMP/tr" -t
n=$(grep -Ec '^ *[01] +bench ' "$TMP/out"); [ "$n" -eq 2 ]; ok $? "lockstat -t: one bench row per worker ($n)"
expect_exit 0 "lockstat --sort wait_max" -- $MEMSCALE lockstat "$TMP/tr" --sort wait_max
if command -v babeltrace2 >/dev/null 2>&1; then
	babeltrace2 "$TMP/tr" >"$TMP/bt" 2>"$TMP/bterr"; ok $? "babeltrace2 opens the trace as it is"
	for ph in warmup measurement stop; do
		grep -q "memscale:run_phase: .*phase = \"$ph\"" "$TMP/bt"; ok $? "run_phase $ph recorded"
	done
	grep -q 'memscale:lock_agg: .*cls = ( "bench"' "$TMP/bt"; ok $? "lock_agg names its class"
fi

# --- process mode: workers are forked after lttng-ust started ---
expect_exit 0 "traced lock run, 2 processes" -- $MEMSCALE run lock --lock pthread_mutex -t 2 \
	-m processes -s 0.5 --sample-ms 100 --trace "$TMP/trp" --format csv -o "$TMP/rp.csv"
$MEMSCALE lockstat "$TMP/trp" --csv -t >"$TMP/lsp.csv" 2>"$TMP/err"; ok $? "lockstat reads the process-mode trace"
own=$(( $(csv_col "$TMP/rp.csv" acq_min) + $(csv_col "$TMP/rp.csv" acq_max) ))
traced=$(lockstat_sum "$TMP/lsp.csv" acquired bench)
[ "$traced" -eq "$own" ]; ok $? "process mode: acquisitions from the trace ($traced) = own count ($own)"
contended=$(lockstat_sum "$TMP/lsp.csv" contended bench)
records=$(lockstat_sum "$TMP/lsp.csv" contention_records bench)
lost=$(sed -n 's/.*discarded_events=\([0-9]*\).*/\1/p' "$TMP/lsp.csv")
[ "$records" -eq "$contended" ] || [ "$lost" -gt 0 ]
ok $? "process mode: every forked worker's contention is recorded ($records records, $contended contended, $lost lost)"
n=$(awk -F, '$1 == "bench" && $13 > 0' "$TMP/lsp.csv" | wc -l)
contended_workers=$(awk -F, '$1 == "bench" && $4 > 0' "$TMP/lsp.csv" | wc -l)
[ "$n" -eq "$contended_workers" ]; ok $? "process mode: records from each contended worker ($n)"
done_testing
