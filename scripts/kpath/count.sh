#!/bin/sh
# count.sh - count the instructions a distribution kernel executes inside
# its LRU lock sections, by single-stepping one kernel function's calls
# under qemu (TCG) through gdb; the workload is guest.c in a memcg two
# levels below the root, with MGLRU switched off at run time.
#
#   sh scripts/kpath/count.sh DIR MODE FUNC CALLS SKIP [NR]
#     DIR    holds boot/vmlinuz-*, boot/System.map-* (a Debian
#            linux-image-*-unsigned and its -dbg package, unpacked)
#     MODE   tlb (tlb_flush2's loop), pf2 (page_fault2's), falloc
#            (fallocate1's, 1 MB at once), falloc8 (fallocate1's own
#            8 KB steps to 1 MB, then ftruncate), zone (128 MB allocated and truncated: pages
#            through zone->lock), readtwice (lru-file-readtwice's two
#            readers of a brd device, 4 KB reads, the second 64 pages
#            behind, each page written to /dev/null twice, in a 16 MB
#            memcg), brk (AIM9 page_test's sbrk rounds), brk0 (brk_test's: the same
#            calls, no page touched), reclaim (a reader of a brd block device,
#            twice over, in a 16 MB memcg: the memcg's own reclaim; the
#            brd module is taken from DIR/lib/modules), sparse
#            (lru-file-readtwice as vm-scalability runs it: the two
#            readers of a sparse file on xfs, loop-mounted from an image
#            in tmpfs; memory ample, so nothing reclaims) and sparsecg
#            (the same in a 768 MB memcg: its reclaim, as direct reclaim
#            does it, at a list size whose first priority scans full
#            SWAP_CLUSTER_MAX batches); xfs, libcrc32c, crc32c_generic
#            and loop modules from DIR/lib/modules, the image made by
#            the host's mkfs.xfs
#     FUNC   the function traced (folio_batch_move_lru: the LRU add
#            drain; folios_put_refs: the release)
#     CALLS  calls traced after SKIP calls let pass
#     NR     a gdb expression for the batch size at FUNC's entry
#            (default: the first byte of its first argument, a
#            folio_batch or pagevec; release_pages(pages, nr): '$esi')
# KPATH_PORT (default 1234) is the gdbstub's TCP port: two counts at
# once need two.  KPATH_TIMEOUT (default 900) bounds gdb's seconds.
# With KPATH_WHOLE=1 every instruction of the call counts as held (a
# function its caller runs under the lock, such as isolate_lru_folios),
# and the report gives its return value (the folios it took).
#
# Needs qemu-system-x86, gdb, busybox-static, cpio, a static-capable
# gcc, and xfsprogs for the sparse modes.  Not part of `make check` (it
# downloads nothing, but needs the kernel packages; predict/work/kpath.ini
# records the counts it printed and the commands).  Prints classify.awk's
# report.
set -eu
dir=$1 mode=$2 func=$3 calls=$4 skip=$5 nr=${6:-'*(unsigned char *)$rdi'}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
qpid=
trap '[ -z "$qpid" ] || kill $qpid 2>/dev/null || true; [ -n "${KPATH_KEEP:-}" ] || rm -rf "$work"' EXIT INT TERM
vmlinuz=$(ls "$dir"/boot/vmlinuz-* | head -n 1)
# the -dbg package's System.map (the image's own is a one-line placeholder)
map=
for f in "$dir"/usr/lib/debug/boot/System.map-* "$dir"/boot/System.map-*; do
	[ -r "$f" ] && [ "$(wc -l < "$f")" -gt 1 ] && { map=$f; break; }
done
[ -r "$vmlinuz" ] && [ -n "$map" ] || { echo "count.sh: no vmlinuz or System.map under $dir" >&2; exit 2; }
case $mode in tlb|pf2|falloc|falloc8|zone|reclaim|readtwice|brk|brk0|sparse|sparsecg) ;; *) echo "count.sh: mode is tlb, pf2, falloc, falloc8, zone, reclaim, readtwice, brk, brk0, sparse or sparsecg" >&2; exit 2 ;; esac
for v in "$calls" "$skip"; do
	case $v in ''|*[!0-9]*) echo "count.sh: CALLS and SKIP are counts, not '$v'" >&2; exit 2 ;; esac
done
port=${KPATH_PORT:-1234}
limit=${KPATH_TIMEOUT:-900}
case $limit in ''|*[!0-9]*) echo "count.sh: KPATH_TIMEOUT is seconds, not '$limit'" >&2; exit 2 ;; esac
case $port in ''|*[!0-9]*) echo "count.sh: KPATH_PORT is a port number, not '$port'" >&2; exit 2 ;; esac
# NR goes into gdb's command file: a C expression of registers and
# numbers only, nothing that could end the command
case $nr in *[!A-Za-z0-9_\$\*\(\)\ +-]*|'') echo "count.sh: NR '$nr' is not a register expression" >&2; exit 2 ;; esac

# FUNC may be an address (0x...) inside a function, with KPATH_END the
# address where the count stops: a section whose lock and unlock the
# compiler inlined (5.10's rmqueue_bulk: from the return of
# _raw_spin_lock to the paravirt unlock's call site), counted whole.
# Both go into gdb's command file: hex digits only.
end=${KPATH_END:-}
case $func in
0x*)	addr=${func#0x}
	case $addr in ''|*[!0-9a-f]*) echo "count.sh: FUNC '$func' is not a hex address" >&2; exit 2 ;; esac
	case $end in 0x*) ;; *) echo "count.sh: FUNC as an address wants KPATH_END=0x..." >&2; exit 2 ;; esac
	case ${end#0x} in ''|*[!0-9a-f]*) echo "count.sh: KPATH_END '$end' is not a hex address" >&2; exit 2 ;; esac ;;
*)	addr=$(awk -v f="$func" '$3 == f && $2 ~ /^[tT]$/ { print $1; exit }' "$map")
	[ -n "$addr" ] || { echo "count.sh: $func not in $map" >&2; exit 2; }
	end= ;;
