/*
 * calib_probe_kernel.c - the kernel family of the calibration probes
 * (calib_probe.c runs them): page faults of each kind, shmem fallocate,
 * page clearing, the faults outside any memcg, syscall round trips, the
 * instruction counter (perf_event_open), and the fault and syscall
 * components derived from their differences.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
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

#include "core/procstat.h"
#include "core/util.h"
#include "harness/calib_probe.h"
#include "harness/calib_probe_int.h"

/* ---- instructions per operation (perf_event_open) ---- */

static int insn_fd = -2; /* -2: not tried yet; -1: unavailable */
static char insn_how[160];

const char *calib_insn_how(void)
{
	return insn_how;
}

/* A hardware instruction counter on this thread, user and kernel (the
 * fault and syscall probes are mostly kernel instructions); user only
 * where the kernel's are not permitted, said so in insn_how. */
bool calib_insn_open(void)
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

void calib_insn_start(void)
{
	if (insn_fd >= 0) {
		ioctl(insn_fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(insn_fd, PERF_EVENT_IOC_ENABLE, 0);
	}
}

/* Instructions since calib_insn_start(); NAN where unavailable. */
double calib_insn_stop(void)
{
	uint64_t v;

	if (insn_fd < 0)
		return NAN;
	ioctl(insn_fd, PERF_EVENT_IOC_DISABLE, 0);
	return read(insn_fd, &v, sizeof(v)) == (ssize_t)sizeof(v) ? (double)v : NAN;
}

/* Cost of one now_ns() pair, the floor of an individually timed touch:
 * median of back-to-back readings (subtracted from the fault probes). */
double calib_clock_pair_ns(void)
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
double calib_time_faults(enum fault_kind k, size_t pages, double clock_ns, double *insn)
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
				calib_insn_start();
			t0 = now_ns();
			p = map_region(k, len, &fd);
			t[0] = (double)(now_ns() - t0) / (double)pages;
			if (pass)
				*insn = calib_insn_stop() / (double)pages;
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
		calib_insn_start();
		for (size_t i = 0; i < pages; i++)
			touch(k, p + i * PAGE_4K);
		*insn = calib_insn_stop() / (double)pages;
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
			calib_insn_start();
		for (size_t i = 0; i < pages; i++) {
			uint64_t t0 = now_ns();
			if (fallocate(fd, 0, (off_t)(i * PAGE_4K), PAGE_4K))
				die_errno(1, "calibrate: fallocate");
			if (round == 1)
				t[i] = (double)(now_ns() - t0);
		}
		if (round == 2)
			*insn = calib_insn_stop() / (double)pages; /* includes the clock reads */
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
			v[r] = calib_time_faults(FAULT_ANON, FAULT_PAGES, clock_ns, &insn);
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
void calib_probe_faults(struct calib *c, const struct calib_opts *o)
{
	static const struct { const char *name; enum fault_kind k; } kinds[] = {
		{ "fault", FAULT_ANON }, { "fault.first", FAULT_FIRST },
		{ "fault.zero", FAULT_ZERO }, { "fault.wp", FAULT_WP },
		{ "fault.cow", FAULT_COW }, { "fault.shared", FAULT_SHARED },
		{ "fault.populate", FAULT_POPULATE },
	};
	size_t pages = (size_t)calib_probe_scaled(o, FAULT_PAGES);
	double *v = xcalloc(2 * o->reps, sizeof(double)), *unmap = xcalloc(o->reps, sizeof(double));
	double clock_ns = calib_clock_pair_ns(), insn = NAN;
	char key[96];

	if (pages < 64)
		pages = 64;
	calib_set_num(c, "clock.median_ns", clock_ns);
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		for (unsigned r = 0; r < o->reps; r++) {
			v[r] = calib_time_faults(kinds[k].k, pages, clock_ns, &insn);
			unmap[r] = fault_unmap_ns;
		}
		calib_record(c, kinds[k].name, v, o->reps, o->verbose);
		if (isfinite(insn)) {
			snprintf(key, sizeof(key), "%s.insn", kinds[k].name);
			calib_set_num(c, key, insn);
		}
		if (kinds[k].k == FAULT_FIRST)
			calib_record(c, "unmap", unmap, o->reps, o->verbose);
	}
	for (unsigned r = 0; r < o->reps; r++)
		v[r] = time_falloc(pages, clock_ns, &insn);
	calib_record(c, "syscall.falloc", v, o->reps, o->verbose);
	if (isfinite(insn))
		calib_set_num(c, "syscall.falloc.insn", insn);
	for (unsigned r = 0; r < o->reps; r++)
		v[r] = time_clear(calib_probe_scaled(o, 20000));
	calib_record(c, "clear", v, o->reps, o->verbose);
	if (in_root_memcg(o->reps, clock_ns, v)) {
		calib_record(c, "fault.root", v, o->reps, o->verbose);
		calib_record(c, "syscall.falloc.root", v + o->reps, o->reps, o->verbose);
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
void calib_derive_parts(struct calib *c)
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
double calib_time_syscall_blocks(uint64_t n)
{
	return TIME_BLOCKS(n, i, syscall(SYS_getppid));
}

double calib_time_syscall(uint64_t n)
{
	uint64_t t0 = now_ns();
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (double)(now_ns() - t0) / (double)n;
}
