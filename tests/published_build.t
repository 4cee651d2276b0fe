#!/bin/sh
# A [published] row's build=KNOB:VALUE (exp/expfile.h): a knob of the
# published kernel's own build (its configuration), set on both sides of
# that row's prediction over [fixed] and [predict].  Read by the real
# commands: `memscale published` refuses a bad one with one line and exit
# 2; `model validate -f csv` predicts a row with a build apart from its
# twin without one (its own seed pair), and the build's counts move it as
# kpath.ini's overlay era says (predict/kpath.h `like`, `hold`, `fault`).
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
CAL=tests/fixtures/model_calib.txt

# Bad builds: one clear line, exit 2.
row='aim9_page_test = 100, 150, +50%, m, cpus=24, target=e5-2630-2s, role=dev'
mkdir -p "$TMP/bad"
bad() { # bad DESCRIPTION PATTERN EXTRA-FIELDS
	sed "/^\[published\]/q" experiments/lru_lock_split.ini >"$TMP/bad/lru_lock_split.ini"
	echo "$row$3" >>"$TMP/bad/lru_lock_split.ini"
	expect_usage "$1" "$2" -- $MEMSCALE published "$TMP/bad/lru_lock_split.ini"
}
bad "a build without its value" "want build=KNOB:VALUE" ", build=kpath"
bad "a build of no knob" "want build=KNOB:VALUE" ", build=:v5.10"
bad "a build of an unknown knob" "no_such_knob" ", build=no_such_knob:1"
bad "a build with a value the knob lacks" "v9.99" ", build=kpath:v9.99"
bad "a build of a run setting" "sets a model knob, not 'lock'" ", build=lock:pthread"
bad "a build given twice" "once each" ", build=kpath:v5.10, build=kpath:v6.12"

# Two rows alike but for the build: two seed pairs, each predicted with
# its own knobs.  The v5.10 era against its lock-statistics overlay
# (predict/work/kpath.ini), at a size where no lock saturates.
mkdir -p "$TMP/exp"
sed "/^\[published\]/q" experiments/lru_lock_split.ini >"$TMP/exp/lru_lock_split.ini"
cat >>"$TMP/exp/lru_lock_split.ini" <<'EOF'
aim9_page_test = 100, 110, +10%, m, cpus=2, target=e5-2630-2s, role=dev, build=kpath:v5.10
aim9_page_test = 100, 110, +10%, m, cpus=2, target=e5-2630-2s, role=dev, build=kpath:v5.10-lock_stat
EOF
expect_exit 0 "validate -f csv with two builds" -- \
	env MEMSCALE_EXPERIMENTS="$TMP/exp" $MEMSCALE model validate --calib $CAL --iters 2000 -f csv
COLS='BEGIN { FS = "," } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
awk "$COLS"'{ print $c["base_ops_s"] }' "$TMP/out" >"$TMP/ops"
[ "$(wc -l <"$TMP/ops")" -eq 2 ]
ok $? "two rows predicted ($(tr '\n' ' ' <"$TMP/ops"))"
# The lock statistics add work to every operation: fewer ops/s.
awk 'NR == 1 { a = $1 } NR == 2 { b = $1 } END { exit !(a > 0 && b > 0 && b < a) }' "$TMP/ops"
ok $? "the row built with lock statistics is predicted slower"

# Its prediction names the overlay's figures: its parameter list gives
# each extra count at the list probe's pace (count x list_ns / probe).
$MEMSCALE model predict --workload aim9_page_test --pair v5.10..v5.11 --target e5-2630-2s \
	--cpus 2 --set kpath=v5.10-lock_stat --calib $CAL --iters 2000 >"$TMP/p" 2>&1
