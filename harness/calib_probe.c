/*
 * calib_probe.c - calibration probes (ccbench/libslock-style cache-line
 * and lock latencies) that fill a calibration file (predict/calib.h).
 * Probe timings on a shared or small machine are noisy, which is why
 * every probe is repeated and its spread recorded.
 */
#include "harness/calib_probe.h"
#include "core/procstat.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "core/arena.h"
#include "core/meta.h"
#include "core/topo.h"
#include "core/util.h"
#include "counters/counter.h"
#include "harness/harness.h"
#include "locks/lock.h"
#include "models/memcg.h"
#include "models/stats/stats.h"

void calib_opts_default(struct calib_opts *o)
{
	*o = (struct calib_opts){ .reps = 7, .scale = 1, .locks = true,
				  .workloads = true, .wl_seconds = 0.3 };
}

/* ---- the table ---- */

/* ---- probes ---- */

struct spread {
	double median, q1, q3, min, max;
};

static void spread_of(double *v, size_t n, struct spread *s)
{
	gsl_sort(v, 1, n);
	s->median = gsl_stats_median_from_sorted_data(v, 1, n);
	s->q1 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.25);
	s->q3 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.75);
	s->min = v[0];
	s->max = v[n - 1];
}

/* Whole-machine CPU time from /proc/stat's first line: total and stolen
 * (by the hypervisor) jiffies; false where it cannot be read. */
static bool cpu_jiffies(double *total, double *steal)
{
	struct proc_cpu c;

	if (!proc_stat_cpu(&c) || c.n < 8)
		return false;
	*total = (double)proc_cpu_total(&c);
	*steal = (double)c.v[PROC_CPU_STEAL];
	return true;
}

/* Steal since the previous record() (or calib_measure's start). */
static double last_total = NAN, last_steal = NAN;

static double steal_since_last(void)
{
	double total, steal, pct = NAN;

	if (!cpu_jiffies(&total, &steal))
		return NAN;
	if (!isnan(last_total) && total > last_total)
		pct = 100 * (steal - last_steal) / (total - last_total);
	last_total = total;
	last_steal = steal;
	return pct;
}

/* A probe whose slowest repetition is more than this times its fastest is
 * flagged (<probe>.varies = the ratio); a first touch more than
 * FIRST_TOUCH_BOUND times the steady-state re-fault is flagged inflated. */
#define VARIES_BOUND 2.0
#define FIRST_TOUCH_BOUND 2.0

/* A probe's repetitions v[0..n) and the steal (percent of CPU time)
 * while they ran. */
