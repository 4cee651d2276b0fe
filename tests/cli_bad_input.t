#!/bin/sh
# Bad input: one clear line on stderr naming the bad value, exit status 2.
. tests/lib.sh
expect_usage "unknown command" "frobnicate" -- $MEMSCALE frobnicate
expect_usage "unknown lock" "nosuchlock" -- $MEMSCALE run lock --lock nosuchlock -t 1 -s 0.1
expect_usage "unknown workload" "nosuchwl" -- $MEMSCALE run nosuchwl -t 1
expect_usage "empty thread list" "threads" -- $MEMSCALE run lock --lock none -t ""
expect_usage "zero threads" "'0'" -- $MEMSCALE run lock --lock none -t 0
expect_usage "negative threads" "'-3'" -- $MEMSCALE run lock --lock none -t -3
expect_usage "non-numeric threads" "'abc'" -- $MEMSCALE run lock --lock none -t abc
expect_usage "absurd threads" "'100000000'" -- $MEMSCALE run lock --lock none -t 100000000
expect_usage "backwards range" "'8-1'" -- $MEMSCALE run lock --lock none -t 8-1
expect_usage "zero seconds" "seconds" -- $MEMSCALE run lock --lock none -t 1 -s 0
expect_usage "negative seconds" "seconds" -- $MEMSCALE run lock --lock none -t 1 -s -1
expect_usage "unknown option" "--bogus" -- $MEMSCALE run lock --bogus
# One spelling for a format, -f/--format, in run as in compare.
expect_exit 0 "run -f csv" -- $MEMSCALE run lock --lock none -t 1 -s 0.05 -w 0 --sample-ms 50 -f csv
head -1 "$TMP/out" | grep -q '^workload,lock,.*ops_per_sec' && [ "$(wc -l <"$TMP/out")" -eq 2 ]
ok $? "... prints the CSV header and one row"
expect_usage "run -f with a bad format" "bad --format 'xml'" -- $MEMSCALE run lock -t 1 -f xml
expect_usage "run -f without a value" "option '-f' needs a value" -- $MEMSCALE run lock -f
expect_usage "compare --format without a value" "option '--format' needs a value" -- \
	$MEMSCALE compare tests/fixtures/samples_a.txt tests/fixtures/samples_b.txt --format
# Every command `memscale --help` lists names the bad option in its error:
# long, short, and a short one inside a cluster (-ZY: getopt has not moved
# past it), after a positional argument too.
$MEMSCALE --help >"$TMP/help"
for c in $(awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }' "$TMP/help"); do
	expect_usage "$c --no-such-opt" "'--no-such-opt'" -- $MEMSCALE $c --no-such-opt
	expect_usage "$c -Z" "'-Z'" -- $MEMSCALE $c -Z
	expect_usage "$c -ZY (a cluster)" "'-Z" -- $MEMSCALE $c -ZY
	expect_usage "$c ARG --no-such-opt" "'--no-such-opt'" -- $MEMSCALE $c x --no-such-opt
	$MEMSCALE $c --help >"$TMP/chelp" 2>&1
	if grep -q -- '--format\|--csv' "$TMP/chelp"; then
		grep -q -- '-f, --format\|-f table' "$TMP/chelp"
		ok $? "$c: its format option is spelled -f/--format"
	fi
done
expect_usage "unknown knob" "nosuchknob" -- $MEMSCALE run lock --lock none -t 1 --set nosuchknob=1
expect_usage "bad knob value" "lines" -- $MEMSCALE run lock --lock none -t 1 --set lines=-4
expect_usage "bad mode" "sideways" -- $MEMSCALE run lock --lock none -t 1 -m sideways
expect_usage "validate unknown lock" "nosuch" -- $MEMSCALE validate --lock nosuch
expect_usage "list unknown kind" "gizmos" -- $MEMSCALE list gizmos
expect_exit 0 "--help exits 0" -- $MEMSCALE run --help
grep -q "usage: memscale run" "$TMP/out"; ok $? "run --help prints usage"

# Numbers are decimal: a leading zero is decimal, hex and empty list items are refused.
expect_usage "hex threads" "'0x1'" -- $MEMSCALE run lock --lock none -t 0x1 -s 0.1
expect_usage "trailing comma in threads" "'1,'" -- $MEMSCALE run lock --lock none -t 1, -s 0.1
expect_usage "empty item in threads" "'1,,2'" -- $MEMSCALE run lock --lock none -t 1,,2 -s 0.1
expect_usage "hex reps" "'0x2'" -- $MEMSCALE run lock --lock none -t 1 --reps 0x2 -s 0.1
expect_usage "hex seconds" "'0x1p-3'" -- $MEMSCALE run lock --lock none -t 1 -s 0x1p-3
expect_exit 0 "-t 010 runs ten workers, not eight" -- \
	$MEMSCALE run lock --lock none -t 010 -s 0.05 -w 0 --sample-ms 50 --format csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "workers") c = i } NR == 2 { print $c }' \
	"$TMP/out" | grep -qx 10; ok $? "the CSV says workers=10"