ok $? "predict with kpath=v5.10-lock_stat"
KP=predict/work/kpath.ini
probe=$(awk '/^\[/{ on = ($0 == "[probe]") } on && $1 == "list" { print $3 }' "$KP")
list=$(awk '$2 == "list_ns" { print $3 }' "$TMP/p")
for key in hold fault; do
	n=$(awk -v k="$key" '/^\[/{ on = ($0 == "[v5.10-lock_stat]") } on && $1 == k { print $3 }' "$KP")
	got=$(awk -v k="k${key}_ns@v5.10-lock_stat" '$2 == k { print $3 }' "$TMP/p")
	awk -v n="$n" -v l="$list" -v p="$probe" -v g="$got" \
		'BEGIN { w = n * l / p; exit !(n > 0 && g != "" && (g - w) / w < 0.01 && (w - g) / w < 0.01) }'
	ok $? "k${key}_ns@v5.10-lock_stat = $key $n x list_ns $list / $probe (got $got)"
done
# Inside the LRU lock: a hold's own count once, and each folio-op the
# mean of the overlay's add and delete, over v5.10's: side A's local work
# per hold (--explain) moves by (hold + folio-ops/hold x (add + del) / 2)
# x list_ns / probe.
hold_local() { # hold_local KPATH: side A's folio-ops/hold and local ns/hold
	$MEMSCALE model predict --workload aim9_page_test --pair v5.10..v5.11 \
		--target e5-2630-2s --cpus 2 --set kpath="$1" --calib $CAL --iters 2000 \
		--explain 2>/dev/null |
		awk '/^explain: side/{ side = $3 } side == "A" && /^  lock .lock pgdat/{ on = 1; f = $(NF - 1) }
		     on && $1 == "local" { print f, $2; exit }'
}
hold_local v5.10 >"$TMP/h0"; hold_local v5.10-lock_stat >"$TMP/h1"
era() { awk -v k="$2" -v s="[$1]" '/^\[/{ on = ($0 == s) } on && $1 == k { print $3 }' "$KP"; }
want=$(awk -v h="$(era v5.10-lock_stat hold)" -v a="$(era v5.10-lock_stat add)" \
	-v d="$(era v5.10-lock_stat del)" -v l="$list" -v p="$probe" -v f="$(cut -d' ' -f1 "$TMP/h0")" \
	'BEGIN { printf "%.1f", (h + f * (a + d) / 2) * l / p }')
got=$(awk 'NR == FNR { x = $2; next } { printf "%.1f", $2 - x }' "$TMP/h0" "$TMP/h1")
awk -v g="$got" -v w="$want" 'BEGIN { exit !(w > 0 && g - w < 0.2 && w - g < 0.2) }'
ok $? "a v5.10 hold's local work grows by the overlay's hold and folio counts: $want ns (got $got)"

# ... and its body counts are v5.10's plus the overlay's own.
for wl in aim9_page_test; do
	b=$(awk -v k="body.$wl" '/^\[/{ on = ($0 == "[v5.10]") } on && $1 == k { print $3 }' "$KP")
	x=$(awk -v k="body.$wl" '/^\[/{ on = ($0 == "[v5.10-lock_stat]") } on && $1 == k { print $3 }' "$KP")
	grep -q "^#   kbody@v5.10-lock_stat .*$wl $(awk -v b="$b" -v x="$x" 'BEGIN { printf "%.0f", b + x }')" "$TMP/p"
	ok $? "kbody@v5.10-lock_stat: $wl $b + $x"
done

# A question with --experiment asks what its row asks: the AIM9 row's
# build is in its settings, a readtwice question of the same experiment
# and pair has none (tests/predict_experiments.t prints its line whole).
$MEMSCALE model predict --workload aim9_page_test --pair v5.10..v5.11 --target e5-2630-2s \
	--cpus 24 --experiment lru_lock_split --calib $CAL --iters 1000 >"$TMP/q" 2>&1
grep -q "^# both sides: .*kpath=v5.10-lock_stat (--experiment" "$TMP/q"
ok $? "--experiment: the AIM9 row's build is a setting of its question"
$MEMSCALE model predict --workload lru_file_readtwice --pair v5.10..v5.11 --target bdw-2s-40t \
	--cpus 40 --experiment lru_lock_split --calib $CAL --iters 1000 >"$TMP/q" 2>&1
grep "^# both sides:" "$TMP/q" | grep -qv kpath=
ok $? "--experiment: a question whose row has no build gets none"

done_testing