static void record_steal(struct calib *c, const char *probe, double *v, size_t n,
			 bool verbose, double steal)
{
	struct spread s;
	char key[160];

	spread_of(v, n, &s);
#define PUT(field)                                                        \
	do {                                                              \
		snprintf(key, sizeof(key), "%s." #field "_ns", probe);   \
		calib_set_num(c, key, s.field);                           \
	} while (0)
	PUT(median);
	PUT(q1);
	PUT(q3);
	PUT(min);
	PUT(max);
#undef PUT
	/* Probes that ran under steal, or whose repetitions differ by more
	 * than 2x, are reported as such (predict prints them again). */
	if (steal > 0) {
		snprintf(key, sizeof(key), "%s.steal_pct", probe);
		calib_set_num(c, key, steal);
	}
	if (s.min > 0 && s.max / s.min > VARIES_BOUND) {
		snprintf(key, sizeof(key), "%s.varies", probe);
		calib_set_num(c, key, s.max / s.min);
	}
	if (verbose)
		fprintf(stderr, "calibrate: %-34s median %9.2f ns  IQR [%.2f, %.2f]  "
			"range [%.2f, %.2f]%s%s\n", probe, s.median, s.q1, s.q3, s.min, s.max,
			s.min > 0 && s.max / s.min > VARIES_BOUND ? "  VARIES" : "",
			steal > 1 ? "  UNDER STEAL" : "");
}

static void record(struct calib *c, const char *probe, double *v, size_t n,
		   bool verbose)
{
	record_steal(c, probe, v, n, verbose, steal_since_last());
}

struct pair_line {
	volatile uint64_t word;
	char pad[PAD_SIZE - sizeof(uint64_t)];
} cacheline_aligned;

#define CHASE_LINES 64 /* a permutation step of 37 visits all 64 */

struct chase_line {
	const struct chase_line *next;
	char pad[CACHELINE - sizeof(void *)];
} __attribute__((aligned(CACHELINE)));

enum pair_kind { PAIR_STORE, PAIR_ATOMIC, PAIR_LOAD, PAIR_CONTENDED, PAIR_LOCK };

struct pair {
	enum pair_kind kind;
	uint64_t iters;
	struct pair_line *line;
	pthread_barrier_t gate;
	double ns[2]; /* elapsed per thread */
	struct chase_line *chain; /* PAIR_LOAD */
	double chase_ns;
	const struct lock_ops *lock;
	void *lk, *ctx[2];
};

struct pair_arg {
	struct pair *p;
	unsigned id;
};

static void *pair_thread(void *argp)
{
	struct pair_arg *a = argp;
	struct pair *p = a->p;
	volatile uint64_t *w = &p->line->word;
	uint64_t t0, sum = 0;

	topo_pin_self(topo_pu_for(AFF_CORES, a->id));
	pthread_barrier_wait(&p->gate);
	t0 = now_ns();
	switch (p->kind) {
	case PAIR_STORE:
	case PAIR_ATOMIC:
		/* Turn taking: thread id waits for an even/odd value.  Each
		 * round trip moves the line twice. */
		for (uint64_t i = 0; i < p->iters; i++) {
			uint64_t want = 2 * i + a->id;
			while (__atomic_load_n(w, __ATOMIC_ACQUIRE) != want)
				cpu_relax();
			if (p->kind == PAIR_STORE)
				__atomic_store_n(w, want + 1, __ATOMIC_RELEASE);
			else
				__atomic_fetch_add(w, 1, __ATOMIC_ACQ_REL);
		}
		break;
	case PAIR_LOAD:
		/* ccbench's LOAD_FROM_MODIFIED: thread 0 rewrites a chain of
		 * CHASE_LINES lines (modified in its cache), then passes the
		 * turn; thread 1 follows the chain with dependent loads, so
		 * every load is a miss served by the other core.  Only
		 * thread 1's chase is timed. */
		for (uint64_t i = 0; i < p->iters; i++) {
			uint64_t want = 2 * i + a->id;
			while (__atomic_load_n(w, __ATOMIC_ACQUIRE) != want)
				cpu_relax();
			if (a->id == 0) {
				for (unsigned k = 0; k < CHASE_LINES; k++)
					p->chain[k].next = &p->chain[(k * 37 + 11) % CHASE_LINES];
			} else {
				const struct chase_line *cl = &p->chain[0];
				uint64_t t1 = now_ns();
				for (unsigned k = 0; k < CHASE_LINES; k++)
					cl = *(const struct chase_line *const volatile *)&cl->next;
				p->chase_ns += (double)(now_ns() - t1);
				sum += (uintptr_t)cl;
			}
			__atomic_store_n(w, want + 1, __ATOMIC_RELEASE);
		}
		break;
	case PAIR_CONTENDED:
		for (uint64_t i = 0; i < p->iters; i++)
			__atomic_fetch_add(w, 1, __ATOMIC_RELAXED);
		break;
	case PAIR_LOCK:
		/* Strict alternation, so every acquisition is a hand-off
		 * from the other core (an unfair lock would otherwise stay
		 * on one core).  The turn flag is written inside the
		 * critical section: its transfer is part of the figure. */
		for (uint64_t i = 0; i < p->iters; i++) {
			uint64_t want = 2 * i + a->id;
			while (__atomic_load_n(w, __ATOMIC_ACQUIRE) != want)
				cpu_relax();
			p->lock->lock(p->lk, p->ctx[a->id]);
			__atomic_store_n(w, want + 1, __ATOMIC_RELEASE);
			p->lock->unlock(p->lk, p->ctx[a->id]);
		}
		break;
	}
	p->ns[a->id] = (double)(now_ns() - t0);
	keep(sum);
	return NULL;
}

/* Two threads on two cores; returns ns per unit as the probe defines. */
static double run_pair(struct pair *p)
{
	pthread_t th[2];
	struct pair_arg args[2] = { { p, 0 }, { p, 1 } };

	p->line->word = 0;
	p->chase_ns = 0;
	p->chain = aligned_alloc(CACHELINE, CHASE_LINES * sizeof(struct chase_line));
	for (unsigned k = 0; k < CHASE_LINES; k++)
		p->chain[k].next = &p->chain[(k * 37 + 11) % CHASE_LINES];
	pthread_barrier_init(&p->gate, NULL, 2);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, pair_thread, &args[i]))
			die(1, "calibrate: cannot start a thread");
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&p->gate);
	free(p->chain);
	switch (p->kind) {
	case PAIR_STORE:
	case PAIR_ATOMIC:
		return p->ns[0] / (double)p->iters / 2.0; /* one way */
	case PAIR_LOAD:
		return p->chase_ns / (double)p->iters / CHASE_LINES;
	case PAIR_CONTENDED:
		/* Latency of one thread's atomic while the other hammers. */
		return (p->ns[0] > p->ns[1] ? p->ns[0] : p->ns[1]) / (double)p->iters;
	case PAIR_LOCK:
		/* 2 * iters strictly alternating acquisitions. */
		return (p->ns[0] > p->ns[1] ? p->ns[0] : p->ns[1]) / (2.0 * (double)p->iters);
	}
	return NAN;
}

static uint64_t probe_scaled(const struct calib_opts *o, uint64_t n)
{
	uint64_t v = (uint64_t)((double)n * o->scale);
	return v ? v : 1;
}

static void probe_pairs(struct calib *c, const struct calib_opts *o,
			struct pair_line *line)
{
	static const struct { const char *name; enum pair_kind kind; uint64_t iters; } pp[] = {
		{ "xfer.store", PAIR_STORE, 20000 },
		{ "xfer.atomic", PAIR_ATOMIC, 20000 },
		{ "xfer.load", PAIR_LOAD, 5000 },
		{ "atomic.contended", PAIR_CONTENDED, 200000 },
	};
	double *v = xcalloc(o->reps, sizeof(double));

	for (size_t k = 0; k < ARRAY_SIZE(pp); k++) {
		for (unsigned r = 0; r < o->reps; r++) {
			struct pair p = { .kind = pp[k].kind, .line = line,
					  .iters = probe_scaled(o, pp[k].iters) };
			v[r] = run_pair(&p);
		}
		record(c, pp[k].name, v, o->reps, o->verbose);
	}
	free(v);
}

/* Single-thread micro-sequences; each returns ns per operation. */

/*
 * The loop probes (atomic.uncontended, hit, miss, percpu, list, page,
 * clear, syscall) time their n operations in PROBE_BLOCKS short blocks (a few
 * microseconds to about a millisecond each, far shorter than a time
 * slice) and a repetition is its fastest block's ns per operation: on a
 * shared machine a block can only be slowed down (a preemption, the
 * hypervisor's steal, a busy sibling), and the fastest of many short
 * blocks leaves that out, where one timed loop (format 2) paid every
 * slice the other tasks took in it (page varied 28x, percpu 35x over
 * repetitions under a parallel build).  The walk probe has used the same
 * rule since it was written (walk_block); predict then takes the least
 * disturbed repetition (calib_best).  The index i runs on across blocks,
 * so the bodies see the same sequence as one loop.  The clock read per
 * block costs under 1% of the shortest block here.
 */
#define PROBE_BLOCKS CALIB_PROBE_BLOCKS

