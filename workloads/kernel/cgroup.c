/*
 * cgroup.c - memory-cgroup hierarchy management (see cgroup.h).
 *
 * Kernel interface used: /proc/self/cgroup and /proc/self/mountinfo to find
 * where the memory controller is mounted and which cgroup we are in
 * (Documentation/admin-guide/cgroup-v1/memory.rst, cgroup-v2.rst);
 * cgroup.procs to move whole processes (v1 and v2: writing a pid moves all
 * its threads, which is what the memcg charges follow anyway, since they
 * go to mm->owner's memcg); cgroup.subtree_control "+memory" on v2.
 */
#include "workloads/kernel/cgroup.h"
#include "core/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_str(const char *path, const char *s)
{
	int fd = file_kernel_fd(path, O_WRONLY);
	ssize_t n, len = (ssize_t)strlen(s);

	if (fd < 0)
		return -errno;
	n = write(fd, s, (size_t)len);
	if (n != len) {
		int e = n < 0 ? errno : EIO;
		close(fd);
		return -e;
	}
	return close(fd) ? -errno : 0;
}

static bool file_has_word(const char *path, const char *word)
{
	char buf[1024], *save, *tok;
	FILE *f = file_kernel_open(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, word))
			return true;
	return false;
}

static bool list_has(const char *list, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == wl && !strncmp(p, word, wl))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

/* Where the process files live: /proc/self normally, a fake tree in tests. */
static const char *proc_cgroup_path = "/proc/self/cgroup";
static const char *proc_mountinfo_path = "/proc/self/mountinfo";

/*
 * Our cgroup path for v1 "memory" (v2 == false) or the v2 line.  A line
 * is "hierarchy-ID:controller-list:cgroup-path"; the v2 line is
 * "0::PATH".  Both colons are cut before the fields are compared: with
 * only the second one cut, the ID field read "0:" and the v2 line never
 * matched, so a pure cgroup v2 machine (e.g. a container whose cgroup
 * is /process_api/<id>, memory delegated at the root) found no memcg.
 */
