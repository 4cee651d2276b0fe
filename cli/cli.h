/*
 * cli.h - subcommands of bin/memscale.  Each lives in its own file and
 * registers itself with REGISTER(subcommand, <name>_cmd).  Every
 * subcommand accepts --help; bad input exits with EXIT_USAGE (2).
 */
#ifndef MEMSCALE_CLI_H
#define MEMSCALE_CLI_H

#include <stdio.h>

#include "core/registry.h"
#include "core/util.h"
#include "core/where.h"

struct subcommand {
	const char *name;
	const char *summary;
	const char *usage; /* full --help text after "usage: memscale " */
	int (*main)(int argc, char **argv);
};

REGISTRY_BOUNDS(subcommand);

/* Print the subcommand's usage to f. */
void cli_usage(const struct subcommand *cmd, FILE *f);
/* Common getopt error: "unknown option" etc. -> exit 2 with a hint. */
void cli_bad_option(const struct subcommand *cmd, const char *arg)
	__attribute__((noreturn));
/* After getopt_long() returned '?' (opterr = 0) for argv with the short
 * options shortopts: exit 2 with one line naming the option at fault, as
 * typed (a short one also inside a cluster such as -qZ), and whether it is
 * unknown, lacks its value or was given one it does not take. */
void cli_bad_getopt(const struct subcommand *cmd, char **argv, const char *shortopts)
	__attribute__((noreturn));
/* One --where KEY=VALUE argument into w; anything else exits 2 with
 * "CMD: bad --where 'ARG' (want KEY=VALUE)". */
void cli_where_arg(const struct subcommand *cmd, struct where *w, const char *arg);
/* An experiment given by name (experiments/NAME.ini) or by path, the same
 * in every command: the file's path (malloc'd); neither: exit 2 naming
 * both places looked at. */
char *cli_experiment_path(const char *cmd, const char *arg);

#endif
