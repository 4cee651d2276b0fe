/*
 * t_kernel_cgroup - workloads/kernel/cgroup.c against the running kernel:
 * a 3-level hierarchy with two leaves is created where we expect it, a child process
 * placed in a leaf faults a known number of pages and the leaf's
 * memory.stat sees them, and destroying removes every directory while
 * the origin stays.  Skipped (with the reason) where no memcg can be made.
 */
#include "workloads/kernel/cgroup.h"
#include "core/util.h"
#include "tap.h"

#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NPAGES 2048

static bool is_dir(const char *p)
{
	struct stat sb;
	return !stat(p, &sb) && S_ISDIR(sb.st_mode);
}

/* Child: join leaf 1, fault NPAGES anonymous pages, report via status. */
static int child_faults(struct cg_hier *h)
{
	char line[1024], want[CG_PATH_MAX];
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	FILE *f;
	char *p;
	int in_leaf = 0;

	if (cg_attach(h, 1, getpid()))
		return 3;
	/* /proc/self/cgroup must now name leaf 1 (path below the mount). */
	snprintf(want, sizeof(want), "%s", strrchr(h->leaf[1], '/'));
	f = fopen("/proc/self/cgroup", "r");
	while (f && fgets(line, sizeof(line), f))
		if ((strstr(line, ":memory:") || !strncmp(line, "0::", 3)) &&
		    strstr(line, want) && strstr(line, "memscale."))
			in_leaf = 1;
	if (f)
		fclose(f);
	if (!in_leaf)
		return 4;
	p = mmap(NULL, NPAGES * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 5;
	madvise(p, NPAGES * pg, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < NPAGES; i++)
		((volatile char *)p)[i * pg] = 1;
	return 0;
}

static void put(const char *dir, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* cg_v2_pick_origin over a fake v2 tree (plain files, no cgroupfs):
 * mnt/a delegates memory, mnt/a/b holds us and cannot. */
static void pick_origin_fake_tree(void)
{
	char mnt[] = "/tmp/memscale-cgfake-XXXXXX", a[300], b[300], out[300];

	if (!mkdtemp(mnt)) {
		ok(0, "mkdtemp for the fake cgroup tree");
		return;
	}
	snprintf(a, sizeof(a), "%s/a", mnt);
	snprintf(b, sizeof(b), "%s/a/b", mnt);
	mkdir(a, 0755);
	mkdir(b, 0755);
	put(mnt, "cgroup.subtree_control", "cpu memory\n");
	put(a, "cgroup.controllers", "cpu memory\n");
	put(a, "cgroup.subtree_control", "cpu memory\n");
	put(b, "cgroup.controllers", "cpu memory\n");
	put(b, "cgroup.subtree_control", "cpu\n");
	ok(!cg_v2_pick_origin(mnt, b, false, out, sizeof(out)) && !strcmp(out, a),
	   "home that cannot delegate: nearest delegating ancestor (%s)", out);
	put(b, "cgroup.subtree_control", "memory\n");
	ok(!cg_v2_pick_origin(mnt, b, false, out, sizeof(out)) && !strcmp(out, b),
	   "home that delegates: home itself");
	put(b, "cgroup.subtree_control", "\n");
	put(a, "cgroup.subtree_control", "cpu\n");
	put(mnt, "cgroup.subtree_control", "cpu\n");
	ok(cg_v2_pick_origin(mnt, b, false, out, sizeof(out)) == -1,
	   "no ancestor delegates: refused");
	put(b, "cgroup.controllers", "cpu\n");
	put(a, "cgroup.controllers", "cpu\n");
	ok(cg_v2_pick_origin(mnt, b, false, out, sizeof(out)) == -1,
	   "memory nowhere delegated: refused");
	put(mnt, "cgroup.subtree_control", "memory\n");
	ok(!cg_v2_pick_origin(mnt, b, false, out, sizeof(out)) && !strcmp(out, mnt),
	   "parent passes no memory down, the root delegates: the root (%s)", out);
	ok(cg_v2_pick_origin("/elsewhere", b, false, out, sizeof(out)) == -1,
	   "home outside the mount: refused");
	{
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", mnt);
		if (system(cmd))
			diag("could not remove %s", mnt);
	}
}

/* cg_detect over a fake pure-v2 machine of the reference run's shape: our
 * cgroup is /process_api/<id>, /proc/self/cgroup has only the "0::" line,
 * the root delegates memory, /process_api passes nothing down.  Before the
 * fix the "0::" line was never recognised and detection was refused. */
static void detect_fake_process_api(void)
{
	char dir[] = "/tmp/memscale-cgdetect-XXXXXX", mnt[64], pa[128], home[192];
	char pc[64], mi[64], err[512], want[64];
	struct cg_hier h;
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp for the fake /proc");
		return;
	}
	snprintf(mnt, sizeof(mnt), "%s/cgroup", dir);
	snprintf(pa, sizeof(pa), "%s/process_api", mnt);
	snprintf(home, sizeof(home), "%s/0123abcd", pa);
	mkdir(mnt, 0755);
	mkdir(pa, 0755);
	mkdir(home, 0755);
	put(mnt, "cgroup.subtree_control", "cpu io memory pids\n");
	put(pa, "cgroup.controllers", "cpu io memory pids\n");
	put(pa, "cgroup.subtree_control", "\n");
	put(home, "cgroup.controllers", "\n");
	put(home, "cgroup.subtree_control", "\n");
	snprintf(pc, sizeof(pc), "%s/self_cgroup", dir);
	snprintf(mi, sizeof(mi), "%s/mountinfo", dir);
	if ((f = fopen(pc, "w"))) {
		fputs("0::/process_api/0123abcd\n", f);
		fclose(f);
	}
	if ((f = fopen(mi, "w"))) {
		fprintf(f, "22 1 0:21 / / rw,relatime - ext4 /dev/vda rw\n"
			   "30 22 0:26 / %s rw,nosuid,nodev,noexec,relatime - "
			   "cgroup2 cgroup2 rw,nsdelegate\n", mnt);
		fclose(f);
	}
	err[0] = 0;
	ok(!cg_detect_from(&h, pc, mi, err, sizeof(err)) && h.version == 2,
	   "pure v2, own cgroup /process_api/<id>: detected as v2 (%s)", err);
	ok(!strcmp(h.home, home), "home is the mount plus /process_api/<id> (%s)", h.home);
	ok(!strcmp(h.origin, mnt), "origin is the root, which delegates memory (%s)",
	   h.origin);
	/* A hybrid machine: v2 has no memory anywhere, v1 memory is mounted. */
	put(mnt, "cgroup.subtree_control", "\n");
	if ((f = fopen(pc, "w"))) {
		fputs("4:memory:/process_api/0123abcd\n0::/\n", f);
		fclose(f);
	}
	snprintf(want, sizeof(want), "%s/v1mem", dir);
	mkdir(want, 0755);
	snprintf(home, sizeof(home), "%s/process_api", want);
	mkdir(home, 0755);
	snprintf(home, sizeof(home), "%s/process_api/0123abcd", want);
	mkdir(home, 0755);
	put(home, "memory.stat", "pgfault 0\n");
	if ((f = fopen(mi, "w"))) {
		fprintf(f, "30 22 0:26 / %s rw - cgroup2 cgroup2 rw\n"
			   "31 22 0:27 / %s rw - cgroup cgroup rw,memory\n", mnt, want);
		fclose(f);
	}
	ok(!cg_detect_from(&h, pc, mi, err, sizeof(err)) && h.version == 1 &&
	   !strcmp(h.origin, home),
	   "hybrid (v2 without memory, v1 memory): v1 at our memcg (%s)", h.origin);
	{
		char cmd[400];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			diag("could not remove %s", dir);
	}
}

int main(void)
{
	struct cg_hier h;
	struct cg_stat before = { 0 }, after = { 0 };
	char err[1024];
	long long d;
	pid_t pid;
	int ws;
	unsigned base;

	pick_origin_fake_tree();
	detect_fake_process_api();
	if (cg_detect(&h, err, sizeof(err))) {
		printf("# SKIP the rest: %s\n1..%d\n", err, tap_n);
		return 0;
	}
	if (cg_create(&h, 3, 2, err, sizeof(err))) {
		printf("# SKIP the rest: cannot create memory cgroups here: %s\n1..%d\n",
		       err, tap_n);
		return 0;
	}
	diag("cgroup v%d, origin %s", h.version, h.origin);
	ok(is_dir(h.top), "chain head %s exists", h.top);
	ok(is_dir(h.leaf[0]) && is_dir(h.leaf[1]), "both leaves exist");
	base = cg_abs_depth(&h, h.origin);
	is_int(cg_abs_depth(&h, h.leaf[0]), base + 3, "leaves sit 3 levels below the origin");
	ok(strstr(h.leaf[1], "/l2/c1") != NULL, "leaf 1 is <top>/l2/c1 (%s)", h.leaf[1]);

	cg_stat_add(h.leaf[1], &before);
	ok(cg_stat_get(&before, "pgfault") >= 0, "leaf memory.stat has pgfault");
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		_exit(child_faults(&h));
	waitpid(pid, &ws, 0);
	is_int(WIFEXITED(ws) ? WEXITSTATUS(ws) : 100 + WTERMSIG(ws), 0,
	       "child joined leaf 1 and faulted %d pages", NPAGES);
	cg_stat_add(h.leaf[1], &after);
	d = cg_stat_get(&after, "pgfault") - cg_stat_get(&before, "pgfault");
	/* The child's own start-up and exit faults come on top; the per-cpu
	 * stat batching (64 events x CPUs) may still hide a few. */
	ok(d >= NPAGES - 256 && d <= NPAGES + 512,
	   "leaf pgfault delta %lld ~ %d pages faulted", d, NPAGES);

	is_int(cg_destroy(&h), 0, "destroy leaves nothing behind");
	ok(!is_dir(h.leaf[0]) && !is_dir(h.leaf[1]) && !is_dir(h.top),
	   "all hierarchy directories are gone");
	ok(is_dir(h.origin), "origin cgroup still exists");
	is_int(cg_destroy(&h), 0, "second destroy is a no-op");

	/* depth 0: our own cgroup, nothing created, nothing removed. */
	ok(!cg_detect(&h, err, sizeof(err)) && !cg_create(&h, 0, 1, err, sizeof(err)),
	   "depth 0 accepted");
	is_str(h.leaf[0], h.origin, "depth 0 leaf is the origin");
	cg_destroy(&h);
	ok(is_dir(h.origin), "depth 0 destroy keeps the origin");
	ok(cg_create(&h, 0, 2, err, sizeof(err)) != 0, "depth 0 with 2 containers refused");
	ok(cg_create(&h, CG_MAX_DEPTH + 1, 1, err, sizeof(err)) != 0,
	   "depth %d refused", CG_MAX_DEPTH + 1);

	/* A hierarchy whose owner died is swept by the next create. */
	{
		char stale[CG_PATH_MAX + 64];
		pid_t dead = fork();
		if (dead == 0)
			_exit(0);
		waitpid(dead, &ws, 0);
		snprintf(stale, sizeof(stale), "%s/memscale.%d", h.origin, (int)dead);
		ok(!mkdir(stale, 0755) || errno == EEXIST, "made a stale hierarchy %s", stale);
		ok(!cg_detect(&h, err, sizeof(err)) && !cg_create(&h, 1, 1, err, sizeof(err)),
		   "create with a stale sibling present");
		ok(!is_dir(stale), "stale hierarchy of a dead pid was removed");
		cg_destroy(&h);
		ok(!is_dir(h.leaf[0]), "depth-1 leaf removed");
	}
	return done_testing();
}