#define TIME_BLOCKS(n, i, body)                                              \
	({                                                                   \
		uint64_t per_ = (n) / PROBE_BLOCKS ? (n) / PROBE_BLOCKS : 1;  \
		uint64_t i = 0;                                              \
		double best_ = INFINITY;                                     \
		for (unsigned b_ = 0; b_ < PROBE_BLOCKS; b_++) {             \
			uint64_t end_ = i + per_, t0_ = now_ns();             \
			for (; i < end_; i++) {                              \
				body;                                        \
			}                                                    \
			best_ = fmin(best_, (double)(now_ns() - t0_) / (double)per_); \
		}                                                            \
		best_;                                                       \
	})

static double time_atomic(uint64_t n, struct pair_line *l)
{
	return TIME_BLOCKS(n, i, __atomic_fetch_add(&l->word, 1, __ATOMIC_RELAXED));
}

/* Dependent loads over a random cycle through `bytes` of memory. */
static double time_chase(uint64_t n, size_t bytes)
{
	size_t slots = bytes / CACHELINE;
	char *buf = xmalloc(bytes);
	size_t *perm = xmalloc(slots * sizeof(size_t));
	uint64_t x = 88172645463325252ull;
	size_t cur = 0;
	double ns;

	for (size_t i = 0; i < slots; i++)
		perm[i] = i;
	for (size_t i = slots - 1; i > 0; i--) {
		size_t j;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		j = x % (i + 1);
		size_t t = perm[i]; perm[i] = perm[j]; perm[j] = t;
	}
	for (size_t i = 0; i < slots; i++)
		*(size_t *)(buf + perm[i] * CACHELINE) = perm[(i + 1) % slots] * CACHELINE;
	ns = TIME_BLOCKS(n, i, cur = *(volatile size_t *)(buf + cur));
	keep(cur);
	free(perm);
	free(buf);
	return ns;
}

/* Per-CPU add with a threshold fold into a shared atomic, the shape of
 * __mod_memcg_state (mm/memcontrol.c at 6168d0da2b47, v5.11) and
 * percpu_counter_add_batch (lib/percpu_counter.c). */
static double time_percpu(uint64_t n, struct pair_line *shared)
{
	static long pcpu[16] cacheline_aligned;

	return TIME_BLOCKS(n, i, {
		long x = pcpu[i & 7] + 1;
		if (unlikely(x > 32)) {
			__atomic_fetch_add(&shared->word, (uint64_t)x, __ATOMIC_RELAXED);
			x = 0;
		}
		*(volatile long *)&pcpu[i & 7] = x;
	});
}

struct lnode {
	struct lnode *next, *prev;
};

static double time_list(uint64_t n)
{
	struct lnode head = { &head, &head }, nodes[8];

	return TIME_BLOCKS(n, i, {
		struct lnode *e = &nodes[i & 7];
		/* list_add */
		e->next = head.next;
		e->prev = &head;
		head.next->prev = e;
		head.next = e;
		compiler_barrier();
		/* list_del */
		e->prev->next = e->next;
		e->next->prev = e->prev;
		compiler_barrier();
	});
}

static double time_page_copy(uint64_t n)
{
	char *a = xmalloc(8192), *b = xmalloc(8192);
	double ns;

	memset(a, 1, 8192);
	memset(b, 2, 8192);
	ns = TIME_BLOCKS(n, i, {
		memcpy((i & 1) ? a : b, (i & 1) ? b : a, 4096);
		compiler_barrier();
	});
	free(a);
	free(b);
	return ns;
}

/* ---- instructions per operation (perf_event_open) ---- */

static int insn_fd = -2; /* -2: not tried yet; -1: unavailable */
static char insn_how[160];

/* A hardware instruction counter on this thread, user and kernel (the
 * fault and syscall probes are mostly kernel instructions); user only
 * where the kernel's are not permitted, said so in insn_how. */
static bool insn_open(void)
{
	struct perf_event_attr a;

	if (insn_fd != -2)
		return insn_fd >= 0;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_hv = 1;
	insn_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (insn_fd >= 0) {
		snprintf(insn_how, sizeof(insn_how), "user+kernel instructions (perf_event_open)");
		return true;
	}
	if (errno == EACCES || errno == EPERM) {
		a.exclude_kernel = 1;
		insn_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (insn_fd >= 0) {
			snprintf(insn_how, sizeof(insn_how), "user instructions only "
				 "(perf_event_open: kernel counting not permitted)");
			return true;
		}
	}
	snprintf(insn_how, sizeof(insn_how), "unavailable (perf_event_open of the "
		 "instruction counter: %s)", strerror(errno));
	insn_fd = -1;
	return false;
}

