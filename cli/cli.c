/*
 * cli.c - helpers shared by the subcommands.  Kept out of main.c so that
 * the test programs, which link every subcommand but not main(), link.
 */
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
