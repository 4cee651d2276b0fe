/*
 * kbackend.c - shared code of the kernel backend (see kbackend.h).
 *
 * Follows will-it-scale (antonblanchard/will-it-scale, tests/<name>.c) for the
 * loops and Shakeel Butt's memcg set-up for fefc6e6631ff ("3-level memcg,
 * tmpfs /tmp"): workers run inside a chain of `depth` memcgs, files live
 * on tmpfs.  Placement: process mode puts worker i into leaf i % containers
 * (each worker is its own mm, so its charges land there); thread mode
 * moves the whole process into the single leaf, because memcg charges and
 * PGFAULT events follow mm->owner, not the faulting thread, and v2's
 * threaded cgroups cannot host the memory controller.
 */
#include "workloads/kernel/kbackend.h"
#include "workloads/kernel/cgroup.h"
#include "workloads/kernel/kobserve.h"
#include "core/json.h"
#include "core/meta.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

static const struct knob_value kmemcg_values[] = {
	{ "on", "workers run in memcgs created for the run" },
	{ "off", "workers stay in memscale's own cgroup (--no-memcg)" },
	{ NULL },
};
static const struct knob knob_kmemcg = {
	.name = "kmemcg", .owner = "kernel backend", .type = KNOB_ENUM,
	.def = "on", .values = kmemcg_values,
	.help = "create a memcg hierarchy for kernel-backend runs",
};
static const struct knob knob_ktmpdir = {
	.name = "ktmpdir", .owner = "kernel backend", .type = KNOB_STR,
	.def = "auto",
	.help = "directory for will-it-scale's /tmp files; auto: a private "
		"tmpfs mounted for the run (/dev/shm if mounting fails)",
};
static const struct knob knob_ksize = {
	.name = "ksize_mb", .owner = "kernel backend", .type = KNOB_INT,
	.def = "128", .min = 1, .max = 65536,
	.help = "MB mapped per iteration by page_fault1/2/3 and malloc1, and "
		"per worker by lru_shm (will-it-scale: 128; malloc1 needs > 32 "
		"or glibc's dynamic mmap threshold moves it onto the heap)",
};
REGISTER(knob, knob_kmemcg);
REGISTER(knob, knob_ktmpdir);
REGISTER(knob, knob_ksize);

/*
 * Run-level state.  Written by setup in the parent before any worker is
 * created, read-only afterwards; forked workers get their copy with fork.
 */
static struct {
	const struct kwl *k;
	bool memcg;
	bool mounted;       /* dir is a tmpfs we mounted (and must unmount) */
	bool tmpfs;
	pid_t owner;
	size_t size;
	char dir[256];
	struct cg_hier hier;
	struct cg_stat before;
} kb;

static const struct kwl *kwl_of(const struct workload *wl)
{
	return (const struct kwl *)wl; /* wl is kwl's first member */
}

/* THP mode: "always", "madvise" or "never" (the bracketed word). */
static const char *sysfs_choice(const char *path, char *buf, size_t len)
{
	FILE *f = file_kernel_open(path, "r");
	char line[256], *a, *b;

	snprintf(buf, len, "unknown");
	if (!f)
		return buf;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) &&
	    (b = strchr(a, ']'))) {
		*b = 0;
		snprintf(buf, len, "%s", a + 1);
	}
	fclose(f);
	return buf;
}

