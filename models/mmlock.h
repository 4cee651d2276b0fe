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

/* struct model_mm, the shared mm's lines: models/memcg_types.h. */
struct model_mm;

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
