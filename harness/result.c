/*
 * result.c - a run's result record: its named metrics (set, replaced and
 * read by name) and the per-sample and per-worker rates it owns.  Kept
 * apart from harness.c so that the samplers (runstat.c) and the harness
 * that calls them both write metrics without calling each other.
 */
#include "harness/harness.h"
#include "harness/workload.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void result_metric(struct result *res, const char *name, double value)
{
	for (unsigned i = 0; i < res->nmetrics; i++)
		if (!strcmp(res->metrics[i].name, name)) {
			res->metrics[i].value = value;
			return;
		}
	if (res->nmetrics == RESULT_MAX_METRICS)
		die(1, "internal error: too many result metrics");
	snprintf(res->metrics[res->nmetrics].name, sizeof(res->metrics[0].name),
		 "%s", name);
	res->metrics[res->nmetrics++].value = value;
}

double result_get(const struct result *res, const char *metric, double dflt)
{
	for (unsigned i = 0; i < res->nmetrics; i++)
		if (!strcmp(res->metrics[i].name, metric))
			return res->metrics[i].value;
	return dflt;
}

void result_free(struct result *res)
{
	free(res->sample_rate);
	free(res->worker_rate);
	res->sample_rate = res->worker_rate = NULL;
}
