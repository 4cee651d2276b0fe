/*
 * expfile.c - the experiment reader's limits on this machine: the
 * workloads the harness runs (its registry, harness/workload.h) and the
 * most workers a run takes here (harness/run_opts.h), handed down to
 * exp/expfile.c as data (see expfile.h).
 */
#include "harness/expfile.h"
#include "core/util.h"
#include "harness/run_opts.h"
#include "harness/workload.h"

const struct exp_limits *exp_limits_here(void)
{
	static struct exp_limits lim;
	static const char **names;

	if (!names) {
		const struct workload **all;
		size_t n = workload_all(&all);

		names = xcalloc(n + 1, sizeof(*names));
		for (size_t i = 0; i < n; i++)
			names[i] = all[i]->name;
		lim.workloads = names;
		lim.nworkloads = n;
		lim.workers_max = workers_max();
	}
	return &lim;
}

struct experiment *exp_load(const char *path)
{
	return exp_read(path, exp_limits_here());
}

int exp_run_setting(struct experiment *e, const char *key, const char *value,
		    char *why, size_t len)
{
	return exp_set_run(e, key, value, exp_limits_here(), why, len);
}
