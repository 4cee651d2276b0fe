# classify.awk - the instructions a kernel executed while holding a
# spinlock, from a single-step trace (scripts/kpath/count.sh).
# Input: System.map first (its text symbols), then the trace: lines
# "CALL <batch nr>" opening one traced call and "pc <hex> [<sp> [<word>]]"
# per executed instruction (gdb's own lines are ignored).  A section
# opens when the PC leaves a _raw_spin_lock* function and closes when
# it reaches a _raw_spin_unlock* function or an inlined unlock's
# release store (the instruction's first four bytes, <word>).
# Prints per call: its instructions, its batch size, each section as
# holder:instructions (one still open at the call's end marked so), the
# instructions held in all, and the section's instructions by function, with
# the times the function was entered at its first instruction.  A "pc"
# line may give the stack pointer after the PC: what other tasks ran
# while the traced one slept (a call that entered __schedule) is told by
# its stack and left out, and counted apart.
# SPAN=FUNCTION (not with WHOLE) prints, for each run of that function
# inside a traced call (from its entry to its return, told by the stack
# pointer rising above the entry's), the instructions it ran inside
# sections and outside, and how often it entered SPANCOUNT (a function
# called once per folio, say): what kpath.ini's reclaim count reads
# apart by function.
# Functions whose names match SKIP (a regular expression; empty: none)
# are counted apart, as "skipped".  WHOLE=1: the whole call is one
# section (a function its caller runs under the lock); "RET <value>"
# after a call gives its return value, printed with it.
# kernel text lies in one 4 GiB window (0xffffffff8...): its low 32
# bits name an address exactly in awk's doubles
function hex(s,    i, c, v) {
	v = 0
	s = tolower(s)
	if (length(s) > 8) s = substr(s, length(s) - 7)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}
function fname(pc,    lo, hi, mid) {
	lo = 1; hi = nsym
	entry = 0
	if (pc < addr[1]) return "?"
	while (lo < hi) {
		mid = int((lo + hi + 1) / 2)
		if (addr[mid] <= pc) lo = mid; else hi = mid - 1
	}
	entry = addr[lo] == pc
	return name[lo]
}
function span_end() {
	printf "span %d of %s in call %d: in %d, out %d, %s entries %d%s\n", ++nspan, SPAN, ncall,
		s_in, s_out, SPANCOUNT, s_ent, inspan == 2 ? " (open at the call's end)" : ""
	inspan = 0
}
function flush(    f) {
	if (!incall) return
	if (inspan) { inspan = 2; span_end() }
	if (WHOLE) secs = "whole:" cur
	# a section whose unlock was inlined (spin_unlock's release store:
	# no _raw_spin_unlock call) stays open to the call's end
	else if (state == "held") secs = secs (secs == "" ? "" : ",") holder ":" cur "(open)"
	held = 0
	for (f in hist) held += hist[f]
	printf "call %d: %d instructions, batch nr %d, sections %s, held %d, skipped %d, string repetitions %d, returned %s%s\n", ncall, total, nr, secs == "" ? "-" : secs, held, skipped, reps, ret, sched ? ", scheduled: " away " of other tasks left out" : ""
	for (f in hist) printf "  %6d %s%s\n", hist[f], f, f in ent ? " (" ent[f] " entries)" : "" | "sort -rn"
	close("sort -rn")
	delete hist
	delete ent
}
FNR == NR {
	# System.map: ADDRESS TYPE NAME; keep text symbols (sorted already,
	# but equal addresses keep the first name)
	if ($2 ~ /^[tTwW]$/) {
		a = hex($1)
		if (nsym && a == addr[nsym]) next
		addr[++nsym] = a; name[nsym] = $3
	}
	next
}
$1 == "CALL" {
	flush()
	incall = 1; ncall++; nr = $2; total = 0; secs = ""; state = WHOLE ? "held" : "free"; skipped = 0
	cur = 0; holder = "whole"; ret = "-"; reps = 0; lastpc = ""; sched = 0; task = ""; away = 0
	next
}
$1 == "RET" { ret = $2; next }
incall && $1 == "pc" {
	pc = $2
	# the traced task's kernel stack (16 KiB, aligned) is the one its
	# call began on: an instruction on another stack is another task's,
	# run while this one slept or was preempted, and is not counted
	if (NF >= 3) {
		stk = int(hex($3) / 16384)
		if (task == "") task = stk
		else if (stk != task) { away++; next }
	}
	# a string instruction's repetitions (rep movs/stos) step one by
	# one at the same PC: one instruction, the repetitions counted apart
	if (pc == lastpc) { reps++; next }
	lastpc = pc
	f = fname(hex(pc))
	if (f == "__schedule") sched = 1
	total++
	if (WHOLE) { if (SKIP != "" && f ~ SKIP) skipped++; else { cur++; hist[f]++; if (entry) ent[f]++ }; next }
	if (state == "free" && f ~ /^_raw_spin_lock/) state = "locking"
	else if (state == "locking" && f !~ /^_raw_spin_lock/) { state = "held"; cur = 0; holder = f }
	if (state == "held" && f ~ /^_raw_spin_unlock/) {
		secs = secs (secs == "" ? "" : ",") holder ":" cur
		state = "free"
	}
	# an inlined spin_unlock (5.10's spin_unlock, spin_unlock_irq): its
	# paravirt call site, patched at boot to the native release store
	# movb $0,(%rdi) (c6 07 00) and nops, when the trace gives the
	# instruction's first four bytes (little-endian: their low 24 bits
	# 0x0007c6).  A held section's own byte store of 0 through %rdi would
	# end it too: none is in the LRU, zone or page cache paths counted.
	else if (state == "held" && NF >= 4 && hex($4) % 16777216 == 1990) {
		secs = secs (secs == "" ? "" : ",") holder ":" cur "(inline)"
		state = "free"
	}
	if (SPAN != "" && NF >= 3) {
		if (inspan && hex($3) > sp0) span_end()
		if (!inspan && f == SPAN && entry) { inspan = 1; sp0 = hex($3); s_in = s_out = s_ent = 0 }
		if (inspan) {
			if (state == "held") s_in++; else s_out++
			if (f == SPANCOUNT && entry) s_ent++
		}
	}
	if (state == "held") {
		if (SKIP != "" && f ~ SKIP) skipped++
		else { cur++; hist[f]++; if (entry) ent[f]++ }
	}
}
END { flush() }
