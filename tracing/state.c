/* state.c - the checked run-state directory (see state.h). */
#include "tracing/state.h"
#include "core/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dir_path;
static bool refused; /* a check failed: the exit path must not look again */

bool state_refused(void)
{
	return refused;
}

/* st (of PATH) must be ours, not group/other-writable, of type `type`. */
static void check_owned(const char *path, const struct stat *st, mode_t type,
			const char *what)
{
	if ((st->st_mode & S_IFMT) != type || st->st_uid != geteuid() ||
	    st->st_mode & (S_IWGRP | S_IWOTH) ||
	    (type == S_IFDIR && st->st_mode & (S_IRWXG | S_IRWXO)))
		refused = true;
	if ((st->st_mode & S_IFMT) != type)
		die(EXIT_USAGE, "tracing state %s '%s' is not a %s; refusing it "
		    "(remove it)", what, path, type == S_IFDIR ? "directory" :
		    "regular file");
	if (st->st_uid != geteuid())
		die(EXIT_USAGE, "tracing state %s '%s' is owned by uid %u, not by "
		    "uid %u; refusing it (remove it)", what, path,
		    (unsigned)st->st_uid, (unsigned)geteuid());
	if (st->st_mode & (S_IWGRP | S_IWOTH) ||
	    (type == S_IFDIR && st->st_mode & (S_IRWXG | S_IRWXO)))
		die(EXIT_USAGE, "tracing state %s '%s' has mode %04o (others may "
		    "write it); refusing it (remove it)", what, path,
		    (unsigned)(st->st_mode & 07777));
}

/*
 * The directory is opened once (O_DIRECTORY|O_NOFOLLOW), judged by fstat
 * on that descriptor, and from then on used only through it (openat,
 * unlinkat, fdopendir): swapping the path for a symbolic link after the
 * check changes nothing this process touches.
 */
static int dir_fd = -1;

static int state_dirfd(void)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (dir_fd >= 0)
		return dir_fd;
	if (xdg && xdg[0] == '/')
		dir_path = xasprintf("%s/memscale", xdg);
	else if (geteuid() == 0)
		dir_path = xstrdup("/run/memscale");
	else
		dir_path = xasprintf("/tmp/memscale-%u", (unsigned)geteuid());
	if (mkdir(dir_path, 0700) && errno != EEXIST)
		die_errno(EXIT_USAGE, "cannot create tracing state directory '%s'",
			  dir_path);
	dir_fd = file_dir_open(dir_path, FILE_NOFOLLOW);
	if (dir_fd < 0 && (errno == ELOOP || errno == ENOTDIR) &&
	    !lstat(dir_path, &st) && S_ISLNK(st.st_mode) && (refused = true))
		die(EXIT_USAGE, "tracing state directory '%s' is a symbolic link; "
		    "refusing it (remove it)", dir_path);
	if (dir_fd < 0 && errno == ENOTDIR)
		die(EXIT_USAGE, "tracing state directory '%s' is not a directory; "
		    "refusing it (remove it)", dir_path);
	if (dir_fd < 0 || fstat(dir_fd, &st))
		die_errno(EXIT_USAGE, "tracing state directory '%s'", dir_path);
	check_owned(dir_path, &st, S_IFDIR, "directory");
	return dir_fd;
}

const char *state_dir(void)
{
	state_dirfd();
	return dir_path;
}

/* Opens NAME in the state directory, checked; -1 with errno ENOENT when
 * absent (and !create). */
static int state_open(const char *name, int flags, char **pathp)
{
	int dfd = state_dirfd();
	char *path = xasprintf("%s/%s", dir_path, name);
	struct stat st;
	int fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);

	if (fd < 0) {
		if (errno == ENOENT) {
			free(path);
			return -1;
		}
		refused = true;
		if (errno == ELOOP ||
		    (!fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode)))
			die(EXIT_USAGE, "tracing state file '%s' is a symbolic link; "
			    "refusing it (remove it)", path);
		die_errno(EXIT_USAGE, "tracing state file '%s'", path);
	}
	if (fstat(fd, &st))
		die_errno(EXIT_USAGE, "tracing state file '%s'", path);
	check_owned(path, &st, S_IFREG, "file");
	*pathp = path;
	return fd;
}

/* Held lock: re-entrant, since a die() under the lock runs the atexit
 * release, which takes it again (a second flock on another descriptor
 * would wait for ever). */
static int lock_fd = -1, lock_depth;

int state_lock(void)
{
	char *path;
	int fd;

	if (lock_depth++)
		return lock_fd;
	fd = state_open("lock", O_RDWR | O_CREAT, &path);

	if (fd < 0)
		die_errno(EXIT_USAGE, "cannot create tracing state lock in '%s'",
			  dir_path);
	while (flock(fd, LOCK_EX))
		if (errno != EINTR)
			die_errno(1, "cannot lock '%s'", path);
	free(path);
	lock_fd = fd;
	return fd;
}

void state_unlock(int fd)
{
	if (fd < 0 || fd != lock_fd || --lock_depth)
		return;
	close(fd); /* drops the flock */
	lock_fd = -1;
}

bool state_read_long(const char *name, long *v)
{
	char *path, buf[64], *end;
	int fd = state_open(name, O_RDONLY, &path);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	free(path);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	errno = 0;
	*v = strtol(buf, &end, 10);
	return !errno && end != buf && (*end == '\n' || !*end);
}

void state_write_long(const char *name, long v)
{
	int dfd = state_dirfd();
	char *path = xasprintf("%s/%s", dir_path, name), buf[32];
	int fd, n;

	/* Never through what is there: remove it, then create anew. */
	if (unlinkat(dfd, name, 0) && errno != ENOENT)
		die_errno(1, "cannot replace tracing state file '%s'", path);
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0)
		die_errno(EXIT_USAGE, "cannot create tracing state file '%s'", path);
	n = snprintf(buf, sizeof(buf), "%ld\n", v);
	if (write_all(fd, buf, (size_t)n) || close(fd))
		die_errno(1, "cannot write tracing state file '%s'", path);
	free(path);
}

void state_remove(const char *name)
{
	unlinkat(state_dirfd(), name, 0);
}

size_t state_list_pids(const char *prefix, pid_t **out)
{
	int fd = openat(state_dirfd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	size_t n = 0, plen = strlen(prefix);
	long v;

	*out = NULL;
	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, plen) ||
		    !parse_long(de->d_name + plen, 1, 0x7fffffff, &v))
			continue;
		*out = realloc(*out, (n + 1) * sizeof(pid_t));
		if (!*out)
			die(1, "out of memory");
		(*out)[n++] = (pid_t)v;
	}
	if (d)
		closedir(d);
	else if (fd >= 0)
		close(fd);
	return n;
}
