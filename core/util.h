/*
 * util.h - small helpers shared by every part of memscale: strict number
 * parsing, cache-line constants, spinning; with core/base.h (error exits,
 * allocation, the clock) and core/file.h, which it includes.
 */
#ifndef MEMSCALE_UTIL_H
#define MEMSCALE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* Error exits, allocation and the clock: core/base.h. */
#include "core/base.h"

/*
 * 128 B: two 64 B lines, so that per-worker data never shares a line nor
 * an adjacent-line prefetch pair (Intel's spatial prefetcher fetches the
 * 128 B-aligned pair).  Used for every per-worker counter and context.
 */
#define CACHELINE 64
#define PAD_SIZE 128
#define cacheline_aligned __attribute__((aligned(PAD_SIZE)))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/*
 * Strict parsers: the whole string must be a number within [min, max].
 * They return false (and leave *out alone) on any problem, so callers can
 * name the offending option in their own message.
 */
bool parse_long(const char *s, long min, long max, long *out);
bool parse_double(const char *s, double min, double max, double *out);

/* Parse "1,2,4", "1-8", "1-8:2" or mixtures; sorted, duplicates removed.
 * Returns count, or 0 with *err set to a static message. */
size_t parse_list(const char *s, long min, long max, long **out,
		  const char **err);

/* Whether path names a directory (stat follows links). */
bool path_is_dir(const char *path);
/* qsort comparators: longs ascending; char * by strcmp. */
int cmp_long_asc(const void *a, const void *b);
int cmp_strp(const void *a, const void *b);
/* s without leading and trailing white space (isspace: blank, tab, CR, LF,
 * VT, FF); the trailing part is cut in place. */
char *str_trim(char *s);

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* Keep the compiler from optimising a value or memory away. */
#define compiler_barrier() __asm__ __volatile__("" ::: "memory")
static inline void keep(uint64_t v) { __asm__ __volatile__("" ::"r"(v)); }

/* A flag bit and its name, for flags_str(). */
struct flag_name {
	unsigned bit;
	const char *name;
};
/* "a,b,c": the names of the bits set in `flags`, into buf. */
const char *flags_str(unsigned flags, const struct flag_name *names,
		      size_t n, char *buf, size_t len);

/* Opening, reading and writing files: core/file.h. */
#include "core/file.h"

/* This binary's path (the link /proc/self/exe) into buf, NUL-ended: 0,
 * or -1 when it cannot be read or does not fit in len bytes. */
int self_exe(char *buf, size_t len);

/* A data directory of the source tree: $ENV when set (env may be NULL),
 * else REL beside the binary (bin/../REL: a checkout) when that is a
 * directory, else the installed copy (bin/../share/memscale/REL: `make
 * install`), else REL (relative to the current directory).  Not to be
 * freed; one call per (env, rel). */
const char *data_dir(const char *env, const char *rel);

/* Busy loop of roughly `iters` iterations that the compiler keeps. */
static inline void spin_iters(uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		compiler_barrier();
}

/*
 * The same loop at one fixed, cache-line-aligned code address, for delays
 * given in nanoseconds: an iteration's speed depends on where the loop
 * lands (alignment, uop cache), so calibration and use must run the very
 * same instructions.  Returns at once for 0 (no call cost in the caller's
 * fast path when guarded by `if (iters)`).
 */
void spin_delay(uint64_t iters);

#endif
