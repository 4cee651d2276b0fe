#!/bin/sh
# Every knob `memscale list variants` shows, a new one included: its
# default is an allowed value (a run that sets it explicitly succeeds), an
# integer knob refuses max+1 and an enum knob an unknown value with exit 2
# and one line naming the knob.  The short lock run reads only some
# knobs: the others' defaults are accepted as values and then refused as
# not read by the lock workload's path (issue 22 item 7, tests/knob_read.t),
# never as bad values.
. tests/lib.sh
RUN="$MEMSCALE run lock -t 1 -s 0.05 --sample-ms 50 -w 0 -a none"

$MEMSCALE list variants >"$TMP/list" 2>&1
# NAME TYPE DEFAULT MAX: TYPE int, enum or text; MAX only for int.
awk '
	/^[a-z0-9_]+  \(/ { if (name) print name, type, def, max
		name = $1; def = $0; sub(/.*; default /, "", def); sub(/\)$/, "", def)
		type = "enum"; max = "-"; next }
	/^    allowed: integer / { type = "int"; max = $3; sub(/.*\.\./, "", max); next }
	/^    allowed: text/ { type = "text"; next }
	END { if (name) print name, type, def, max }' "$TMP/list" >"$TMP/knobs"
n=$(wc -l <"$TMP/knobs")
[ "$n" -ge 20 ]; ok $? "list variants shows the knobs ($n)"
while read -r name type def max <&3; do
	$RUN --set "$name=$def" >/dev/null 2>"$TMP/err"; st=$?
	[ $st -eq 0 ] || { [ $st -eq 2 ] && grep -q "does not read it" "$TMP/err" && ! grep -q "bad value" "$TMP/err"; }
	ok $? "$name=$def (its default) is an allowed value (exit $st)"
	case $type in
	int) expect_usage "$name=$((max + 1)) refused" "knob '$name'" -- \
		$RUN --set "$name=$((max + 1))" ;;
	enum) expect_usage "$name=no_such_value refused" "knob '$name'" -- \
		$RUN --set "$name=no_such_value" ;;
	esac
done 3<"$TMP/knobs"
done_testing
