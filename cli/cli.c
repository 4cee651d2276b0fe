/*
 * cli.c - helpers shared by the subcommands.  Kept out of main.c so that
 * the test programs, which link every subcommand but not main(), link.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_usage(const struct subcommand *cmd, FILE *f)
{
	fprintf(f, "usage: memscale %s\n", cmd->usage);
}

void cli_bad_option(const struct subcommand *cmd, const char *arg)
{
	die(EXIT_USAGE, "%s: bad or unknown option '%s' (see 'memscale %s --help')",
	    cmd->name, arg, cmd->name);
}

static bool short_element(const char *s)
{
	return s && s[0] == '-' && s[1] && s[1] != '-';
}

void cli_bad_getopt(const struct subcommand *cmd, char **argv, const char *shortopts)
{
	int c = optopt;
	bool shortc = c > 0 && c < 256 && isgraph(c);
	const char *el = optind > 0 ? argv[optind - 1] : NULL, *cur = argv[optind];
	const char *sp = shortc ? strchr(shortopts, c) : NULL, *eq;
	char name[3] = { '-', (char)c, 0 };

	/* A short option's error inside a cluster leaves optind on the
	 * cluster (argv[optind - 1] is then the word before it); a long
	 * option's moves past it, with optopt 0 when it is unknown. */
	if (shortc && short_element(cur) && strchr(cur + 1, c) &&
	    !(short_element(el) && strchr(el + 1, c)))
		el = cur;
	if (shortc && short_element(el) && sp && sp[1] == ':')
		die(EXIT_USAGE, "%s: option '%s' needs a value (see 'memscale %s "
		    "--help')", cmd->name, name, cmd->name);
	if (shortc && short_element(el))
		die(EXIT_USAGE, "%s: unknown option '%s' (see 'memscale %s --help')",
		    cmd->name, name, cmd->name);
	if (!el)
		el = "?";
	eq = strchr(el, '=');
	if (c && el[0] == '-' && el[1] == '-')
		die(EXIT_USAGE, "%s: option '%.*s' %s (see 'memscale %s --help')",
		    cmd->name, eq ? (int)(eq - el) : (int)strlen(el), el,
		    eq ? "takes no value" : "needs a value", cmd->name);
	die(EXIT_USAGE, "%s: unknown option '%s' (see 'memscale %s --help')",
	    cmd->name, el, cmd->name);
}

void cli_where_arg(const struct subcommand *cmd, struct where *w, const char *arg)
{
	if (!where_add(w, arg))
		die(EXIT_USAGE, "%s: bad --where '%s' (want KEY=VALUE)", cmd->name, arg);
}

/* experiments/NAME.ini for a bare NAME (with or without ".ini"), or NULL. */
static char *experiment_by_name(const char *arg)
{
	size_t n = strlen(arg);
	char *p;

	if (!n || strchr(arg, '/'))
		return NULL;
	if (n > 4 && !strcmp(arg + n - 4, ".ini"))
		n -= 4;
	p = xasprintf("experiments/%.*s.ini", (int)n, arg);
	if (access(p, F_OK) == 0)
		return p;
	free(p);
	return NULL;
}

char *cli_experiment_path(const char *cmd, const char *arg)
{
	char *p;

	if (access(arg, F_OK) == 0)
		return xstrdup(arg);
	p = experiment_by_name(arg);
	if (!p)
		die(EXIT_USAGE, "%s: unknown experiment '%s' (no such file, and no "
		    "experiments/%s.ini)", cmd, arg, arg);
	return p;
}
