/*
 * kwl_aim9.c - AIM9 page_test and brk_test (aim7/creat-clo.c, the copy in
 * jaegeuk/xfstests-f2fs; run by mmtests' config-workload-aim9-pagealloc,
 * Alex Shi's per-memcg lru_lock series).
 *
 *   page_test  grow the break by 1 MB; 100 rounds of: shrink it by 64 KB,
 *              then 16 x (grow by one page, write a byte every 128 bytes
 *              of the new page); restore the break.
 *   brk_test   the same with 1000 rounds and no writes.
 *
 * One operation is one break change, as AIM9's "Operation Rate" counts
 * (multipliers 1700 and 17000 per call: 17 per round).  page_test takes
 * 16 faults per 17 operations (each shrink frees the 16 pages the previous
 * round dirtied); brk_test takes none.  We call brk() with absolute
 * addresses, as sbrk() would compute them.
 *
 * Processes only: the program break belongs to the process, so thread
 * workers would shrink it under each other (and under malloc).
 *
 * The loops only: each kernel twin is defined with its spec, and its
 * expected faults come from there, in workloads/model/wl_NAME.c
 * (KERNEL_WORKLOAD, workloads/wlspec.h).
 */
#include "workloads/kernel/kbackend.h"

#include <errno.h>
#include <unistd.h>

#define AIM_GROW (1u << 20)
#define AIM_SHRINK (64u << 10)
#define AIM_STEPS 16

static void aim_loop(struct worker *w, struct kb_worker *kw, unsigned rounds,
		     bool touch)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	while (!worker_should_stop(w)) {
		char *base = sbrk(0), *top = base + AIM_GROW;

		if (base == (char *)-1 || brk(top)) {
			kw->err = -ENOMEM;
			return;
		}
		for (unsigned r = 0; r < rounds; r++) {
			top -= AIM_SHRINK;
			brk(top);
			for (unsigned s = 0; s < AIM_STEPS; s++) {
				if (brk(top + pg)) {
					kw->err = -ENOMEM;
					brk(base);
					return;
				}
				if (touch)
					for (size_t b = 0; b < pg; b += 128)
						((volatile char *)top)[b] = 1;
				top += pg;
			}
			worker_done_ops(w, 1 + AIM_STEPS);
		}
		brk(base);
	}
}

void kwl_aim9_page_test_loop(struct worker *w, struct kb_worker *kw)
{
	aim_loop(w, kw, 100, true);
}

void kwl_aim9_brk_test_loop(struct worker *w, struct kb_worker *kw)
{
	aim_loop(w, kw, 1000, false);
}
