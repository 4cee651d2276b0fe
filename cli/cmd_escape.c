/*
 * cmd_escape.c - `memscale escape LANG [VALUE...]`: the escapers of
 * core/escape.h for scripts (paper/gen.sh pipes every value it puts into
 * LaTeX through `memscale escape tex`).  Each VALUE, or else each line of
 * standard input (bounded, no NUL byte), is printed escaped on a line.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/escape.h"
#include "core/util.h"

static int escape_main(int argc, char **argv);

const struct subcommand escape_cmd = {
	.name = "escape",
	.summary = "escape values for TeX, gnuplot, HTML, awk, sbatch or lttng",
	.usage = "escape LANG [--] [VALUE...]\n"
		 "\n"
		 "LANG is tex, gnuplot, html, awk, sbatch or lttng.  Each VALUE (or,\n"
		 "without one, each line of standard input) is printed escaped for\n"
		 "that language on a line of its own; values that start with '-'\n"
		 "follow '--'.  A value the language cannot\n"
		 "hold (a control character in a gnuplot string, an option-looking\n"
		 "lttng argument) is refused: exit 2 with one line naming it.\n",
	.main = escape_main,
};
REGISTER(subcommand, escape_cmd);

static const char *const langs[] = { "tex", "gnuplot", "html", "awk", "sbatch",
				     "lttng" };

static char *escape_one(size_t lang, const char *v, const char **why)
{
	*why = NULL;
	switch (lang) {
	case 0: return esc_tex(v);
	case 1: return esc_gnuplot(v, why);
	case 2: return esc_html(v);
	case 3: return esc_awk_var(v, why);
	case 4: return esc_sbatch(v, 0, why);
	default: return esc_lttng_arg(v, why);
	}
}

static void put(size_t lang, const char *v, size_t n)
{
	const char *why;
	char *e = escape_one(lang, v, &why);

	if (!e)
		die(EXIT_USAGE, "escape %s: value %zu %s", langs[lang], n, why);
	puts(e);
	free(e);
}

static int escape_main(int argc, char **argv)
{
	size_t lang, n = 0, len;
	const char *why;
	char *text, *line, *save = NULL;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		cli_usage(&escape_cmd, stdout);
		return 0;
	}
	/* Options are refused wherever they stand; a value that starts with
	 * '-' follows "--" (escape LANG -- VALUE...). */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (argv[i][0] == '-' && argv[i][1])
			cli_bad_option(&escape_cmd, argv[i]);
	if (argc < 2)
		die(EXIT_USAGE, "escape: which language? (want tex, gnuplot, html, "
		    "awk, sbatch or lttng)");
	for (lang = 0; lang < ARRAY_SIZE(langs); lang++)
		if (!strcmp(argv[1], langs[lang]))
			break;
	if (lang == ARRAY_SIZE(langs))
		die(EXIT_USAGE, "escape: unknown language '%s' (want tex, gnuplot, "
		    "html, awk, sbatch or lttng)", esc_lttng_arg(argv[1], NULL) ?
		    argv[1] : "?");
	if (argc > 2) {
		int first = strcmp(argv[2], "--") ? 2 : 3;
		for (int i = first; i < argc; i++)
			put(lang, argv[i], (size_t)(i - first + 1));
		return 0;
	}
	if (!(text = file_read_bounded(stdin, FILE_READ_MAX, &len, &why)))
		die(EXIT_USAGE, "escape: standard input %s", why);
	/* Lines, each a value; blank lines are values too. */
	for (line = text; line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		if (!save && !*line)
			break;
		put(lang, line, ++n);
	}
	free(text);
	return 0;
}
