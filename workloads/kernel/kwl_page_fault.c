/*
 * kwl_page_fault.c - will-it-scale page_fault1/2/3 as real page faults
 * (antonblanchard/will-it-scale tests/page_fault{1,2,3}.c).  One operation
 * is one page written (will-it-scale bumps its counter per page).
 *
 *   page_fault1  mmap 128 MB private anonymous, write a byte per page,
 *                munmap: do_anonymous_page, charge, LRU add; munmap frees
 *                under the lruvec lock and uncharges.
 *   page_fault2  the same over a MAP_PRIVATE mapping of a 128 MB tmpfs
 *                file (created, truncated and unlinked once per worker):
 *                every write is a CoW fault that allocates and charges an
 *                anon page; the first pass also fills the shmem file.
 *   page_fault3  as page_fault2 with MAP_SHARED: after the first pass no
 *                allocation, charge or LRU work, only NR_FILE_MAPPED moves
 *                (the counter-only workload of fefc6e6631ff's table).
 *
 * Expected: one minor fault per operation (THP or mTHP for anonymous
 * memory would make page_fault1 take fewer; the result says so).
 *
 * The loops only: each kernel twin is defined with its spec, and its
 * expected faults come from there, in workloads/model/wl_NAME.c
 * (KERNEL_WORKLOAD, workloads/wlspec.h).
 */
#include "workloads/kernel/kbackend.h"

#include <errno.h>
#include <sys/mman.h>

int kwl_pf_prepare_file(struct worker *w, struct kb_worker *kw, const char *dir)
{
	kw->size = kb_size(w);
	kw->fd = kb_tmpfile(dir, kw->size);
	return kw->fd < 0 ? kw->fd : 0;
}

static void pf_loop(struct worker *w, struct kb_worker *kw, int flags)
{
	size_t size = kb_size(w);
	int fd = (flags & MAP_ANONYMOUS) ? -1 : kw->fd;

	while (!worker_should_stop(w)) {
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);
		if (p == MAP_FAILED) {
			kw->err = -errno;
			return;
		}
		kb_touch_pages(w, p, size);
		munmap(p, size);
	}
}

void kwl_pf1_loop(struct worker *w, struct kb_worker *kw)
{
	pf_loop(w, kw, MAP_PRIVATE | MAP_ANONYMOUS);
}

void kwl_pf2_loop(struct worker *w, struct kb_worker *kw)
{
	pf_loop(w, kw, MAP_PRIVATE);
}

void kwl_pf3_loop(struct worker *w, struct kb_worker *kw)
{
	pf_loop(w, kw, MAP_SHARED);
}
