/*
 * calib.h - calibration probes and the calibration file.
 *
 * Probes (each repeated `reps` times; the file keeps median, quartiles,
 * min and max so the spread is visible; a repetition of a loop probe
 * (syscall included) is the fastest of 256 short blocks of its
 * operations, of the fault probes the median of individually timed
 * faults: both leave out the time slices other tasks and the hypervisor
 * take):
 *   xfer.store     one-way cache-line hand-off: two pinned threads take
 *                  turns writing a flag (ping-pong round trip / 2)
 *   xfer.atomic    the same with the turn taken by an atomic add
 *   xfer.load      a load of a line the other core keeps writing
 *   atomic.uncontended / atomic.contended   fetch-add on a private line /
 *                  on one line hammered by both cores (ns per op)
 *   hit, miss      dependent loads within 4 KiB / across 64 MiB
 *   percpu         per-CPU add with threshold fold (lib/percpu_counter.c shape)
 *   list           list_add + list_del
 *   page           copy of one 4 KiB page
 *   fault          the steady-state anonymous write fault: a re-fault of
 *                  a region touched before and released with
 *                  MADV_DONTNEED (pages the allocator just got back, page
 *                  tables kept), median of individually timed touches net
 *                  of the clock (clock.median_ns); what predict uses
 *   fault.first    first touch of a fresh mapping (version 1's "fault"):
 *                  new page tables and, in a VM, guest memory the host may
 *                  not back yet; fault.first.inflated = its ratio to fault
 *                  where above 2 (flagged; predict says it is not used)
 *   fault.zero     read re-fault: maps the shared zero page
 *   fault.wp       write after that read (zero page -> new page)
 *   fault.cow      write fault on a MAP_PRIVATE memfd page in the page
 *                  cache (copy_page; page_fault2's shape)
 *   fault.shared   write fault on a MAP_SHARED memfd page in the page
 *                  cache (no allocation or charge; page_fault3's shape)
 *   fault.populate per page of mmap(MAP_POPULATE): the faults without a
 *                  trap and return to user mode per page
 *   fault.root, syscall.falloc.root  the same probes in the root memcg
 *                  (a child moved there; where the controller is visible)
 *   clear          memset of a hot 4 KiB page (clear_page's work)
 *   unmap          munmap of the fault.first region, per page
 *   <probe>.steal_pct  CPU time stolen by the hypervisor while the probe
 *                  ran (only when non-zero); steal_pct for the whole
 *                  calibration (the machine's meta.hypervisor and
 *                  meta.cpu_mhz come from core/meta.c)
 *   <probe>.varies slowest / fastest repetition, where above 2 (flagged)
 *   syscall        getppid() round trip (entry/exit only), timed in short
 *                  blocks like the loop probes (version 2: the median of
 *                  individually timed calls, net of the clock)
 *   syscall.falloc fallocate of one 4 KiB memfd page: a system call on the
 *                  memcg charge path (alloc, charge, page cache, LRU add;
 *                  SGP_FALLOC does not zero)
 *   <probe>.insn   instructions per operation (user + kernel) where
 *                  perf_event_open counts them; meta.instructions says how
 *                  they were counted or why they are unavailable
 *   part.*_ns      components, as differences of least disturbed
 *                  repetitions (below zero: written 0, with
 *                  part.*_below_noise_ns the magnitude):
 *                    fault_trap        fault - fault.populate: exception
 *                                      entry/exit and per-fault dispatch
 *                    fault_page        fault - fault.zero: a new page
 *                                      (alloc, zeroing, charge, rmap, LRU)
 *                    fault_zeroing     clear
 *                    fault_alloc_charge_rmap_lru  fault_page - clear (not
 *                                      separable further from userspace,
 *                                      except the charge:)
 *                    fault_charge      fault - fault.root: try_charge's
 *                                      page_counter work (root skips it)
 *                    fault_copy_vs_zero  fault.cow - fault: copy instead
 *                                      of zeroing, plus page-cache lookup
 *                    fault_file_map    fault.shared - fault.zero: lookup,
 *                                      file rmap, dirtying
 *                    fault_wp_extra    fault.wp - fault (about 0: check)
 *                    fault_first_touch fault.first - fault (host backing,
 *                                      page tables)
 *                    syscall_entry_exit  syscall
 *                    syscall_shmem_page  syscall.falloc - syscall
 *                    syscall_charge    syscall.falloc - syscall.falloc.root
 *   kwork.WORKLOAD.* the kernel-shaped work's calibration that run and the
 *                  sweeps use (workloads/model/kwork_calib.c): units,
 *                  unit_ns, kernel_ns, model0_ns, model_ns, source
 *                  (1 kernel backend, 2 probes)
 *   walk.permemcg / walk.cached   one ancestor level of the per-memcg
 *                  flush threshold's walk per stat update (8d59d2214c23 /
 *                  9cee7e8ef3e3), depth 5 minus depth 1 over 4 levels, the
 *                  cache state left by the kernel footprint walk between
 *                  updates (harness/calib_probe.c); optional
 *   lock.NAME.uncontended / lock.NAME.pair   every registry lock: lock +
 *                  unlock alone, and per acquisition with two pinned
 *                  threads strictly alternating (hand-off plus one flag
 *                  transfer)
 *   wl.NAME        per-op cost of a kernel-model workload, one worker
 *                  through harness_run_one (when the workload exists)
 *
 * File: "key = value" lines, '#' comments; a header of machine metadata
 * (meta.KEY: the machine and build description of core/meta.h, the same
 * facts a result's JSON sidecar holds, plus meta.time and meta.reps);
 * "format = memscale-calib 3" first.  Every probe value is a
 * non-negative finite number in ns, a whole token.  Loading checks the
 * format line and the required probes and rejects any malformed line, a
 * last line without its newline (a file cut mid-number) and a key the
 * writers do not write (calib_key_known()).
 */
