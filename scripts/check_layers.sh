#!/bin/sh
# check_layers.sh [BUILD] - memscale's layer rules (docs/layers.md):
#   1. an #include "dir/file.h" names a file of the same layer or a lower one;
#   2. an object file calls (links against) only its own layer or lower ones;
#   3. no two files include each other, directly or through others;
#   4. no two files call each other, directly or through others (the call
#      graph between object files, from their symbol tables, has no loop);
#   5. no function name is defined in two .c files (a static helper named
#      like another file's function reads as a call between them: share it
#      from core/util.c or give each its own name).  Read from the sources,
#      so a static function the compiler inlined away counts too: a
#      definition is a line at column 0 with a type, NAME( and no ';'.
#   6. no circle between modules: a header and the .c of its name are one
#      module (models/memcg.h and models/memcg.c), a header without a .c
#      of its name one of its own (models/internal.h); module A depends on
#      B when a file of A includes B's header.  A loop there is a header
#      <-> .c circle that rules 3 and 4 do not see (had internal.h
#      included record.h while record.c included internal.h).  Every
#      circle fails: the house has none.
# The layer table is read from docs/layers.md, the one place it is written.
# Prints one line per violation and exits 1 if there is any.
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT

# "| 3 | `counters/` | ..." -> "counters 3"
sed -n 's/^| *\([0-9][0-9]*\) *| *`\([a-z_]*\)\/` *|.*/\2 \1/p' docs/layers.md > "$TMP/ranks"
[ -s "$TMP/ranks" ] || { echo "check_layers: no layer table in docs/layers.md" >&2; exit 2; }
dirs=$(awk '{ print $1 }' "$TMP/ranks")

