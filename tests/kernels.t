#!/bin/sh
# kernels.t - kernel profiles: each sets every per-kernel knob to an
# allowed value with its source; --kernel presets them and --set wins
# over the profile in any order, both recorded; every seed experiment
# compares one kernel profile with another and nothing else.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh

expect_exit 0 "memscale list kernels" -- $MEMSCALE list kernels
cp "$TMP/out" "$TMP/kernels"
profiles=$(awk '/^[^ ]/ { print $1 }' "$TMP/kernels")
n=$(echo "$profiles" | wc -w)
[ "$n" -ge 10 ]; ok $? "at least 10 kernel profiles ($n)"
for want in v5.3 v5.10 memcg_update_batch v5.11 8d59d2214c v6.9 70a64b7919cb fefc6e6631ff 9cee7e8ef3e3 v6.11 current; do
	echo "$profiles" | grep -qx -- "$want"; ok $? "profile $want is listed"
done
! grep -q "NOT SET" "$TMP/kernels"; ok $? "every profile sets every per-kernel knob"
awk '/^    [a-z_]+ / && NF < 3 { bad = 1 } END { exit bad }' "$TMP/kernels"; ok $? "every value names its source"

# Each profile's values are allowed values of their knobs: a run under it
# validates them (a 1-worker run of a few milliseconds).
for p in $profiles; do
	$MEMSCALE run page_fault2 -t 1 -s 0.02 -w 0 --sample-ms 10 --kernel $p --format csv \
		> "$TMP/run" 2> "$TMP/err"
	st=$?
	col=$(head -1 "$TMP/run" | tr ',' '\n' | grep -n '^kernel$' | cut -d: -f1)
	[ $st -eq 0 ] && [ -n "$col" ] && [ "$(sed -n 2p "$TMP/run" | cut -d, -f"$col")" = "$p" ]
	ok $? "a run under --kernel $p records kernel=$p"
done

# --set wins over the profile whatever the order, and is recorded.
csvval() { # FILE COLUMN
	c=$(head -1 "$1" | tr ',' '\n' | grep -n "^$2\$" | cut -d: -f1)
	[ -n "$c" ] && sed -n 2p "$1" | cut -d, -f"$c"
}
$MEMSCALE run page_fault2 -t 1 -s 0.02 -w 0 --sample-ms 10 --kernel v6.9 --set lru_batch=15 \
	--out "$TMP/a.csv" > /dev/null 2>&1
[ "$(csvval "$TMP/a.csv" lru_batch)" = 15 ] && [ "$(csvval "$TMP/a.csv" layout)" = v6.9 ]
ok $? "--kernel v6.9 --set lru_batch=15: the override wins, the rest is v6.9's"
grep -q '"knobs_set": *{' "$TMP/a.json" && grep -q '"lru_batch": "15"' "$TMP/a.json" &&
	grep -q '"kernel": "v6.9"' "$TMP/a.json"
ok $? "the sidecar records the kernel and the knobs set on top of it"
$MEMSCALE run page_fault2 -t 1 -s 0.02 -w 0 --sample-ms 10 --set lru_batch=15 --kernel v6.9 \
	--format csv > "$TMP/b.csv" 2>/dev/null
[ "$(csvval "$TMP/b.csv" lru_batch)" = 15 ]; ok $? "--set before --kernel still wins"
expect_usage "unknown kernel profile" "kernel.*v6.9" -- $MEMSCALE run page_fault2 -t 1 --kernel v9.99
expect_usage "a kernel without lruvec->lru_lock" "lru_lock" -- \
	$MEMSCALE run page_fault2 -t 1 --kernel v5.10 --set lru_lock=lruvec

# The seed experiments: variants are kernel profiles; base and the other
# variants differ in at least one per-kernel knob, and no knob outside
# the profiles is set per variant.
for e in $($MEMSCALE list experiments); do
	f=experiments/$e.ini
	bad=$(awk '/^\[variant /{ v = 1; next } /^\[/{ v = 0 } v && /^[a-z_]+ *=/ && $1 != "kernel" { print $1 }' $f |
		grep -v '^stats_batch$' | head -1)
	[ -z "$bad" ]; ok $? "$e: variants set only kernel profiles${bad:+ (found $bad)}"
	kernels=$(awk '/^\[variant /{ v = 1; next } /^\[/{ v = 0 } v && $1 == "kernel" { print $3 }' $f | sort -u | wc -l)
	[ "$kernels" -ge 2 ]; ok $? "$e: compares $kernels kernel profiles"
done
# profile pairs of the seeds differ only in the knobs the change changed
pair_diff() { # A B -> knobs that differ
	for p in "$1" "$2"; do
		awk -v p="$p" '/^[^ ]/ { on = ($1 == p); next } on && /^    / { print $1, $2 }' "$TMP/kernels" | sort > "$TMP/k_$p"
	done
	join "$TMP/k_$1" "$TMP/k_$2" | awk '$2 != $3 { print $1 }' | tr '\n' ' '
}
[ "$(pair_diff 70a64b7919cb fefc6e6631ff)" = "layout " ]; ok $? "70a64b7919cb vs fefc6e6631ff: only the layout differs"
[ "$(pair_diff v6.9 70a64b7919cb)" = "layout " ]; ok $? "v6.9 vs 70a64b7919cb: only the layout differs"
[ "$(pair_diff v5.11 memcg_update_batch)" = "stats_batch " ]; ok $? "v5.11 vs memcg_update_batch: only stats_batch differs"
[ "$(pair_diff v6.7 8d59d2214c)" = "stats " ]; ok $? "v6.7 vs 8d59d2214c: only the stats path differs"
[ "$(pair_diff 8d59d2214c 9cee7e8ef3e3)" = "stats " ]; ok $? "8d59d2214c vs 9cee7e8ef3e3: only the stats path differs"
[ "$(pair_diff v5.10 v5.11)" = "layout lru_lock " ]; ok $? "v5.10 vs v5.11: the lock and its slot in lruvec only"
done_testing
