#!/bin/sh
# The README is a test: every command line of README.md's ```sh blocks
# runs, in the README's order, from a temporary directory laid out like a
# user's checkout (bin/, experiments/, results-reference/ and tests/ are
# links to this checkout's, so the README's relative paths resolve and its
# outputs land in the temporary directory), and must exit 0.
#
# Read from README.md itself, never from a copy:
# - a ```sh block's lines are commands; blank and whole-line comments are
#   not; a line ending in \ continues on the next one;
# - indented blocks are synopses (WORKLOAD, [options]) and the make
#   targets that run this very suite: they are not run;
# - `export ...` lines run in this shell, so later lines see them, as in
#   the user's; every other line runs as `sh FILE` under a timeout;
# - a line whose comment says `needs: A, B` runs only where the machine
#   has each of them (root; memcg: a memory cgroup memscale can create;
#   lttng: a session memscale can start; N CPUs: that many online; any
#   other word: that program in PATH), else `ok N # SKIP` with the reason;
#   `slow: ...` runs only with MEMSCALE_README_SLOW=1.
. tests/lib.sh
ROOT=$(pwd)
README=$ROOT/README.md
skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N # SKIP $1"; }

# --- the user's checkout, in the temporary directory ---
HOME_DIR=$TMP/checkout
mkdir -p "$HOME_DIR" "$TMP/cmd"
for d in bin experiments results-reference tests; do ln -s "$ROOT/$d" "$HOME_DIR/$d"; done
: >"$TMP/stamp"

# --- the commands: one file per command line, and a list "N LINE" ---
awk -v dir="$TMP/cmd" '
	/^```sh[[:space:]]*$/ { insh = 1; next }
	/^```/ { insh = 0; cont = 0; next }
	!insh { next }
	cont { print >> f; cont = /\\$/; if (!cont) close(f); next }
	/^[[:space:]]*(#|$)/ { next }
	{ n++; f = sprintf("%s/%03d.sh", dir, n); print > f; printf "%03d %d\n", n, NR > (dir "/list")
	  cont = /\\$/; if (!cont) close(f) }' "$README"
total=$(wc -l <"$TMP/cmd/list" 2>/dev/null || echo 0)
[ "$total" -gt 0 ]; ok $? "README.md has command lines in its sh blocks ($total)"

# --- what the machine allows (each probed once, on first need) ---
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
probe_memcg() {
	[ -n "${memcg_why+x}" ] && return
	memcg_why=
	if ! "$ROOT/bin/memscale" run kernel:fallocate1 -t 1 -s 0.05 --sample-ms 50 -w 0 \
		>"$TMP/memcg.probe" 2>&1; then
		grep -qE 'cannot create memory cgroup|no usable memory cgroup' "$TMP/memcg.probe" &&
			memcg_why="no memory cgroup here: $(grep memscale: "$TMP/memcg.probe" | head -1)"
	fi
}
probe_lttng() {
	[ -n "${lttng_why+x}" ] && return
	lttng_why=
	if ! command -v lttng >/dev/null 2>&1 || ! command -v lttng-sessiond >/dev/null 2>&1; then
		lttng_why="lttng-tools not installed"
	elif ! "$ROOT/bin/memscale" run lock --lock pthread_mutex -t 1 -s 0.1 \
		--trace "$TMP/lttng.probe" >/dev/null 2>"$TMP/lttng.err"; then
		lttng_why="no LTTng session here: $(head -1 "$TMP/lttng.err")"
	fi
}
# why_not NEEDS: sets why to the first of NEEDS (a comma list) this machine
# lacks, or to nothing; in this shell, so each probe runs once.
why_not() {
	why=
	old_ifs=$IFS; IFS=,; set -f; set -- $1; set +f; IFS=$old_ifs
	for need; do
		case $need in
		'') ;;
		root) [ "$(id -u)" -eq 0 ] || why="needs root" ;;
		memcg) probe_memcg; why=$memcg_why ;;
		lttng) probe_lttng; why=$lttng_why ;;
		*' CPUs'|*' CPU')
			n=${need%% *}
			case $n in
			*[!0-9]*|'') why="bad marker 'needs: $need'" ;;
			*) [ "$ncpu" -ge "$n" ] || why="needs $n CPUs, $ncpu online" ;;
			esac ;;
		*[!a-z0-9_.-]*) why="bad marker 'needs: $need'" ;;
		*) command -v "$need" >/dev/null 2>&1 || why="needs $need, not in PATH" ;;
		esac
		[ -z "$why" ] || return 0
	done
}

# --- run them in order ---
cd "$HOME_DIR" || exit 1
start=$(date +%s)
while read -r n line; do
	f=$TMP/cmd/$n.sh
	cmd=$(head -1 "$f" | sed 's/[[:space:]]*#.*//; s/[[:space:]]*\\$/ .../')
	desc="README.md:$line: $cmd"
	needs=$(sed -n 's/.*#.*needs: *\([^);]*\).*/\1/p' "$f" | head -1 | sed 's/, */,/g; s/ *$//')
	slow=$(sed -n 's/.*#.*slow: *\([^);]*\).*/\1/p' "$f" | head -1)
	why_not "$needs"
	case $why in
	"bad marker"*) ok 1 "$desc: $why"; continue ;;
	?*) skip "$desc: $why"; continue ;;
	esac
	if [ -n "$slow" ] && [ "${MEMSCALE_README_SLOW:-0}" != 1 ]; then
		skip "$desc: slow ($slow); MEMSCALE_README_SLOW=1 runs it"; continue
	fi
	case $cmd in
	export\ *) . "$f" </dev/null >"$TMP/out" 2>"$TMP/err"; rc=$? ;;
	*) timeout -k 5 300 sh "$f" </dev/null >"$TMP/out" 2>"$TMP/err"; rc=$? ;;
	esac
	[ "$rc" -eq 0 ]; ok $? "$desc (exit $rc)"
	[ "$rc" -eq 0 ] || { sed 's/^/#   /' "$TMP/err" | tail -5; sed 's/^/#   /' "$TMP/out" | tail -3; }
done <"$TMP/cmd/list"
echo "# the README's commands took $(( $(date +%s) - start )) s"
cd "$ROOT" || exit 1

# --- outputs went to the temporary directory, none into the checkout ---
written=$(find "$ROOT/experiments" "$ROOT/results-reference" "$ROOT/tests" -newer "$TMP/stamp" 2>/dev/null | head -3)
[ -z "$written" ]; ok $? "the README's commands wrote nothing into the checkout${written:+: $written}"
done_testing
