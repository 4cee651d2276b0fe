#!/bin/sh
# Every fact a target profile accepts is read by the prediction (issue
# 35.4): for each key the parser takes (the fact rows `memscale list
# targets` prints from the parser's own table, so a new key is covered
# without editing this test), a copy of a full profile with that one
# value changed is predicted again; the key passes when some accepted
# value moves the prediction (predicted change, band or the absolute
# ops/s of either side), and fails when the profile accepts other values
# and none of them moves anything: a parsed fact nothing reads.  A key
# whose every other value is refused (smt: cores x smt must be the cpus)
# cannot be set to something the engine would ignore, and passes.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
CAL=tests/fixtures/model_calib.txt
P=lkp-skl-fpga01 # 2 nodes, SMT, every fact sourced: each can matter

mkdir -p "$TMP/t"
cp predict/targets/sources.ini "$TMP/t/"
cp "predict/targets/$P.ini" "$TMP/t/base.ini"
$MEMSCALE list targets >"$TMP/list"; ok $? "list targets"
# The fact rows of the profile's block: name, value (or '-').
awk -v p="$P" '/^[^ ]/ { on = ($1 == p); next }
	on && /^    [a-z0-9_]+ +(-|[0-9.e+]+) / { print $1, $2 }' "$TMP/list" >"$TMP/facts"
n=$(wc -l <"$TMP/facts")
[ "$n" -ge 15 ]; ok $? "the parser's facts, as listed ($n)"

# The questions, in turn until one moves: page_fault2's LRU and fault
# paths at 104 CPUs (2 nodes, SMT siblings), then readtwice, whose cold
# lines spill past the caches (DRAM), then tlb_flush2's.
QS="page_fault2:v6.9..70a64b7919cb lru_file_readtwice:v5.10..v5.11 tlb_flush2:v6.7..8d59d2214c"
predict() { # predict PROFILE QUESTION: the prediction's numbers (change, band, ops/s)
	$MEMSCALE model predict --workload "${2%%:*}" --pair "${2#*:}" \
		--target "$1" --cpus 104 --calib $CAL --iters 1000 -f csv 2>"$TMP/perr" |
		tail -1 | awk -F, 'NF >= 12 { print $7, $8, $9, $(NF - 1), $NF }'
}
for q in $QS; do
	predict "$TMP/t/base.ini" "$q" >"$TMP/base.${q%%:*}"
	grep -Eq '^-?[0-9.]+ .* [0-9.e+]+ [0-9.e+]+$' "$TMP/base.${q%%:*}"
	ok $? "the unchanged copy predicts $q ($(cat "$TMP/base.${q%%:*}"))"
done

unread=""
while read -r key val; do
	if [ "$val" = "-" ]; then cands="1 2 64 0"
	else cands=$(awk -v v="$val" 'BEGIN { printf "%.6g %.6g 0 1\n", v * 2, v / 2 }'); fi
	accepted=0; moved=0
	for c in $cands; do
		[ "$c" = "$val" ] && continue
		# the value replaced; a literal needs its own source line
		awk -v k="$key" -v c="$c" '$1 == k && $2 == "=" { print k " = " c; next } { print }' \
			"$TMP/t/base.ini" >"$TMP/t/x.ini"
		grep -q "^$key\.source *=" "$TMP/t/x.ini" ||
			sed -i "s/^$key = $c\$/&\n$key.source = changed by tests\/target_keys.t/" "$TMP/t/x.ini"
		for q in $QS; do
			predict "$TMP/t/x.ini" "$q" >"$TMP/x.out"
			[ -s "$TMP/x.out" ] || break # refused (exit 2): not a value it takes
			accepted=1
			if ! cmp -s "$TMP/base.${q%%:*}" "$TMP/x.out"; then moved=1; break; fi
		done
		[ $moved -eq 1 ] && break
	done
	if [ $accepted -eq 1 ] && [ $moved -eq 0 ]; then
		unread="$unread $key"
		echo "# $key: accepted some of $cands, no prediction moved"
	fi
done <"$TMP/facts"
[ -z "$unread" ]; ok $? "every target fact is read by the prediction (unread:${unread:- none})"

# The converse: every hardware cost the simulator takes (the double
# fields of struct sim_costs, predict/sim_types.h) is set by the composition for
# a target, with its origin in the prediction's parameter table; a cost
# no target sets (inval_step_ns was one) would silently stay 0.
costs=$(awk '/^struct sim_costs \{/ { on = 1; next } on && /^\};/ { exit }
	on && /^\tdouble [a-z_]+;/ { sub(/^\tdouble /, ""); sub(/;.*/, ""); print }' predict/sim_types.h)
[ "$(echo "$costs" | wc -w)" -ge 5 ]; ok $? "the simulator's costs, from sim_types.h ($(echo $costs))"
$MEMSCALE model predict --workload page_fault2 --pair v6.9..70a64b7919cb --target "$TMP/t/base.ini" \
	--cpus 104 --calib $CAL --iters 1000 -f csv 2>"$TMP/params" >/dev/null
unset_costs=""
for k in $costs; do
	grep -Eq "^#   $k +[-0-9.e+naif]+ " "$TMP/params" || unset_costs="$unset_costs $k"
done
[ -z "$unset_costs" ]; ok $? "every simulator cost has an origin in the parameter table (unset:${unset_costs:- none})"

done_testing
