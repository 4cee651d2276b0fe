/*
 * kwl_tlb_malloc.c - will-it-scale tlb_flush2 and malloc1
 * (antonblanchard/will-it-scale tests/tlb_flush2.c, tests/malloc1.c).
 *
 *   tlb_flush2  mmap 1 MB private anonymous; per page: write it, then
 *               madvise(MADV_DONTNEED) that page, then read it back (it
 *               must be zero); munmap.  One operation per page; two faults
 *               per operation (the write, then the zero-page read), which
 *               matches LKP's pgfault = 2 x pgalloc_normal in 8d59d2214c.
 *               Each madvise drains the per-CPU LRU batch and frees the page
 *               under the lruvec lock.
 *   malloc1     malloc(128 MB) + free: above glibc's 32 MB mmap-threshold
 *               ceiling, so one mmap + munmap, with one page faulted by the
 *               chunk header.  One operation per pair, one fault each.
 *
 * The loops only: each kernel twin is defined with its spec, and its
 * expected faults come from there, in workloads/model/wl_NAME.c
 * (KERNEL_WORKLOAD, workloads/wlspec.h).
 */
#include "workloads/kernel/kbackend.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define TLB_MEMSIZE (1u << 20)

void kwl_tlb_flush2_loop(struct worker *w, struct kb_worker *kw)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	while (!worker_should_stop(w)) {
		volatile char *p = mmap(NULL, TLB_MEMSIZE, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			kw->err = -errno;
			return;
		}
		for (size_t i = 0; i < TLB_MEMSIZE && !worker_should_stop(w); i += pg) {
			p[i] = 1;
			madvise((char *)p + i, pg, MADV_DONTNEED);
			if (p[i] != 0) {
				kw->err = -EFAULT; /* DONTNEED kept the data */
				break;
			}
			worker_done_op(w);
		}
		munmap((char *)p, TLB_MEMSIZE);
	}
}

void kwl_malloc1_loop(struct worker *w, struct kb_worker *kw)
{
	size_t size = kb_size(w);

	WORKER_LOOP(w) {
		/* volatile: the compiler may not drop the malloc/free pair */
		void *volatile p = malloc(size);
		if (!p) {
			kw->err = -ENOMEM;
			return;
		}
		free(p);
	}
}
