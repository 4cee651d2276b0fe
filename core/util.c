/*
 * util.c - strict number parsing, lists, names and the other small
 * helpers of core/util.h (error exits and allocation: core/base.c).
 */
#include "core/util.h"
#include "core/registry.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Numbers on the command line and in files are decimal, always: a leading
 * zero is read as decimal ("010" is ten, never octal eight), and "0x1",
 * leading blanks, a '+' sign and anything after the digits are refused.
 */
bool parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return false;
	if (!isdigit((unsigned char)s[0]) &&
	    !(s[0] == '-' && isdigit((unsigned char)s[1])))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return false;
	/* Decimal only: no hex floats ("0x1p3"), no "inf"/"nan", no blanks. */
	if (strpbrk(s, "xX") ||
	    !(isdigit((unsigned char)s[0]) || s[0] == '.' ||
	      (s[0] == '-' && (isdigit((unsigned char)s[1]) || s[1] == '.'))))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool path_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int cmp_long_asc(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *str_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

size_t parse_list(const char *s, long min, long max, long **out,
		  const char **err)
{
	size_t n = 0, cap = 16;
	long *v;
	char *copy, *tok, *save = NULL;

	*err = "empty list";
	if (!s || !*s)
		return 0;
	/* strtok_r would skip empty elements: "1,", ",1" and "1,,2" are typos. */
	if (s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,")) {
		*err = "empty list element";
		return 0;
	}
	v = xmalloc(cap * sizeof(*v));
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		long lo, hi, step = 1;
		char *dash = strchr(tok + 1, '-'), *colon = strchr(tok, ':');

		if (colon) {
			*colon = '\0';
			if (!parse_long(colon + 1, 1, max, &step)) {
				*err = "bad step in range";
				goto fail;
			}
		}
		if (dash) {
			*dash = '\0';
			if (!parse_long(tok, LONG_MIN, LONG_MAX, &lo) ||
			    !parse_long(dash + 1, LONG_MIN, LONG_MAX, &hi)) {
				*err = "not a number";
				goto fail;
			}
		} else {
			if (!parse_long(tok, LONG_MIN, LONG_MAX, &lo)) {
				*err = "not a number";
				goto fail;
			}
			hi = lo;
		}
		if (lo > hi) {
			*err = "range is backwards";
			goto fail;
		}
		if (lo < min || hi > max) {
			*err = "value out of range";
			goto fail;
		}
		for (long x = lo; x <= hi; x += step) {
			if (n == cap)
				v = realloc(v, (cap *= 2) * sizeof(*v));
			if (!v)
				die(1, "out of memory");
			v[n++] = x;
			if (n > 100000) {
				*err = "list too long";
				goto fail;
			}
		}
	}
	if (n == 0)
		goto fail;
	qsort(v, n, sizeof(*v), cmp_long_asc);
	{
		size_t w = 1;
		for (size_t i = 1; i < n; i++)
			if (v[i] != v[w - 1])
				v[w++] = v[i];
		n = w;
	}
	free(copy);
	*out = v;
	*err = NULL;
	return n;
fail:
	free(copy);
	free(v);
	return 0;
}

__attribute__((noinline, aligned(64))) void spin_delay(uint64_t iters)
{
	spin_iters(iters);
}

const char *flags_str(unsigned flags, const struct flag_name *names,
		      size_t n, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (flags & names[i].bit)
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
						"%s%s", off ? "," : "", names[i].name);
	return buf;
}

/* ---- registry helper ---- */
static const char *(*sort_name_of)(const void *);
static int cmp_by_name(const void *a, const void *b)
{
	return strcmp(sort_name_of(*(const void *const *)a),
		      sort_name_of(*(const void *const *)b));
}

const void *registry_find(const void *const *sorted, size_t n,
			  const char *(*name_of)(const void *), const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name_of(sorted[i]), name))
			return sorted[i];
	return NULL;
}

size_t registry_sorted(const void *const *start, const void *const *stop,
		       const char *(*name_of)(const void *), const void ***out)
{
	size_t n = (start && stop) ? (size_t)(stop - start) : 0;
	const void **v = xcalloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = start[i];
	sort_name_of = name_of;
	qsort(v, n, sizeof(*v), cmp_by_name);
	*out = v;
	return n;
}

int self_exe(char *buf, size_t len)
{
	ssize_t n = len > 1 ? readlink("/proc/self/exe", buf, len - 1) : -1;

	if (n <= 0 || (size_t)n >= len - 1)
		return -1; /* unreadable, or perhaps cut short */
	buf[n] = '\0';
	return 0;
}

const char *data_dir(const char *env, const char *rel)
{
	static const char *const beside[] = { "..", "../share/memscale" };
	static char *kept[16] __attribute__((used));
	static unsigned nkept;
	const char *e = env ? getenv(env) : NULL;
	char exe[PATH_MAX], *bindir, *dir;
	struct stat st;

	if (e && *e)
		return e;
	if (self_exe(exe, sizeof(exe)))
		return rel;
	bindir = dirname(exe); /* once: dirname() may cut exe in place */
	for (size_t i = 0; i < ARRAY_SIZE(beside); i++) {
		dir = xasprintf("%s/%s/%s", bindir, beside[i], rel);
		if (!stat(dir, &st) && S_ISDIR(st.st_mode)) {
			/* kept for the process, as the result of getenv; held
			 * here too, so a caller that keeps only a path built
			 * from it does not leave it unreachable */
			if (nkept < ARRAY_SIZE(kept))
				kept[nkept++] = dir;
			return dir;
		}
		free(dir);
	}
	return rel;
}
