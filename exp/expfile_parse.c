/*
 * expfile_parse.c - what every part of the experiment file reader uses
 * (expfile_parse.h): the one error line, "FILE:LINE: reason" with exit
 * status 2, comma lists split into trimmed items, each given once, and
 * the check of one knob, lock or counter setting.
 */
#include "exp/expfile_parse.h"
#include "core/knob.h"
#include "core/util.h"
#include "counters/counter.h"
#include "locks/lock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void exp_perr(const struct parser *p, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	die(EXIT_USAGE, "%s:%d: %s", p->path, line, msg);
}

static int cmp_item(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* An item given twice in a list of names or values would run (or count)
 * its points twice: refused, sorted so that a long list costs n log n. */
void exp_check_unique(const struct parser *p, const char *key, char **v, size_t n)
{
	char **s;

	if (n < 2)
		return;
	s = xcalloc(n, sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_item);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(s[i - 1], s[i]))
			exp_perr(p, p->line, "'%s' lists '%s' twice", key, s[i]);
	free(s);
}

/* Splits a comma list into trimmed, non-empty items. */
size_t exp_split_list(const struct parser *p, const char *key,
		      const char *value, char ***out)
{
	char *copy = xstrdup(value), *save = copy, *tok;
	size_t n = 0;

	*out = NULL;
	if (!*value) { /* an empty list: caught as an empty matrix */
		free(copy);
		return 0;
	}
	while ((tok = strsep(&save, ","))) {
		tok = str_trim(tok);
		if (!*tok)
			exp_perr(p, p->line, "empty item in the list for '%s'", key);
		*out = realloc(*out, (n + 1) * sizeof(char *));
		if (!*out)
			die(1, "out of memory");
		(*out)[n++] = xstrdup(tok);
	}
	free(copy);
	return n;
}

/* Checks one assignment of a knob, `lock` or `counter`. */
void exp_check_setting(struct parser *p, const char *key, const char *value)
{
	char err[768];

	if (!strcmp(key, "lock")) {
		if (!lock_find(value))
			exp_perr(p, p->line, "unknown lock '%s' (see 'memscale list locks')",
			     value);
		return;
	}
	if (!strcmp(key, "counter")) {
		if (!counter_find(value))
			exp_perr(p, p->line, "unknown counter '%s' (see 'memscale list "
			     "counters')", value);
		return;
	}
	if (!knobset_set(p->scratch, key, value, err, sizeof(err)))
		exp_perr(p, p->line, "%s", err);
}
