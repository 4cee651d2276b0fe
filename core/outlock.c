/* outlock.c - one writer per output (see outlock.h). */
#include "core/outlock.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The pid holding a flock on (dev, ino), from /proc/locks; 0 if unknown. */
static long lock_holder(dev_t dev, ino_t ino)
{
	FILE *f = file_kernel_open("/proc/locks", "r");
	char line[256];
	long pid = 0;

	if (!f)
		return 0;
	while (!pid && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		unsigned long long i;
		long p;
		char type[16];

		/* "1: FLOCK  ADVISORY  WRITE 23453 fe:00:10953620 0 EOF";
		 * waiters are listed as "1: -> FLOCK ..." and skipped. */
		if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", type, &p, &maj,
			   &min, &i) == 5 && !strcmp(type, "FLOCK") &&
		    maj == major(dev) && min == minor(dev) && i == (unsigned long long)ino &&
		    p != getpid())
			pid = p;
	}
	fclose(f);
	return pid;
}

/* "memscale sweep x.ini --out d" from /proc/PID/cmdline, one line. */
static char *holder_command(long pid)
{
	char *path = xasprintf("/proc/%ld/cmdline", pid), *s;
	FILE *f = file_kernel_open(path, "r");
	size_t n = 0;

	free(path);
	if (!f)
		return xstrdup("?");
	s = xmalloc(512);
	n = fread(s, 1, 511, f);
	fclose(f);
	while (n && s[n - 1] == '\0')
		n--;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\0' || s[i] == '\n')
			s[i] = ' ';
	s[n] = '\0';
	return s;
}

void out_lock_fd(int fd, const char *path, bool shared, const char *cmd)
{
	struct stat st;
	long pid;

	if (!flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB))
		return;
	if (errno != EWOULDBLOCK)
		die_errno(EXIT_USAGE, "%s: cannot lock '%s'", cmd, path);
	pid = fstat(fd, &st) ? 0 : lock_holder(st.st_dev, st.st_ino);
	if (pid) {
		char *who = holder_command(pid);
		die(EXIT_USAGE, "%s: '%s' is being written by pid %ld (%s); wait "
		    "for it to finish or choose another output", cmd, path, pid, who);
	}
	die(EXIT_USAGE, "%s: '%s' is being written by another process; wait for "
	    "it to finish or choose another output", cmd, path);
}

void out_lock_dir(const char *dir, bool shared, const char *cmd)
{
	/* Kept open on purpose: the lock lives as long as the process. */
	int fd = file_dir_open(dir, 0);

	if (fd < 0)
		die_errno(EXIT_USAGE, "%s: cannot open output directory '%s'", cmd, dir);
	out_lock_fd(fd, dir, shared, cmd);
}

/* The lock files this process holds (a flock belongs to one open file
 * description: a second open and flock of the same file by this process
 * would conflict with its own first). */
static struct {
	dev_t dev;
	ino_t ino;
} held[64];
static unsigned nheld;

void out_lock_file(const char *path, const char *cmd)
{
	const char *slash = strrchr(path, '/');
	char *lp = slash ? xasprintf("%.*s/.%s.lock", (int)(slash - path), path, slash + 1)
			 : xasprintf(".%s.lock", path);
	struct stat st;
	const char *why;
	/* a regular file of ours or root's, one link, never through a link */
	int fd = file_append_open(lp, O_RDWR | O_CREAT, NULL, &why);

	if (fd < 0)
		die(EXIT_USAGE, "%s: the lock file '%s' of output '%s' %s", cmd, lp, path, why);
	if (fstat(fd, &st))
		die_errno(EXIT_USAGE, "%s: cannot lock '%s'", cmd, lp);
	for (unsigned i = 0; i < nheld; i++)
		if (held[i].dev == st.st_dev && held[i].ino == st.st_ino) {
			close(fd);
			free(lp);
			return;
		}
	out_lock_fd(fd, path, false, cmd); /* kept open: held until exit */
	if (nheld < ARRAY_SIZE(held))
		held[nheld++] = (typeof(held[0])){ st.st_dev, st.st_ino };
	free(lp);
}