static int self_cgroup(bool v2, char *out, size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = file_kernel_open(proc_cgroup_path, "r");
	int ret = -1;

	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = 0;
		*c2 = 0;
		c2[1 + strcspn(c2 + 1, "\n")] = 0;
		if ((v2 && !strcmp(line, "0") && c1[1] == 0) ||
		    (!v2 && list_has(c1 + 1, "memory"))) {
			snprintf(out, len, "%s", c2 + 1);
			ret = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/* Mount point and root of the v1 memory or the v2 hierarchy. */
static int find_mount(bool v2, char *mnt, size_t mlen, char *root, size_t rlen)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = file_kernel_open(proc_mountinfo_path, "r");
	int ret = -1;

	if (!f)
		return -1;
	while (ret && getline(&line, &cap, f) > 0) {
		char r[CG_PATH_MAX], m[CG_PATH_MAX], fstype[64], super[512];
		char *dash = strstr(line, " - ");
		if (!dash || sscanf(line, "%*s %*s %*s %511s %511s", r, m) != 2 ||
		    sscanf(dash + 3, "%63s %*s %511s", fstype, super) != 2)
			continue;
		if ((v2 && !strcmp(fstype, "cgroup2")) ||
		    (!v2 && !strcmp(fstype, "cgroup") && list_has(super, "memory"))) {
			snprintf(mnt, mlen, "%s", m);
			snprintf(root, rlen, "%s", r);
			ret = 0;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

static int origin_dir(bool v2, char *out, size_t len)
{
	char mnt[CG_PATH_MAX], root[CG_PATH_MAX], cg[CG_PATH_MAX];
	const char *rel;
	size_t rl, ml;

	if (find_mount(v2, mnt, sizeof(mnt), root, sizeof(root)) ||
	    self_cgroup(v2, cg, sizeof(cg)))
		return -1;
	/* /proc/self/cgroup is relative to the hierarchy root; the mount
	 * may show only a subtree of it (root field of mountinfo). */
	rel = cg;
	rl = strlen(root);
	if (strcmp(root, "/") && !strncmp(cg, root, rl))
		rel = cg + rl;
	if (!strcmp(rel, "/"))
		rel = "";
	ml = strlen(mnt);
	rl = strlen(rel);
	if (ml + rl + 1 > len)
		return -1; /* a path we could not hold */
	memcpy(out, mnt, ml);
	memcpy(out + ml, rel, rl + 1);
	return 0;
}

int cg_v2_pick_origin(const char *mnt, const char *home, bool write_ok,
		      char *out, size_t len)
{
	char dir[CG_PATH_MAX], path[CG_PATH_MAX + 32];
	size_t ml = strlen(mnt);

	if (strlen(home) >= sizeof(dir) || strncmp(home, mnt, ml))
		return -1;
	snprintf(path, sizeof(path), "%s/cgroup.controllers", home);
	if (file_has_word(path, "memory")) {
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", home);
		if (file_has_word(path, "memory") ||
		    (write_ok && !write_str(path, "+memory"))) {
			snprintf(out, len, "%s", home);
			return 0;
		}
	}
	snprintf(dir, sizeof(dir), "%s", home);
	for (;;) {
		char *slash = strrchr(dir, '/');

		if (!slash || (size_t)(slash - dir) < ml)
			return -1;
		*slash = '\0';
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
		if (file_has_word(path, "memory")) {
			if (strlen(dir) >= len)
				return -1;
			snprintf(out, len, "%s", dir);
			return 0;
		}
	}
}

int cg_detect_from(struct cg_hier *h, const char *proc_cgroup,
		   const char *mountinfo, char *err, size_t errlen)
{
	const char *pc = proc_cgroup_path, *mi = proc_mountinfo_path;
	int ret;

	proc_cgroup_path = proc_cgroup;
	proc_mountinfo_path = mountinfo;
	ret = cg_detect(h, err, errlen);
	proc_cgroup_path = pc;
	proc_mountinfo_path = mi;
	return ret;
}

int cg_detect(struct cg_hier *h, char *err, size_t errlen)
{
	char path[CG_PATH_MAX + 32], mnt[CG_PATH_MAX], root[CG_PATH_MAX];

	memset(h, 0, sizeof(*h));
	/* v2 first, where memory is available here and delegable below us
	 * (or below the nearest ancestor that delegates it). */
	if (!origin_dir(true, h->home, sizeof(h->home)) &&
	    !find_mount(true, mnt, sizeof(mnt), root, sizeof(root)) &&
	    !cg_v2_pick_origin(mnt, h->home, true, h->origin, sizeof(h->origin))) {
		h->version = 2;
		return 0;
	}
	if (!origin_dir(false, h->home, sizeof(h->home))) {
		snprintf(path, sizeof(path), "%s/memory.stat", h->home);
		if (access(path, R_OK) == 0) {
			memcpy(h->origin, h->home, sizeof(h->origin));
			h->version = 1;
			return 0;
		}
	}
	snprintf(err, errlen, "no usable memory cgroup controller (no cgroup v2 "
		 "with 'memory' delegable below our cgroup or an ancestor, no v1 "
		 "'memory' mount); pass --no-memcg to run outside memory cgroups");
	return -1;
}

/* The hierarchy being used, for the atexit handler. */
static struct cg_hier *live_hier;

static void cgroup_cleanup_at_exit(void)
{
	if (live_hier && live_hier->live && live_hier->owner == getpid())
		cg_destroy(live_hier);
}

static int cgroup_mkdir(const char *path, char *err, size_t errlen)
{
	if (mkdir(path, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create memory cgroup '%s': %s (run as "
			 "root, or pass --no-memcg to run outside memory cgroups)",
			 path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Enables memory for the children of a v2 directory (no-op on v1). */
static int delegate(const struct cg_hier *h, const char *dir, char *err,
		    size_t errlen)
{
	char sc[CG_PATH_MAX + 32];
	int e;

	if (h->version != 2)
		return 0;
	snprintf(sc, sizeof(sc), "%s/cgroup.subtree_control", dir);
	if ((e = write_str(sc, "+memory"))) {
		snprintf(err, errlen, "cannot enable the memory controller in '%s': %s",
			 sc, strerror(-e));
		return -1;
	}
	return 0;
}

static bool pid_alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno != ESRCH;
}

/* Moves every process in dir back to home, then removes dir and below. */
static int remove_tree(const char *home, const char *dir)
{
	char path[CG_PATH_MAX + 300];
	struct dirent *de;
	DIR *d = opendir(dir);
	int left = 0;

	if (!d)
		return errno == ENOENT ? 0 : 1;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		left += remove_tree(home, path);
	}
	closedir(d);
	for (int tries = 0; tries < 200; tries++) {
		FILE *f;
		long pid;

		snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
		if ((f = file_kernel_open(path, "r"))) {
			char to[CG_PATH_MAX + 32], num[32];
			snprintf(to, sizeof(to), "%s/cgroup.procs", home);
			while (fscanf(f, "%ld", &pid) == 1) {
				snprintf(num, sizeof(num), "%ld", pid);
				write_str(to, num);
			}
			fclose(f);
		}
		if (!rmdir(dir) || errno == ENOENT)
			return left;
		if (errno != EBUSY)
			break;
		/* Exiting tasks linger in cgroup.procs for a moment. */
		usleep(5000);
	}
	warnx_("warning: could not remove memory cgroup '%s': %s", dir, strerror(errno));
	return left + 1;
}

/* Removes hierarchies of earlier memscale runs whose process is gone. */
static void sweep_stale(const char *origin, const char *home)
{
	char path[CG_PATH_MAX + 300];
	struct dirent *de;
	DIR *d = opendir(origin);

	if (!d)
		return;
	while ((de = readdir(d))) {
		long pid;
		if (de->d_type != DT_DIR || strncmp(de->d_name, "memscale.", 9) ||
		    sscanf(de->d_name + 9, "%ld", &pid) != 1 || pid <= 0 ||
		    pid_alive((pid_t)pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", origin, de->d_name);
		remove_tree(home, path);
	}
	closedir(d);
}

int cg_create(struct cg_hier *h, unsigned depth, unsigned containers,
	      char *err, size_t errlen)
{
	static bool atexit_done;
	char chain[CG_PATH_MAX];
	int n;

	if (depth > CG_MAX_DEPTH || containers < 1 || containers > CG_MAX_LEAVES ||
	    (depth == 0 && containers > 1)) {
		snprintf(err, errlen, "bad memcg hierarchy %ux%u", depth, containers);
		return -1;
	}
	h->owner = getpid();
	h->depth = depth;
	h->nleaves = containers;
	/* Only in a cgroup of our own: under a shared ancestor another
	 * container's hierarchy (its pids are not ours to judge) may live. */
	if (!strcmp(h->origin, h->home))
		sweep_stale(h->origin, h->home);
	if (!atexit_done) {
		atexit(cgroup_cleanup_at_exit);
		atexit_done = true;
	}
	if (depth == 0) {
		/* Workers stay in our own memcg: nothing to create or remove. */
		snprintf(h->leaf[0], CG_PATH_MAX, "%s", h->home);
		return 0;
	}
	live_hier = h;
	h->live = true;
	snprintf(chain, sizeof(chain), "%s", h->origin);
	h->top[0] = 0;
	if (depth >= 2) {
		for (unsigned lvl = 1; lvl < depth; lvl++) {
			char next[CG_PATH_MAX];
			if (delegate(h, chain, err, errlen))
				goto fail;
			if (lvl == 1)
				n = snprintf(next, sizeof(next), "%s/memscale.%d", chain, (int)h->owner);
			else
				n = snprintf(next, sizeof(next), "%s/l%u", chain, lvl);
			if (n >= (int)sizeof(next)) {
				snprintf(err, errlen, "memory cgroup path too long");
				goto fail;
			}
			if (cgroup_mkdir(next, err, errlen))
				goto fail;
			if (lvl == 1)
				snprintf(h->top, sizeof(h->top), "%s", next);
			memcpy(chain, next, sizeof(chain));
		}
	}
	if (delegate(h, chain, err, errlen))
		goto fail;
	for (unsigned i = 0; i < containers; i++) {
		if (depth >= 2)
			n = snprintf(h->leaf[i], CG_PATH_MAX, "%s/c%u", chain, i);
		else
			n = snprintf(h->leaf[i], CG_PATH_MAX, "%s/memscale.%d.c%u",
				     chain, (int)h->owner, i);
		if (n >= CG_PATH_MAX) {
			snprintf(err, errlen, "memory cgroup path too long");
			goto fail;
		}
		if (cgroup_mkdir(h->leaf[i], err, errlen))
			goto fail;
	}
	return 0;
fail:
	cg_destroy(h);
	return -1;
}

int cg_attach(const struct cg_hier *h, unsigned leaf, pid_t pid)
{
	char path[CG_PATH_MAX + 32], num[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", h->leaf[leaf % h->nleaves]);
	snprintf(num, sizeof(num), "%d", (int)pid);
	return write_str(path, num);
}

int cg_destroy(struct cg_hier *h)
{
	int left = 0;

	if (!h->live)
		return 0;
	if (h->top[0]) {
		left = remove_tree(h->home, h->top);
	} else {
		for (unsigned i = 0; i < h->nleaves; i++)
			if (h->leaf[i][0])
				left += remove_tree(h->home, h->leaf[i]);
	}
	h->live = false;
	if (live_hier == h)
		live_hier = NULL;
	return left;
}

unsigned cg_abs_depth(const struct cg_hier *h, const char *dir)
{
	char mnt[CG_PATH_MAX], root[CG_PATH_MAX];
	unsigned d = 0;

	if (find_mount(h->version == 2, mnt, sizeof(mnt), root, sizeof(root)))
		return 0;
	for (const char *p = dir + strlen(mnt); *p; p++)
		if (*p == '/' && p[1])
			d++;
	return d;
}

int cg_stat_add(const char *dir, struct cg_stat *st)
{
	char path[CG_PATH_MAX + 32], name[64];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	if (!(f = file_kernel_open(path, "r")))
		return -errno;
	while (fscanf(f, "%63s %llu", name, &v) == 2) {
		unsigned i;
		for (i = 0; i < st->n; i++)
			if (!strcmp(st->kv[i].name, name))
				break;
		if (i == st->n) {
			if (st->n == CG_STAT_MAX || strlen(name) >= sizeof(st->kv[0].name))
				continue;
			snprintf(st->kv[i].name, sizeof(st->kv[i].name), "%s", name);
			st->kv[i].value = 0;
			st->n++;
		}
		st->kv[i].value += v;
	}
	fclose(f);
	return 0;
}

long long cg_stat_get(const struct cg_stat *st, const char *name)
{
	for (unsigned i = 0; i < st->n; i++)
		if (!strcmp(st->kv[i].name, name))
			return (long long)st->kv[i].value;
	return -1;
}
