/*
 * wlspec.c - lookups over the workload specs (workloads/wlspec.h): by
 * name, the suite's name, and the faults the kernel twin expects.
 */
#include "workloads/wlspec.h"

#include <string.h>

/* wl_spec_find without the "kernel:" prefix */
const struct wl_spec *wl_spec_find_exact(const char *name);
DEFINE_REGISTRY_LOOKUP(wl_spec, struct wl_spec, wl_spec_all, wl_spec_find_exact)

const struct wl_spec *wl_spec_find(const char *name)
{
	if (!name)
		return NULL;
	if (!strncmp(name, "kernel:", 7))
		name += 7;
	return wl_spec_find_exact(name);
}

const char *wl_suite_name(enum wl_suite s)
{
	switch (s) {
	case WL_SUITE_WIS: return "will-it-scale";
	case WL_SUITE_VMSCAL: return "vm-scalability";
	case WL_SUITE_AIM9: return "aim9";
	}
	return NULL;
}

const char *workload_suite(const char *name)
{
	const struct wl_spec *s = wl_spec_find(name);

	return s ? wl_suite_name(s->suite) : NULL;
}

double wl_spec_faults_per_kop(const struct wl_spec *s)
{
	return s->kentry.faults / (s->kops_per_op > 0 ? s->kops_per_op : 1);
}