static const char *thp_mode(void)
{
	static char buf[32];
	return sysfs_choice("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
}

/* Could an anonymous fault map more than one base page (THP or mTHP)? */
static bool anon_large_folios(void)
{
	bool top_always = !strcmp(thp_mode(), "always");
	glob_t g;
	bool any = false;

	if (glob("/sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled", 0,
		 NULL, &g))
		return top_always;
	for (size_t i = 0; i < g.gl_pathc && !any; i++) {
		char buf[32];
		sysfs_choice(g.gl_pathv[i], buf, sizeof(buf));
		any = !strcmp(buf, "always") || (!strcmp(buf, "inherit") && top_always);
	}
	globfree(&g);
	return any;
}

static bool is_tmpfs(const char *dir)
{
	struct statfs sf;
	return !statfs(dir, &sf) && sf.f_type == TMPFS_MAGIC;
}

static void unmount_dir(void)
{
	if (!kb.mounted || kb.owner != getpid())
		return;
	if (umount2(kb.dir, MNT_DETACH))
		warnx_("warning: cannot unmount '%s': %s", kb.dir, strerror(errno));
	else if (rmdir(kb.dir))
		warnx_("warning: cannot remove '%s': %s", kb.dir, strerror(errno));
	kb.mounted = false;
}

/* Unmounts private tmpfs mounts left by memscale runs that were killed. */
static void sweep_stale_mounts(void)
{
	char dev[64], mnt[512], type[64], line[1024];
	FILE *f = file_kernel_open("/proc/mounts", "r");
	int pid;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %511s %63s", dev, mnt, type) != 3 ||
		    strcmp(type, "tmpfs") ||
		    sscanf(mnt, "/tmp/memscale-tmpfs.%d.", &pid) != 1 || pid <= 0 ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		if (!umount2(mnt, MNT_DETACH))
			rmdir(mnt);
	}
	if (f)
		fclose(f);
}

/* Picks (and where asked, mounts) the directory for the workload's files. */
static int choose_dir(struct run *r)
{
	static bool atexit_done;
	const char *want;
	struct stat sb;

	kb.dir[0] = 0;
	kb.tmpfs = false;
	if (kb.k->dir == KWL_DIR_NONE)
		return 0;
	want = kb.k->dir == KWL_DIR_TMP ? knob_str(r->knobs, &knob_ktmpdir) : "";
	if (kb.k->dir == KWL_DIR_DEV_SHM) {
		snprintf(kb.dir, sizeof(kb.dir), "/dev/shm");
	} else if (strcmp(want, "auto")) {
		if (stat(want, &sb) || !S_ISDIR(sb.st_mode) || access(want, W_OK)) {
			fprintf(stderr, "memscale: bad value '%s' for knob 'ktmpdir' "
				"(want a writable directory, or auto)\n", want);
			return EXIT_USAGE;
		}
		snprintf(kb.dir, sizeof(kb.dir), "%s", want);
	} else {
		/* will-it-scale writes to /tmp; Shakeel ran with /tmp on tmpfs.
		 * A tmpfs of our own gives that on any machine. */
		sweep_stale_mounts();
		snprintf(kb.dir, sizeof(kb.dir), "/tmp/memscale-tmpfs.%d.XXXXXX", (int)getpid());
		if (mkdtemp(kb.dir) && !mount("tmpfs", kb.dir, "tmpfs",
					      MS_NOSUID | MS_NODEV, "mode=0700")) {
			kb.mounted = true;
			if (!atexit_done) {
				atexit(unmount_dir);
				atexit_done = true;
			}
		} else {
			static bool warned;
			int e = errno;
			if (kb.dir[0] && strstr(kb.dir, "XXXXXX") == NULL)
				rmdir(kb.dir);
			if (!warned)
				warnx_("note: cannot mount a tmpfs (%s); using /dev/shm",
				       strerror(e));
			warned = true;
			snprintf(kb.dir, sizeof(kb.dir), "/dev/shm");
		}
	}
	kb.tmpfs = is_tmpfs(kb.dir);
	return 0;
}

/*
 * The hierarchy shape uses the models' knobs `depth` and `containers`
 * (models/knobs.c: levels below the root, leaves at the bottom level), so
 * model and kernel runs of one configuration carry the same columns.
 * Without the models linked in, fefc6e6631ff's shape: 3 levels, 1 leaf.
 */
static long hier_param(struct knobset *ks, const char *name, long dflt)
{
	const struct knob *k = knob_find(name);

	return k && k->type == KNOB_INT ? knob_int(ks, k) : dflt;
}

static void leaves_stat(struct cg_stat *st)
{
	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < kb.hier.nleaves; i++)
		cg_stat_add(kb.hier.leaf[i], st);
}

