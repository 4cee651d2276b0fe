/*
 * file.c - the one way memscale opens, reads and writes files (see
 * file.h): regular-file inputs judged by their descriptor, bounded
 * reads, outputs through an O_EXCL temporary file and renameat, checked
 * appends, and the kernel's own files.
 */
#include "core/file.h"
#include "core/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * What is wrong with an input of this type, or NULL for a regular file.
 * A FIFO or a device is refused: reading one blocks (a FIFO without a
 * writer) or never ends, and neither is a file of results.
 */
static const char *input_type_problem(mode_t mode)
{
	if (S_ISDIR(mode))
		return "is a directory";
	if (S_ISFIFO(mode))
		return "is a FIFO, not a regular file";
	if (!S_ISREG(mode))
		return "is a special file, not a regular file";
	return NULL;
}

int file_read_fd(const char *path, unsigned flags, const char **why)
{
	static char buf[160];
	struct stat st, fst;
	const char *bad;
	int fd, fl;

	/* stat first: a device is refused before open() can touch it. */
	if (((flags & FILE_NOFOLLOW) ? lstat(path, &st) : stat(path, &st)))
		goto err;
	if ((flags & FILE_NOFOLLOW) && S_ISLNK(st.st_mode)) {
		*why = "is a symbolic link, not a regular file";
		return -1;
	}
	if ((bad = input_type_problem(st.st_mode))) {
		*why = bad;
		return -1;
	}
	/* O_NONBLOCK: should the path have become a FIFO since the stat,
	 * open() returns at once instead of waiting for a writer; fstat on
	 * the descriptor then judges what was really opened. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
		  ((flags & FILE_NOFOLLOW) ? O_NOFOLLOW : 0));
	if (fd < 0) {
		if (errno == ELOOP && (flags & FILE_NOFOLLOW)) {
			*why = "is a symbolic link, not a regular file";
			return -1;
		}
		goto err;
	}
	if (fstat(fd, &fst)) {
		close(fd);
		goto err;
	}
	if ((bad = input_type_problem(fst.st_mode))) {
		close(fd);
		*why = bad;
		return -1;
	}
	if ((fl = fcntl(fd, F_GETFL)) >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	*why = NULL;
	return fd;
err:
	snprintf(buf, sizeof(buf), "cannot be read: %s", strerror(errno));
	*why = buf;
	return -1;
}

FILE *file_read_open(const char *path, unsigned flags, const char **why)
{
	int fd = file_read_fd(path, flags, why);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "r"))) {
		close(fd);
		*why = "cannot be read: out of memory";
	}
	return f;
}

FILE *input_fopen(const char *path, const char **why)
{
	return file_read_open(path, 0, why);
}

FILE *open_input_file(const char *cmd, const char *path, const char *want)
{
	const char *why;
	FILE *f = input_fopen(path, &why);

	if (!f)
		die(EXIT_USAGE, "%s: '%s' %s (want %s)", cmd, path, why, want);
	return f;
}

void check_input_file(const char *cmd, const char *path, const char *want)
{
	FILE *f = open_input_file(cmd, path, want);
	struct stat st;

	if (!fstat(fileno(f), &st) && st.st_size == 0)
		die(EXIT_USAGE, "%s: '%s' is empty (want %s)", cmd, path, want);
	fclose(f);
}

void check_output_file(const char *cmd, const char *path)
{
	struct stat st;
	char *dir, *slash;

	if (!*path)
		die(EXIT_USAGE, "%s: empty output file name", cmd);
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			die(EXIT_USAGE, "%s: output '%s' is a directory (want a file "
			    "name)", cmd, path);
		if (!S_ISREG(st.st_mode))
			die(EXIT_USAGE, "%s: output '%s' is a special file (want a "
			    "regular file)", cmd, path);
		if (access(path, W_OK))
			die(EXIT_USAGE, "%s: output '%s' is not writable: %s", cmd,
			    path, strerror(errno));
		return;
	}
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "%s: cannot write '%s': directory '%s' does not "
		    "exist", cmd, path, dir);
	if (access(dir, W_OK | X_OK))
		die(EXIT_USAGE, "%s: cannot write '%s': directory '%s' is not "
		    "writable", cmd, path, dir);
	free(dir);
}

enum file_nul { FILE_NUL_READ, FILE_NUL_ERROR, FILE_NUL_ENDS };

/* Reads f to its end; a NUL byte is read on (FILE_NUL_READ), ends the
 * read as an error (FILE_NUL_ERROR), or ends it after the chunk that
 * holds it, which is kept (FILE_NUL_ENDS). */
static char *read_stream(FILE *f, size_t max, enum file_nul nul, size_t *len,
			 const char **why)
{
	static char msg[96];
	char *buf = NULL, chunk[65536];
	size_t n, cap = 0;

	*len = 0;
	*why = NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		char *z = nul == FILE_NUL_ERROR ? memchr(chunk, '\0', n) : NULL;

		if (z) {
			snprintf(msg, sizeof(msg), "holds a NUL byte at offset %zu "
				 "(not text)", *len + (size_t)(z - chunk));
			*why = msg;
			break;
		}
		if (n > max - *len) {
			snprintf(msg, sizeof(msg), "is larger than %zu bytes", max);
			*why = msg;
			break;
		}
		if (*len + n + 1 > cap) {
			cap = 2 * (*len + n + 1);
			buf = realloc(buf, cap);
			if (!buf)
				die(1, "out of memory");
		}
		memcpy(buf + *len, chunk, n);
		*len += n;
		if (nul == FILE_NUL_ENDS && memchr(chunk, '\0', n))
			break; /* the caller names the NUL; read no further */
	}
	if (!*why && ferror(f)) {
		snprintf(msg, sizeof(msg), "cannot be read: %s", strerror(errno));
		*why = msg;
	}
	if (*why) {
		free(buf);
		*len = 0;
		return NULL;
	}
	if (!buf)
		buf = xcalloc(1, 1);
	buf[*len] = '\0';
	return buf;
}

