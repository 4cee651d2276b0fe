/*
 * base.h - the lowest helpers every file of memscale uses: the one-line
 * error exits, the allocators that die when memory runs out, and the
 * monotonic clock.  core/util.h includes it; core/file.c, below util,
 * uses it alone.
 */
#ifndef MEMSCALE_BASE_H
#define MEMSCALE_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Exit status for bad input (usage errors), as every subcommand uses. */
#define EXIT_USAGE 2

extern const char *progname;

/* Tests and the fuzzing driver only: called by die() after its message,
 * instead of exit(); must not return (it longjmps).  NULL: exit. */
extern void (*die_hook)(int status);

/* main(), first thing: die() exits skip LeakSanitizer's check (base.c). */
void die_exit_setup(void);

/* Print "memscale: <msg>" to stderr and exit with the given status. */
void die(int status, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
/* Same with ": strerror(errno)" appended. */
void die_errno(int status, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
char *xstrdup(const char *s);
/* snprintf into a fresh heap string */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Nanoseconds of the monotonic clock. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
