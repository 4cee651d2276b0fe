#!/bin/sh
# kernel_files.t - the kernel profiles' data files (core/knob.c):
# a new file in $MEMSCALE_KERNELS is a new profile with no code edit, a
# [parent] inherits every knob but those it changes, and a bad file is
# refused with one line naming it and exit 2.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh

K=$TMP/kernels
mkdir -p "$K"
cp models/kernels/v6.9.ini models/kernels/873f64b791a2.ini "$K/"
# a new profile: v6.9's knobs under another name, one value changed
sed -e 's/^name = v6.9$/name = my-kernel/' -e 's/^title = .*/title = a test kernel/' \
	-e 's/^lru_batch = 31$/lru_batch = 15/' models/kernels/v6.9.ini >"$K/my-kernel.ini"

MEMSCALE_KERNELS=$K $MEMSCALE list kernels >"$TMP/list" 2>"$TMP/err"
ok $? "memscale list kernels reads \$MEMSCALE_KERNELS"
[ "$(awk '/^[^ ]/ { print $1 }' "$TMP/list" | tr '\n' ' ')" = "873f64b791a2 873f64b791a2^ my-kernel v6.9 " ]
ok $? "it lists the files' profiles and the parent, sorted"
grep -q "^my-kernel  (v6.9)  $K/my-kernel.ini" "$TMP/list" &&
	awk '/^my-kernel /{ on = 1; next } /^[^ ]/{ on = 0 } on && $1 == "lru_batch" { print $2 }' "$TMP/list" | grep -qx 15
ok $? "a new file is a new profile, with its values and its file"
# the listing of the copied files is the repository's
$MEMSCALE list kernels >"$TMP/all"
for p in v6.9 873f64b791a2 '873f64b791a2^'; do
	awk -v p="$p" '$1 == p { on = 1; next } /^[^ ]/ { on = 0 } on' "$TMP/list" >"$TMP/a"
	awk -v p="$p" '$1 == p { on = 1; next } /^[^ ]/ { on = 0 } on' "$TMP/all" >"$TMP/b"
	[ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b"; ok $? "$p: the same knobs from \$MEMSCALE_KERNELS"
done
# [parent]: only stats differs, with its own source
awk '$1 == "873f64b791a2" { on = 1; next } /^[^ ]/ { on = 0 } on' "$TMP/all" >"$TMP/c"
awk '$1 == "873f64b791a2^" { on = 1; next } /^[^ ]/ { on = 0 } on' "$TMP/all" >"$TMP/p"
[ "$(diff "$TMP/c" "$TMP/p" | grep -c '^[<>]')" = 4 ] && diff "$TMP/c" "$TMP/p" | grep -q '^> *stats  *rstat_global_noguard'
ok $? "873f64b791a2^ inherits every knob but stats (and its title)"
MEMSCALE_KERNELS=$K $MEMSCALE run page_fault2 -t 1 -s 0.02 -w 0 --sample-ms 10 \
	--kernel my-kernel --format csv >"$TMP/run" 2>"$TMP/err"
ok $? "a run under the new profile"

# bad files: one line naming the file, exit 2
bad() { # DESCRIPTION PATTERN: file $K/bad.ini, refused
	expect_usage "$1" "$2" -- env MEMSCALE_KERNELS="$B" $MEMSCALE list kernels
}
B=$TMP/bad
mkdir -p "$B"
mk() { cp "$K/my-kernel.ini" "$B/my-kernel.ini"; }
mk; sed -i 's/^lru_batch = 15$/lru_batch = 15\nno_such_knob = 1/' "$B/my-kernel.ini"
bad "an unknown knob" "my-kernel.ini.*unknown knob 'no_such_knob'"
mk; sed -i 's/^lru_batch = 15$/lru_batch = 0/' "$B/my-kernel.ini"
bad "a value the knob does not allow" "bad value '0' for knob 'lru_batch'"
mk; sed -i '/^lru_batch.source/,/^lru_lock =/{/^lru_lock =/!d}' "$B/my-kernel.ini"
bad "a knob without its source" "knob 'lru_batch' has no source"
mk; printf 'lru_batch = 15\n' >>"$B/my-kernel.ini"
bad "a knob given twice" "'lru_batch' is given twice"
mk; sed -i '/^lru_lock/d' "$B/my-kernel.ini"
bad "a per-kernel knob left out" "per-kernel knob 'lru_lock'"
mk; printf '[kernels]\nx = 1\n' >>"$B/my-kernel.ini"
bad "an unknown section" "unknown section '\[kernels\]'"
mk; sed -i 's/^name = my-kernel$/name = other/' "$B/my-kernel.ini"
bad "a name that is not the file's" "name 'other' is not the file's name"
mk; printf '[parent]\ntitle = p\ncharge_batch = 64\ncharge_batch.source = %s\n' \
	"$(sed -n 's/^charge_batch.source = //p' "$B/my-kernel.ini")" >>"$B/my-kernel.ini"
bad "a [parent] that repeats [knobs]" "repeats charge_batch"
mk; head -c 70000 /dev/zero | tr '\0' '#' | fold -w 60 >>"$B/my-kernel.ini"
bad "a file over 64 KiB" "over 65536 bytes"
mk; printf 'title = %0300d\n' 0 >>"$B/my-kernel.ini"
bad "a line over 199 characters" "line too long"
rm -f "$B/my-kernel.ini"
# a run that names a profile reads them all: refused the same way
mk; sed -i 's/^lru_batch = 15$/lru_batch = x/' "$B/my-kernel.ini"
expect_usage "--kernel under a bad file" "bad value 'x'" -- env MEMSCALE_KERNELS="$B" \
	$MEMSCALE run page_fault2 -t 1 -s 0.02 --kernel my-kernel
done_testing
