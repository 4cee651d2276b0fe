/* topo.c - machine topology from hwloc and the worker -> PU placement order (core/topo.h). */
#include "core/topo.h"
#include "core/util.h"

#include <errno.h>
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

static struct topo topo;
static int loaded;

static void read_cpu_model(char *buf, size_t len)
{
	FILE *f = file_kernel_open("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (colon && (!strncmp(line, "model name", 10) ||
			      !strncmp(line, "Model", 5))) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

static void load(void)
{
	hwloc_topology_t t;
	int npkg, ncore, npu, nnuma;
	unsigned k = 0;

	if (hwloc_topology_init(&t) || hwloc_topology_load(t))
		die(1, "hwloc cannot read the machine topology");
	npu = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	ncore = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
	npkg = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
	nnuma = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
	if (npu <= 0)
		die(1, "hwloc found no processing units");
	topo.pus = (unsigned)npu;
	topo.cores = ncore > 0 ? (unsigned)ncore : (unsigned)npu;
	topo.packages = npkg > 0 ? (unsigned)npkg : 1;
	topo.numa_nodes = nnuma > 0 ? (unsigned)nnuma : 1;
	topo.order_cores = xcalloc(topo.pus, sizeof(int));
	topo.order_pus = xcalloc(topo.pus, sizeof(int));

	for (unsigned i = 0; i < topo.pus; i++)
		topo.order_pus[i] =
			(int)hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, i)->os_index;

	/* cores policy: per package, SMT level 0 of every core, then level 1... */
	for (unsigned p = 0; p < topo.packages; p++) {
		hwloc_obj_t pkg = npkg > 0 ?
			hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, p) :
			hwloc_get_root_obj(t);
		for (unsigned level = 0;; level++) {
			int placed = 0;
			for (int c = 0; c < ncore; c++) {
				hwloc_obj_t core = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, (unsigned)c);
				hwloc_obj_t pu;
				if (!hwloc_bitmap_isincluded(core->cpuset, pkg->cpuset))
					continue;
				pu = hwloc_get_obj_inside_cpuset_by_type(t, core->cpuset,
									 HWLOC_OBJ_PU, level);
				if (pu && k < topo.pus) {
					topo.order_cores[k++] = (int)pu->os_index;
					placed++;
				}
			}
			if (!placed)
				break;
		}
	}
	if (k != topo.pus) /* no core objects: fall back to PU order */
		memcpy(topo.order_cores, topo.order_pus, topo.pus * sizeof(int));
	read_cpu_model(topo.cpu_model, sizeof(topo.cpu_model));
	hwloc_topology_destroy(t);
	loaded = 1;
}

const struct topo *topo_get(void)
{
	if (!loaded)
		load();
	return &topo;
}

int topo_pu_for(enum affinity aff, unsigned worker)
{
	const struct topo *t = topo_get();

	switch (aff) {
	case AFF_CORES:
		return t->order_cores[worker % t->pus];
	case AFF_PUS:
		return t->order_pus[worker % t->pus];
	case AFF_NONE:
		break;
	}
	return -1;
}

int topo_pin_self(int pu)
{
	cpu_set_t set;

	if (pu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(pu, &set);
	/* pthread_setaffinity_np on self also works after fork (one thread). */
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

const char *affinity_name(enum affinity a)
{
	return a == AFF_CORES ? "cores" : a == AFF_PUS ? "pus" : "none";
}

int affinity_parse(const char *s, enum affinity *out)
{
	if (!strcmp(s, "cores"))
		*out = AFF_CORES;
	else if (!strcmp(s, "pus"))
		*out = AFF_PUS;
	else if (!strcmp(s, "none"))
		*out = AFF_NONE;
	else
		return -EINVAL;
	return 0;
}
