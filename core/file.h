/*
 * file.h - the one way memscale opens files (it runs as root, so a name
 * someone else could have planted must not steer it).  Every open(2) and
 * fopen(3) on a path is in core/file.c (tests/open_sites.t keeps it so):
 *  - inputs are regular files only, opened O_NONBLOCK (a FIFO never makes
 *    open() wait for a writer), judged by fstat on the descriptor, and
 *    O_NOFOLLOW where the name is not the user's own argument; streams
 *    are read with a size bound;
 *  - a new output is a temporary file created O_CREAT|O_EXCL|O_NOFOLLOW
 *    under an unpredictable name in the target's directory (opened once,
 *    used with openat) and then renamed over the target with renameat;
 *  - an append opens O_NOFOLLOW and takes only a regular file with one
 *    link, owned by the caller or by root;
 *  - the kernel's own files (/proc, /sys, cgroupfs, /dev/null) are opened
 *    by file_kernel_open().
 */
#ifndef MEMSCALE_FILE_H
#define MEMSCALE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Every input file is opened through input_fopen(): a regular file only,
 * checked without blocking (stat, then open O_NONBLOCK and fstat the
 * descriptor), so a FIFO, a device or a directory is refused and nothing
 * waits for a writer.  NULL on failure, with *why the reason as a phrase
 * that follows the quoted path ("is a directory", "is a FIFO, not a
 * regular file", "cannot be read: No such file or directory").
 */
FILE *input_fopen(const char *path, const char **why);
/* The same, with FILE_NOFOLLOW: a symbolic link at PATH is refused
 * ("is a symbolic link, not a regular file"); for names the user did not
 * give (files found in a directory, sidecars, state files). */
#define FILE_NOFOLLOW 1u
FILE *file_read_open(const char *path, unsigned flags, const char **why);
/* The descriptor form of file_read_open() (O_RDONLY, blocking reads). */
int file_read_fd(const char *path, unsigned flags, const char **why);
/* The same, dying with EXIT_USAGE and one line "CMD: 'PATH' WHY (want WANT)". */
FILE *open_input_file(const char *cmd, const char *path, const char *want);
/*
 * Bad input files, named as such: dies with EXIT_USAGE and one line
 * "CMD: 'PATH' is a directory (want WANT)" when PATH is missing,
 * unreadable, a directory, a FIFO, a special file or empty.
 */
void check_input_file(const char *cmd, const char *path, const char *want);
/*
 * An output file about to be written: dies with EXIT_USAGE when PATH is a
 * directory or a special file, or its directory is missing or not
 * writable.
 */
void check_output_file(const char *cmd, const char *path);

/*
 * Reads f to its end into a NUL-terminated heap string of *len bytes, at
 * most `max` bytes and no NUL byte: past either, NULL with *why "holds a
 * NUL byte at offset N" or "is larger than MAX bytes" (and nothing more is
 * read, so `stats - </dev/zero` ends at once).  NULL with *why "cannot be
 * read: ..." on a read error.
 */
char *file_read_bounded(FILE *f, size_t max, size_t *len, const char **why);
/*
 * The same, but a NUL byte is no error: reading stops after the chunk
 * that holds it, which is kept (with the NUL), so the caller can name the
 * line it is on; `stats - </dev/zero` still ends at once.
 */
char *file_read_to_nul(FILE *f, size_t max, size_t *len, const char **why);
/* The bound of read_text_file() and of `stats -`: 256 MiB. */
#define FILE_READ_MAX ((size_t)256 << 20)

/*
 * The lines of an ini file as libinih reads them: ini_parse_stream(
 * ini_lines_read, &in, handler, user) with in.f open and in.line 0.  Each
 * call hands libinih one whole line and counts it, so a message can name
 * the line (in.line: the last one handed over, also while the handler
 * runs); a NUL byte ("not a text file (a NUL byte)") or a line longer
 * than libinih's buffer of INI_MAX_LINE 200 ("line too long (over 199
 * characters)") stops the reading with the reason in in.bad.  The file
 * is read byte by byte, at most a buffer's worth per call, so a stream
 * without newlines ends.  The caller checks ferror(in.f) after.
 */
struct ini_lines {
	FILE *f;
	int line;        /* of the line libinih has last been handed */
	const char *bad; /* why the reading stopped early, or NULL */
};
char *ini_lines_read(char *str, int num, void *stream);

/*
 * libinih hands an indented line on as another value of the key before
 * it, in the same section.  A parser keeps one struct ini_cont and calls
 * ini_cont_take() first in its handler: it appends such a value to the
 * string last set (one space between) and returns true; otherwise it
 * records sec and key as the latest (key: for the parser's messages),
 * forgets the string and returns false.  After setting a string value,
 * the handler names it in .slot so that a continuation extends it.
 */
struct ini_cont {
	char sec[32], key[64];
	char **slot; /* the value a continuation line extends, or NULL */
};
bool ini_cont_take(struct ini_cont *c, const char *sec, const char *key, const char *value);

/*
 * Writes all `len` bytes to fd (retrying short writes and EINTR);
 * 0, or -1 with errno set (ENOSPC for a full disk).
 */
int write_all(int fd, const void *buf, size_t len);

/* A new output being written: see out_file_begin(). */
struct out_file {
	int dirfd;   /* the target's directory, opened once */
	char *name;  /* the target's last component */
	char *tmp;   /* the temporary file's name in dirfd */
	char *path;  /* the target as given, for messages */
	FILE *f;     /* open for writing on the temporary file */
};
/*
 * Starts writing `path` anew: opens its directory (O_DIRECTORY), then
 * creates "NAME.tmp.PID.RANDOM" in it with openat(O_CREAT|O_EXCL|
 * O_NOFOLLOW, mode).  o->f is the stream to write.  -1 with errno set
 * (nothing left behind), else 0.
 */
int out_file_begin(struct out_file *o, const char *path, mode_t mode);
/*
 * Flushes, fsyncs and closes the temporary file, every step checked, then
 * renameat()s it over the target (which replaces a symbolic link there
 * rather than writing through it).  0, or -1 with errno set and the
 * temporary file removed.  Either way o is released.
 */
int out_file_commit(struct out_file *o);
/* Removes the temporary file and releases o (after an error). */
void out_file_abort(struct out_file *o);
/*
 * Replaces `path` with exactly `len` bytes, whole or not at all (through
 * out_file_begin/commit, mode 0644); a symbolic link at `path` is refused
 * (ELOOP) all the same.  0, or -1 with errno set.
 */
int atomic_write_file(const char *path, const void *buf, size_t len);
/*
 * Opens `path` to add to it (flags: O_WRONLY or O_RDWR, plus O_CREAT to
 * make it if absent; O_APPEND|O_NOFOLLOW|O_CLOEXEC always added): a
 * symbolic link is refused, and so is anything but a regular file with
 * one link owned by the caller or by root.  fd, or -1 with *why the
 * reason as a phrase after the quoted path.  *created: whether this call
 * made the file (may be NULL).
 */
int file_append_open(const char *path, int flags, bool *created,
		     const char **why);
/*
 * A new file that must not exist yet (fopen "wx" made safe: O_CREAT|
 * O_EXCL|O_NOFOLLOW, mode 0644).  NULL with errno set.
 */
FILE *file_create_new(const char *path);
/*
 * mkdir -p: every directory of `path` (mode 0755), the last component
 * too when `last` (else only its parents, for a file's path).  0, or -1
 * with errno set and *failed (may be NULL) the heap copy of the prefix
 * that could not be made (the caller frees it).
 */
int file_mkdir_p(const char *path, bool last, char **failed);
/* A directory, opened O_RDONLY|O_DIRECTORY|O_CLOEXEC (to lock or to use
 * with openat), with FILE_NOFOLLOW also O_NOFOLLOW (a symbolic link:
 * ELOOP or ENOTDIR); -1 with errno set.  Judge it by fstat on the fd. */
int file_dir_open(const char *path, unsigned flags);
/*
 * The kernel's own files: /proc, /sys, cgroupfs, /dev/null (and the test
 * doubles standing in for them), which are no user's input.  fopen(3)
 * modes "r" and "w" ("e" is implied); NULL with errno set.
 */
FILE *file_kernel_open(const char *path, const char *mode);
/* open(2) on such a file: O_CLOEXEC added; -1 with errno set. */
int file_kernel_fd(const char *path, int flags);

/* Whole file as a NUL-terminated heap string (at most FILE_READ_MAX
 * bytes), or NULL if unreadable, not a regular file or too large. */
char *read_text_file(const char *path);

#endif
