/*
 * escape.c - one escaper per target language (TeX, gnuplot strings, HTML,
 * awk -v values, sbatch directives, lttng arguments); see escape.h.
 */
#include "core/escape.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first control character of s (C0 or DEL), except those in `ok`;
 * NULL when none. */
static const char *control_char(const char *s, const char *ok)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if ((c < 0x20 || c == 0x7f) && !strchr(ok, *s))
			return s;
	}
	return NULL;
}

static char *refuse(const char *s, const char *ok, const char **why)
{
	static char msg[64];
	const char *c = control_char(s, ok);

	if (c)
		snprintf(msg, sizeof(msg), "holds a control character (byte 0x%02x)",
			 (unsigned)(unsigned char)*c);
	if (why)
		*why = c ? msg : NULL;
	return NULL;
}

/* A growing heap string. */
struct sb {
	char *p;
	size_t n, cap;
};

static void sb_put(struct sb *b, const char *s)
{
	size_t l = strlen(s);

	if (b->n + l + 1 > b->cap) {
		b->cap = 2 * (b->n + l + 1);
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die(1, "out of memory");
	}
	memcpy(b->p + b->n, s, l + 1);
	b->n += l;
}

static void sb_putc(struct sb *b, char c)
{
	char s[2] = { c, '\0' };
	sb_put(b, s);
}

static char *sb_done(struct sb *b)
{
	return b->p ? b->p : xstrdup("");
}

char *esc_tex(const char *s)
{
	struct sb b = { 0 };

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '\\': sb_put(&b, "\\textbackslash{}"); break;
		case '{': case '}': case '$': case '&': case '#': case '_': case '%':
			sb_putc(&b, '\\');
			sb_putc(&b, *s);
			break;
		case '^': sb_put(&b, "\\textasciicircum{}"); break;
		case '~': sb_put(&b, "\\textasciitilde{}"); break;
		case '<': sb_put(&b, "\\textless{}"); break;
		case '>': sb_put(&b, "\\textgreater{}"); break;
		case '|': sb_put(&b, "\\textbar{}"); break;
		case '-':
			sb_put(&b, s[1] == '-' ? "-{}" : "-");
			break;
		default:
			sb_putc(&b, c < 0x20 || c == 0x7f ? '?' : *s);
		}
	}
	return sb_done(&b);
}

char *esc_gnuplot(const char *s, const char **why)
{
	struct sb b = { 0 };

	if (control_char(s, ""))
		return refuse(s, "", why);
	sb_putc(&b, '\'');
	for (; *s; s++)
		sb_put(&b, *s == '\'' ? "''" : (char[]){ *s, '\0' });
	sb_putc(&b, '\'');
	if (why)
		*why = NULL;
	return sb_done(&b);
}

char *esc_html(const char *s)
{
	struct sb b = { 0 };

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (*s) {
		case '&': sb_put(&b, "&amp;"); break;
		case '<': sb_put(&b, "&lt;"); break;
		case '>': sb_put(&b, "&gt;"); break;
		case '"': sb_put(&b, "&quot;"); break;
		case '\'': sb_put(&b, "&#39;"); break;
		default:
			if ((c >= 0x20 && c != 0x7f) || *s == '\t' || *s == '\n')
				sb_putc(&b, *s);
		}
	}
	return sb_done(&b);
}

char *esc_awk_var(const char *s, const char **why)
{
	struct sb b = { 0 };

	if (control_char(s, "\n"))
		return refuse(s, "\n", why);
	for (; *s; s++)
		sb_put(&b, *s == '\\' ? "\\\\" : *s == '\n' ? "\\n" :
		       (char[]){ *s, '\0' });
	if (why)
		*why = NULL;
	return sb_done(&b);
}

char *esc_sbatch(const char *s, int pattern, const char **why)
{
	struct sb b = { 0 };

	if (!*s) {
		if (why)
			*why = "is empty";
		return NULL;
	}
	if (control_char(s, ""))
		return refuse(s, "", why);
	sb_putc(&b, '"');
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			sb_putc(&b, '\\');
		if (*s == '%' && pattern)
			sb_putc(&b, '%');
		sb_putc(&b, *s);
	}
	sb_putc(&b, '"');
	if (why)
		*why = NULL;
	return sb_done(&b);
}

char *esc_lttng_arg(const char *s, const char **why)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789._:,*=/+@-";
	static char msg[64];

	if (!*s || *s == '-') {
		if (why)
			*why = *s ? "starts with '-' (it would be read as an option)" :
				"is empty";
		return NULL;
	}
	if (control_char(s, ""))
		return refuse(s, "", why);
	if (s[strspn(s, ok)]) {
		snprintf(msg, sizeof(msg), "holds '%c' (want letters, digits and "
			 "._:,*=/+@-)", s[strspn(s, ok)]);
		if (why)
			*why = msg;
		return NULL;
	}
	if (why)
		*why = NULL;
	return xstrdup(s);
}
