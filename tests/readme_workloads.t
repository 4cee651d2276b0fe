#!/bin/sh
# README.md's list of the model workloads ("The model workloads (`...`)
# run over the memcg model") is the one `memscale list workloads` prints
# (FLAGS beginning with "model"), name for name, so neither drifts: a
# workload added with its spec (workloads/model/wl_NAME.c) fails here
# until the README names it.  `page_fault1/2/3` in the README stands for
# page_fault1, page_fault2 and page_fault3.
. tests/lib.sh

# readme_names FILE: the names of the sentence, one a line, sorted
readme_names() {
	awk '/^The model workloads \(/ { on = 1 } on { s = s " " $0 } on && /\) run over/ { exit }
	     END { print s }' "$1" |
	sed 's/).*//' | grep -o '`[a-z0-9_/]*`' | tr -d '`' |
	awk -F/ '{ print $1; b = $1; sub(/[0-9]+$/, "", b); for (i = 2; i <= NF; i++) print b $i }' |
	sort
}

$MEMSCALE list workloads >"$TMP/list"; ok $? "memscale list workloads runs"
awk 'NR > 1 && $2 ~ /^model(,|$)/ { print $1 }' "$TMP/list" | sort >"$TMP/listed"
[ "$(wc -l <"$TMP/listed")" -ge 5 ]; ok $? "list workloads shows model workloads ($(wc -l <"$TMP/listed"))"
readme_names README.md >"$TMP/readme"
[ -s "$TMP/readme" ]; ok $? "README.md lists model workloads ($(wc -l <"$TMP/readme"))"
diff "$TMP/listed" "$TMP/readme" >"$TMP/diff"
ok $? "README.md's model workloads are the ones list workloads prints"
sed 's/^/#   /' "$TMP/diff"

# the check can fail: a README without one of them, or with one too many
sed 's/`malloc1`, //' README.md >"$TMP/less.md"
readme_names "$TMP/less.md" | diff -q "$TMP/listed" - >/dev/null
[ $? -ne 0 ]; ok $? "a README missing malloc1 would be caught"
sed 's/`malloc1`,/`malloc1`, `malloc2`,/' README.md >"$TMP/more.md"
readme_names "$TMP/more.md" | diff -q "$TMP/listed" - >/dev/null
[ $? -ne 0 ]; ok $? "a README naming a malloc2 that is not there would be caught"
done_testing