void kb_read_knobs(const struct workload *wl, struct knobset *ks)
{
	const struct kwl *k = kwl_of(wl);

	if (k->flags & KWL_F_SIZED)
		knob_int(ks, &knob_ksize);
	knob_str(ks, &knob_kmemcg);
	hier_param(ks, "depth", 3);
	hier_param(ks, "containers", 1);
	if (k->dir == KWL_DIR_TMP)
		knob_str(ks, &knob_ktmpdir);
	kobs_read_knobs(ks);
}

int kb_setup(struct run *r)
{
	const char *name = r->wl->name;
	long depth, containers;
	char err[CG_PATH_MAX + 256];
	int e;

	kb.k = kwl_of(r->wl);
	kb.owner = getpid();
	kb.size = (kb.k->flags & KWL_F_SIZED) ?
		  (size_t)knob_int(r->knobs, &knob_ksize) << 20 : 0;
	kb.memcg = knob_enum_is(r->knobs, &knob_kmemcg, "on");
	depth = hier_param(r->knobs, "depth", 3);
	containers = hier_param(r->knobs, "containers", 1);
	if ((r->wl->flags & WL_F_PROCESSES_ONLY) && r->mode == MODE_THREADS) {
		fprintf(stderr, "memscale: %s: brk() moves the one program break "
			"of a process, so thread-mode workers would free each "
			"other's pages (AIM9 runs copies as processes); use "
			"--mode processes\n", name);
		return EXIT_USAGE;
	}
	if (kb.memcg && r->mode == MODE_THREADS && containers > 1) {
		fprintf(stderr, "memscale: %s: containers=%ld needs --mode "
			"processes (threads share one mm, whose memcg charges go "
			"to one cgroup)\n", name, containers);
		return EXIT_USAGE;
	}
	if (depth < 0 || depth > CG_MAX_DEPTH || containers < 1 ||
	    containers > CG_MAX_LEAVES || (depth == 0 && containers > 1)) {
		fprintf(stderr, "memscale: %s: depth=%ld containers=%ld cannot be "
			"built as memory cgroups (allowed: depth 0..%d, containers "
			"1..%d, and 1 container at depth 0)\n", name, depth,
			containers, CG_MAX_DEPTH, CG_MAX_LEAVES);
		return EXIT_USAGE;
	}
	if ((e = choose_dir(r)))
		return e;
	if (kb.memcg) {
		if (cg_detect(&kb.hier, err, sizeof(err)) ||
		    cg_create(&kb.hier, (unsigned)depth, (unsigned)containers,
			      err, sizeof(err))) {
			fprintf(stderr, "memscale: %s: %s\n", name, err);
			unmount_dir();
			return EXIT_USAGE;
		}
		if (r->mode == MODE_THREADS &&
		    (e = cg_attach(&kb.hier, 0, getpid()))) {
			fprintf(stderr, "memscale: %s: cannot move memscale into "
				"'%s': %s\n", name, kb.hier.leaf[0], strerror(-e));
			cg_destroy(&kb.hier);
			unmount_dir();
			return EXIT_USAGE;
		}
		leaves_stat(&kb.before);
	}
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct kb_worker *kw = arena_alloc_padded(r->arena, sizeof(*kw));
		kw->fd = -1;
		r->workers[i].priv = kw;
	}
	kobs_begin(r->knobs, kb.memcg ? &kb.before : NULL);
	return 0;
}

static uint64_t thread_minflt(uint64_t *maj)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	if (maj)
		*maj = (uint64_t)ru.ru_majflt;
	return (uint64_t)ru.ru_minflt;
}

void kb_worker_init(struct worker *w)
{
	struct kb_worker *kw = w->priv;
	int e = 0;

	if (kb.memcg && w->run->mode == MODE_PROCESSES)
		e = cg_attach(&kb.hier, w->id, getpid());
	if (!e && kb.k->prepare)
		e = kb.k->prepare(w, kw, kb.dir);
	kw->err = e;
	kw->minflt0 = thread_minflt(&kw->majflt);
}

