/*
 * sim_memcg_check.h - the check of a workload's simulator program against
 * the model's execution (sim_memcg_check.c).
 */
#ifndef MEMSCALE_SIM_MEMCG_CHECK_H
#define MEMSCALE_SIM_MEMCG_CHECK_H

#include <stdio.h>

#include "predict/sim_memcg.h"

/* Compares the per-operation counts of every shared-line access of the
 * program (by line, kind and lock) with those of a second recording of
 * the model; prints them to out (if not NULL).  Returns the number of
 * counts that differ (0: equal), -1 for an unknown workload. */
int memcg_sim_check(const char *workload, const struct memcg_sim_cfg *cfg, FILE *out);

#endif
