#!/bin/sh
# check_sizes.sh [FILE...] - memscale's size rules (docs/layers.md's
# neighbour, the developers' guide): no C file over 1000 lines, and no
# function over 120 lines, outside tests/.  Without arguments it checks
# every .c and .h under the layer folders and bench/; with arguments,
# those files.  Prints one line per violation:
#   FILE: N lines (over 1000)
#   FILE:LINE: FUNCTION N lines (over 120)
# and exits 1 if there is any.  A function's lines run from its
# definition's first line to its closing brace: from Universal Ctags
# (its end: field) where installed, else from a brace count over
# definitions that start at column 0 (the house style; also with
# CHECK_SIZES_NO_CTAGS=1).
set -eu
cd "$(dirname "$0")/.."
MAX_FILE=${MAX_FILE:-1000}
MAX_FUNC=${MAX_FUNC:-120}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

if [ $# -gt 0 ]; then
	for f in "$@"; do echo "$f"; done > "$TMP/files"
else
	for d in core trace locks counters tracing models predict harness workloads cli bench; do
		[ -d "$d" ] && find "$d" -name '*.[ch]'
	done | sort > "$TMP/files"
fi

# files
while read -r f; do
	n=$(wc -l < "$f")
	[ "$n" -le "$MAX_FILE" ] || echo "$f: $n lines (over $MAX_FILE)"
done < "$TMP/files" > "$TMP/out"

# functions: "FILE LINE END NAME"
if [ -z "${CHECK_SIZES_NO_CTAGS:-}" ] && ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
	while read -r f; do
		ctags --kinds-C=f --fields=+ne -o - "$f" 2>/dev/null |
		awk -F'\t' -v f="$f" '{
			line = end = ""
			for (i = 4; i <= NF; i++) {
				if ($i ~ /^line:/) line = substr($i, 6)
				if ($i ~ /^end:/) end = substr($i, 5)
			}
			if (line != "" && end != "") print f, line, end, $1
		}'
	done < "$TMP/files" > "$TMP/funcs"
else
	while read -r f; do
		awk -v f="$f" '
			# a definition: a line at column 0 naming NAME( with no ";",
			# whose body opens with "{" at column 0
			/^[A-Za-z_][^;=]*[ *]?[A-Za-z_][A-Za-z0-9_]*\(/ && !/;[ \t]*$/ {
				cand = $0; start = FNR; pending = 1; next }
			pending && /^\{/ { body = 1; pending = 0; next }
			pending && /;[ \t]*$/ && !/^[ \t]/ { pending = 0 }
			body && /^\}/ {
				name = cand; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
				print f, start, FNR, name; body = 0 }' "$f"
	done < "$TMP/files" > "$TMP/funcs"
fi
awk -v max="$MAX_FUNC" '{ n = $3 - $2 + 1; if (n > max) printf "%s:%s: %s %d lines (over %d)\n", $1, $2, $4, n, max }' \
	"$TMP/funcs" | sort -t: -k1,1 -k2,2n >> "$TMP/out"

if [ -s "$TMP/out" ]; then
	cat "$TMP/out"
	exit 1
fi
echo "sizes: $(wc -l < "$TMP/files") files, $(wc -l < "$TMP/funcs") functions: none over $MAX_FILE lines or $MAX_FUNC lines"
