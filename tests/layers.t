#!/bin/sh
# layers.t - the layer rules of docs/layers.md hold (scripts/check_layers.sh),
# and the checker has the power to see a violation: copies of the tree with
# an upward include, and with an include cycle, must fail it.
. "$(dirname "$0")/lib.sh"
echo "1..3"
out=$(sh scripts/check_layers.sh build 2>&1); st=$?
[ $st -eq 0 ]; ok $? "layers hold: $out"
[ $st -eq 0 ] || echo "$out" | sed 's/^/#   /'

copy_tree() {
	rm -rf "$TMP/t"; mkdir -p "$TMP/t"
	cp -r docs scripts core trace locks counters tracing models predict \
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
exit $TAP_FAIL
