/*
 * base.c - the lowest helpers every file of memscale uses: the one-line
 * error exits (die) and the allocators that die when memory runs out.
 */
#include "core/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *progname = "memscale";
void (*die_hook)(int status);

/*
 * die() ends the process on an error: every atexit cleanup (cgroups, tmpfs
 * mounts, LTTng sessions) still runs, then this handler, registered first
 * by main(), ends it with _exit() before LeakSanitizer's end-of-process
 * check (registered before main): what an erroring process still holds
 * is not a leak, and its report would add lines to the one-line error.
 * Normal exits keep the check.
 */
static int dying_status = -1;

/*
 * Standard output is an output like any other: a result printed to a
 * full disk or a closed pipe must not end with status 0.  The last
 * handler to run (registered first) flushes and closes it; a failed
 * write at any time (the error flag stays set) or now ends the process
 * with status 1 and one line.  An error exit keeps its own status.
 */
static void end_after_cleanups(void)
{
	int err = 0;

	errno = 0;
	if (dying_status >= 0) {
		fflush(NULL);
		_exit(dying_status);
	}
	if (fflush(stdout))
		err = errno ? errno : EIO;
	if (ferror(stdout) && !err)
		err = EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (err) {
		fprintf(stderr, "%s: cannot write standard output: %s\n", progname,
			strerror(err));
		_exit(1);
	}
}

void die_exit_setup(void)
{
	atexit(end_after_cleanups);
}

/* Every message is one line: a control character a user's value brought
 * in (a newline in a lock name) is written escaped, "\n", "\t" or "\xNN". */
static void vmsg(const char *fmt, va_list ap, int errnum)
{
	char *msg = NULL;

	fprintf(stderr, "%s: ", progname);
	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs(fmt, stderr);
	} else {
		for (const unsigned char *c = (const unsigned char *)msg; *c; c++) {
			if (*c == '\n')
				fputs("\\n", stderr);
			else if (*c == '\t')
				fputs("\\t", stderr);
			else if (*c < 0x20 || *c == 0x7f)
				fprintf(stderr, "\\x%02x", *c);
			else
				fputc(*c, stderr);
		}
		free(msg);
	}
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
	if (die_hook)
		die_hook(status);
	dying_status = status;
	exit(status);
}

void die_errno(int status, const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap, e);
	va_end(ap);
	if (die_hook)
		die_hook(status);
	dying_status = status;
	exit(status);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap, 0);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die(1, "out of memory");
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);
	if (!p)
		die(1, "out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		die(1, "out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die(1, "out of memory");
	va_end(ap);
	return p;
}
