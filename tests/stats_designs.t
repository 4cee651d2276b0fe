#!/bin/sh
# stats_designs.t - every stats design `memscale list stats` shows
# (models/stats/, one file each) is a value of the `stats` knob and runs:
#   - the model at 1 and 2 workers with its invariants holding (every
#     memcg's flushed or folded totals equal the exact counts: counters
#     conserved), and flushes where the design says: a design whose FLUSH
#     is `none` never flushes, one that reads flush_ms flushes under a
#     1 ms period;
#   - the knobs it lists under READS are accepted, a knob another design
#     lists is refused with one line naming the knob and the design;
#   - a fixed number of operations, recorded, gives the same per-operation
#     shared-line accesses as the simulator's program (`model program
#     --check`), so the simulator follows the design.
# A new design file is tested here without an edit.
. tests/lib.sh
RUN="$MEMSCALE run -s 0.2 --sample-ms 50 -w 1 -a none --set page_work=none --format csv"

$MEMSCALE list stats >"$TMP/list" 2>"$TMP/err"
ok $? "list stats runs"
designs=$(awk 'NR > 1 && /^[^ ]/ { print $1 }' "$TMP/list")
[ "$(echo "$designs" | wc -w)" -ge 5 ]; ok $? "list stats shows the designs ($(echo $designs))"
awk 'NR > 1 && /^[^ ]/ && !(length($2) == 12 && $2 ~ /^[0-9a-f]+$/) { bad = 1 } END { exit bad }' "$TMP/list"
ok $? "every design names the 12-hex commit it follows"
$MEMSCALE list variants >"$TMP/variants" 2>&1
# the knob's values are the registry's: the same names, in the same order
awk '/^[^ ]/ { on = /^stats  \(/; next } on && /^    [^ ]+ +[0-9a-f]+: / { print $1 }' \
	"$TMP/variants" >"$TMP/values"
echo "$designs" | cmp -s - "$TMP/values"; ok $? "the stats knob's values are the designs listed"

# the union of the knobs any design reads, with their defaults
reads_all=$(awk 'NR > 1 && /^[^ ]/ && $5 != "-" { n = split($5, r, ","); for (i = 1; i <= n; i++) print r[i] }' \
	"$TMP/list" | sort -u)
default_of() {
	sed -n "s/^$1  ([a-z ]*; default \([^)]*\))\$/\1/p" "$TMP/variants"
}
col() { # col NAME FILE: the named column of every data row of a csv
	awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } k { print $k }' "$2"
}

for d in $designs; do
	scope=$(awk -v d="$d" '$1 == d { print $3 }' "$TMP/list")
	reads=$(awk -v d="$d" '$1 == d { print $5 }' "$TMP/list")
	case ",$reads," in *,flush_ms,*) period="--set flush_ms=1" ;; *) period= ;; esac
	for wl in page_fault2 lru_file_readtwice; do
		expect_exit 0 "stats=$d: $wl at 1 and 2 workers, counters conserved" -- \
			$RUN $wl -t 1,2 --set stats=$d $period
		col flushes "$TMP/out" >"$TMP/flushes"
		[ "$(wc -l <"$TMP/flushes")" -eq 2 ]; ok $? "stats=$d: $wl: two rows with a flush count"
		if [ "$scope" = none ]; then
			! grep -qv '^0$' "$TMP/flushes"
			ok $? "stats=$d (FLUSH none): $wl never flushes ($(echo $(cat "$TMP/flushes")))"
		elif [ -n "$period" ]; then
			! grep -q '^0*$' "$TMP/flushes"
			ok $? "stats=$d (reads flush_ms): $wl flushes under a 1 ms period ($(echo $(cat "$TMP/flushes")))"
		fi
	done
	for k in $reads_all; do
		v=$(default_of "$k")
		case ",$reads," in
		*,$k,*) expect_exit 0 "stats=$d reads $k: --set $k=$v accepted" -- \
				$RUN page_fault2 -t 1 --set stats=$d --set "$k=$v" ;;
		*) expect_usage "stats=$d does not read $k: refused" "$k.*stats=$d" -- \
				$RUN page_fault2 -t 1 --set stats=$d --set "$k=$v" ;;
		esac
	done
	for wl in page_fault2 lru_file_readtwice; do
		$MEMSCALE model program $wl --set stats=$d --check >"$TMP/out" 2>&1
		st=$?
		[ $st -eq 0 ]; ok $? "stats=$d: $wl's recorded program counts = model counts"
		[ $st -eq 0 ] || grep -e '^!=' -e 'memscale' "$TMP/out" | head -5 | sed 's/^/#   /'
	done
done

expect_usage "an unknown design is refused" "stats.*rstat_permemcg_cached" -- \
	$RUN page_fault2 -t 1 --set stats=no_such_design
done_testing
