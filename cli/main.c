/* main.c - bin/memscale: dispatch to a registered subcommand. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/meta.h"
#include "trace/tp.h"

static const char *cmd_name_of(const void *p)
{
	return ((const struct subcommand *)p)->name;
}

static void usage(FILE *f, const void **cmds, size_t n)
{
	fprintf(f, "usage: memscale COMMAND [ARGS...]\n\n"
		   "Lock contention and counter scalability in the Linux memcg design.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < n; i++) {
		const struct subcommand *c = cmds[i];
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	}
	fprintf(f, "\n'memscale COMMAND --help' describes each command; 'memscale --version'\n"
		   "prints the build (git commit, compiler, flags).\n");
}

int main(int argc, char **argv)
{
	const void **cmds;
	size_t n;

	die_exit_setup();
	n = registry_sorted(__start_ms_reg_subcommand, __stop_ms_reg_subcommand,
			    cmd_name_of, &cmds);

	if (argc < 2) {
		usage(stderr, cmds, n);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version")) {
		if (argc > 2)
			die(EXIT_USAGE, "--version takes no arguments (got '%s')", argv[2]);
		printf("memscale %s (%s, %s, trace %s)\n", meta_git_commit(),
		       meta_compiler(), meta_cflags(), TRACE_BUILT_IN ? "built in" :
		       "compiled out");
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout, cmds, n);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		const struct subcommand *c = cmds[i];
		if (!strcmp(c->name, argv[1])) {
			for (int a = 2; a < argc; a++)
				if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
					cli_usage(c, stdout);
					return 0;
				}
			int status = c->main(argc - 1, argv + 1);
			free(cmds);
			return status;
		}
	}
	die(EXIT_USAGE, "unknown command '%s' (see 'memscale --help')", argv[1]);
}