void kb_run(struct worker *w)
{
	struct kb_worker *kw = w->priv;
	uint64_t maj0 = kw->majflt;

	if (kw->err) {
		/* Nothing to measure; wait for the stop like everyone else. */
		while (!worker_should_stop(w))
			usleep(1000);
		return;
	}
	kb.k->loop(w, kw);
	kw->minflt = thread_minflt(&kw->majflt) - kw->minflt0;
	kw->majflt -= maj0;
}

static double per_op(long long a, long long b, uint64_t ops)
{
	if (a < 0 || b < 0 || !ops)
		return NAN;
	return (double)(b - a) / (double)ops;
}

static double pages_delta(const struct cg_stat *b, const struct cg_stat *a,
			  const char *n1, const char *n2)
{
	long long x1 = cg_stat_get(b, n1), x2 = cg_stat_get(b, n2);
	long long y1 = cg_stat_get(a, n1), y2 = cg_stat_get(a, n2);

	if (x1 < 0 || x2 < 0 || y1 < 0 || y2 < 0)
		return NAN;
	return (double)((y1 + y2) - (x1 + x2)) / (double)sysconf(_SC_PAGESIZE);
}

int kb_finish(struct run *r, struct result *res)
{
	uint64_t ops = 0, minflt = 0, majflt = 0;
	double pgfault = NAN, pgpgin = NAN, pgpgout = NAN, lru_anon = NAN, lru_file = NAN;
	bool large = kb.k->dir == KWL_DIR_NONE && anon_large_folios();

	for (unsigned i = 0; i < r->nworkers; i++) {
		const struct kb_worker *kw = r->workers[i].priv;
		if (kw->err) {
			fprintf(stderr, "memscale: %s: worker %u failed: %s\n",
				r->wl->name, i, strerror(-kw->err));
			return 1;
		}
		ops += r->workers[i].ops;
		minflt += kw->minflt;
		majflt += kw->majflt;
	}
	if (kb.memcg) {
		struct cg_stat after;
		leaves_stat(&after);
		kobs_end(r->nworkers, r->rep, ops, &after);
		pgfault = per_op(cg_stat_get(&kb.before, "pgfault"),
				 cg_stat_get(&after, "pgfault"), ops);
		pgpgin = per_op(cg_stat_get(&kb.before, "pgpgin"),
				cg_stat_get(&after, "pgpgin"), ops);
		pgpgout = per_op(cg_stat_get(&kb.before, "pgpgout"),
				 cg_stat_get(&after, "pgpgout"), ops);
		/* v1 and v2 both name the LRU lists the same, in bytes. */
		lru_anon = pages_delta(&kb.before, &after, "inactive_anon", "active_anon");
		lru_file = pages_delta(&kb.before, &after, "inactive_file", "active_file");
	} else {
		kobs_end(r->nworkers, r->rep, ops, NULL);
	}
	/* Same columns whatever the run could measure (NaN where it could not),
	 * so rows of one workload always share a CSV header. */
	/* Named like the models' column: on v1, PGPGIN counts charged pages
	 * (memcg1_charge_statistics), i.e. charges of 4 KB folios. */
	result_metric(res, "charges_per_op", pgpgin);
	result_metric(res, "k_ops_run", (double)ops);
	result_metric(res, "k_minflt_per_op", ops ? (double)minflt / (double)ops : NAN);
	result_metric(res, "k_majflt", (double)majflt);
	result_metric(res, "k_faults_expected",
		      large ? NAN : wl_spec_faults_per_kop(kb.k->spec));
	result_metric(res, "k_pgfault_per_op", pgfault);
	result_metric(res, "k_pgpgin_per_op", pgpgin);
	result_metric(res, "k_pgpgout_per_op", pgpgout);
	result_metric(res, "k_lru_anon_delta", lru_anon);
	result_metric(res, "k_lru_file_delta", lru_file);
	result_metric(res, "k_cgroup_version", kb.memcg ? kb.hier.version : 0);
	result_metric(res, "k_memcg_level",
		      kb.memcg ? cg_abs_depth(&kb.hier, kb.hier.leaf[0]) : 0);
	result_metric(res, "k_tmpfs", kb.dir[0] ? kb.tmpfs : NAN);
	return 0;
}