# 1 and 3: includes.  Every project include is spelt from the root.
for d in $dirs; do find "$d" -name '*.[ch]'; done | sort > "$TMP/files"
while read -r f; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r inc; do echo "$f $inc"; done
done < "$TMP/files" > "$TMP/edges"
grep '\.c$' "$TMP/files" > "$TMP/files.c" || true
awk -v ranks="$TMP/ranks" '
	BEGIN { while ((getline l < ranks) > 0) { split(l, a, " "); rank[a[1]] = a[2] } }
	function layer(p,   s) { s = p; sub(/\/.*/, "", s); return s }
	{
		src = layer($1); dst = layer($2)
		if (!($2 ~ /\//)) { printf "%s: include \"%s\" must be spelt from the root (dir/file.h)\n", $1, $2; bad = 1; next }
		if (!(dst in rank)) { printf "%s: includes \"%s\", which is in no layer\n", $1, $2; bad = 1; next }
		if (src != dst && rank[dst] >= rank[src]) {
			printf "%s (layer %s, %d) includes %s (layer %s, %d): dependencies point down only\n", $1, src, rank[src], $2, dst, rank[dst]; bad = 1
		}
	}
	END { exit bad }' "$TMP/edges" || fail=1
# tsort reports a loop in the include graph (a file including itself
# through others); self-edges are ignored.
awk '$1 != $2 { print $1, $2 }' "$TMP/edges" | tsort >/dev/null 2> "$TMP/loops" || true
if [ -s "$TMP/loops" ]; then
	echo "include cycle among:"; sed -n 's/^tsort: //p' "$TMP/loops" | grep -v 'input contains a loop' | sed 's/^/  /'
	fail=1
fi

# 6: circles between modules (header + the .c of its name), by strongly
# connected components of the module graph: each module's reachable set,
# then the modules that reach each other.
awk '{ a = $1; b = $2; sub(/\.[ch]$/, "", a); sub(/\.[ch]$/, "", b); print a, b }' "$TMP/edges" |
awk '
	{ if ($1 != $2 && !(($1, $2) in seen)) { seen[$1, $2] = 1; adj[$1] = adj[$1] " " $2 }
	  node[$1] = 1; node[$2] = 1 }
	END {
		for (v in node) {
			delete vis; n = 0; st[++n] = v; vis[v] = 1
			while (n > 0) {
				u = st[n--]; k = split(adj[u], w, " ")
				for (i = 1; i <= k; i++) if (!(w[i] in vis)) { vis[w[i]] = 1; st[++n] = w[i] }
			}
			for (u in vis) reach[v, u] = 1
		}
		for (v in node) {
			if (v in done) continue
			m = 0
			for (u in node) if (u != v && (v, u) in reach && (u, v) in reach) c[++m] = u
			if (!m) continue
			c[++m] = v
			for (i = 1; i <= m; i++) done[c[i]] = 1
			for (i = 2; i <= m; i++) { x = c[i]; j = i - 1; while (j > 0 && c[j] > x) { c[j + 1] = c[j]; j-- } c[j + 1] = x }
			line = c[1]; for (i = 2; i <= m; i++) line = line " " c[i]
			print line
		}
	}' | sort > "$TMP/circles"
if [ -s "$TMP/circles" ]; then
	sed 's/^/header <-> .c circle among modules: /' "$TMP/circles"
	fail=1
fi

# 2: calls, from the objects' symbol tables.
if [ -d "$BUILD" ]; then
	# an object whose source (the first prerequisite its .d names) is
	# gone, a file moved or removed since this build tree was made, is
	# stale, not part of the house
	for d in $dirs; do find "$BUILD/$d" -name '*.o' 2>/dev/null; done | sort |
	while read -r o; do
		src=$(sed -n '1s/^[^:]*: *\([^ \\]*\).*/\1/p' "${o%.o}.d" 2>/dev/null || true)
		if [ -z "$src" ] || [ -f "$src" ]; then echo "$o"; fi
	done > "$TMP/objs"
	while read -r o; do
		nm --defined-only -g "$o" | awk -v o="$o" 'NF == 3 { print $3, o }'
	done < "$TMP/objs" | sort -u > "$TMP/defs"
	while read -r o; do
		nm -u "$o" | awk -v o="$o" '{ print $2, o }'
	done < "$TMP/objs" | sort > "$TMP/uses"
	# "symbol user.o definer.o", once for rules 2 and 4
	join "$TMP/uses" "$TMP/defs" > "$TMP/links"
	awk -v ranks="$TMP/ranks" -v b="$BUILD/" '
		BEGIN { while ((getline l < ranks) > 0) { split(l, a, " "); rank[a[1]] = a[2] } }
		function layer(p,   s) { s = substr(p, length(b) + 1); sub(/\/.*/, "", s); return s }
		{
			u = layer($2); d = layer($3)
			if (u != d && rank[d] >= rank[u]) {
				printf "%s calls %s in %s (layer %s above or beside %s)\n", $2, $1, $3, d, u; bad = 1
			}
		}
		END { exit bad }' "$TMP/links" || fail=1
	# 4: loops in the file-to-file call graph (tsort names the files of
	# each loop; a file calling itself is not an edge).
	awk -v b="$BUILD/" '$2 != $3 {
		u = substr($2, length(b) + 1); d = substr($3, length(b) + 1)
		sub(/\.o$/, ".c", u); sub(/\.o$/, ".c", d); print u, d }' "$TMP/links" | sort -u > "$TMP/calls"
	tsort "$TMP/calls" >/dev/null 2> "$TMP/callloops" || true
	if [ -s "$TMP/callloops" ]; then
		echo "call cycle among:"
		sed -n 's/^tsort: //p' "$TMP/callloops" | grep -v 'input contains a loop' | sed 's/^/  /'
		fail=1
	fi
else
	echo "check_layers: no $BUILD/ (build first): calls not checked" >&2
fi
# 5: function names, from the sources.
while read -r f; do
	grep -E '^[A-Za-z_][^=;(]*[ *][A-Za-z_][A-Za-z0-9_]*\(' "$f" | grep -v ';[[:space:]]*$' |
		sed -E 's/^[^(]*[ *]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' | sort -u | sed "s|\$| $f|"
done < "$TMP/files.c" | sort > "$TMP/fndefs"
awk '$1 == prev { printf "%s is defined in %s and in %s: one name, one function\n", $1, pf, $2; bad = 1 }
	{ prev = $1; pf = $2 } END { exit bad }' "$TMP/fndefs" || fail=1

[ -z "${fail:-}" ] && echo "layers: $(wc -l < "$TMP/files") files, $(wc -l < "$TMP/edges") includes, $(cat "$TMP/objs" 2>/dev/null | wc -l) objects: all point down, no include or call loops, no header <-> .c circle, no function name twice"
exit ${fail:-0}
