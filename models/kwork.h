/*
 * kwork.h - kernel-shaped local work: the memory work the kernel does per
 * benchmark operation outside the modelled memcg paths, so that lock and
 * counter work weigh in a model operation what they weigh in the kernel's.
 *
 * With page_work=kernel a model operation pays, besides its memcg paths:
 *   - the page itself: clear_page() of a fresh anonymous or shmem page,
 *     copy_page() from the file page for a CoW fault (page_fault2), into
 *     page frames of their own (4 KiB each, one per model page, so the
 *     data footprint is the benchmark's: 128 MB of file and 128 MB of
 *     copies per page_fault2 task), and the benchmark's one-byte write;
 *   - the page table: one 8-byte PTE written per fault and read and
 *     cleared per page at munmap/zap (zap_pte_range), 4 KiB of PTEs per
 *     512 pages as in the kernel's last-level tables;
 *   - the rest (exception or syscall entry and exit, VMA lookup, upper
 *     page-table levels, allocator and rmap bookkeeping, TLB flush):
 *     `units` read-modify-writes of cache lines of a per-worker kernel
 *     footprint of KWORK_LINES lines (a task's stack, task_struct, mm,
 *     VMAs, per-CPU allocator lists), visited in a dependent random order
 *     so every step is a real access the hardware cannot skip or batch.
 *     The footprint size is an assumption (64 KiB: larger than L1d, so the
 *     memcg lines an operation uses are evicted from L1 between
 *     operations as by the kernel's own work); the number of units is
 *     calibrated per workload on the machine at hand (knob kwork; see
 *     workloads/model/kwork_calib.c).
 *
 * page_work=none leaves all of it out (the memcg paths alone).
 */
#ifndef MEMSCALE_MODELS_KWORK_H
#define MEMSCALE_MODELS_KWORK_H

#include <stdint.h>

#include "core/arena.h"
#include "core/knob.h"

#define KWORK_LINES 1024 /* 64 KiB of 64-byte lines */

/* kwork = auto | probes | N: the residual units per operation (see
 * workloads/model/kwork_calib.c); consulted with page_work=kernel only. */
extern const struct knob knob_kwork;
/* calib_file = auto | none | PATH and calib_hash = any | HASH: where the
 * kwork calibration comes from, recorded in every result row and sidecar
 * (workloads/model/kwork_calib.c). */
extern const struct knob knob_calib_file, knob_calib_hash;

struct kwork {
	uint32_t *next;   /* KWORK_LINES lines; the first word of each is the
			   * index of the next line of the cycle */
	uint32_t pos;
	uint64_t units;   /* residual units per operation */
};

/* Builds the footprint in `a` (a random cyclic order from `seed`). */
void kwork_init(struct kwork *k, struct arena *a, unsigned seed);
/* `units` dependent read-modify-writes along the cycle. */
void kwork_spend(struct kwork *k, uint64_t units);
/* Probe: ns per unit on a fresh footprint, best of `reps` (a quiet
 * estimate; the calibration refines it inside the workload). */
double kwork_unit_ns(unsigned reps);

#endif
