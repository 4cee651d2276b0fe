/*
 * cli.c - helpers shared by the subcommands.  Kept out of main.c so that
 * the test programs, which link every subcommand but not main(), link.
 */
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