static void insn_start(void)
{
	if (insn_fd >= 0) {
		ioctl(insn_fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(insn_fd, PERF_EVENT_IOC_ENABLE, 0);
	}
}

/* Instructions since insn_start(); NAN where unavailable. */
static double insn_stop(void)
{
	uint64_t v;

	if (insn_fd < 0)
		return NAN;
	ioctl(insn_fd, PERF_EVENT_IOC_DISABLE, 0);
	return read(insn_fd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? (double)v : NAN;
}

/* Cost of one now_ns() pair, the floor of an individually timed touch:
 * median of back-to-back readings (subtracted from the fault probes). */
static double clock_pair_ns(void)
{
	double t[257];

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		uint64_t t0 = now_ns();
		t[i] = (double)(now_ns() - t0);
	}
	gsl_sort(t, 1, ARRAY_SIZE(t));
	return gsl_stats_median_from_sorted_data(t, 1, ARRAY_SIZE(t));
}

/*
 * Page faults, one kind at a time, each touch timed on its own (median
 * touch, net of the clock); the region is set up before and torn down
 * after the clock.  The kinds differ in one step each, so that their
 * differences isolate a component from userspace (calib.h's part.*):
 *   FAULT_FIRST     write to a fresh anonymous mapping: first touch, with
 *                   new page tables and, in a VM, possibly guest memory
 *                   the host has not backed yet (an extra host fault)
 *   FAULT_ANON      write re-fault of a region touched before and released
 *                   with MADV_DONTNEED: the page allocator hands back pages
 *                   just freed (backed), page tables stay: the steady state
 *                   of will-it-scale's page_fault1 (do_anonymous_page:
 *                   alloc, clear_page, charge, rmap, LRU add)
 *   FAULT_ZERO      read fault of the same released region: maps the
 *                   shared zero page (no alloc, zeroing, charge, rmap, LRU)
 *   FAULT_WP        write after that read: write-protect fault from the
 *                   zero page to a new page (do_wp_page); ~ FAULT_ANON
 *   FAULT_COW       write to a MAP_PRIVATE memfd mapping of cached pages
 *                   (page_fault2's shape): alloc, copy_page, charge, anon
 *                   rmap, LRU add, plus the page-cache lookup
 *   FAULT_SHARED    write to a MAP_SHARED memfd mapping of cached pages
 *                   (page_fault3's shape): lookup, file rmap, dirtying; no
 *                   alloc or charge (write faults take no fault-around)
 *   FAULT_POPULATE  mmap(MAP_POPULATE) of a region, per page: the same
 *                   anonymous faults taken in the kernel in one call,
 *                   without a trap and user return per page
 * Instructions (where counted) come from a second, untimed pass.
 */
enum fault_kind {
	FAULT_FIRST, FAULT_ANON, FAULT_ZERO, FAULT_WP, FAULT_COW, FAULT_SHARED,
	FAULT_POPULATE,
};

#define FAULT_PAGES 1024
#define PAGE_4K 4096

static double fault_unmap_ns; /* per page, from the last FAULT_FIRST */

static char *map_region(enum fault_kind k, size_t len, int *fd)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	char *p;

	*fd = -1;
	if (k == FAULT_COW || k == FAULT_SHARED) {
		*fd = (int)syscall(SYS_memfd_create, "memscale-calib", 0);
		if (*fd < 0 || ftruncate(*fd, (off_t)len))
			die_errno(1, "calibrate: memfd");
		flags = k == FAULT_COW ? MAP_PRIVATE : MAP_SHARED;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 flags | (k == FAULT_POPULATE ? MAP_POPULATE : 0), *fd, 0);
	if (p == MAP_FAILED)
		die_errno(1, "calibrate: mmap");
	madvise(p, len, MADV_NOHUGEPAGE);
	if (*fd >= 0) {
		/* Fill the file's page cache through a shared mapping. */
		char *w = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
		if (w == MAP_FAILED)
			die_errno(1, "calibrate: mmap");
		for (size_t i = 0; i < len; i += PAGE_4K)
			w[i] = 1;
		munmap(w, len);
	}
	return p;
}

/* Brings the region to the state just before the measured touches. */
static void fault_prepare(enum fault_kind k, char *p, size_t len)
{
	if (k == FAULT_FIRST || k == FAULT_POPULATE)
		return;
	for (size_t i = 0; i < len; i += PAGE_4K)
		((volatile char *)p)[i] = 1; /* back it, build its page tables */
	madvise(p, len, MADV_DONTNEED);
	if (k == FAULT_WP)
		for (size_t i = 0; i < len; i += PAGE_4K)
			keep(((volatile char *)p)[i]); /* map the zero page */
}

static void touch(enum fault_kind k, char *a)
{
	if (k == FAULT_ZERO)
		keep(*(volatile char *)a);
	else
		*(volatile char *)a = 1;
}

/* ns per fault of kind k (median of `pages` timed touches, net of the
 * clock); *insn: instructions per fault (NAN when not counted). */
static double time_faults(enum fault_kind k, size_t pages, double clock_ns, double *insn)
{
	size_t len = pages * PAGE_4K;
	double *t = xcalloc(pages, sizeof(double)), med;
	int fd;
	char *p;
	uint64_t t0;

	*insn = NAN;
	if (k == FAULT_POPULATE) {
		/* The whole mmap call, per page (its own syscall overhead is
		 * spread over FAULT_PAGES pages). */
		for (int pass = 0; pass < 2; pass++) {
			if (pass)
				insn_start();
			t0 = now_ns();
			p = map_region(k, len, &fd);
			t[0] = (double)(now_ns() - t0) / (double)pages;
			if (pass)
				*insn = insn_stop() / (double)pages;
			munmap(p, len);
			if (!pass)
				med = t[0];
		}
		free(t);
		return med;
	}
	p = map_region(k, len, &fd);
	fault_prepare(k, p, len);
	for (size_t i = 0; i < pages; i++) {
		char *a = p + i * PAGE_4K;
		t0 = now_ns();
		touch(k, a);
		t[i] = (double)(now_ns() - t0);
	}
	if (k == FAULT_FIRST) {
		t0 = now_ns();
		munmap(p, len);
		fault_unmap_ns = (double)(now_ns() - t0) / (double)pages;
		p = map_region(k, len, &fd);
	}
	if (insn_fd >= 0) {
		fault_prepare(k, p, len);
		insn_start();
		for (size_t i = 0; i < pages; i++)
			touch(k, p + i * PAGE_4K);
		*insn = insn_stop() / (double)pages;
	}
	munmap(p, len);
	if (fd >= 0)
		close(fd);
	gsl_sort(t, 1, pages);
	med = fmax(0, gsl_stats_median_from_sorted_data(t, 1, pages) - clock_ns);
	free(t);
	return med;
}

/* fallocate of one 4 KiB page of a memfd, each call timed on its own:
 * shmem_fallocate allocates, charges and adds the page to the page cache
 * and the LRU (without zeroing it: SGP_FALLOC leaves it !uptodate), a
 * system call that takes the memcg charge path.  The file is truncated
 * between rounds, so the second round re-allocates pages just freed. */
