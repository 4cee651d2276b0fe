#!/bin/sh
# predict/work/kpath.ini (predict/kpath.h): the kernel's instructions
# inside an LRU section, per list operation the mean of the add and delete
# counts of the era the side's kernel profile names (knob kpath), each at
# the list probe's time per instruction (list_ns / the probe's count):
# a section's work computed by hand from the file and the calibration,
# each era's count on its profiles' side, both in the parameter list, and
# the zone->lock counts per page at the same pace, reclaim's per folio
# freed where an era has one, a bad file refused in one line (t_models
# prices a hold by hand, with reclaim's isolations, a zone hold, and
# reclaim's work per folio freed).
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh
CAL=tests/fixtures/model_calib.txt
KP=predict/work/kpath.ini

# A count of the file: the mean of add and del in section [ERA].
mean() { awk -v s="[$1]" '/^\[/{ on = ($0 == s) } on && $1 == "add" { a = $3 } on && $1 == "del" { d = $3 }
	END { printf "%.6f\n", (a + d) / 2 }' "$KP"; }
probe=$(awk '/^\[/{ on = ($0 == "[probe]") } on && $1 == "list" { print $3 }' "$KP")
m612=$(mean v6.12); m510=$(mean v5.10)
[ -n "$probe" ] && awk -v a="$m612" -v b="$m510" 'BEGIN { exit !(a > 100 && b > 100) }'
ok $? "kpath.ini: a list probe count and both eras' counts ($m612, $m510 per list operation)"

# The in-lock work of one hold ('local' in --explain) of tlb_flush2 on
# this machine's model: one list operation per hold.  A calibration whose
# list probe is X ns longer moves it by X x mean / probe: the kernel's
# count, and nothing else of the section, rides on the list probe (with
# list_ns/2 still in it, it would move by X x (mean / probe + 1/2)).
awk '/^list\.(min|median|q1|q3|max)_ns/{ $3 = $3 + 10 } { print }' "$CAL" > "$TMP/cal10"
local_of() { # local_of CAL PAIR: side A's and B's local per hold, LRU lock
	$MEMSCALE model predict --workload tlb_flush2 --pair "$2" --target here --cpus 2 \
		--calib "$1" --iters 2000 --explain 2>/dev/null |
		awk '/^explain: side/{ side = $3 } /^  lock .lock (pn|pgdat)/{ on = 1 } /^  lock .lock zone/{ on = 0 }
		     on && $1 == "local" { printf "%s %s\n", side, $2; on = 0 }'
}
local_of "$CAL" v6.7..8d59d2214c > "$TMP/l0"; local_of "$TMP/cal10" v6.7..8d59d2214c > "$TMP/l10"
d=$(awk 'NR == FNR { a[$1] = $2; next } $1 == "A" { print $2 - a["A"] }' "$TMP/l0" "$TMP/l10")
want=$(awk -v m="$m612" -v p="$probe" 'BEGIN { printf "%.2f\n", 10 * m / p }')
awk -v d="$d" -v w="$want" 'BEGIN { exit !(d != "" && (d - w) < 0.15 && (w - d) < 0.15) }'
ok $? "list probe +10 ns: a v6.7 section's work moves by 10 x mean/probe = $want ns (got $d)"

# Each side reads its own era's count: v5.10 (kpath = v5.10) against v6.7
# (kpath = v6.12), the same +10 ns list probe.
local_of "$CAL" v5.10..v6.7 > "$TMP/m0"; local_of "$TMP/cal10" v5.10..v6.7 > "$TMP/m10"
da=$(awk 'NR == FNR { a[$1] = $2; next } $1 == "A" { print $2 - a["A"] }' "$TMP/m0" "$TMP/m10")
wa=$(awk -v m="$m510" -v p="$probe" 'BEGIN { printf "%.2f\n", 10 * m / p }')
awk -v d="$da" -v w="$wa" 'BEGIN { exit !(d != "" && (d - w) < 0.15 && (w - d) < 0.15) }'
ok $? "a v5.10 side moves by its own era's 10 x mean/probe = $wa ns (got $da)"

# Every parameter list names both eras' figures with their source.
$MEMSCALE model predict --workload tlb_flush2 --pair v5.10..v6.7 --target lkp-skl-fpga01 \
	--cpus 52 --calib "$CAL" --iters 2000 > "$TMP/p" 2>&1
for e in v5.10 v6.12; do
	grep -q "^#   kpath_ns@$e .* instructions per LRU list operation inside the lock.*kpath.ini" "$TMP/p"
	ok $? "the parameter list gives kpath_ns@$e and its source"
done

# The zone->lock sections' counts (zalloc, zfree: per page taken and
# returned), each era's at the list probe's pace: the parameter list's
# figure is the file's count x list_ns / probe.
cnt() { awk -v s="[$1]" -v k="$2" '/^\[/{ on = ($0 == s) } on && $1 == k { print $3 }' "$KP"; }
list_ns=$(awk '$1 == "#" && $2 == "list_ns" { print $3 }' "$TMP/p")
for e in v5.10 v6.12; do
	for k in alloc free; do
		n=$(cnt $e z$k)
		got=$(awk -v n="kzone_${k}_ns@$e" '$1 == "#" && $2 == n { print $3 }' "$TMP/p")
		want=$(awk -v n="$n" -v l="$list_ns" -v p="$probe" 'BEGIN { printf "%.4g\n", n * l / p }')
		awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && w > 0 && (g - w) / w < 0.001 && (w - g) / w < 0.001) }'
		ok $? "kzone_${k}_ns@$e = z$k $n x list_ns $list_ns / $probe = $want ns (got $got)"
	done
