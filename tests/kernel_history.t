#!/bin/sh
# kernel_history.t - the memcg history profiles (a commit NAME and its
# parent NAME^): every such pair is listed with its commit and file, the
# pair differs in what the commit's diff changed (a knob, or a declared
# struct layout) or its title says the change is not modelled; and the
# compiler-derived layouts of struct mem_cgroup and struct page_counter
# (models/layout_struct.c) give the offsets worked out by hand from the
# sources (x86_64, the declarations' assumptions).
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh

expect_exit 0 "memscale list kernels" -- $MEMSCALE list kernels
cp "$TMP/out" "$TMP/kernels"
heads=$(grep -v '^    ' "$TMP/kernels")
parents=$(echo "$heads" | awk '$1 ~ /\^$/ { sub(/\^$/, "", $1); print $1 }')
n=$(echo "$parents" | grep -c .)
[ "$n" -ge 11 ]; ok $? "at least 11 commit/parent profile pairs ($n)"

# every profile of a pair: its commit in parentheses and an existing file
for c in $parents; do
	for p in "$c" "$c^"; do
		line=$(echo "$heads" | awk -v p="$p" '$1 == p')
		commit=$(echo "$line" | awk '{ print $2 }')
		file=$(echo "$line" | awk '{ print $3 }')
		[ "$commit" = "($p)" ] && [ -f "$file" ] && grep -q "\"$p\"" "$file"
		ok $? "$p is listed with its commit and its file ($file)"
	done
done

knobs_of() { # PROFILE -> "knob value" lines
	# the line after the header is the title
	awk -v p="$1" '/^[^ ]/ { on = ($1 == p); t = 1; next } on && t { t = 0; next }
		on && /^    [a-z_]+ / { print $1, $2 }' "$TMP/kernels" | sort
}
structs_of() { # PROFILE -> the struct@version words of its header line
	echo "$heads" | awk -v p="$1" '$1 == p { for (i = 4; i <= NF; i++) print $i }'
}
# each pair differs in a knob or a declared struct, or says it is not modelled
for c in $parents; do
	knobs_of "$c" > "$TMP/a"; knobs_of "$c^" > "$TMP/b"
	structs_of "$c" > "$TMP/sa"; structs_of "$c^" > "$TMP/sb"
	if ! cmp -s "$TMP/a" "$TMP/b" || ! cmp -s "$TMP/sa" "$TMP/sb"; then
		ok 0 "$c^ -> $c differs in a knob or a struct layout"
	else
		awk -v p="$c" '/^[^ ]/ { on = ($1 == p); next } on { print; exit }' "$TMP/kernels" |
			grep -q "not modelled"
		ok $? "$c^ -> $c: same knobs and structs, and its title says what is not modelled"
	fi
done

# the knob each commit changes, as read from its diff
knob_diff() { # COMMIT -> knobs that differ from its parent
	knobs_of "$1" > "$TMP/a"; knobs_of "$1^" > "$TMP/b"
	join -a 1 -a 2 -e - -o 0,1.2,2.2 "$TMP/b" "$TMP/a" | awk '$2 != $3 { print $1 }' | tr '\n' ' '
}
[ "$(knob_diff 1813e51eece0)" = "charge_batch " ]; ok $? "1813e51eece0: only charge_batch differs (32 -> 64)"
[ "$(knob_diff 873f64b791a2)" = "stats " ]; ok $? "873f64b791a2: only the stats path differs (the guard)"
[ "$(knob_diff aa48e47e3906)" = "flush_ms stats " ]; ok $? "aa48e47e3906: flush_ms (the 2 s flusher) and the stats path (the queued flush) differ"
for c in 1f828223b799 11192d9c124d 5b3be698a872; do
	[ "$(knob_diff $c)" = "stats " ]; ok $? "$c: the stats design differs"
done
[ "$(knob_diff 2d146aa3aa84)" = "stats " ]; ok $? "2d146aa3aa84: the stats path differs, the per-node layout does not"
for c in bd0b230fe145 4df910620beb; do
	[ "$(knob_diff $c)" = "mc_layout " ] && [ "$(structs_of $c | grep mem_cgroup)" != "$(structs_of "$c^" | grep mem_cgroup)" ]
	ok $? "$c: only mc_layout differs, and so the mem_cgroup layout"