#ifndef MEMSCALE_CALIB_H
#define MEMSCALE_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "predict/sim_memcg.h"

/* Version 2: "fault" is the steady-state re-fault (version 1's first
 * touch is "fault.first"), fault and syscall components, instruction
 * counts, and the kernel-shaped work (kwork.WORKLOAD.*) that run and the
 * sweeps use.  Version 3: a repetition of a loop probe (atomic.uncontended,
 * hit, miss, percpu, list, page, clear, syscall) is its fastest of 256 short
 * blocks, not one timed loop (which paid every time slice the machine's
 * other tasks took: version 2's figures of one VM varied up to 4x between
 * a quiet and a loaded calibration).  Version 4: the walk probes
 * (walk.permemcg, walk.cached) time each stat update alone, the kernel
 * footprint walk between updates outside the clock, not blocks of both
 * (version 3's difference of two block minima was under 1 % of the
 * block: one VM's walk.permemcg medians 5.5-10.6 ns, walk.cached
 * 1.9-6.6 ns, in calibrations minutes apart).  A file of another version
 * is refused, naming it. */
#define CALIB_FORMAT_NAME "memscale-calib"
#define CALIB_VERSION 4
#define CALIB_FORMAT "memscale-calib 4"
/* Blocks per repetition of a loop probe (version 3). */
#define CALIB_PROBE_BLOCKS 256

struct calib_entry {
	char *key;
	char *value; /* as written */
	double num;  /* parsed number (NAN for meta text) */
};

struct calib {
	struct calib_entry *e;
	size_t n, cap;
};

int calib_write(const struct calib *c, FILE *f);
/* A key the writers write and the parser takes (calib.c lists them). */
bool calib_key_known(const char *key);

/* Returns 0, or -1 with a one-line message in err. */
int calib_load(struct calib *c, const char *path, char *err, size_t errlen);
int calib_parse(struct calib *c, FILE *f, const char *name, char *err,
		size_t errlen);
/* calib_load or die(EXIT_USAGE, ...). */
void calib_load_or_die(struct calib *c, const char *path);
void calib_free(struct calib *c);

void calib_set(struct calib *c, const char *key, const char *value);
void calib_set_num(struct calib *c, const char *key, double v);
const char *calib_str(const struct calib *c, const char *key);
/* NAN when absent. */
double calib_num(const struct calib *c, const char *key);
/* "<probe>.median_ns" (NAN when absent). */
double calib_median(const struct calib *c, const char *probe);
/* The figure a probe stands for: its least disturbed repetition
 * ("<probe>.min_ns"; on a shared machine a repetition can only be slowed
 * down), else its median; NAN when absent. */
double calib_best(const struct calib *c, const char *probe);

/* The machine's state directory, where what is calibrated once per
 * machine is kept: $MEMSCALE_STATE_DIR, else /var/lib/memscale for root,
 * else $XDG_STATE_HOME/memscale, else $HOME/.local/state/memscale.
 * Never NULL (static buffer). */
const char *calib_state_dir(void);
/* The machine's one calibration file: $MEMSCALE_CALIB, else
 * calib.txt in calib_state_dir().  Never NULL (static buffer). */
const char *calib_machine_path(void);
/* 16 hex digits (FNV-1a 64 of the file's bytes) into out[17]; -1 when the
 * file cannot be read. */
int calib_file_hash(const char *path, char out[17]);
/* The same hash of n bytes. */
void calib_hash_bytes(const void *p, size_t n, char out[17]);

/* Why a probe's figure is what predict uses (steady state, what was
 * left out and why): one line into buf, "" when there is nothing to say. */
const char *calib_probe_basis(const struct calib *c, const char *probe, char *buf,
			      size_t len);

#endif