static double time_falloc(size_t pages, double clock_ns, double *insn)
{
	int fd = (int)syscall(SYS_memfd_create, "memscale-calib", 0);
	double *t = xcalloc(pages, sizeof(double)), med;

	if (fd < 0)
		die_errno(1, "calibrate: memfd");
	*insn = NAN;
	for (int round = 0; round < 3; round++) {
		if (round == 2)
			insn_start();
		for (size_t i = 0; i < pages; i++) {
			uint64_t t0 = now_ns();
			if (fallocate(fd, 0, (off_t)(i * PAGE_4K), PAGE_4K))
				die_errno(1, "calibrate: fallocate");
			if (round == 1)
				t[i] = (double)(now_ns() - t0);
		}
		if (round == 2)
			*insn = insn_stop() / (double)pages; /* includes the clock reads */
		if (ftruncate(fd, 0))
			die_errno(1, "calibrate: ftruncate");
	}
	close(fd);
	gsl_sort(t, 1, pages);
	med = fmax(0, gsl_stats_median_from_sorted_data(t, 1, pages) - clock_ns);
	free(t);
	return med;
}

/* 4 KiB memset of a hot page: the zeroing a fault's clear_page does. */
static double time_clear(uint64_t n)
{
	char *a = aligned_alloc(PAGE_4K, PAGE_4K);
	double ns;

	ns = TIME_BLOCKS(n, i, {
		memset(a, (int)(i & 1), PAGE_4K);
		compiler_barrier();
	});
	free(a);
	return ns;
}

/*
 * The root memory cgroup's cgroup.procs, when this process runs in
 * another memcg and the controller's root is visible (the mount's root
 * is "/"): v1 "memory" hierarchy or v2.  false otherwise.
 */
static bool root_memcg_procs(char *out, size_t len)
{
	FILE *f = file_kernel_open("/proc/self/cgroup", "r");
	char line[1024], mine[512] = "";
	bool v2 = false, found = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		line[strcspn(line, "\n")] = '\0';
		*c2 = '\0';
		if (!strcmp(c1 + 1, "memory") || (strstr(c1 + 1, "memory") && strchr(c1 + 1, ','))) {
			snprintf(mine, sizeof(mine), "%s", c2 + 1);
			v2 = false;
			break;
		}
		if (!strcmp(line, "0") && !c1[1]) {
			snprintf(mine, sizeof(mine), "%s", c2 + 1);
			v2 = true;
		}
	}
	fclose(f);
	if (!*mine || !strcmp(mine, "/"))
		return false;
	if (!(f = file_kernel_open("/proc/self/mountinfo", "r")))
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char root[512], mnt[512], fstype[64], opts[512];
		char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %511s %511s", root, mnt) != 2 ||
		    sscanf(dash + 3, "%63s %*s %511s", fstype, opts) != 2)
			continue;
		if (strcmp(root, "/"))
			continue;
		if ((v2 && !strcmp(fstype, "cgroup2")) ||
		    (!v2 && !strcmp(fstype, "cgroup") && strstr(opts, "memory"))) {
			snprintf(out, len, "%s/cgroup.procs", mnt);
			found = access(out, W_OK) == 0;
		}
	}
	fclose(f);
	return found;
}

/* Runs the steady-state anonymous fault and the fallocate probe in a
 * child moved to the root memcg (where the kernel skips the page_counter
 * charge: try_charge() returns early for the root memcg, mm/memcontrol.c);
 * out[0..reps) faults, out[reps..2 reps) fallocates.  false when that
 * cannot be arranged (no memcg, already in the root, not permitted). */
static bool in_root_memcg(unsigned reps, double clock_ns, double *out)
{
	char procs[600];
	int fds[2], ws;
	pid_t pid;
	size_t want = 2 * reps * sizeof(double);
	ssize_t n;

	if (!root_memcg_procs(procs, sizeof(procs)) || pipe(fds))
		return false;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (pid == 0) {
		FILE *f = file_kernel_open(procs, "w");
		double insn, *v = xcalloc(2 * reps, sizeof(double));
		close(fds[0]);
		if (!f || fprintf(f, "0\n") < 0 || fclose(f))
			_exit(1);
		for (unsigned r = 0; r < reps; r++) {
			v[r] = time_faults(FAULT_ANON, FAULT_PAGES, clock_ns, &insn);
			v[reps + r] = time_falloc(FAULT_PAGES, clock_ns, &insn);
		}
		_exit(write(fds[1], v, want) == (ssize_t)want ? 0 : 1);
	}
	close(fds[1]);
	while ((n = read(fds[0], out, want)) < 0 && errno == EINTR)
		;
	close(fds[0]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	return n == (ssize_t)want && WIFEXITED(ws) && !WEXITSTATUS(ws);
}

/* The fault and syscall family: probes, instructions, components and
 * flags (calib.h). */
static void probe_faults(struct calib *c, const struct calib_opts *o)
{
	static const struct { const char *name; enum fault_kind k; } kinds[] = {
		{ "fault", FAULT_ANON }, { "fault.first", FAULT_FIRST },
		{ "fault.zero", FAULT_ZERO }, { "fault.wp", FAULT_WP },
		{ "fault.cow", FAULT_COW }, { "fault.shared", FAULT_SHARED },
		{ "fault.populate", FAULT_POPULATE },
	};
	size_t pages = (size_t)probe_scaled(o, FAULT_PAGES);
	double *v = xcalloc(2 * o->reps, sizeof(double)), *unmap = xcalloc(o->reps, sizeof(double));
	double clock_ns = clock_pair_ns(), insn = NAN;
	char key[96];

	if (pages < 64)
		pages = 64;
	calib_set_num(c, "clock.median_ns", clock_ns);
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (unsigned r = 0; r < o->reps; r++) {
			v[r] = time_faults(kinds[k].k, pages, clock_ns, &insn);
			unmap[r] = fault_unmap_ns;
		}
		record(c, kinds[k].name, v, o->reps, o->verbose);
		if (isfinite(insn)) {
			snprintf(key, sizeof(key), "%s.insn", kinds[k].name);
			calib_set_num(c, key, insn);
		}
		if (kinds[k].k == FAULT_FIRST)
			record(c, "unmap", unmap, o->reps, o->verbose);
	}
	for (unsigned r = 0; r < o->reps; r++)
		v[r] = time_falloc(pages, clock_ns, &insn);
	record(c, "syscall.falloc", v, o->reps, o->verbose);
	if (isfinite(insn))
		calib_set_num(c, "syscall.falloc.insn", insn);
	for (unsigned r = 0; r < o->reps; r++)
		v[r] = time_clear(probe_scaled(o, 20000));
	record(c, "clear", v, o->reps, o->verbose);
	if (in_root_memcg(o->reps, clock_ns, v)) {
		record(c, "fault.root", v, o->reps, o->verbose);
		record(c, "syscall.falloc.root", v + o->reps, o->reps, o->verbose);
	} else if (o->verbose) {
		fprintf(stderr, "calibrate: fault.root, syscall.falloc.root: not measured "
			"(not in a memcg below a reachable root, or not permitted)\n");
	}
	free(v);
	free(unmap);
}

