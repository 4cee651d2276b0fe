/*
 * mmlock.h - the mm_struct lines a shared address space adds to the
 * fault, mmap, munmap and madvise paths (threads mode: every worker in
 * one mm); in processes mode each worker has its own mm, whose lines are
 * private and whose cost is inside the measured fault and system call,
 * and nothing here runs.  How each kernel version takes them: mmlock.c.
 */
#ifndef MEMSCALE_MODELS_MMLOCK_H
#define MEMSCALE_MODELS_MMLOCK_H

#include <stdbool.h>

#include "core/arena.h"

struct model;
struct model_worker;

/* struct mm_struct reduced to three lines (offsets are the model's: the
 * kernel's depend on the configuration; ASSUMPTION: each on its own
 * line, no other hot mm field beside them). */
struct model_mm {
	/* mmap_lock (struct rw_semaphore): count, then owner */
	long count;
	long owner;
	/* the VMA tree's root (mm_mt since v6.1, mm_rb before): read by
	 * the fault's VMA lookup, rewritten by every mmap and munmap */
	long tree __attribute__((aligned(64)));
	/* mm_lock_seq (CONFIG_PER_VMA_LOCK, v6.4+): read twice by
	 * vma_start_read, written by mmap_write_unlock */
	long lock_seq __attribute__((aligned(64)));
} __attribute__((aligned(64)));

/* The shared mm of model m (threads mode), from arena a. */
struct model_mm *model_mm_new(struct model *m, struct arena *a);

/* A user page fault's mm traffic around handle_mm_fault (file: the
 * VMA maps a file, page_fault2/3 and lru_shm). */
void model_mm_fault_enter(struct model_worker *mw, bool file);
void model_mm_fault_exit(struct model_worker *mw, bool file);
/* mmap: the write-locked section that inserts the VMA. */
void model_mm_mmap(struct model_worker *mw);
/* munmap: the write-locked section that detaches the VMAs, downgraded
 * to a read lock over the unmap (enter), released after it (exit). */
void model_mm_munmap_enter(struct model_worker *mw);
void model_mm_munmap_exit(struct model_worker *mw);
/* madvise(MADV_DONTNEED): mmap_lock for read around the zap. */
void model_mm_read_enter(struct model_worker *mw);
void model_mm_read_exit(struct model_worker *mw);

#endif