char *file_read_bounded(FILE *f, size_t max, size_t *len, const char **why)
{
	return read_stream(f, max, FILE_NUL_ERROR, len, why);
}

char *file_read_to_nul(FILE *f, size_t max, size_t *len, const char **why)
{
	return read_stream(f, max, FILE_NUL_ENDS, len, why);
}

char *read_text_file(const char *path)
{
	const char *why;
	FILE *f = input_fopen(path, &why);
	char *buf;
	size_t len;

	if (!f)
		return NULL;
	buf = read_stream(f, FILE_READ_MAX, FILE_NUL_READ, &len, &why);
	fclose(f);
	return buf;
}

char *ini_lines_read(char *str, int num, void *stream)
{
	struct ini_lines *in = stream;
	int ch = EOF, n = 0;

	if (in->bad)
		return NULL;
	/* byte by byte, at most num - 1: a stream without newlines (a
	 * device such as /dev/full) is stopped, not read without end */
	while (n < num - 1 && (ch = getc(in->f)) != EOF) {
		if (ch == '\0') {
			in->line++;
			in->bad = "not a text file (a NUL byte)";
			return NULL;
		}
		str[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	if (!n)
		return NULL;
	in->line++;
	if (ch != '\n' && ch != EOF) {
		in->bad = "line too long (over 199 characters)";
		return NULL;
	}
	str[n] = '\0';
	return str;
}

bool ini_cont_take(struct ini_cont *c, const char *sec, const char *key, const char *value)
{
	if (c->slot && !strcmp(sec, c->sec) && !strcmp(key, c->key)) {
		char *t = xasprintf("%s %s", *c->slot, value);

		free(*c->slot);
		*c->slot = t;
		return true;
	}
	snprintf(c->sec, sizeof(c->sec), "%s", sec);
	snprintf(c->key, sizeof(c->key), "%s", key);
	c->slot = NULL;
	return false;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void out_file_release(struct out_file *o)
{
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->name);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
}

int out_file_begin(struct out_file *o, const char *path, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd = -1, e;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	if (!*path || (slash && !slash[1])) {
		errno = EISDIR;
		return -1;
	}
	dir = !slash ? xstrdup(".") : slash == path ? xstrdup("/") :
		xasprintf("%.*s", (int)(slash - path), path);
	o->dirfd = file_dir_open(dir, 0);
	free(dir);
	if (o->dirfd < 0) {
		e = errno;
		out_file_release(o);
		errno = e;
		return -1;
	}
	o->name = xstrdup(slash ? slash + 1 : path);
	o->path = xstrdup(path);
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		uint64_t r = 0;

		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = ((uint64_t)getpid() << 32) ^ (uint64_t)now_ns();
		free(o->tmp);
		/* NAME.tmp.PID.RANDOM: the pid lets a later sweep remove what
		 * a killed writer left (harness/sweepdir.c); the random part
		 * makes the name unpredictable. */
		o->tmp = xasprintf("%s.tmp.%d.%016llx", o->name, (int)getpid(),
				   (unsigned long long)r);
		fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		e = errno;
		out_file_release(o);
		errno = e;
		return -1;
	}
	if (!(o->f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		out_file_abort(o);
		errno = e;
		return -1;
	}
	return 0;
}

void out_file_abort(struct out_file *o)
{
	int e = errno;

	if (o->f)
		fclose(o->f);
	if (o->dirfd >= 0 && o->tmp)
		unlinkat(o->dirfd, o->tmp, 0);
	out_file_release(o);
	errno = e;
}

int out_file_commit(struct out_file *o)
{
	FILE *f = o->f;
	int bad;

	o->f = NULL;
	bad = fflush(f) != 0 || ferror(f);
	if (bad && !errno)
		errno = EIO;
	if (!bad && fsync(fileno(f)))
		bad = 1;
	if (fclose(f) && !bad)
		bad = 1;
	if (!bad && renameat(o->dirfd, o->tmp, o->dirfd, o->name))
		bad = 1;
	if (bad) {
		out_file_abort(o);
		return -1;
	}
	out_file_release(o);
	return 0;
}

int atomic_write_file(const char *path, const void *buf, size_t len)
{
	struct out_file o;
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		errno = ELOOP;
		return -1;
	}
	if (out_file_begin(&o, path, 0644))
		return -1;
	if (len && fwrite(buf, 1, len, o.f) != len) {
		out_file_abort(&o);
		return -1;
	}
	return out_file_commit(&o);
}

int file_append_open(const char *path, int flags, bool *created,
		     const char **why)
{
	static char msg[160];
	struct stat st;
	int fd;

	if (created)
		*created = false;
	fd = open(path, (flags & ~O_CREAT) | O_APPEND | O_NOFOLLOW | O_NONBLOCK |
		  O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && (flags & O_CREAT)) {
		fd = open(path, flags | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW |
			  O_CLOEXEC, 0644);
		if (fd >= 0 && created)
			*created = true;
	}
	if (fd < 0) {
		if (errno == ELOOP)
			*why = "is a symbolic link; refusing to write through it";
		else {
			snprintf(msg, sizeof(msg), "cannot be opened for writing: %s",
				 strerror(errno));
			*why = msg;
		}
		return -1;
	}
	if (fstat(fd, &st)) {
		snprintf(msg, sizeof(msg), "cannot be opened for writing: %s",
			 strerror(errno));
		*why = msg;
	} else if (!S_ISREG(st.st_mode)) {
		*why = "is not a regular file";
	} else if (st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(msg, sizeof(msg), "is owned by uid %u, not by uid %u or "
			 "root; refusing to add to it", (unsigned)st.st_uid,
			 (unsigned)geteuid());
		*why = msg;
	} else if (st.st_nlink > 1) {
		*why = "has more than one hard link; refusing to add to it";
	} else {
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
		*why = NULL;
		return fd;
	}
	close(fd);
	if (created && *created)
		unlink(path);
	return -1;
}

FILE *file_create_new(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0644), e;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

int file_mkdir_p(const char *path, bool last, char **failed)
{
	char *p = xstrdup(path);
	int e;

	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			goto fail;
		*s = '/';
	}
	if (!last || !mkdir(p, 0755) || errno == EEXIST) {
		free(p);
		return 0;
	}
fail:
	e = errno;
	if (failed)
		*failed = p;
	else
		free(p);
	errno = e;
	return -1;
}

int file_dir_open(const char *path, unsigned flags)
{
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		    ((flags & FILE_NOFOLLOW) ? O_NOFOLLOW : 0));
}

FILE *file_kernel_open(const char *path, const char *mode)
{
	char m[4];

	snprintf(m, sizeof(m), "%se", mode[0] == 'w' ? "w" : "r");
	return fopen(path, m);
}

int file_kernel_fd(const char *path, int flags)
{
	return open(path, flags | O_CLOEXEC);
}