esac

# the guest: busybox, the workload and an init that starts it
mkdir -p "$work/root/bin" "$work/root/proc" "$work/root/sys" "$work/root/dev" "$work/root/tmp"
cp "$(command -v busybox)" "$work/root/bin/busybox"
gcc -O2 -static -o "$work/root/bin/lrutest" "$here/guest.c"
mem=1G
# a module of DIR's kernel into the guest's root, unpacked
module() {
	ko=$(ls "$dir"/lib/modules/*/kernel/"$1".ko* 2>/dev/null | head -n 1)
	[ -n "$ko" ] || { echo "count.sh: no $1 module under $dir/lib/modules" >&2; exit 2; }
	case $ko in *.xz) xz -dc "$ko" > "$work/root/$2.ko" ;; *) cp "$ko" "$work/root/$2.ko" ;; esac
}
case $mode in
reclaim|readtwice) module drivers/block/brd brd ;;
sparse|sparsecg)
	# vm-scalability's SPARSE_ROOT: an xfs image in tmpfs (the guest's
	# rootfs), loop-mounted; its files' holes read as zeroed pages
	# without I/O (iomap_readahead)
	module crypto/crc32c_generic m1; module lib/libcrc32c m2; module fs/xfs/xfs m3
	module drivers/block/loop m0
	# the image (xfsprogs' least size) lives in the guest's memory
	mem=2G
	truncate -s 320M "$work/root/xfs.img"
	mkfs.xfs -q -f "$work/root/xfs.img" ;;
esac
cat > "$work/root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t cgroup2 none /sys/fs/cgroup
mount -t tmpfs tmp /tmp
mount -t devtmpfs dev /dev
[ -f /brd.ko ] && insmod /brd.ko rd_nr=1 rd_size=131072
if [ -f /xfs.img ]; then
	for m in /m0.ko /m1.ko /m2.ko /m3.ko; do insmod $m; done
	mkdir -p /mnt && mount -o loop -t xfs /xfs.img /mnt
fi
echo n > /sys/kernel/mm/lru_gen/enabled 2>/dev/null
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
echo "lru_gen: $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo absent)"
mode=$(sed -n 's/.*lrumode=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
exec /bin/lrutest "$mode"
INIT
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc 2>/dev/null | gzip -1 > "$work/initrd.gz")

qemu-system-x86_64 -gdb "tcp::$port" -kernel "$vmlinuz" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 nokaslr nopti quiet lrumode=$mode" -m "$mem" -smp 1 -cpu max \
	-nographic -no-reboot > "$work/console" 2>&1 &
qpid=$!
i=0
until grep -q "^lrutest" "$work/console"; do
	i=$((i + 1)); [ $i -lt 120 ] || { echo "count.sh: the guest did not start" >&2; exit 1; }
	sleep 1
done
# mode zone fragments the guest's memory first
ready='^lrutest'
[ "$mode" != zone ] || ready='^lrutest: holes made'
until grep -q "$ready" "$work/console"; do
	i=$((i + 1)); [ $i -lt 600 ] || { echo "count.sh: the guest's workload did not start" >&2; exit 1; }
	sleep 1
done
grep "^lru_gen" "$work/console" >&2 || true
sleep 3

{
	echo "set pagination off"
	echo "set confirm off"
	echo "target remote :$port"
	echo "break *0x$addr"
	n=0
	while [ $n -lt "$skip" ]; do echo "continue"; n=$((n + 1)); done
	n=0
	while [ $n -lt "$calls" ]; do
		echo "continue"
		if [ -n "$end" ]; then echo "set \$ret = $end"; else echo 'set $ret = *(unsigned long *)$rsp'; fi
		printf 'printf "CALL %%d\\n", %s\n' "$nr"
		echo 'disable 1'
		# a string instruction (rep movs/stos: copies, clears) runs to
		# its end at a temporary breakpoint, not one step a repetition
		echo 'while $pc != $ret'
		echo '  set $w = *(unsigned int *)$pc'
		printf '%s\n' '  printf "pc %lx %lx %x\n", $pc, $sp, $w'
		echo '  if ($w & 0xff) == 0xf3 && ((($w >> 8) & 0xfe) == 0xa4 || (($w >> 8) & 0xfe) == 0xaa)'
		echo '    tbreak *($pc + 2)'
		echo '    continue'
		echo '  else'
		echo '    if ($w & 0xffff) == 0x48f3 && ((($w >> 16) & 0xff) == 0xa5 || (($w >> 16) & 0xff) == 0xab)'
		echo '      tbreak *($pc + 3)'
		echo '      continue'
		echo '    else'
		echo '      stepi'
		echo '    end'
		echo '  end'
		echo 'end'
		printf '%s\n' 'printf "RET %d\n", $rax'
		echo 'enable 1'
		n=$((n + 1))
	done
	echo "kill"
} > "$work/cmds"
# a call that never comes must not hang the count
timeout "$limit" gdb -q -batch -x "$work/cmds" > "$work/trace" 2>&1 || true
[ -z "${KPATH_KEEP:-}" ] || echo "count.sh: trace in $work/trace" >&2
awk -v SKIP='^lru_gen_' -v WHOLE="${KPATH_WHOLE:-0}" -f "$here/classify.awk" "$map" "$work/trace"
