/* Guest workload for counting the kernel's LRU critical sections
 * (scripts/kpath/count.sh): tlb_flush2's loop (write a page,
 * MADV_DONTNEED it, read it back), page_fault2's (write-fault private
 * file pages, munmap), fallocate1's (allocate 1 MB of a tmpfs file,
 * truncate it), the same with 16 MB (pages through the zone lock), a
 * readtwice-like reader that makes its memcg reclaim, or
 * lru-file-readtwice's two readers of a sparse file on xfs (sparse,
 * sparsecg: the latter in 768 MB), in a memcg two levels below the
 * root. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static void wr(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, s, strlen(s)) < 0) { perror(path); }
	if (fd >= 0) close(fd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "tlb";
	char pid[32];
	size_t pg = 4096, sz = 1u << 20;

	mkdir("/sys/fs/cgroup/a", 0755);
	wr("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	wr("/sys/fs/cgroup/a/cgroup.subtree_control", "+memory");
	mkdir("/sys/fs/cgroup/a/b", 0755);
	/* the memcg's own reclaim: 16 MB, or for sparsecg 768 MB, whose
	 * LRU lists (~190000 pages) give reclaim's first priority
	 * (DEF_PRIORITY 12: size >> 12) full SWAP_CLUSTER_MAX batches as a
	 * large machine's do; 16 MB would scan a page or two at a time */
	if (!strcmp(mode, "reclaim") || !strcmp(mode, "readtwice"))
		wr("/sys/fs/cgroup/a/b/memory.max", "16M");
	if (!strcmp(mode, "sparsecg"))
		wr("/sys/fs/cgroup/a/b/memory.max", "768M");
	snprintf(pid, sizeof pid, "%d", getpid());
	wr("/sys/fs/cgroup/a/b/cgroup.procs", pid);
	/* SCHED_FIFO: the timer ticks that the count's string-instruction
	 * breakpoints let in preempt nothing (init disables RT throttling),
	 * so a traced call runs unscheduled but where it sleeps */
	{
		struct sched_param sp = { .sched_priority = 50 };
		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			perror("sched_setscheduler");
	}
	printf("lrutest %s in /a/b\n", mode);
	fflush(stdout);
	if (!strcmp(mode, "tlb")) {
		for (;;) {
			volatile char *p = mmap(NULL, sz, PROT_READ | PROT_WRITE,
						MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			for (size_t i = 0; i < sz; i += pg) {
				p[i] = 1;
				madvise((char *)p + i, pg, MADV_DONTNEED);
				(void)p[i];
			}
			munmap((char *)p, sz);
		}
	} else if (!strcmp(mode, "reclaim")) {
		/* lru-file-readtwice's shape: read a 128 MB block device (brd,
		 * its page cache file pages) twice, in a memcg of 16 MB, so
		 * the memcg reclaims its file LRU (shrink_inactive_list,
		 * shrink_active_list) all along */
		static char buf[1 << 16];
		for (;;) {
			for (int pass = 0; pass < 2; pass++) {
				int fd = open("/dev/ram0", O_RDONLY);
				ssize_t n;
				if (fd < 0) { perror("/dev/ram0"); return 1; }
				while ((n = read(fd, buf, sizeof(buf))) > 0)
					;
				close(fd);
			}
		}
	} else if (!strcmp(mode, "readtwice")) {
		/* lru-file-readtwice's two dd of one file (bs=4k, to
		 * /dev/null), the second RING pages behind: the first misses
		 * (readahead, page cache, LRU add), the second hits and
		 * activates; the 16 MB memcg reclaims all along */
		enum { RING = 64, PAGES = 32768 };
		static char buf[4096];
		int f1 = open("/dev/ram0", O_RDONLY), f2 = open("/dev/ram0", O_RDONLY);
		int nul = open("/dev/null", O_WRONLY);
		if (f1 < 0 || f2 < 0 || nul < 0) { perror("readtwice"); return 1; }
		for (;;) {
			lseek(f1, 0, SEEK_SET);
			lseek(f2, 0, SEEK_SET);
			for (int i = 0; i < PAGES + RING; i++) {
				if (i < PAGES && (read(f1, buf, pg) != (ssize_t)pg || write(nul, buf, pg) < 0))
					return 1;
				if (i >= RING && (read(f2, buf, pg) != (ssize_t)pg || write(nul, buf, pg) < 0))
					return 1;
			}
		}
	} else if (!strcmp(mode, "sparse") || !strcmp(mode, "sparsecg")) {
		/* vm-scalability case-lru-file-readtwice: a sparse file on
		 * xfs (count.sh mounts it on /mnt) read by two dd bs=4k to
		 * /dev/null, the second RING pages behind; the first reader's
		 * reads hit the pages readahead brought in, one read in 32
		 * starting the next readahead of holes (zeroed, no I/O) */
		enum { RING = 64 };
		static char buf[4096];
		int f1 = open("/mnt/sparse", O_RDWR | O_CREAT, 0600), f2, nul;
		if (f1 < 0 || ftruncate(f1, (off_t)1 << 40)) { perror("/mnt/sparse"); return 1; }
		f2 = open("/mnt/sparse", O_RDONLY);
		nul = open("/dev/null", O_WRONLY);
		if (f2 < 0 || nul < 0) { perror("sparse"); return 1; }
		for (long i = 0;; i++) {
			/* hole reads never sleep: a pause now and then lets
			 * the kernel's threads (RCU's grace periods, the
			 * flushers) run beside a SCHED_FIFO task */
			if (i % 4096 == 4095)
				usleep(2000);
			if (read(f1, buf, pg) != (ssize_t)pg || write(nul, buf, pg) < 0)
				return 1;
			if (i >= RING && (read(f2, buf, pg) != (ssize_t)pg || write(nul, buf, pg) < 0))
				return 1;
		}
	} else if (!strcmp(mode, "brk") || !strcmp(mode, "brk0")) {
		/* AIM9 page_test: sbrk(1 MB), 100 x (sbrk(-64 KB), 16 x
		 * (sbrk(4 KB), a byte written every 128 B)), brk(old);
		 * brk0 is brk_test: the same calls, no page touched */
		int touch = !strcmp(mode, "brk");

		for (;;) {
			char *old = sbrk(0);
			if (sbrk(1 << 20) == (void *)-1) { perror("sbrk"); return 1; }
			for (int r = 0; r < 100; r++) {
				sbrk(-65536);
				for (int i = 0; i < 16; i++) {
					char *p = sbrk(4096);
					for (int b = 0; touch && b < 4096; b += 128)
						p[b] = 1;
				}
			}
			if (brk(old)) { perror("brk"); return 1; }
		}
	} else if (!strcmp(mode, "zone")) {
		/* pages through the zone's free lists: 128 MB of a tmpfs file
		 * allocated and truncated, far more than a pcp list holds,
		 * so rmqueue_bulk refills it and free_pcppages_bulk drains it
		 * (fallocate1's 1 MB stays within one CPU's pcp list, and 6.12's
		 * auto-tuned pcp->high holds 16 MB) */
		/* first the full, fragmented memory of a long-running
		 * machine: two files written a page each in turn (adjacent
		 * pages, each the other's buddy), then one removed, so the
		 * free pages are order-0 holes whose buddies are in use: the
		 * allocator takes them first (__rmqueue_smallest) and a page
		 * returned merges with nothing, as where free memory is
		 * scarce and scattered */
		static char page[4096] = { 1 };
		int fa = open("/tmp/za", O_RDWR | O_CREAT, 0600), fb = open("/tmp/zb", O_RDWR | O_CREAT, 0600);
		int fd = open("/tmp/fz", O_RDWR | O_CREAT, 0600);
		if (fa < 0 || fb < 0 || fd < 0) { perror("fz"); return 1; }
		for (off_t i = 0; i < 60000; i++)
			if (pwrite(fa, page, pg, i * (off_t)pg) < 0 || pwrite(fb, page, pg, i * (off_t)pg) < 0) {
				perror("pwrite");
				return 1;
			}
		close(fb);
		unlink("/tmp/zb");
		printf("lrutest: holes made\n");
		fflush(stdout);
		for (;;) {
			if (fallocate(fd, 0, 0, 128 * sz)) { perror("fallocate"); return 1; }
			if (ftruncate(fd, 0)) { perror("ftruncate"); return 1; }
		}
	} else if (!strcmp(mode, "falloc8")) {
		/* will-it-scale fallocate1 itself: a /dev/shm-like tmpfs file
		 * grown by fallocate(8 KB) steps to 1 MB, then ftruncate(0) */
		int fd = open("/tmp/fa8", O_RDWR | O_CREAT, 0600);
		if (fd < 0) { perror("fa8"); return 1; }
		for (;;) {
			for (size_t off = 0; off < sz; off += 2 * pg)
				if (fallocate(fd, 0, (off_t)off, (off_t)(2 * pg))) { perror("fallocate"); return 1; }
			if (ftruncate(fd, 0)) { perror("ftruncate"); return 1; }
		}
	} else if (!strcmp(mode, "falloc")) {
		/* fallocate1: allocate 1 MB of a tmpfs file, truncate it */
		int fd = open("/tmp/fa1", O_RDWR | O_CREAT, 0600);
		if (fd < 0) { perror("fa1"); return 1; }
		for (;;) {
			if (fallocate(fd, 0, 0, sz)) { perror("fallocate"); return 1; }
			if (ftruncate(fd, 0)) { perror("ftruncate"); return 1; }
		}
	} else {
		/* page_fault2: a private file mapping of a tmpfs file, COW faults */
		int fd = open("/tmp/pf2", O_RDWR | O_CREAT, 0600);
		size_t len = 16u << 20;
		if (fd < 0 || ftruncate(fd, len)) { perror("pf2"); return 1; }
		for (;;) {
			char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
			for (size_t i = 0; i < len; i += pg)
				p[i] = 0;
			munmap(p, len);
		}
	}
}