/* The fault and syscall components, from differences of the probes'
 * least disturbed repetitions (calib_best; a difference below zero is
 * noise and is written as 0); each says what it isolates in calib.h. */
static void derive_parts(struct calib *c)
{
	static const struct { const char *part, *a, *b, *b2; } parts[] = {
		{ "part.fault_trap_ns", "fault", "fault.populate", NULL },
		{ "part.fault_page_ns", "fault", "fault.zero", NULL },
		{ "part.fault_zeroing_ns", "clear", NULL, NULL },
		{ "part.fault_alloc_charge_rmap_lru_ns", "fault", "fault.zero", "clear" },
		{ "part.fault_charge_ns", "fault", "fault.root", NULL },
		{ "part.fault_copy_vs_zero_ns", "fault.cow", "fault", NULL },
		{ "part.fault_file_map_ns", "fault.shared", "fault.zero", NULL },
		{ "part.fault_wp_extra_ns", "fault.wp", "fault", NULL },
		{ "part.fault_first_touch_ns", "fault.first", "fault", NULL },
		{ "part.syscall_entry_exit_ns", "syscall", NULL, NULL },
		{ "part.syscall_shmem_page_ns", "syscall.falloc", "syscall", NULL },
		{ "part.syscall_charge_ns", "syscall.falloc", "syscall.falloc.root", NULL },
	};
	double f = calib_best(c, "fault"), first = calib_best(c, "fault.first");

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		double v = calib_best(c, parts[i].a);
		if (parts[i].b)
			v -= calib_best(c, parts[i].b);
		if (parts[i].b2)
			v -= calib_best(c, parts[i].b2);
		if (!isfinite(v))
			continue;
		calib_set_num(c, parts[i].part, fmax(0, v));
		if (v < 0) {
			/* The "larger" side measured faster: the component is
			 * below this machine's noise; say by how much. */
			char key[128];
			snprintf(key, sizeof(key), "%.*s_below_noise_ns",
				 (int)(strlen(parts[i].part) - 3), parts[i].part);
			calib_set_num(c, key, -v);
		}
	}
	/* First touch much slower than the re-fault: the host backing guest
	 * memory (meta.hypervisor) or fresh page tables, not the kernel's
	 * steady-state fault; predict uses the re-fault and says so. */
	if (f > 0 && first > FIRST_TOUCH_BOUND * f)
		calib_set_num(c, "fault.first.inflated", first / f);
}

/* getppid round trips in short blocks, the fastest block per call
 * (TIME_BLOCKS): a loop's wall time on a loaded machine includes the
 * other tasks' time slices, a short block rarely does.  Format 2 took
 * the median of calls timed one by one, net of the clock: its figures
 * moved in the clock's steps (150, 170, 210, 231 ns on the development
 * VM), 10-15% of a call. */
static double time_syscall_blocks(uint64_t n)
{
	return TIME_BLOCKS(n, i, syscall(SYS_getppid));
}

static double time_syscall(uint64_t n)
{
	uint64_t t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (double)(now_ns() - t0) / (double)n;
}

static double time_lock_alone(const struct lock_ops *ops, void *lk, void *ctx,
			      uint64_t n)
{
	uint64_t t0 = now_ns();
	for (uint64_t i = 0; i < n; i++) {
		ops->lock(lk, ctx);
		ops->unlock(lk, ctx);
	}
	return (double)(now_ns() - t0) / (double)n;
}

static void probe_locks(struct calib *c, const struct calib_opts *o,
			struct pair_line *line)
{
	const struct lock_ops **v;
	size_t n = lock_all(&v);
	double *u = xcalloc(o->reps, sizeof(double)), *h = xcalloc(o->reps, sizeof(double));

	for (size_t i = 0; i < n; i++) {
		struct arena *a;
		char name[96];
		struct pair p = { .kind = PAIR_LOCK, .line = line, .lock = v[i] };

		if (v[i]->flags & (LOCK_F_BROKEN | LOCK_F_UNSAFE))
			continue;
		a = arena_create((size_t)64 << 20);
		p.lk = lock_new(v[i], a, 2);
		p.ctx[0] = lock_ctx_new(v[i], a, p.lk, 0);
		p.ctx[1] = lock_ctx_new(v[i], a, p.lk, 1);
		for (unsigned r = 0; r < o->reps; r++) {
			u[r] = time_lock_alone(v[i], p.lk, p.ctx[0], probe_scaled(o, 200000));
			p.iters = probe_scaled(o, 20000);
			h[r] = run_pair(&p);
		}
		snprintf(name, sizeof(name), "lock.%s.uncontended", v[i]->name);
		record(c, name, u, o->reps, o->verbose);
		snprintf(name, sizeof(name), "lock.%s.pair", v[i]->name);
		record(c, name, h, o->reps, o->verbose);
		if (v[i]->destroy)
			v[i]->destroy(p.lk);
		arena_destroy(a);
	}
	free(u);
	free(h);
}

