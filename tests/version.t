#!/bin/sh
# --version says -dirty when the tree differs from the commit, untracked
# sources included (they are built in through the wildcards).  Checked in
# a throw-away clone of the committed tree.
. tests/lib.sh
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	ok 0 "# SKIP not a git checkout"; ok 0 "# SKIP not a git checkout"; done_testing; exit
fi
git clone -q . "$TMP/clone" 2>/dev/null
v=$(make -s -C "$TMP/clone" print-version)
case $v in *-dirty) st=1 ;; *) st=0 ;; esac
ok $st "a clean clone is not dirty ($v)"
: >"$TMP/clone/core/untracked_source.c"
v=$(make -s -C "$TMP/clone" print-version)
case $v in *-dirty) st=0 ;; *) st=1 ;; esac
ok $st "an untracked source makes it dirty ($v)"
done_testing