done

# Reclaim's work per folio freed outside the LRU and zone sections
# (reclaim, optional per era): counted, the list's figure is the count x
# list_ns / probe; not counted, it says so and prices nothing.
for e in v5.10 v6.12; do
	n=$(cnt $e reclaim)
	got=$(awk -v n="kreclaim_ns@$e" '$1 == "#" && $2 == n { print $3 }' "$TMP/p")
	origin=$(awk -v n="kreclaim_ns@$e" '$1 == "#" && $2 == n { print $5, $6 }' "$TMP/p")
	if [ -n "$n" ]; then
		want=$(awk -v n="$n" -v l="$list_ns" -v p="$probe" 'BEGIN { printf "%.4g\n", n * l / p }')
		awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && w > 0 && (g - w) / w < 0.001 && (w - g) / w < 0.001) }'
		ok $? "kreclaim_ns@$e = reclaim $n x list_ns $list_ns / $probe = $want ns (got $got)"
	else
		[ "$got $origin" = "0 NOT MEASURED" ]
		ok $? "kreclaim_ns@$e: no count, priced at nothing and said so (got $got, $origin)"
	fi
done

# A workload's counted system-call body (body.WORKLOAD) is its local
# work: aim9_brk_test takes no lock, so on one CPU an operation's time
# is 1e9 / ops_s, and a body of 1700 instructions added to v5.10's
# section lengthens it by 1700 x list_ns / probe (the v5.11 side's era
# is v5.10 too).
P="model predict --workload aim9_brk_test --pair v5.10..v5.11 --target lkp-skl-fpga01 --cpus 1 --calib $CAL -f csv"
mkdir "$TMP/b" "$TMP/b0d"; cp predict/work/reference.txt "$TMP/b/"; cp predict/work/reference.txt "$TMP/b0d/"
# [v5.10] without its own body.aim9_brk_test (and the source's continuation)
awk '/^\[/{ era = $0; skip = 0 } era == "[v5.10]" && /^body\.aim9_brk_test/ { skip = 1; next }
     skip && /^[ \t]/ { next } { skip = 0; print }' "$KP" > "$TMP/b0d/kpath.ini"
awk '{ print } /^\[v5.10\]/ { print "body.aim9_brk_test = 1700"; print "body.aim9_brk_test.source = a test" }' \
	"$TMP/b0d/kpath.ini" > "$TMP/b/kpath.ini"
MEMSCALE_WORK="$TMP/b0d" $MEMSCALE $P 2>/dev/null | tail -n 1 > "$TMP/b0"
MEMSCALE_WORK="$TMP/b" $MEMSCALE $P 2>/dev/null | tail -n 1 > "$TMP/b1"
d=$(awk -F, 'NR == FNR { a = $(NF - 1); next } { printf "%.2f\n", 1e9 / $(NF - 1) - 1e9 / a }' "$TMP/b0" "$TMP/b1")
want=$(awk -v l="$list_ns" -v p="$probe" 'BEGIN { printf "%.2f\n", 1700 * l / p }')
awk -v d="$d" -v w="$want" 'BEGIN { exit !(d != "" && (d - w) < 0.05 * w && (w - d) < 0.05 * w) }'
ok $? "body.aim9_brk_test = 1700: an operation is 1700 x list_ns / probe = $want ns longer (got $d)"

# Every body count names a workload of the registry.
$MEMSCALE list workloads | awk '{ print $1 }' > "$TMP/wls"
awk -F'[ .=]+' '$1 == "body" && $3 != "source" { print $2 }' "$KP" | sort -u > "$TMP/bodies"
bad=$(grep -vxFf "$TMP/wls" "$TMP/bodies" | tr '\n' ' ')
[ -z "$bad" ]
ok $? "every body.WORKLOAD of kpath.ini is a workload ($(wc -l < "$TMP/bodies") counted${bad:+; unknown: $bad})"