static void probe_workloads(struct calib *c, const struct calib_opts *o)
{
	double *v = xcalloc(o->reps, sizeof(double));
	const char *wname;

	for (size_t i = 0; (wname = memcg_sim_workload_at(i)); i++) {
		const struct workload *wl = workload_find(wname);
		struct harness_opts ho;
		long one = 1;
		char name[96];
		unsigned ok = 0;

		if (!wl)
			continue;
		harness_defaults(&ho);
		ho.wl = wl;
		ho.lock = lock_find("qspinlock");
		if (!ho.lock)
			ho.lock = lock_find("pthread_mutex");
		ho.counter = counter_find("percpu_batch"); /* run's default */
		ho.knobs = knobset_new();
		ho.threads = &one;
		ho.nthreads = 1;
		ho.seconds = o->wl_seconds;
		ho.warmup = 1;
		ho.sample_ms = (unsigned)(o->wl_seconds * 1000 / 3) + 1;
		ho.arena_size = (size_t)4 << 30;
		/* Fewer repetitions: each is a whole harness run. */
		for (unsigned r = 0; r < (o->reps + 1) / 2; r++) {
			struct result res;
			memset(&res, 0, sizeof(res));
			if (harness_run_one(&ho, 1, r, &res) == 0 && res.ops_per_sec > 0)
				v[ok++] = 1e9 / res.ops_per_sec;
			result_free(&res);
		}
		knobset_free(ho.knobs);
		if (!ok)
			continue;
		snprintf(name, sizeof(name), "wl.%s", wname);
		record(c, name, v, ok, o->verbose);
	}
	free(v);
}

/* The machine and build description (core/meta.h) as meta.KEY lines. */
static void set_meta(struct calib *c, size_t (*facts)(struct meta_fact *))
{
	struct meta_fact f[META_FACTS_MAX];
	size_t n = facts(f);

	for (size_t i = 0; i < n; i++) {
		char key[64];

		snprintf(key, sizeof(key), "meta.%s", f[i].key);
		if (f[i].text)
			calib_set(c, key, f[i].text);
		else
			calib_set_num(c, key, (double)f[i].num);
	}
}

/*
 * One step of the per-memcg threshold's ancestor walk, measured: the
 * cost per stat update (__mod_memcg_lruvec_state + memcg_rstat_updated)
 * of a leaf at depth 5 minus that at depth 1, over 4 extra levels.
 * Between updates the worker's kernel footprint (models/kwork.h) is
 * walked once, so the walk finds its lines where the kernel's other work
 * per operation leaves them (out of L1), not in a hot loop's L1.  Only
 * the update is timed: the footprint walk (KWORK_LINES dependent loads,
 * microseconds) stays outside the clock, so the 4 levels' difference is
 * a difference of two short intervals, not under 1 % of a block that
 * holds both (format 3 did that: walk.permemcg medians of one VM
 * 5.5-10.6 ns in calibrations minutes apart).  The clock reads are
 * ordered (the vDSO's rdtsc is fenced), so the update's dependent loads
 * cannot overlap the footprint walk before it: the level is priced as
 * the latency of its chain (an assumption: that a level under the LRU
 * lock does not overlap the folio work around it; not measured).  The
 * two models run in alternating blocks of WALK_BLOCK updates and each
 * keeps its fastest block: on a shared machine a block can only be
 * slowed down (preemption, a busy sibling), and the minima of many
 * short interleaved blocks leave that out.  ns per level.
 */
#define WALK_BLOCK 32

struct walk_model {
	struct arena *a;
	struct model *m;
	struct model_worker *mw;
};

static void walk_model_new(struct walk_model *w, const struct stats_design *v,
			   unsigned depth)
{
	const struct lock_ops *lock = lock_find("qspinlock");
	struct model_params p;

	model_params_default(&p);
	p.stats = v;
	p.depth = depth;
	p.page_work = PAGE_WORK_KERNEL;
	w->a = arena_create((size_t)64 << 20);
	w->m = model_setup(w->a, &p, lock ? lock : lock_find("pthread_mutex"), 1, 64);
	w->mw = model_worker(w->m, 0);
	model_worker_populate(w->m, 0);
}

static double walk_block(struct walk_model *w, uint64_t *k)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < WALK_BLOCK; i++, (*k)++) {
		uint64_t t0;

		kwork_spend(&w->mw->kw, KWORK_LINES);
		t0 = now_ns();
		model_mod_lruvec_state(w->mw, w->mw->memcg, 0, NR_ANON_MAPPED,
				       (*k & 1) ? -1 : 1);
		sum += now_ns() - t0;
	}
	return (double)sum / WALK_BLOCK;
}

static double walk_step_once(const struct stats_design *v, unsigned blocks)
{
	struct walk_model d1, d5;
	double b1 = INFINITY, b5 = INFINITY;
	uint64_t k1 = 0, k5 = 0;

	walk_model_new(&d1, v, 1);
	walk_model_new(&d5, v, 5);
	for (unsigned b = 0; b < blocks; b++) {
		b1 = fmin(b1, walk_block(&d1, &k1));
		b5 = fmin(b5, walk_block(&d5, &k5));
	}
	arena_destroy(d1.a);
	arena_destroy(d5.a);
	return fmax(0, (b5 - b1) / 4);
}

static void probe_walk(struct calib *c, const struct calib_opts *o)
{
	/* every stats design with a walk probe (models/stats/), by name */
	const struct stats_design **d;
	size_t n = stats_design_all(&d);
	double *v = xcalloc(o->reps, sizeof(double));

	for (size_t k = 0; k < n; k++) {
		if (!d[k]->probe)
			continue;
		for (unsigned r = 0; r < o->reps; r++)
			v[r] = walk_step_once(d[k], (unsigned)probe_scaled(o, 400));
		record(c, d[k]->probe, v, o->reps, o->verbose);
	}
	free(v);
}

double calib_probe_best(const char *probe, unsigned reps)
{
	double best = NAN, insn;

	for (unsigned r = 0; r < (reps ? reps : 1); r++) {
		double v;
		if (!strcmp(probe, "fault"))
			v = time_faults(FAULT_ANON, FAULT_PAGES, clock_pair_ns(), &insn);
		else if (!strcmp(probe, "syscall"))
			v = time_syscall_blocks(20000);
		else if (!strcmp(probe, "page"))
			v = time_page_copy(20000);
		else
			return NAN;
		if (isnan(best) || v < best)
			best = v;
	}
	return best;
}

