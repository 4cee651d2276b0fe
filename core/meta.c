#include "core/meta.h"
#include "core/topo.h"
#include "core/util.h"

#include <stdio.h>
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

void meta_json(struct json *j)
{
	const struct topo *t = topo_get();

	json_obj_open(j, "machine");
	json_str(j, "hostname", meta_hostname());
	json_str(j, "cpu_model", t->cpu_model);
	json_int(j, "packages", t->packages);
	json_int(j, "cores", t->cores);
	json_int(j, "pus", t->pus);
	json_int(j, "numa_nodes", t->numa_nodes);
	json_int(j, "online_cpus", sysconf(_SC_NPROCESSORS_ONLN));
	json_str(j, "kernel", meta_kernel());
	json_obj_close(j);
	json_obj_open(j, "build");
	json_str(j, "compiler", meta_compiler());
	json_str(j, "cflags", meta_cflags());
	json_str(j, "git_commit", meta_git_commit());
	json_obj_close(j);
}
