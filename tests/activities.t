#!/bin/sh
# activities.t - the kernel activities issue 23 item 4 adds to the model
# workloads, each pinned where it could go missing:
#   - page_fault1 zeroes its page, page_fault2 copies the file page and
#     looks the file folio up (four atomics on its own folio); malloc1
#     zeroes a page table besides its page per fault, aim9_page_test
#     only its pages (the kernel entries the programs' local work is
#     priced from, `model program`);
#   - threads mode (--mode threads) puts the shared mm's lines into the
#     program: mmap_lock's count read-locked by every fault before
#     v6.4, mm_lock_seq read by the per-VMA lock path from v6.4, mmap
#     and munmap as write sections; processes mode has none of them;
#   - reclaim runs where the benchmark's footprint exceeds memory
#     (lru_file_readtwice) and not where it does not (lru_shm).
. tests/lib.sh

entries() { # entries WORKLOAD [ARGS...]: the program's kernel-entries line
	w=$1; shift
	$MEMSCALE model program "$w" "$@" 2>&1 | grep '^kernel entries per iteration:'
}

e1=$(entries page_fault1); e2=$(entries page_fault2)
echo "$e1" | grep -q 'page copies 0, pages zeroed 1, private atomics 0'
ok $? "page_fault1 zeroes one page per fault and copies none ($e1)"
echo "$e2" | grep -q 'page copies 1, pages zeroed 0, private atomics 4'
ok $? "page_fault2 copies one page, zeroes none, four file-folio atomics ($e2)"

em=$(entries malloc1); ea=$(entries aim9_page_test)
echo "$em" | grep -q 'faults 1, syscalls 2, page copies 0, pages zeroed 2,'
ok $? "malloc1: one fault zeroes its page and a page table ($em)"
echo "$ea" | grep -q 'faults 1600, .* pages zeroed 1600,'
ok $? "aim9_page_test: 1600 faults zero 1600 pages, no page table ($ea)"
er=$(entries lru_file_readtwice)
echo "$er" | grep -q 'syscalls 4, page copies 2, pages zeroed 1,'
ok $? "lru_file_readtwice: two dd reads copy a page each to user space, the hole's folio zeroed ($er)"

# The local work follows: priced with one calibration, the two differ.
l1=$($MEMSCALE model program page_fault1 --calib tests/fixtures/model_calib.txt 2>/dev/null | awk '$1 == "local" { print $2; exit }')
l2=$($MEMSCALE model program page_fault2 --calib tests/fixtures/model_calib.txt 2>/dev/null | awk '$1 == "local" { print $2; exit }')
[ -n "$l1" ] && [ -n "$l2" ] && [ "$l1" != "$l2" ]
ok $? "page_fault1 and page_fault2 pay different local work ($l1 vs $l2 ns)"

# malloc1's page table is a kmem charge through the stock: the program
# and the model still agree, in both modes.
for mode in processes threads; do
	$MEMSCALE model program malloc1 --mode $mode --check > "$TMP/out" 2>&1
	ok $? "malloc1 ($mode): program counts = model counts"
done

# mm lines: threads mode only.
for w in page_fault1 page_fault2 malloc1 tlb_flush2; do
	$MEMSCALE model program $w > "$TMP/p" 2>&1
	! grep -q ' mm+' "$TMP/p"
	ok $? "$w, processes mode: no shared mm line"
	$MEMSCALE model program $w --mode threads > "$TMP/t" 2>&1
	grep -q ' mm+0 ' "$TMP/t"
	ok $? "$w, threads mode: the mmap_lock line is in the program"
	$MEMSCALE model program $w --mode threads --check > "$TMP/out" 2>&1
	ok $? "$w, threads mode: program counts = model counts"
	[ $? -eq 0 ] || grep '^!=' "$TMP/out" | head -3 | sed 's/^/#   /'
done
$MEMSCALE model program page_fault1 --mode threads --set kernel=v5.10 > "$TMP/t" 2>&1
n=$(grep -c '^  rmw    mm+0 ' "$TMP/t")
[ "$n" -eq 2 ] && ! grep -q 'mm+128' "$TMP/t"
ok $? "v5.10 fault: mmap_read_trylock and up_read, two atomics on the count per fault ($n), no mm_lock_seq"
$MEMSCALE model program page_fault1 --mode threads --set kernel=v6.9 > "$TMP/t" 2>&1
n=$(grep -c '^  rmw    mm+0 ' "$TMP/t"); s=$(grep -c '^  read   mm+128 ' "$TMP/t")
[ "$n" -eq 0 ] && [ "$s" -eq 2 ]
ok $? "v6.9 fault: per-VMA lock, no count atomic ($n), mm_lock_seq read twice ($s)"
$MEMSCALE model program malloc1 --mode threads > "$TMP/t" 2>&1
grep -q '^  lock   lock mm+0 ' "$TMP/t"
ok $? "malloc1 threads: mmap and munmap are write sections on mmap_lock"

# Reclaim where the footprint exceeds memory.
reclaimed() { # reclaimed WORKLOAD: reclaimed_per_op of a short 1-worker run
	$MEMSCALE run "$1" -t 1 -s 1 --set page_work=none -o "$TMP/$1.csv" > /dev/null 2>&1 &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "reclaimed_per_op") c = i }
		 NR == 2 && c { print $c }' "$TMP/$1.csv"
}
r=$(reclaimed lru_file_readtwice)
[ -n "$r" ] && awk -v r="$r" 'BEGIN { exit !(r > 0.5) }'
ok $? "lru_file_readtwice (files 256x memory) reclaims about a page per page read ($r)"
r=$(reclaimed lru_shm)
[ "$r" = "0" ]
ok $? "lru_shm (half of memory) never reclaims ($r)"
$MEMSCALE model program lru_file_readtwice --check > "$TMP/out" 2>&1
ok $? "lru_file_readtwice with its reclaim holds: program counts = model counts"

done_testing