expect_exit 0 "--set lines=010 is recorded as 10" -- \
	$MEMSCALE run lock --lock none -t 1 -s 0.05 -w 0 --sample-ms 50 --set lines=010 --format csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "lines") c = i } NR == 2 { print $c }' \
	"$TMP/out" | grep -qx 10; ok $? "the CSV says lines=10"

# Knob and timing values in experiment files are checked when the file is
# read, so --dry-run names file:line.
for v in abc -5 1e400 100parsecs 0x10; do
	printf '[experiment]\nname = t\nworkloads = lock\n[variant base]\ncs = %s\n' "$v" >"$TMP/cs.ini"
	expect_usage "experiment cs = $v" "cs.ini:5: bad value '$v' for knob 'cs'" -- \
		$MEMSCALE sweep "$TMP/cs.ini" --dry-run
done
printf '[experiment]\nname = t\nworkloads = lock\n[variant base]\n[axis]\nthink = 10, 5parsecs\n' >"$TMP/think.ini"
expect_usage "experiment axis think = 5parsecs" "think.ini:6: bad value '5parsecs'" -- \
	$MEMSCALE sweep "$TMP/think.ini" --dry-run
printf '[experiment]\nname = t\nworkloads = lock\nworkers = 1,,2\n[variant base]\n' >"$TMP/w.ini"
expect_usage "experiment workers with an empty item" "w.ini:4: bad workers" -- \
	$MEMSCALE sweep "$TMP/w.ini" --dry-run
expect_usage "--set cs=100parsecs" "cs" -- $MEMSCALE run lock --lock none -t 1 --set cs=100parsecs

# Model workloads need a lock with mutual exclusion.
expect_usage "model workload with lock none" "mutual exclusion" -- \
	$MEMSCALE run malloc1 --lock none -t 2 -s 0.3 -w 0 --sample-ms 100
expect_usage "model workload with lock none, processes" "mutual exclusion" -- \
	$MEMSCALE run lru_file_readtwice --lock none -t 2 -s 0.3 -w 0 --sample-ms 100 -m processes
# Directories, empty files, special files and missing files as inputs are
# named as such, whatever the subcommand.
: >"$TMP/empty.csv"
mkdir -p "$TMP/adir"
CAL=tests/fixtures/model_calib.txt
for kind in "adir:is a directory" "empty.csv:is empty" "/dev/null:is a special file" "nosuch.csv:No such file"; do
	f=${kind%%:*}; why=${kind#*:}
	case $f in /*) ;; *) f="$TMP/$f" ;; esac
	expect_usage "stats on $f" "$why" -- $MEMSCALE stats "$f"
	expect_usage "compare on $f" "$why" -- $MEMSCALE compare "$f" tests/fixtures/aim9_base.csv
	expect_usage "merge from $f" "$why" -- $MEMSCALE merge "$TMP/m.csv" "$f"
	expect_usage "model validate on $f" "$why" -- $MEMSCALE model validate "$f" --calib $CAL
	expect_usage "model fit usl on $f" "$why" -- $MEMSCALE model fit usl "$f"
	expect_usage "--calib $f" "$why" -- $MEMSCALE model predict lru_lock_split --calib "$f"
	expect_usage "sweep of $f" "$f" -- $MEMSCALE sweep "$f" --dry-run
done
expect_usage "lockstat on a file" "not a directory" -- $MEMSCALE lockstat "$TMP/empty.csv"
mkdir -p "$TMP/bt" && echo junk >"$TMP/bt/metadata"
expect_usage "lockstat on a broken trace: our line only, no babeltrace2 log" "cannot open trace" -- \
	$MEMSCALE lockstat "$TMP/bt"
# Unwritable outputs.
expect_usage "run --out a directory" "is a directory" -- $MEMSCALE run lock --lock none -t 1 -s 0.1 -o "$TMP/adir"
expect_usage "run --out a special file" "special file" -- $MEMSCALE run lock --lock none -t 1 -s 0.1 -o /dev/null
expect_usage "run --out into a missing directory" "does not exist" -- \
	$MEMSCALE run lock --lock none -t 1 -s 0.1 -o "$TMP/nosuch/x.csv"
expect_usage "merge into a missing directory" "does not exist" -- \
	$MEMSCALE merge "$TMP/nosuch/x.csv" tests/fixtures/aim9_base.csv
expect_usage "model calibrate --out a directory" "is a directory" -- \
	$MEMSCALE model calibrate --quick --out "$TMP/adir"
# a user's value is echoed with its control characters escaped: one line
nl='
'
expect_usage "a lock name with a newline and an escape" "unknown lock 'tick\\\\net\\\\x1b\[31m'" -- \
	$MEMSCALE run lock --lock "tick${nl}et$(printf '\033')[31m" -t 1 -s 0.05
expect_usage "validate: a lock name with a newline" "unknown lock 'a\\\\nb'" -- \
	$MEMSCALE validate --lock "a${nl}b"
done_testing