done
[ "$(knob_diff 802f1d522d5f)" = "pc_layout " ] && [ "$(structs_of 802f1d522d5f | grep page_counter)" != "$(structs_of '802f1d522d5f^' | grep page_counter)" ]
ok $? "802f1d522d5f: only pc_layout differs, and so the page_counter layout"

# offsets worked out by hand from the declarations (docs/kernel-profiles.md)
member() { # STRUCT PROFILE MEMBER -> "offset size line pair"
	$MEMSCALE layout --struct "$1" --kernel "$2" 2>/dev/null | awk -v m="$3" '$1 == m { print $2, $3, $4, $5 }'
}
[ "$(member mem_cgroup bd0b230fe145 css.parent)" = "192 8 L3-L3 P1-P1" ]; ok $? "v5.10 css: parent at 192 (css 200 B)"
[ "$(member mem_cgroup bd0b230fe145 memory.usage)" = "208 8 L3-L3 P1-P1" ]; ok $? "memory.usage at 208, on css.parent's line"
[ "$(member mem_cgroup bd0b230fe145 memory.parent)" = "248 8 L3-L3 P1-P1" ]; ok $? "pre-802f1d522d5f memory.parent on usage's line"
[ "$(member mem_cgroup 'bd0b230fe145^' vmstats_percpu)" = "1240 8 L19-L19 P9-P9" ] &&
	[ "$(member mem_cgroup 'bd0b230fe145^' vmstats)" = "1280 328 L20-L25 P10-P12" ]
ok $? "bd0b230fe145^: the per-CPU pointers (L19) and vmstats[] (L20) in different 128 B pairs"
[ "$(member mem_cgroup bd0b230fe145 vmstats_percpu)" = "1176 8 L18-L18 P9-P9" ] &&
	[ "$(member mem_cgroup bd0b230fe145 vmstats)" = "1216 328 L19-L24 P9-P12" ]
ok $? "bd0b230fe145 (-112 B): the pointers (L18) and vmstats[] (L19) share pair P9"
[ "$(member mem_cgroup 4df910620beb vmstats)" = "1152 328 L18-L23 P9-P11" ] &&
	[ "$(member mem_cgroup 4df910620beb vmstats_percpu)" = "2456 8 L38-L38 P19-P19" ]
ok $? "4df910620beb: vmstats[] right after _pad1_, the pointers behind _pad2_"
# v6.7 (the stored v6.2..v6.7 memcontrol.h): css 200 B, id 8 B, then the
# internode-aligned page_counter: usage alone on L4, css.parent on L3
[ "$(member mem_cgroup v6.7 css.parent)" = "192 8 L3-L3 P1-P1" ]; ok $? "v6.7 css: parent at 192"
[ "$(member mem_cgroup v6.7 memory.usage)" = "256 8 L4-L4 P2-P2" ]; ok $? "v6.7 memory.usage at 256: its own line, not css.parent's (nor its 128 B pair)"
[ "$(member mem_cgroup v6.7 memory.parent)" = "416 8 L6-L6 P3-P3" ]; ok $? "v6.7 memory.parent at 256 + 160 behind _pad2_"
[ "$(member mem_cgroup v6.9 zswap_writeback)" = "1064 1 L16-L16 P8-P8" ] &&
	[ "$(member mem_cgroup v6.9 css.parent)" = "192 8 L3-L3 P1-P1" ] &&
	[ "$(member mem_cgroup 70a64b7919cb memory.usage)" = "256 8 L4-L4 P2-P2" ]
ok $? "v6.9 / 70a64b7919cb (v6.8's struct): zswap_writeback after zswap_max, the head as v6.7"
# 8d59d2214c and 9cee7e8ef3e3 keep v6.7's (their pair isolates the stats path)
[ -z "$(member mem_cgroup 8d59d2214c zswap_writeback)" ] && [ "$(member mem_cgroup 8d59d2214c css.parent)" = "192 8 L3-L3 P1-P1" ] &&
	[ "$(member mem_cgroup 9cee7e8ef3e3 memory.usage)" = "256 8 L4-L4 P2-P2" ]
