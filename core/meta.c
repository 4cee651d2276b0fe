#include "core/meta.h"
#include "core/topo.h"
#include "core/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef MEMSCALE_GIT
#define MEMSCALE_GIT "unknown"
#endif
#ifndef MEMSCALE_CFLAGS
#define MEMSCALE_CFLAGS "unknown"
#endif

const char *meta_git_commit(void) { return MEMSCALE_GIT; }
const char *meta_compiler(void) { return "gcc " __VERSION__; }
const char *meta_cflags(void) { return MEMSCALE_CFLAGS; }

const char *meta_hostname(void)
{
	static char host[256];
	if (!host[0] && gethostname(host, sizeof(host) - 1))
		strcpy(host, "unknown");
	return host;
}

const char *meta_kernel(void)
{
	static char buf[256];
	struct utsname u;

	if (!buf[0]) {
		if (uname(&u))
			strcpy(buf, "unknown");
		else
			snprintf(buf, sizeof(buf), "%s %s %s", u.sysname,
				 u.release, u.machine);
	}
	return buf;
}

const char *meta_now_iso(void)
{
	static char buf[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

char *meta_sidecar_path(const char *csv_path)
{
	size_t n = strlen(csv_path);

	if (n > 4 && !strcmp(csv_path + n - 4, ".csv"))
		return xasprintf("%.*s.json", (int)(n - 4), csv_path);
	return xasprintf("%s.json", csv_path);
}

/* The nominal clock in MHz: cpufreq's base_frequency, else half of
 * /proc/cpuinfo's bogomips (twice the TSC clock on x86), else its
 * "cpu MHz"; 0 when none is readable.  Stable across reads, unlike the
 * current frequency, so two descriptions of one machine agree. */
static long nominal_mhz(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency", "r");
	char line[4096];
	double khz = 0, bogo = 0, cur = 0;

	if (f) {
		if (fscanf(f, "%lf", &khz) != 1)
			khz = 0;
		fclose(f);
		if (khz > 0)
			return (long)(khz / 1000 + 0.5);
	}
	if (!(f = fopen("/proc/cpuinfo", "r")))
		return 0;
	while (fgets(line, sizeof(line), f) && (!bogo || !cur)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		if (!bogo && !strncmp(line, "bogomips", 8))
			bogo = strtod(colon + 1, NULL);
		else if (!cur && !strncmp(line, "cpu MHz", 7))
			cur = strtod(colon + 1, NULL);
	}
	fclose(f);
	return (long)((bogo > 0 ? bogo / 2 : cur) + 0.5);
}

/* "yes" when the CPU flags say a hypervisor runs this machine. */
static const char *hypervisor(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	bool found = false;

	if (!f)
		return "unknown";
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *colon = strchr(line, ':');
		if (strncmp(line, "flags", 5) || !colon)
			continue;
		for (char *w = strtok_r(colon + 1, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
			found |= !strcmp(w, "hypervisor");
		break;
	}
	fclose(f);
	return found ? "yes" : "no";
}

size_t meta_machine(struct meta_fact *f)
{
	const struct topo *t = topo_get();
	size_t n = 0;

	f[n++] = (struct meta_fact){ "hostname", meta_hostname(), 0 };
	f[n++] = (struct meta_fact){ "cpu_model", t->cpu_model, 0 };
	f[n++] = (struct meta_fact){ "packages", NULL, (long)t->packages };
	f[n++] = (struct meta_fact){ "cores", NULL, (long)t->cores };
	f[n++] = (struct meta_fact){ "pus", NULL, (long)t->pus };
	f[n++] = (struct meta_fact){ "numa_nodes", NULL, (long)t->numa_nodes };
	f[n++] = (struct meta_fact){ "online_cpus", NULL, sysconf(_SC_NPROCESSORS_ONLN) };
	f[n++] = (struct meta_fact){ "kernel", meta_kernel(), 0 };
	f[n++] = (struct meta_fact){ "cpu_mhz", NULL, nominal_mhz() };
	f[n++] = (struct meta_fact){ "hypervisor", hypervisor(), 0 };
	return n;
}

size_t meta_build(struct meta_fact *f)
{
	size_t n = 0;

	f[n++] = (struct meta_fact){ "compiler", meta_compiler(), 0 };
	f[n++] = (struct meta_fact){ "cflags", meta_cflags(), 0 };
	f[n++] = (struct meta_fact){ "git_commit", meta_git_commit(), 0 };
	return n;
}

static void json_facts(struct json *j, const char *name,
		       size_t (*facts)(struct meta_fact *))
{
	struct meta_fact f[META_FACTS_MAX];
	size_t n = facts(f);

	json_obj_open(j, name);
	for (size_t i = 0; i < n; i++) {
		if (f[i].text)
			json_str(j, f[i].key, f[i].text);
		else
			json_int(j, f[i].key, f[i].num);
	}
	json_obj_close(j);
}

void meta_json(struct json *j)
{
	json_facts(j, "machine", meta_machine);
	json_facts(j, "build", meta_build);
}
