# tests/lib.sh - TAP helpers for shell tests (sourced by tests/*.t).
# Each check runs a command and asserts on its exit status and output.
MEMSCALE=${MEMSCALE:-./bin/memscale}
# The machine's calibration file for the tests: the fixture (its kwork.*
# figures spare every model run the kernel-shaped work's calibration, and
# no test depends on what the machine's own file holds).
MEMSCALE_CALIB=${MEMSCALE_TEST_CALIB:-$(pwd)/tests/fixtures/model_calib.txt}
export MEMSCALE_CALIB
TAP_N=0
TAP_FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The machine's state directory (the kernel-shaped work kept once per
# machine, kwork_store.c): the test's own, empty, so no test reads or
# writes what this machine may or may not hold in /var/lib/memscale.
MEMSCALE_STATE_DIR=$TMP/state-dir
export MEMSCALE_STATE_DIR

ok() { # ok COND-EXIT-STATUS DESCRIPTION
	TAP_N=$((TAP_N + 1))
	if [ "$1" -eq 0 ]; then echo "ok $TAP_N - $2"
	else echo "not ok $TAP_N - $2"; TAP_FAIL=$((TAP_FAIL + 1)); fi
}

# expect_exit STATUS DESCRIPTION -- CMD...: status must match; stderr kept in $TMP/err
expect_exit() {
	want=$1; desc=$2; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"; got=$?
	[ "$got" -eq "$want" ]; ok $? "$desc (exit $got, want $want)"
	[ "$got" -eq "$want" ] || sed 's/^/#   /' "$TMP/err" | head -5
}

# expect_usage DESCRIPTION PATTERN -- CMD...: exit 2 and one stderr line matching PATTERN
expect_usage() {
	desc=$1; pat=$2; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"; got=$?
	lines=$(wc -l <"$TMP/err")
	[ "$got" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$pat" "$TMP/err"
	ok $? "$desc: exit 2 with one clear line"
	[ "$got" -eq 2 ] && [ "$lines" -eq 1 ] || { echo "#   exit $got, stderr:"; sed 's/^/#   /' "$TMP/err" | head -5; }
}

done_testing() { echo "1..$TAP_N"; [ "$TAP_FAIL" -eq 0 ]; }
