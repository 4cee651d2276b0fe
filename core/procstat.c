/* procstat.c - the "cpu" line of /proc/stat (core/procstat.h). */
#include "core/procstat.h"
#include "core/file.h"

#include <stdio.h>
#include <string.h>

bool proc_stat_cpu(struct proc_cpu *c)
{
	FILE *f = file_kernel_open("/proc/stat", "r");
	unsigned long long *v = c->v;

	memset(c, 0, sizeof(*c));
	if (!f)
		return false;
	c->n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		      &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
	fclose(f);
	if (c->n < 0)
		c->n = 0;
	return c->n > 0;
}

unsigned long long proc_cpu_total(const struct proc_cpu *c)
{
	unsigned long long t = 0;

	for (int i = 0; i <= PROC_CPU_STEAL; i++)
		t += c->v[i];
	return t;
}
