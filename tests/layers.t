#!/bin/sh
# layers.t - the layer rules of docs/layers.md hold (scripts/check_layers.sh),
# and the checker has the power to see a violation: copies of the tree with
# an upward include, an include cycle, a call cycle between two objects, a
# header <-> .c circle between modules and a function name defined in two
# files must each fail it.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. "$(dirname "$0")/lib.sh"
echo "1..8"
out=$(sh scripts/check_layers.sh build 2>&1); st=$?
[ $st -eq 0 ]; ok $? "layers hold: $(echo "$out" | tail -n 1)"
echo "$out" | sed '$d' | sed 's/^/#   /'

copy_tree() {
	rm -rf "$TMP/t"; mkdir -p "$TMP/t"
	cp -r docs scripts core trace locks counters tracing models exp predict \
		harness workloads cli "$TMP/t/"
}
copy_tree
echo '#include "cli/cli.h"' >> "$TMP/t/core/csv.h"
out=$(sh "$TMP/t/scripts/check_layers.sh" "$TMP/none" 2>&1); st=$?
[ $st -ne 0 ] && echo "$out" | grep -q 'core/csv.h (layer core, 0) includes cli/cli.h'
ok $? "an upward include (core -> cli) is reported"

copy_tree
echo '#include "core/csv.h"' >> "$TMP/t/core/json.h"
echo '#include "core/json.h"' >> "$TMP/t/core/csv.h"
out=$(sh "$TMP/t/scripts/check_layers.sh" "$TMP/none" 2>&1); st=$?
[ $st -ne 0 ] && echo "$out" | grep -q 'include cycle'
ok $? "an include cycle (csv.h <-> json.h) is reported"
copy_tree
mkdir -p "$TMP/b/core"
printf 'void ping(int n);\nvoid pong(int n) { if (n) ping(n - 1); }\n' > "$TMP/pong.c"
printf 'void pong(int n);\nvoid ping(int n) { if (n) pong(n - 1); }\n' > "$TMP/ping.c"
${CC:-cc} -c "$TMP/pong.c" -o "$TMP/b/core/pong.o" && ${CC:-cc} -c "$TMP/ping.c" -o "$TMP/b/core/ping.o"
out=$(sh "$TMP/t/scripts/check_layers.sh" "$TMP/b" 2>&1); st=$?
[ $st -ne 0 ] && echo "$out" | grep -q 'call cycle' && echo "$out" | grep -q 'core/ping.c' &&
	echo "$out" | grep -q 'core/pong.c'
ok $? "a call cycle (core/ping.o <-> core/pong.o) is reported"

copy_tree
# json.h includes csv.h and csv.c includes json.h: no file includes
# itself, but the modules core/csv and core/json depend on each other
echo '#include "core/csv.h"' >> "$TMP/t/core/json.h"
echo '#include "core/json.h"' >> "$TMP/t/core/csv.c"
out=$(sh "$TMP/t/scripts/check_layers.sh" "$TMP/none" 2>&1); st=$?
[ $st -ne 0 ] && echo "$out" | grep -q 'header <-> .c circle among modules: core/csv core/json' &&
	! echo "$out" | grep -q 'include cycle'
ok $? "a header <-> .c circle (json.h -> csv.h, csv.c -> json.h) is reported"

copy_tree
# the memcg model's old circle back: the recorder's .c takes the model's
# header instead of its types (record.c -> memcg.h, memcg.c -> internal.h
# -> record.h)
sed 's|"models/memcg_types.h"|"models/memcg.h"|' models/record.c > "$TMP/t/models/record.c"
out=$(sh "$TMP/t/scripts/check_layers.sh" "$TMP/none" 2>&1); st=$?
grep -q '"models/memcg.h"' "$TMP/t/models/record.c" && [ $st -ne 0 ] &&
	echo "$out" | grep -q 'header <-> .c circle among modules: .*models/memcg .*models/record'
ok $? "the memcg model's circle (record.c -> memcg.h -> internal.h -> record.h) is reported"

copy_tree
printf '\nstatic char *str_trim(char *s)\n{\n\treturn s;\n}\n' >> "$TMP/t/core/csv.c"
out=$(sh "$TMP/t/scripts/check_layers.sh" "$TMP/none" 2>&1); st=$?
[ $st -ne 0 ] && echo "$out" | grep -q 'str_trim is defined in core/csv.c and in core/util.c'
ok $? "a function name defined in two files (str_trim in csv.c and util.c) is reported"
# Stale objects (their .d name sources since removed, as after a move)
# are not part of the house: the ping/pong call cycle above, with .d
# files naming sources that are gone, is not reported.
copy_tree
for f in ping pong; do
	printf '%s: core/%s_gone.c core/util.h\n' "$TMP/b/core/$f.o" "$f" > "$TMP/b/core/$f.d"
done
out=$(sh "$TMP/t/scripts/check_layers.sh" "$TMP/b" 2>&1); st=$?
[ $st -eq 0 ] && ! echo "$out" | grep -q 'call cycle'
ok $? "stale objects (their sources gone) are left out of the call check"
exit $TAP_FAIL
