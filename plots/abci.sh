#!/bin/sh
# abci.sh - what `memscale compare -f csv` says of each measured A/B line.
#
#   sh plots/abci.sh AB.tsv > AB_ci.tsv
#
# AB.tsv is the table plots/ab.awk writes (measured lines carry the base
# and patch samples in fields 11 and 12).  Each measured line is printed
# with five fields appended: Welch's p, ci_lo_pct, ci_hi_pct (the 95 %
# interval of the change; NA where this compare has no such columns),
# yes/no (significant: the interval excludes zero, else p < 0.05) and
# compare's change_pct (what the figures' bars show); other lines
# unchanged.  The samples reach compare as files, never as words of
# a command line.  MEMSCALE names the binary.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
MEMSCALE=${MEMSCALE:-$(dirname "$HERE")/bin/memscale}
[ $# -eq 1 ] || { echo "usage: plots/abci.sh AB.tsv" >&2; exit 2; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
while IFS= read -r l; do
	case $l in measured*) ;; *) printf '%s\n' "$l"; continue ;; esac
	printf '%s\n' "$l" | cut -f11 | tr ' ' '\n' | grep . > "$W/base"
	printf '%s\n' "$l" | cut -f12 | tr ' ' '\n' | grep . > "$W/patch"
	r=
	if [ -s "$W/base" ] && [ -s "$W/patch" ]; then
		r=$("$MEMSCALE" compare "$W/base" "$W/patch" -f csv 2>/dev/null |
			awk -F, -v emit=paper -f "$HERE/abcsv.awk")
	fi
	printf '%s\t%s\n' "$l" "${r:-NA	NA	NA	NA	NA}"
done < "$1"
