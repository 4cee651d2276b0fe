#!/bin/sh
# sizes.t - the size rules hold (scripts/check_sizes.sh): no C file over
# 1000 lines and no function over 120 lines outside tests/; and the
# checker has the power to see a violation (a planted long file and long
# function in a copy are reported, by ctags and by its brace count alike).
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. "$(dirname "$0")/lib.sh"
sh scripts/check_sizes.sh > "$TMP/all" 2>&1; st=$?
grep -v '^sizes:' "$TMP/all" > "$TMP/mine"
[ $st -eq 0 ] && [ ! -s "$TMP/mine" ] && grep -q '^sizes: .* none over 1000 lines or 120 lines' "$TMP/all"
ok $? "no file over 1000 lines, no function over 120 (exit $st)"
sed 's/^/#   /' "$TMP/mine"

# power: a copy with a 1001-line file and a 121-line function
rm -rf "$TMP/t"; mkdir -p "$TMP/t/scripts" "$TMP/t/core"
cp scripts/check_sizes.sh "$TMP/t/scripts/"
{ echo '/* long.c - planted */'; i=1; while [ $i -le 1000 ]; do echo "int v$i;"; i=$((i + 1)); done; } > "$TMP/t/core/long.c"
{ echo 'static int f(int x)'; echo '{'; i=1; while [ $i -le 118 ]; do echo "	x++;"; i=$((i + 1)); done; echo '}'
  echo 'int g(int x)'; echo '{'; i=1; while [ $i -le 117 ]; do echo "	x++;"; i=$((i + 1)); done; echo '}'; } > "$TMP/t/core/fn.c"
out=$(sh "$TMP/t/scripts/check_sizes.sh" 2>&1); st=$?
[ $st -ne 0 ] && echo "$out" | grep -q '^core/long.c: 1001 lines' &&
	echo "$out" | grep -q '^core/fn.c:1: f 121 lines' && ! echo "$out" | grep -q ' g '
ok $? "a 1001-line file and a 121-line function are reported (a 120-line one is not)"
echo "$out" | sed 's/^/#   /'
out2=$(CHECK_SIZES_NO_CTAGS=1 sh "$TMP/t/scripts/check_sizes.sh" 2>&1)
# the violations, not the function count (ctags also counts a few
# definitions the brace count takes for one)
[ "$(echo "$out" | grep -v '^sizes:')" = "$(echo "$out2" | grep -v '^sizes:')" ] &&
	CHECK_SIZES_NO_CTAGS=1 sh scripts/check_sizes.sh 2>&1 | grep -v '^sizes:' | cmp -s - "$TMP/mine"
ok $? "ctags and the brace count find the same violations (planted copy and this tree)"
done_testing
