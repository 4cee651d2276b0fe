/* registry.c - lookup over the counter registry. */
#include "counter.h"
#include "../core/util.h"

#include <string.h>

static const char *counter_name_of(const void *p)
{
	return ((const struct counter_ops *)p)->name;
}

size_t counter_all(const struct counter_ops ***out)
{
	static const void **cache;
	static size_t n;

	if (!cache)
		n = registry_sorted(__start_ms_reg_counter, __stop_ms_reg_counter,
				    counter_name_of, &cache);
	*out = (const struct counter_ops **)cache;
	return n;
}

const struct counter_ops *counter_find(const char *name)
{
	const struct counter_ops **all;
	size_t n = counter_all(&all);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