/* /proc/loadavg's 1, 5 and 15 minute figures: how busy the machine was
 * (a shared machine's probes are slowed by the others' work). */
static void set_loadavg(struct calib *c, const char *key)
{
	FILE *f = file_kernel_open("/proc/loadavg", "r");
	double a, b, d;

	if (f && fscanf(f, "%lf %lf %lf", &a, &b, &d) == 3) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.2f %.2f %.2f", a, b, d);
		calib_set(c, key, buf);
	}
	if (f)
		fclose(f);
}

/*
 * The single-thread probes, one repetition of each per round.  Their
 * rounds are spread over the whole calibration (SINGLE_POINTS places
 * between the other probes), not run back to back: all seven took under
 * a second, so a host disturbance of a few seconds (another tenant on
 * this vCPU's physical core) slowed every repetition alike, and the least
 * disturbed one that predict reads was disturbed too.  On the 2-vCPU VM a
 * calibration of 2026-12-02 measured getppid at 193.7-199.4 ns in all
 * seven, where three others found 162.9 ns.
 */
#define SINGLE_POINTS 6

static const struct { const char *name; int which; uint64_t n; } single[] = {
	{ "atomic.uncontended", 0, 2000000 }, { "hit", 1, 2000000 },
	{ "miss", 2, 200000 }, { "percpu", 3, 2000000 },
	{ "list", 4, 2000000 }, { "page", 5, 20000 },
	{ "syscall", 7, 20000 },
};

struct single_rounds {
	double *v;              /* ARRAY_SIZE(single) x reps */
	unsigned done;          /* rounds run */
	double total, steal;    /* CPU jiffies over the rounds */
};

/* Point `point` of SINGLE_POINTS: run the rounds that fall before it. */
static void single_rounds_at(struct single_rounds *sr, const struct calib_opts *o,
			     struct pair_line *line, unsigned point)
{
	unsigned upto = (unsigned)((uint64_t)o->reps * (point + 1) / SINGLE_POINTS);
	double t0, s0, t1, s1;
	bool jiffies;

	if (sr->done >= upto)
		return;
	jiffies = cpu_jiffies(&t0, &s0);
	for (; sr->done < upto; sr->done++) {
		unsigned r = sr->done;
		for (size_t k = 0; k < ARRAY_SIZE(single); k++) {
			uint64_t n = probe_scaled(o, single[k].n);
			double *v = &sr->v[k * o->reps + r];
			switch (single[k].which) {
			case 0: *v = time_atomic(n, &line[1]); break;
			case 1: *v = time_chase(n, 4096); break;
			case 2: *v = time_chase(n, (size_t)64 << 20); break;
			case 3: *v = time_percpu(n, &line[1]); break;
			case 4: *v = time_list(n); break;
			case 5: *v = time_page_copy(n); break;
			default: *v = time_syscall_blocks(n); break;
			}
		}
	}
	if (jiffies && cpu_jiffies(&t1, &s1) && t1 >= t0) {
		sr->total += t1 - t0;
		sr->steal += s1 - s0;
	}
	/* The rounds' steal is theirs (sr): restart record()'s window, so the
	 * next probe's steal_pct covers that probe alone. */
	steal_since_last();
}

static void single_record(struct calib *c, const struct calib_opts *o,
			  const struct single_rounds *sr)
{
	double steal = sr->total > 0 ? 100 * sr->steal / sr->total : NAN, insn;

	for (size_t k = 0; k < ARRAY_SIZE(single); k++) {
		record_steal(c, single[k].name, &sr->v[k * o->reps], o->reps, o->verbose,
			     steal);
		if (single[k].which == 7) {
			/* Instructions: one more loop, counted. */
			uint64_t n = probe_scaled(o, 10 * single[k].n);
			insn_start();
			time_syscall(n);
			insn = insn_stop() / (double)n;
			if (isfinite(insn))
				calib_set_num(c, "syscall.insn", insn);
		}
	}
}

void calib_measure(struct calib *c, const struct calib_opts *o)
{
	struct pair_line *line = aligned_alloc(PAD_SIZE, sizeof(*line) * 2);
	struct single_rounds sr = {
		.v = xcalloc(ARRAY_SIZE(single) * (size_t)o->reps, sizeof(double)),
	};
	double total0 = 0, steal0 = 0, total1 = 0, steal1 = 0;

	memset(c, 0, sizeof(*c));
	memset(line, 0, sizeof(*line) * 2);
	calib_set(c, "format", CALIB_FORMAT);
	set_meta(c, meta_machine);
	set_meta(c, meta_build);
	calib_set(c, "meta.time", meta_now_iso());
	calib_set_num(c, "meta.reps", o->reps);
	calib_set(c, "meta.single_reps", "spread over the calibration");
	set_loadavg(c, "meta.loadavg_start");
	steal_since_last();
	cpu_jiffies(&total0, &steal0);
	insn_open();
	calib_set(c, "meta.instructions", insn_how);

	single_rounds_at(&sr, o, line, 0);
	probe_pairs(c, o, line);
	single_rounds_at(&sr, o, line, 1);
	probe_faults(c, o);
	single_rounds_at(&sr, o, line, 2);
	probe_walk(c, o);
	single_rounds_at(&sr, o, line, 3);
	if (o->locks)
		probe_locks(c, o, line);
	single_rounds_at(&sr, o, line, 4);
	if (o->workloads)
		probe_workloads(c, o);
	single_rounds_at(&sr, o, line, 5);
	single_record(c, o, &sr);
	/* the fault and syscall components subtract single probes (clear,
	 * syscall): after every round */
	derive_parts(c);
	set_loadavg(c, "meta.loadavg_end");
	if (cpu_jiffies(&total1, &steal1) && total1 > total0)
		calib_set_num(c, "steal_pct", 100 * (steal1 - steal0) / (total1 - total0));
	free(sr.v);
	free(line);
}

