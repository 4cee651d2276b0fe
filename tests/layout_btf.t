#!/bin/sh
# layout_btf.t - real type information: `memscale layout --btf` (libbpf)
# agrees with `pahole -C` on the running kernel member by member; saved
# pahole output is read the same way (a fixture from a 6.18 kernel, so
# that part runs everywhere); the declared layout of the `current` kernel
# profile, compiled under this machine's configuration, matches the
# running kernel's BTF field by field; and the model runs on a BTF layout.
# check: parallel (computes only: no timing, no spinning, outputs under $TMP)
. tests/lib.sh

# name offset size of every member, as pahole prints them
pahole_members() { # FILE
	awk '
		/^struct mem_cgroup_per_node \{/ { s = "mem_cgroup_per_node"; d = 1; next }
		/^struct lruvec \{/ { s = "lruvec"; d = 1; next }
		s == "" { next }
		/\{/ { d++ }
		/^\}/ || (d > 1 && /\};/) { d--; if (d == 0) s = ""; next }
		d == 1 && /;/ && match($0, /\/\* *[0-9]+ +[0-9]+ *\*\//) {
			c = substr($0, RSTART + 2, RLENGTH - 4); split(c, n, " ")
			decl = substr($0, 1, index($0, ";") - 1)
			sub(/__attribute__.*/, "", decl); sub(/\[.*/, "", decl); sub(/:.*/, "", decl)
			sub(/[ \t]+$/, "", decl); m = decl; sub(/.*[^A-Za-z0-9_]/, "", m)
			print s, m, n[1], n[2]
		}' "$1"
}
fields() { awk '/FIELD +OFFSET/ { f = 1; next } f && NF >= 3 && $0 != "" { sub(/^[!~ ] +/, ""); print $1, $2, $3 } /^$/ { f = 0 }' "$1" | sort; }

F=tests/fixtures/layout/pahole-6.18.txt
expect_exit 0 "layout --pahole on a saved 6.18 pahole output" -- $MEMSCALE layout --pahole $F
grep '^mem_cgroup_per_node \|^lruvec ' "$TMP/out" > "$TMP/ours"
pahole_members $F > "$TMP/theirs"
[ -s "$TMP/theirs" ] && cmp -s "$TMP/ours" "$TMP/theirs"; ok $? "--pahole reads every member of the fixture ($(wc -l < "$TMP/theirs") members)"
grep -q "^pahole: sizeof 512, MAX_NR_ZONES 5, ZONE_NORMAL 2 " "$TMP/out"; ok $? "--pahole: sizeof, zones and ZONE_NORMAL from enum zone_type"
fields "$TMP/out" > "$TMP/pahole_fields"
expect_exit 0 "declared fixed_padded under the fixture's configuration" -- \
	$MEMSCALE layout --kconfig rhel-8.3 fixed_padded
fields "$TMP/out" > "$TMP/decl_fields"
cmp -s "$TMP/pahole_fields" "$TMP/decl_fields"; ok $? "declared fixed_padded (rhel-8.3: DMA, DEVICE, MEMCG_V1, ZSWAP; no LRU_GEN) = the 6.18 fixture, field by field"
expect_usage "layout --pahole: not pahole output" "mem_cgroup_per_node" -- $MEMSCALE layout --pahole tests/lib.sh

# A layout file is checked data: every offset and size inside its struct
# (checked arithmetic), members unique and aligned, the members the model
# writes present; else one line naming the member, exit 2 (never a crash).
bad_layout() { # DESC PATTERN FILE
	expect_usage "layout=pahole, $1" "$2" -- \
		$MEMSCALE run page_fault2 -t 1 -s 0.05 -w 0 --set layout=pahole --set layout_file="$3" --format csv
	expect_usage "layout --pahole, $1" "$2" -- $MEMSCALE layout --pahole "$3"
}
sed 's|memcg;                /\*     0     8|memcg;                /*     99999999999999999999     8|' $F > "$TMP/l1"
bad_layout "offset 99999999999999999999" "memcg" "$TMP/l1"
sed 's|lru_zone_size\[25\] __attribute__((__aligned__(64))); /\*   256   200|lru_zone_size[25]; /* 400 200|' $F > "$TMP/l2"
bad_layout "a member past sizeof" "lru_zone_size.*outside" "$TMP/l2"
sed 's|pgdat;                /\*   136     8|pgdat;                /*   136     -8|' $F > "$TMP/l3"
bad_layout "a negative size" "pgdat" "$TMP/l3"
sed 's|/\* size: 512,|/* size: 0,|' $F > "$TMP/l4"
bad_layout "struct size 0" "size 0" "$TMP/l4"
grep -v 'struct lruvec              lruvec;' $F > "$TMP/l5"
bad_layout "no 'struct lruvec lruvec;'" "'lruvec'" "$TMP/l5"
sed '/memcg;  /p' $F > "$TMP/l6"
bad_layout "a member twice" "memcg is given twice" "$TMP/l6"
sed 's|memcg;                /\*     0     8|memcg;                /*     4     8|' $F > "$TMP/l7"
bad_layout "a misaligned member" "memcg.*not aligned" "$TMP/l7"
grep -v 'lru_lock;' $F > "$TMP/l8"
expect_usage "layout=pahole without lruvec.lru_lock under lru_lock=lruvec" "lru_lock" -- \
	$MEMSCALE run page_fault2 -t 1 -s 0.05 -w 0 --set layout=pahole --set layout_file="$TMP/l8" --format csv
sed 's|lru_zone_size\[25\] __attribute__((__aligned__(64))); /\*   256   200|lru_zone_size[1]; /* 256 8|' $F > "$TMP/l9"
bad_layout "lru_zone_size without ZONE_NORMAL's row" "lru_zone_size" "$TMP/l9"

BTF=/sys/kernel/btf/vmlinux
if [ ! -r $BTF ]; then
	for i in 1 2 3 4 5; do ok 0 "# SKIP no readable $BTF on this machine"; done
elif ! command -v pahole >/dev/null; then
	for i in 1 2 3 4 5; do ok 0 "# SKIP no pahole (Debian dwarves; make deps installs it)"; done
else
	expect_exit 0 "layout --btf (libbpf, $BTF)" -- $MEMSCALE layout --btf
	cp "$TMP/out" "$TMP/btf"
	grep '^mem_cgroup_per_node \|^lruvec ' "$TMP/btf" > "$TMP/ours"
	pahole -C mem_cgroup_per_node,lruvec $BTF 2>/dev/null > "$TMP/pahole.txt"
	pahole_members "$TMP/pahole.txt" > "$TMP/theirs"
	[ -s "$TMP/theirs" ] && cmp -s "$TMP/ours" "$TMP/theirs"
	ok $? "layout --btf agrees with pahole -C mem_cgroup_per_node,lruvec for every member ($(wc -l < "$TMP/theirs"))"
	[ $? -eq 0 ] || diff "$TMP/ours" "$TMP/theirs" | sed 's/^/#   /' | head
	fields "$TMP/btf" > "$TMP/btf_fields"
	if $MEMSCALE layout --kconfig running fixed_padded > "$TMP/run" 2> "$TMP/err"; then
		fields "$TMP/run" > "$TMP/run_fields"
		cmp -s "$TMP/btf_fields" "$TMP/run_fields"
		ok $? "the current profile's layout under this machine's kconfig = the running kernel's BTF, field by field"
		[ $? -eq 0 ] || diff "$TMP/btf_fields" "$TMP/run_fields" | sed 's/^/#   /' | head
	else
		ok 0 "# SKIP $(head -1 "$TMP/err")"
	fi
	expect_exit 0 "the model runs on the BTF layout (--set layout=btf)" -- \
		$MEMSCALE run page_fault2 -t 1 -s 0.05 -w 0 --sample-ms 10 --set layout=btf --format csv
	grep -q ",btf," "$TMP/out"; ok $? "the result row records layout=btf"
fi
expect_usage "layout=btf from a missing file" "layout_file\|cannot read BTF" -- \
	$MEMSCALE run page_fault2 -t 1 -s 0.05 --set layout=btf --set layout_file=/nonexistent
done_testing