void kb_teardown(struct run *r)
{
	if (r->mode == MODE_THREADS) {
		/* Process-mode workers' files and mappings died with them. */
		for (unsigned i = 0; i < r->nworkers; i++) {
			struct kb_worker *kw = r->workers[i].priv;
			if (!kw)
				continue;
			if (kw->map)
				munmap(kw->map, kw->size);
			if (kw->fd >= 0)
				close(kw->fd);
			kw->map = NULL;
			kw->fd = -1;
		}
	}
	if (kb.memcg && cg_destroy(&kb.hier))
		warnx_("warning: memory cgroups under '%s' were left behind",
		       kb.hier.origin);
	unmount_dir();
}

void kb_sidecar(struct json *j, struct knobset *ks, enum run_mode mode)
{
	struct cg_hier h;
	char err[256], buf[32];
	bool memcg = knob_enum_is(ks, &knob_kmemcg, "on");

	json_obj_open(j, "kernel");
	json_str(j, "release", meta_kernel());
	json_str(j, "thp_enabled", thp_mode());
	json_str(j, "thp_shmem_enabled",
		 sysfs_choice("/sys/kernel/mm/transparent_hugepage/shmem_enabled",
			      buf, sizeof(buf)));
	json_bool(j, "anon_large_folios", anon_large_folios());
	json_bool(j, "memcg", memcg);
	if (memcg && !cg_detect(&h, err, sizeof(err))) {
		long depth = hier_param(ks, "depth", 3);
		long n = hier_param(ks, "containers", 1);
		char leaf[CG_PATH_MAX + 64];
		int len = snprintf(leaf, sizeof(leaf), "%s", h.origin);

		json_int(j, "cgroup_version", h.version);
		json_str(j, "origin", h.origin);
		json_str(j, "home", h.home);
		/* The same names cg_create() will use for this process. */
		for (long l = 1; l < depth && len < (int)sizeof(leaf); l++)
			len += l == 1 ? snprintf(leaf + len, sizeof(leaf) - len,
						 "/memscale.%d", (int)getpid())
				      : snprintf(leaf + len, sizeof(leaf) - len,
						 "/l%ld", l);
		if (depth == 1 && len < (int)sizeof(leaf))
			snprintf(leaf + len, sizeof(leaf) - len,
				 "/memscale.%d.c{0..%ld}", (int)getpid(), n - 1);
		else if (depth > 1 && len < (int)sizeof(leaf))
			snprintf(leaf + len, sizeof(leaf) - len, "/c{0..%ld}", n - 1);
		json_str(j, "leaves", leaf);
		json_int(j, "depth", depth);
		json_int(j, "containers", n);
		json_int(j, "leaf_level", (long long)cg_abs_depth(&h, h.origin) + depth);
	}
	json_str(j, "placement", mode == MODE_THREADS ?
		 "whole process in leaf 0 (charges follow mm->owner)" :
		 "worker i in leaf i % containers");
	json_str(j, "files", "unlinked after creation; /tmp workloads use a "
		 "private tmpfs (ktmpdir=auto), fallocate1 /dev/shm");
	kobs_sidecar(j);
	json_obj_close(j);
}

size_t kb_size(struct worker *w)
{
	(void)w;
	return kb.size;
}

int kb_tmpfile(const char *dir, size_t size)
{
	char path[300];
	int fd;

	snprintf(path, sizeof(path), "%s/willitscale.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	if (size && ftruncate(fd, (off_t)size)) {
		int e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

bool kb_touch_pages(struct worker *w, char *p, size_t size)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < size; i += pg) {
		if (worker_should_stop(w))
			return false;
		/* One store per page, as will-it-scale's c[i] = 0. */
		((volatile char *)p)[i] = 0;
		worker_done_op(w);
	}
	return true;
}
