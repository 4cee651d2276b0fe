/*
 * mmlock.c - the shared mm's lines on the fault, mmap, munmap and
 * madvise paths, threads mode (models/mmlock.h), as the kernel version
 * of the model's item table (models/kitems.h) takes them:
 *
 * mmap_lock, a struct rw_semaphore (kernel/locking/rwsem.c, v5.10 and
 * v6.8): a reader's __down_read_trylock is a cmpxchg of count
 * (+RWSEM_READER_BIAS), then rwsem_set_reader_owned stores owner;
 * __up_read is an atomic_long_add_return_release of count
 * (rwsem_clear_reader_owned only with CONFIG_DEBUG_RWSEMS).  A writer's
 * __down_write is a cmpxchg of count to RWSEM_WRITER_LOCKED and a store
 * of owner; __up_write clears owner and releases count;
 * mmap_write_downgrade (munmap, v5.10..v6.8 __do_munmap / do_vmi_munmap
 * with downgrade) turns it into a read hold by an atomic add.  The write
 * holds are the simulator's lock sections on the count's line (the
 * lock word; its own traffic is the simulator's lock op): writers
 * exclude each other there.  In the simulator readers are the count's
 * atomics and do not wait for a writer (a simplification: the rwsem
 * queues them); the model run itself keeps the count as a small
 * writer-preferring rwsem, so its own threads never overlap a writer.
 *
 * Faults (arch/x86/mm/fault.c do_user_addr_fault): before v6.4,
 * mmap_read_trylock around handle_mm_fault.  From v6.4
 * (CONFIG_PER_VMA_LOCK, default y on x86-64 SMP) lock_vma_under_rcu
 * first: the maple tree walk reads mm_mt, and vma_start_read
 * (include/linux/mm.h) reads mm->mm_lock_seq twice around
 * down_read_trylock(&vma->vm_lock->lock); vma_end_read releases it.  The
 * VMA's own lock is taken to be private to the worker (each maps its
 * own region; ASSUMPTION: the regions' VMAs are not merged), so only
 * the mm's lines are shared.  v6.4..v6.6 took only anonymous VMAs this
 * way (file faults retried under mmap_lock); from v6.7 file faults too.
 * mmap_write_unlock writes mm_lock_seq (vma_end_write_all) from v6.4.
 *
 * Not modelled: the page-table locks (split PTE locks live in each
 * worker's own page-table pages; the PMD lock of a new table is shared
 * by the regions of one 1 GB range, once per 512 faults), the rss
 * counters (per-task batches before v6.2, percpu_counter after) and the
 * VMA slab objects.
 */
#include "models/mmlock.h"
#include "models/internal.h"
#include "models/kitems.h"

#include <stdio.h>

struct model_mm *model_mm_new(struct model *m, struct arena *a)
{
	struct model_mm *mm = arena_alloc(a, sizeof(*mm), 64);

	mm->count = mm->owner = mm->tree = mm->lock_seq = 0;
	m->mm = mm;
	return mm;
}

/* The version of the model's kernel, as major * 100 + minor. */
static unsigned version_of(const struct model *m)
{
	unsigned maj = 0, min = 0;

	if (!m->items || sscanf(m->items->version, "v%u.%u", &maj, &min) < 1)
		return 0;
	return maj * 100 + min;
}

static bool vma_locked_fault(const struct model *m, bool file)
{
	unsigned v = version_of(m);

	return v >= (file ? 607u : 604u);
}