ok $? "8d59d2214c / 9cee7e8ef3e3: v6.7's struct, no zswap_writeback"
[ "$(member mem_cgroup v5.10 memory.usage)" = "208 8 L3-L3 P1-P1" ] &&
	[ "$(member mem_cgroup '802f1d522d5f^' memory.usage)" = "208 8 L3-L3 P1-P1" ]
ok $? "v5.10 and 802f1d522d5f^ declare 4df910620beb's mem_cgroup: usage on css.parent's line"
[ "$(member page_counter '802f1d522d5f^' parent)" = "40 8 L0-L0 P0-P0" ]; ok $? "page_counter before 802f1d522d5f: parent at 40, usage's line"
[ "$(member page_counter 802f1d522d5f parent)" = "104 8 L1-L1 P0-P0" ]; ok $? "802f1d522d5f: parent at 104, off usage's line"
[ "$(member page_counter 802f1d522d5f usage)" = "0 8 L0-L0 P0-P0" ]; ok $? "usage stays at 0"
[ "$(member page_counter 1813e51eece0 parent)" = "160 8 L2-L2 P1-P1" ] &&
	[ "$(member page_counter 1813e51eece0 emin)" = "64 8 L1-L1 P0-P0" ]
ok $? "408587baee39 (1813e51eece0's parent series): usage alone on L0, parent on L2"
$MEMSCALE layout --struct page_counter --kernel 802f1d522d5f | grep -q "sizeof 112"; ok $? "sizeof(struct page_counter) 112 before v6.1"
expect_exit 0 "layout --struct mem_cgroup for two kernels" -- \
	$MEMSCALE layout --struct mem_cgroup --kernel bd0b230fe145 --kernel 4df910620beb
[ "$(grep -c '^# kernel' "$TMP/out")" -eq 2 ]; ok $? "one listing per --kernel"

# the declared 6.18-era page_counter (profile current) against the BTF of
# the kernel this runs on, member by member (skipped without BTF/pahole)
if [ -r /sys/kernel/btf/vmlinux ] && command -v pahole >/dev/null 2>&1 &&
	pahole -C page_counter /sys/kernel/btf/vmlinux 2>/dev/null | grep -q local_watermark; then
	pahole -C page_counter /sys/kernel/btf/vmlinux 2>/dev/null |
		sed -n 's/.*[ *]\([a-z_0-9]*\)\( __attribute__.*\)\{0,1\};[[:space:]]*\/\*[[:space:]]*\([0-9]*\)[[:space:]]*\([0-9]*\) \*\/.*/\1 \3 \4/p' |
		sort > "$TMP/btf_pc"
	$MEMSCALE layout --struct page_counter --kernel current |
		awk 'NR > 2 && NF >= 3 { print $1, $2, $3 }' | sort > "$TMP/decl_pc"
	[ -s "$TMP/btf_pc" ] && cmp -s "$TMP/btf_pc" "$TMP/decl_pc"
	ok $? "page_counter@v6.18 matches the running kernel's BTF member by member"
	[ -s "$TMP/btf_pc" ] && ! cmp -s "$TMP/btf_pc" "$TMP/decl_pc" && diff "$TMP/btf_pc" "$TMP/decl_pc" | sed 's/^/#   /' | head -8
else
	ok 0 "page_counter@v6.18 against BTF # SKIP no BTF with a 6.1x page_counter, or no pahole"
fi

expect_usage "a page_counter that does not fit the mem_cgroup's room for memory" "does not fit struct mem_cgroup" -- \
	$MEMSCALE model program page_fault2 --set kernel=v6.7 --set mc_layout=4df910620beb
expect_usage "unknown --struct" "mem_cgroup|page_counter" -- $MEMSCALE layout --struct lruvec --kernel v6.9
expect_usage "no declared struct for the profile" "no declared struct mem_cgroup" -- \
	$MEMSCALE layout --struct mem_cgroup --kernel v5.3
expect_usage "unknown profile" "unknown kernel profile" -- $MEMSCALE layout --struct page_counter --kernel 'v9.9^'
expect_usage "--struct without --kernel" "--kernel" -- $MEMSCALE layout --struct page_counter
done_testing
