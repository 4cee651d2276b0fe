/*
 * kwl_lru_shm.c - vm-scalability case-lru-shm as a loop: each worker reads
 * a sparse tmpfs file through a read-only MAP_SHARED mapping, every word
 * (usemem -f FILE --readonly, default step sizeof(long)).  Each first read
 * of a page is shmem_fault: allocate, charge, add to the page cache and to
 * the LRU (folio_add_lru), map (NR_FILE_MAPPED), PGFAULT event - the paths
 * whose cost grew in the 8d59d2214c LKP report.  vm-scalability
 * reads half of RAM once; to repeat within bounded memory we then unmap
 * and truncate the file to 0 (LRU delete, uncharge) and read it again.
 *
 * One operation is one 4 KB page read (so ops/s x 4 = vm-scalability's
 * KB/s, but over the whole loop: the unmap and the truncation are in
 * the run's wall clock, where usemem's timer leaves them out;
 * workloads/model/wl_lru_shm.c); expected one minor fault per operation
 * (fault-around finds no cached pages in a freshly truncated file).
 *
 * The loops only: each kernel twin is defined with its spec, and its
 * expected faults come from there, in workloads/model/wl_NAME.c
 * (KERNEL_WORKLOAD, workloads/wlspec.h).
 */
#include "workloads/kernel/kbackend.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

int kwl_lru_shm_prepare(struct worker *w, struct kb_worker *kw, const char *dir)
{
	kw->size = kb_size(w);
	kw->fd = kb_tmpfile(dir, 0);
	return kw->fd < 0 ? kw->fd : 0;
}

void kwl_lru_shm_loop(struct worker *w, struct kb_worker *kw)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), size = kw->size;
	unsigned long sum = 0;

	while (!worker_should_stop(w)) {
		const volatile unsigned long *p;

		if (ftruncate(kw->fd, (off_t)size)) {
			kw->err = -errno;
			return;
		}
		p = mmap(NULL, size, PROT_READ, MAP_SHARED, kw->fd, 0);
		if (p == MAP_FAILED) {
			kw->err = -errno;
			return;
		}
		for (size_t off = 0; off < size && !worker_should_stop(w); off += pg) {
			for (size_t i = 0; i < pg / sizeof(long); i++)
				sum += p[off / sizeof(long) + i];
			worker_done_op(w);
		}
		munmap((void *)p, size);
		if (ftruncate(kw->fd, 0)) {
			kw->err = -errno;
			return;
		}
	}
	keep(sum);
}
