/*
 * export_files.c - the file writes of `memscale export` (cmd_export.c,
 * export_lkp.c): each file whole or not at all, through core's
 * atomic_write_file, and directories that may exist already.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/export.h"

void export_write(const char *path, const char *text)
{
	if (atomic_write_file(path, text, strlen(text)))
		die_errno(1, "export: cannot write '%s'", path);
}

void export_mkdir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		die_errno(1, "export: cannot create '%s'", path);
}
