#!/bin/sh
# Every subcommand `memscale --help` lists, a new one included: --help
# exits 0 and prints its usage line, and an unknown option exits 2 with one
# line on stderr naming it.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh

expect_exit 0 "memscale --help" -- $MEMSCALE --help
cmds=$(awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }' "$TMP/out")
n=$(echo "$cmds" | wc -w)
[ "$n" -ge 11 ]; ok $? "memscale --help lists the subcommands ($n)"
for c in $cmds; do
	expect_exit 0 "$c --help" -- $MEMSCALE $c --help
	head -1 "$TMP/out" | grep -q "^usage: memscale $c"; ok $? "$c --help starts with its usage line"
	expect_usage "$c with an unknown option" "no-such-option" -- $MEMSCALE $c --no-such-option
done
done_testing