# A bad reference file: one line, exit 2 (MEMSCALE_WORK names its folder).
mkdir "$TMP/w"; cp predict/work/reference.txt "$TMP/w/"
export MEMSCALE_WORK="$TMP/w"
Q="model predict --workload tlb_flush2 --pair v6.7..8d59d2214c --target lkp-skl-fpga01 --cpus 4 --calib $CAL --iters 1000"
bad_kp() { # bad_kp DESCRIPTION PATTERN FILTER...: the reference through FILTER
	desc=$1 pat=$2
	shift 2
	"$@" "$KP" > "$TMP/w/kpath.ini"
	expect_usage "kpath.ini $desc" "kpath.ini.*$pat" -- $MEMSCALE $Q
}
bad_kp "with a count that is no number" "bad value 'many'" sed 's/^add = .*/add = many/'
bad_kp "without an era's section" "for every value of knob kpath" awk '/^\[v5.10\]/{ exit } { print }'
bad_kp "with an unknown key" "unknown key 'dell.source'" sed 's/^del.source/dell.source/'
bad_kp "without a zone count" "zalloc and zfree" grep -v '^zfree = '
bad_kp "with a body key that names no workload" "bad key 'body.Page-Fault'" \
	awk '{ print } /^\[v6.12\]/ { print "body.Page-Fault = 10" }'
# An overlay era (like = ERA): another era's name, once, not itself an
# overlay's; a full era may not leave a count out, an overlay may.
bad_kp "like an unknown era" "like 'v9.9': want another era's name" sed 's/^like = v5.10$/like = v9.9/'
bad_kp "like itself" "like 'v5.10-lock_stat'" sed 's/^like = v5.10$/like = v5.10-lock_stat/'
bad_kp "with an overlay of an overlay" "like 'v5.10': want another era's name, once, of an era not itself like another" \
	awk '{ print } $0 == "[v5.10]" { print "like = v6.12" }'
# an overlay's bodies and its like's beyond KPATH_MAX_BODY (16): its own
# 2 and 14 more fit a section, v5.10's lru_file_readtwice would be a 17th
bad_kp "whose overlay's bodies do not fit" "\\[v5.10-lock_stat\\] and the era it is like count more than 16" \
	awk '{ print } $0 == "[v5.10-lock_stat]" { for (i = 1; i <= 14; i++)
		printf "body.w%d = 10\nbody.w%d.source = a test\n", i, i }'
awk '{ print } /^\[v6.12\]/ { print "body.page_fault2 = 10" }' "$KP" > "$TMP/w/kpath.ini"
expect_usage "kpath.ini with a body count without its source" "kpath.ini.*body.WORKLOAD" -- $MEMSCALE $Q
# [v6.12] without its reclaim lines (and their continuations)
awk '/^\[/{ era = $0; skip = 0 } era == "[v6.12]" && /^reclaim/ { skip = 1; next }
     skip && /^[ \t]/ { next } { skip = 0; print }' "$KP" > "$TMP/noreclaim.ini"
# ... then given a count without its source
awk '{ print } $0 == "[v6.12]" { print "reclaim = 900" }' "$TMP/noreclaim.ini" > "$TMP/w/kpath.ini"
[ "$(awk '/^\[/{ era = $0 } era == "[v6.12]" && /^reclaim/' "$TMP/w/kpath.ini")" = "reclaim = 900" ]
ok $? "the test's file gives [v6.12] a reclaim count and no source"
expect_usage "kpath.ini with a reclaim count without its source" "kpath.ini.*reclaim and fault) with its .source" -- $MEMSCALE $Q
# without [v6.12]'s reclaim lines at all: the era prices nothing and its
# parameter list says so
cp "$TMP/noreclaim.ini" "$TMP/w/kpath.ini"
$MEMSCALE $Q > "$TMP/nr" 2>&1
got=$(awk '$1 == "#" && $2 == "kreclaim_ns@v6.12" { print $3, $5, $6 }' "$TMP/nr")
[ "$got" = "0 NOT MEASURED" ]
ok $? "kpath.ini without [v6.12]'s reclaim: kreclaim_ns@v6.12 priced at 0 and NOT MEASURED (got '$got')"
rm -f "$TMP/w/kpath.ini"; mkdir "$TMP/w/kpath.ini"
expect_usage "kpath.ini a directory" "kpath.ini.*directory" -- $MEMSCALE $Q
unset MEMSCALE_WORK
done_testing
