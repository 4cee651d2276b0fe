#!/bin/sh
# docs/plugins.md against the code: every registry the code has is named
# there with its REGISTER line, every registry the page names exists,
# and every macro, file, test and `memscale list` kind it names exists.
# A plug-in kind added without its steps, or a step that names what is
# gone, fails here.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
DOC=docs/plugins.md
SRC=$(find core trace locks tracing counters models predict harness workloads cli \
	-type f \( -name '*.c' -o -name '*.h' -o -name '*.inc' \))

# registries: REGISTRY_BOUNDS(KIND) declares each once (core/registry.h's
# own example, `kind`, aside)
grep -ho 'REGISTRY_BOUNDS([a-z_]*)' $SRC | sed 's/.*(\(.*\))/\1/' | grep -vx kind | sort -u >"$TMP/code"
[ "$(wc -l <"$TMP/code")" -ge 5 ]; ok $? "the code has registries ($(wc -l <"$TMP/code"))"
grep -o 'REGISTER([a-z_]*,' "$DOC" | sed 's/REGISTER(\(.*\),/\1/' | sort -u >"$TMP/doc"
comm -23 "$TMP/code" "$TMP/doc" >"$TMP/undoc"
[ ! -s "$TMP/undoc" ]; ok $? "every registry of the code has its REGISTER line in $DOC"
sed 's/^/#   undocumented: /' "$TMP/undoc"
grep -vx kind "$TMP/doc" | comm -13 "$TMP/code" - >"$TMP/gone"
[ ! -s "$TMP/gone" ]; ok $? "every REGISTER kind $DOC names is a registry"
sed 's/^/#   no such registry: /' "$TMP/gone"
# each kind is registered somewhere (the step works as written)
for k in $(cat "$TMP/code"); do
	grep -q "REGISTER($k," $SRC || grep -Eq "REGISTER\\($k, *ops_obj" $SRC || echo "$k"
done >"$TMP/unused"
[ ! -s "$TMP/unused" ]; ok $? "every registry has an entry in the code"

# macros the steps use: MODEL_WORKLOAD(, KERNEL_WORKLOAD(, LOCK_BENCH_SPECIALISE(...
grep -o '\b[A-Z][A-Z0-9_]*[A-Z0-9](' "$DOC" | tr -d '(' | sort -u >"$TMP/macros"
[ -s "$TMP/macros" ]; ok $? "$DOC names macros ($(tr '\n' ' ' <"$TMP/macros"))"
for m in $(cat "$TMP/macros"); do
	grep -Eq "^[[:space:]]*#[[:space:]]*define[[:space:]]+$m\\(" $SRC || echo "$m"
done >"$TMP/nomacro"
[ ! -s "$TMP/nomacro" ]; ok $? "every macro it names is defined"
sed 's/^/#   not defined: /' "$TMP/nomacro"

# files: `dir/file.ext` in backticks (placeholders such as NAME, VERB aside)
grep -o '`[a-z_]*/[A-Za-z0-9_./-]*\.\(c\|h\|inc\|t\|ini\|sh\|md\)`' "$DOC" | tr -d '`' |
	grep -v "[A-Z][A-Z][A-Z]" | sort -u >"$TMP/files"
[ "$(wc -l <"$TMP/files")" -ge 10 ]; ok $? "$DOC names files ($(wc -l <"$TMP/files"))"
while read -r f; do [ -e "$f" ] || echo "$f"; done <"$TMP/files" >"$TMP/nofile"
[ ! -s "$TMP/nofile" ]; ok $? "every file it names exists"
sed 's/^/#   missing: /' "$TMP/nofile"
# C test programs: bin/tests/t_X is built from tests/t_X.c
grep -o 'bin/tests/t_[a-z_]*' "$DOC" | sort -u | while read -r t; do
	[ -e "tests/${t#bin/tests/}.c" ] || echo "$t"; done >"$TMP/noprog"
[ ! -s "$TMP/noprog" ]; ok $? "every test program it names has its source"

# `memscale list KIND`: each kind is one `list` takes
grep -o 'memscale list [a-z]*' "$DOC" | awk '{ print $3 }' | grep -v '^$' | sort -u >"$TMP/kinds"
[ -s "$TMP/kinds" ]; ok $? "$DOC names list kinds ($(tr '\n' ' ' <"$TMP/kinds"))"
for k in $(cat "$TMP/kinds"); do
	$MEMSCALE list "$k" >/dev/null 2>&1 || echo "$k"
done >"$TMP/nokind"
[ ! -s "$TMP/nokind" ]; ok $? "every list kind it names is listed"
sed 's/^/#   memscale list refuses: /' "$TMP/nokind"

# the check can fail: a page naming a registry that is not there
sed 's/REGISTER(kstruct_decl,/REGISTER(no_such_kind,/' "$DOC" >"$TMP/bad.md"
grep -o 'REGISTER([a-z_]*,' "$TMP/bad.md" | sed 's/REGISTER(\(.*\),/\1/' | sort -u | grep -vx kind |
	comm -13 "$TMP/code" - | grep -qx no_such_kind
ok $? "a planted unknown registry would be found"
done_testing
