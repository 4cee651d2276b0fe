/*
 * kwl_fallocate.c - will-it-scale fallocate1/2 on tmpfs
 * (antonblanchard/will-it-scale tests/fallocate{1,2}.c).  Each worker owns
 * an unlinked file; one operation is one fallocate() of 8 KB (two shmem
 * pages allocated, charged and added to the LRU); every 1 MB the file is
 * truncated to 0, freeing 256 pages under the lruvec lock (the lock that
 * took 84.8% of cycles in the fefc6e6631ff LKP report).  fallocate1 uses
 * /dev/shm, fallocate2 "/tmp" - here a tmpfs mounted for the run, as
 * Shakeel's numbers assume; ktmpdir=/tmp would measure the disk fs.
 *
 * Expected: no page faults.
 *
 * The loops only: each kernel twin is defined with its spec, and its
 * expected faults come from there, in workloads/model/wl_NAME.c
 * (KERNEL_WORKLOAD, workloads/wlspec.h).
 */
#include "workloads/kernel/kbackend.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define FA_FILESIZE (1u << 20)
#define FA_BUFLEN (FA_FILESIZE / 128)

int kwl_fallocate_prepare(struct worker *w, struct kb_worker *kw, const char *dir)
{
	kw->fd = kb_tmpfile(dir, 0);
	return kw->fd < 0 ? kw->fd : 0;
}

void kwl_fallocate_loop(struct worker *w, struct kb_worker *kw)
{
	off_t place = 0;

	while (!worker_should_stop(w)) {
		if (fallocate(kw->fd, 0, place, FA_BUFLEN) && errno != EINTR) {
			kw->err = -errno;
			return;
		}
		place += FA_BUFLEN;
		if (place >= FA_FILESIZE) {
			if (ftruncate(kw->fd, 0)) {
				kw->err = -errno;
				return;
			}
			place = 0;
		}
		worker_done_op(w);
	}
}
