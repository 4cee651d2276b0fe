#!/bin/sh
# sizes.t - the size rules hold (scripts/check_sizes.sh): no C file over
# 1000 lines and no function over 120 lines outside tests/; and the
# checker has the power to see a violation (a planted long file and long
# function in a copy are reported, by ctags and by its brace count alike).
# Files other branches are splitting are reported as a TODO test (TAP
# "# TODO": printed, never a failure); once they are merged, empty
# OTHERS and the check covers every file.
. "$(dirname "$0")/lib.sh"
echo "1..5"
# being split on other branches (issue 37 item 4); the lines match
# check_sizes.sh's "FILE:" or "FILE:LINE:" prefix
OTHERS='^(harness/harness\.c|harness/expfile\.c|cli/cmd_sweep\.c|models/kernels/[^:]*|predict/sim\.c|predict/target\.c|predict/predict\.c):'
# not split yet in this house (listed, so that a new violation still fails)
PENDING='^(cli/cmd_model\.c:[0-9]+: parse_opts|cli/model_validate\.c:[0-9]+: validate_csv|locks/qspinlock\.c:[0-9]+: qspin_lock_slowpath) '
sh scripts/check_sizes.sh > "$TMP/all" 2>&1
grep -Ev "$OTHERS" "$TMP/all" | grep -Ev "$PENDING" | grep -v '^sizes:' > "$TMP/mine"
[ ! -s "$TMP/mine" ]; ok $? "no file over 1000 lines, no function over 120 (but the listed ones)"
sed 's/^/#   /' "$TMP/mine"
grep -E "$PENDING" "$TMP/all" > "$TMP/pending"
[ ! -s "$TMP/pending" ]
[ $? -eq 0 ] && echo "ok 2 - pending splits done" ||
	{ echo "not ok 2 - pending splits done # TODO functions not split yet"; sed 's/^/#   /' "$TMP/pending"; }
grep -E "$OTHERS" "$TMP/all" > "$TMP/others"
[ ! -s "$TMP/others" ]
[ $? -eq 0 ] && echo "ok 3 - files other branches split" ||
	{ echo "not ok 3 - files other branches split # TODO switch on after the merge"; sed 's/^/#   /' "$TMP/others"; }
TAP_N=3

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
[ "$out" = "$out2" ] && CHECK_SIZES_NO_CTAGS=1 sh scripts/check_sizes.sh 2>&1 | cmp -s - "$TMP/all"
ok $? "ctags and the brace count find the same (planted copy and this tree)"
exit $TAP_FAIL
