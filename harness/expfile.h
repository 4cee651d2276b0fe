/*
 * expfile.h - experiment files as the harness reads them: exp/expfile.h's
 * reader (the format, struct experiment) with the checks only the harness
 * can make, against its workload registry and the most workers a run
 * takes on this machine (struct exp_limits).  Every command that runs or
 * lists experiments reads them through exp_load().
 */
#ifndef MEMSCALE_HARNESS_EXPFILE_H
#define MEMSCALE_HARNESS_EXPFILE_H

#include <stddef.h>

#include "exp/expfile.h"

/* The registered workloads and this machine's most workers (built once). */
const struct exp_limits *exp_limits_here(void);
/* exp_read(path, exp_limits_here()): parses and validates; on any
 * problem prints "file:line: reason" and exits with EXIT_USAGE. */
struct experiment *exp_load(const char *path);
/* exp_set_run() under this machine's limits (`sweep -O KEY=VALUE`). */
int exp_run_setting(struct experiment *e, const char *key, const char *value,
		    char *why, size_t len);

#endif