static void read_lock(struct model *m, struct model_mm *mm, long self)
{
	long c = __atomic_load_n(&mm->count, __ATOMIC_RELAXED);

	MODEL_REC(m, &mm->count, REC_RMW);  /* __down_read_trylock */
	/* count: readers x 256, bit 0 a writer, bit 1 a writer waiting */
	while ((c & 3) || !__atomic_compare_exchange_n(&mm->count, &c, c + 256, false,
						     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		cpu_relax();
		c = __atomic_load_n(&mm->count, __ATOMIC_RELAXED);
	}
	MODEL_REC(m, &mm->owner, REC_WRITE); /* rwsem_set_reader_owned */
	__atomic_store_n(&mm->owner, self, __ATOMIC_RELAXED);
}

static void read_unlock(struct model *m, struct model_mm *mm)
{
	MODEL_REC(m, &mm->count, REC_RMW);  /* __up_read */
	__atomic_sub_fetch(&mm->count, 256, __ATOMIC_RELEASE);
}

void model_mm_fault_enter(struct model_worker *mw, bool file)
{
	struct model *m = mw->m;
	struct model_mm *mm = m->mm;

	if (!mm)
		return;
	if (vma_locked_fault(m, file)) {
		/* lock_vma_under_rcu: mas_walk, vma_start_read */
		MODEL_REC(m, &mm->tree, REC_READ);
		keep(__atomic_load_n(&mm->tree, __ATOMIC_RELAXED));
		MODEL_REC(m, &mm->lock_seq, REC_READ);
		MODEL_REC(m, &mm->lock_seq, REC_READ);
		keep(__atomic_load_n(&mm->lock_seq, __ATOMIC_ACQUIRE));
		return;
	}
	/* mmap_read_trylock, then find_vma */
	read_lock(m, mm, (long)mw->id + 1);
	MODEL_REC(m, &mm->tree, REC_READ);
	keep(__atomic_load_n(&mm->tree, __ATOMIC_RELAXED));
}

void model_mm_fault_exit(struct model_worker *mw, bool file)
{
	struct model *m = mw->m;

	if (!m->mm || vma_locked_fault(m, file))
		return; /* vma_end_read: the worker's own VMA lock */
	read_unlock(m, m->mm);
}

/* mmap_write_lock: the lock section starts (the count's cmpxchg is the
 * lock op), owner stored, the VMA tree rewritten. */
static void write_section(struct model_worker *mw)
{
	struct model *m = mw->m;
	struct model_mm *mm = m->mm;
	long c = __atomic_load_n(&mm->count, __ATOMIC_RELAXED);

	/* claim the waiting bit (one writer at a time; it holds new
	 * readers off), wait for the readers to leave, then hold */
	while ((c & 3) || !__atomic_compare_exchange_n(&mm->count, &c, c | 2, false,
						     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		cpu_relax();
		c = __atomic_load_n(&mm->count, __ATOMIC_RELAXED);
	}
	while (__atomic_load_n(&mm->count, __ATOMIC_ACQUIRE) != 2)
		cpu_relax();
	__atomic_store_n(&mm->count, 1, __ATOMIC_RELAXED);
	if (unlikely(m->rec))
		model_rec_lock(m, &mm->count);
	MODEL_REC(m, &mm->owner, REC_WRITE);
	__atomic_store_n(&mm->owner, (long)mw->id + 1, __ATOMIC_RELAXED);
	/* vma_merge / mas_store_gfp (v6.1+), __vma_link_rb before */
	MODEL_REC(m, &mm->tree, REC_WRITE);
	__atomic_store_n(&mm->tree, mm->tree + 1, __ATOMIC_RELAXED);
}

/* The end of a write section: mm_lock_seq bumped (v6.4+:
 * vma_end_write_all, from mmap_write_unlock and mmap_write_downgrade),
 * owner cleared (__up_write) or made ours as a reader (downgrade), and
 * the count released to no reader or to our one. */
static void write_section_end(struct model_worker *mw, bool downgrade)
{
	struct model *m = mw->m;
	struct model_mm *mm = m->mm;

	if (version_of(m) >= 604) {
		MODEL_REC(m, &mm->lock_seq, REC_WRITE);
		__atomic_store_n(&mm->lock_seq, mm->lock_seq + 1, __ATOMIC_RELEASE);
	}
	MODEL_REC(m, &mm->owner, REC_WRITE);
	__atomic_store_n(&mm->owner, downgrade ? (long)mw->id + 1 : 0, __ATOMIC_RELAXED);
	if (unlikely(m->rec))
		model_rec_unlock(m);
	/* no other reader entered: the waiting bit held them off */
	__atomic_store_n(&mm->count, downgrade ? 256 : 0, __ATOMIC_RELEASE);
}

void model_mm_mmap(struct model_worker *mw)
{
	if (!mw->m->mm)
		return;
	write_section(mw);
	write_section_end(mw, false);
}

void model_mm_munmap_enter(struct model_worker *mw)
{
	if (!mw->m->mm)
		return;
	write_section(mw);
	write_section_end(mw, true);
}

void model_mm_munmap_exit(struct model_worker *mw)
{
	if (mw->m->mm)
		read_unlock(mw->m, mw->m->mm);
}

void model_mm_read_enter(struct model_worker *mw)
{
	if (mw->m->mm)
		read_lock(mw->m, mw->m->mm, (long)mw->id + 1);
}

void model_mm_read_exit(struct model_worker *mw)
{
	if (mw->m->mm)
		read_unlock(mw->m, mw->m->mm);
}
