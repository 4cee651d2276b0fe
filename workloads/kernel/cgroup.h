/*
 * cgroup.h - real memory-cgroup hierarchies for the kernel backend.
 *
 * A run creates, below the memory cgroup memscale itself runs in, a chain
 * of `depth` nested memcgs whose last level holds `containers` sibling
 * leaves, places its workers in the leaves, reads the leaves' memory.stat,
 * and removes everything again leaf-first (tasks moved back to where they
 * came from).  cgroup v2 is used where its memory controller is available
 * and can be delegated below us; otherwise the v1 memory hierarchy.
 *
 * Names: <origin>/memscale.<pid>/l2/.../l<depth-1>/c<i> for depth >= 2,
 * <origin>/memscale.<pid>.c<i> for depth 1; depth 0 uses the origin itself
 * (one leaf, nothing created).  A hierarchy left behind by a
 * killed run (its pid is gone) is swept away by the next run.
 *
 * Cleanup also runs from an atexit handler, so die() during a run does not
 * leak directories; SIGINT/SIGTERM reach it through the harness, which
 * stops the workers and calls the workload's teardown.
 */
#ifndef MEMSCALE_CGROUP_H
#define MEMSCALE_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CG_MAX_LEAVES 256
#define CG_MAX_DEPTH 16
#define CG_PATH_MAX 512

struct cg_hier {
	int version;               /* 1 or 2 */
	pid_t owner;               /* process that created it */
	unsigned depth, nleaves;
	char origin[CG_PATH_MAX];  /* where the hierarchy is created: home, or
				    * (v2) its nearest ancestor that already
				    * delegates memory when home cannot */
	char home[CG_PATH_MAX];    /* the cgroup memscale was started in;
				    * tasks return here */
	char top[CG_PATH_MAX];     /* first directory we created (chain head) */
	char leaf[CG_MAX_LEAVES][CG_PATH_MAX];
	bool live;
};

/*
 * Finds the memory controller and the calling process's memcg.  Returns 0
 * and fills version/origin, or -1 with a one-line reason in err.
 */
int cg_detect(struct cg_hier *h, char *err, size_t errlen);
/* cg_detect reading these files instead of /proc/self/cgroup and
 * /proc/self/mountinfo (tests: fake trees).  Not thread-safe. */
int cg_detect_from(struct cg_hier *h, const char *proc_cgroup,
		   const char *mountinfo, char *err, size_t errlen);

/* Creates the hierarchy (after cg_detect).  0, or -1 with err filled. */
int cg_create(struct cg_hier *h, unsigned depth, unsigned containers,
	      char *err, size_t errlen);

/* Moves a process (all its threads) into leaf i.  0 or -errno. */
int cg_attach(const struct cg_hier *h, unsigned leaf, pid_t pid);

/* Moves remaining tasks back to the origin and removes the directories
 * leaf-first.  Safe to call twice; returns the number left behind. */
int cg_destroy(struct cg_hier *h);

/* v2: the directory to create memcgs under, starting from `home` below
 * the mount `mnt`: home itself when its cgroup.subtree_control has
 * "memory" or accepts "+memory" (write_ok), else the nearest ancestor
 * whose subtree_control already has "memory", even when home's parent
 * passes no memory down to home.  Ancestors are never changed; home is
 * passed over when it holds processes, as a container's cgroup does,
 * since v2's no-internal-process rule then forbids it to delegate.
 * 0 and the path in out, or -1. */
int cg_v2_pick_origin(const char *mnt, const char *home, bool write_ok,
		      char *out, size_t len);
/* Depth of a cgroup directory below the controller's root (origin included). */
unsigned cg_abs_depth(const struct cg_hier *h, const char *dir);

/* memory.stat, as name/value pairs. */
#define CG_STAT_MAX 128
struct cg_stat {
	unsigned n;
	struct { char name[40]; unsigned long long value; } kv[CG_STAT_MAX];
};

/* Reads dir/memory.stat and adds it into st (summing over calls). */
int cg_stat_add(const char *dir, struct cg_stat *st);
/* Value of `name`, or -1 if the file has no such key. */
long long cg_stat_get(const struct cg_stat *st, const char *name);

#endif
