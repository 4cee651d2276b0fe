/* meta.c - provenance of every result: machine, compiler, commit, time,
 * environment (core/meta.h). */
#include "core/meta.h"
#include "core/procstat.h"
#include "core/topo.h"
#include "core/util.h"

#include <dirent.h>
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
	FILE *f = file_kernel_open("/sys/devices/system/cpu/cpu0/cpufreq/base_frequency", "r");
	char line[4096];
	double khz = 0, bogo = 0, cur = 0;

	if (f) {
		if (fscanf(f, "%lf", &khz) != 1)
			khz = 0;
		fclose(f);
		if (khz > 0)
			return (long)(khz / 1000 + 0.5);
	}
	if (!(f = file_kernel_open("/proc/cpuinfo", "r")))
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
	FILE *f = file_kernel_open("/proc/cpuinfo", "r");
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

/*
 * The CPU vulnerabilities the running kernel mitigates or leaves open
 * (/sys/devices/system/cpu/vulnerabilities/, "Not affected" left out),
 * in name order, each "NAME: its first clause": a system call's and a
 * fault's cost here include these (docs/calibration.md), a target's
 * come from its profile.
 */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *mitigations(void)
{
	static const char dir_path[] = "/sys/devices/system/cpu/vulnerabilities";
	static char buf[640];
	static const char *known; /* fixed at boot: read once per process */
	char *names[64];
	size_t n = 0, used = 0;
	struct dirent *d;
	DIR *dir;

	if (known)
		return known;
	dir = opendir(dir_path);
	if (!dir)
		return known = "unknown (no /sys/devices/system/cpu/vulnerabilities)";
	while ((d = readdir(dir)) && n < ARRAY_SIZE(names))
		if (d->d_name[0] != '.')
			names[n++] = xstrdup(d->d_name);
	closedir(dir);
	qsort(names, n, sizeof(names[0]), cmp_str);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char path[320], line[256], *v, *end;
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir_path, names[i]);
		f = file_kernel_open(path, "r");
		if (f && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n;")] = '\0';
			v = line;
			if (!strncmp(v, "Mitigation: ", 12))
				v += 12;
			end = v + strlen(v);
			while (end > v && end[-1] == ' ')
				*--end = '\0';
			if (strcmp(v, "Not affected") && used < sizeof(buf)) {
				int w = snprintf(buf + used, sizeof(buf) - used, "%s%s: %s",
						 used ? ", " : "", names[i], v);
				used = w < 0 ? sizeof(buf) : used + (size_t)w;
			}
		}
		if (f)
			fclose(f);
		free(names[i]);
	}
	return known = buf[0] ? buf : "none reported";
}

/* ---- the environment as LKP records it (lkp-tests lib/sysinfo.sh and
 * its monitors): CPU frequency governor, turbo/boost, THP, ASLR, load
 * and steal, read at the start and at the end of a run, and the kernel
 * configuration options that change what memscale measures. ---- */

struct meta_env {
	bool taken;
	char time[32];
	char governor[64], turbo[32], thp[128], thp_defrag[128], aslr[16];
	double load[3];
	unsigned long long steal, total; /* /proc/stat "cpu" jiffies */
};

static struct meta_env env_start, env_end;

/* First line of a file, trimmed; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = file_kernel_open(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The selected value of a sysfs choice list: "always [madvise] never". */
static void bracketed(char *buf)
{
	char *l = strchr(buf, '['), *r = l ? strchr(l, ']') : NULL;

	if (l && r) {
		memmove(buf, l + 1, (size_t)(r - l - 1));
		buf[r - l - 1] = '\0';
	}
}

static void env_capture(struct meta_env *e)
{
	char buf[256];
	struct proc_cpu pc;

	memset(e, 0, sizeof(*e));
	e->taken = true;
	snprintf(e->time, sizeof(e->time), "%s", meta_now_iso());
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  e->governor, sizeof(e->governor));
	if (!e->governor[0])
		strcpy(e->governor, "not available (no cpufreq)");
	/* intel_pstate's no_turbo is inverted; acpi-cpufreq has boost */
	read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", buf, sizeof(buf));
	if (buf[0])
		snprintf(e->turbo, sizeof(e->turbo), "%s", buf[0] == '0' ? "on" : "off");
	else {
		read_line("/sys/devices/system/cpu/cpufreq/boost", buf, sizeof(buf));
		snprintf(e->turbo, sizeof(e->turbo), "%s", !buf[0] ? "not available" :
			 buf[0] == '1' ? "on" : "off");
	}
	read_line("/sys/kernel/mm/transparent_hugepage/enabled", e->thp, sizeof(e->thp));
	bracketed(e->thp);
	read_line("/sys/kernel/mm/transparent_hugepage/defrag", e->thp_defrag,
		  sizeof(e->thp_defrag));
	bracketed(e->thp_defrag);
	read_line("/proc/sys/kernel/randomize_va_space", e->aslr, sizeof(e->aslr));
	read_line("/proc/loadavg", buf, sizeof(buf));
	if (sscanf(buf, "%lf %lf %lf", &e->load[0], &e->load[1], &e->load[2]) != 3)
		e->load[0] = e->load[1] = e->load[2] = -1;
	if (proc_stat_cpu(&pc) && pc.n >= 4) {
		e->total = proc_cpu_total(&pc);
		e->steal = pc.v[PROC_CPU_STEAL];
	}
}

void meta_env_start(void)
{
	if (!env_start.taken)
		env_capture(&env_start);
}

void meta_env_end(void)
{
	meta_env_start();
	env_capture(&env_end);
}

static void env_json(struct json *j, const char *key, const struct meta_env *e)
{
	static const char *const aslr[] = { "off (0)", "on, no brk (1)", "on (2)" };
	int a = atoi(e->aslr);

	json_obj_open(j, key);
	json_str(j, "time", e->time);
	json_str(j, "cpufreq_governor", e->governor);
	json_str(j, "turbo", e->turbo);
	json_str(j, "thp_enabled", e->thp[0] ? e->thp : "not available");
	json_str(j, "thp_defrag", e->thp_defrag[0] ? e->thp_defrag : "not available");
	json_str(j, "aslr", !e->aslr[0] ? "not available" : a >= 0 && a <= 2 ? aslr[a] : e->aslr);
	json_arr_open(j, "loadavg");
	for (int i = 0; i < 3; i++)
		json_num(j, NULL, e->load[i]);
	json_arr_close(j);
	json_int(j, "steal_jiffies", (long long)e->steal);
	json_int(j, "cpu_jiffies", (long long)e->total);
	json_obj_close(j);
}

/* Kernel options that change what a memcg benchmark measures (lock
 * debugging and statistics, preemption, memcg, THP, tick rate). */
static const char *const kconfig_keys[] = {
	"CONFIG_MEMCG", "CONFIG_MEMCG_V1", "CONFIG_MEMCG_KMEM", "CONFIG_LOCK_STAT",
	"CONFIG_LOCKDEP", "CONFIG_PROVE_LOCKING", "CONFIG_DEBUG_SPINLOCK",
	"CONFIG_DEBUG_LOCK_ALLOC", "CONFIG_PARAVIRT_SPINLOCKS", "CONFIG_PREEMPT",
	"CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT_NONE", "CONFIG_PREEMPT_DYNAMIC",
	"CONFIG_PREEMPT_RT", "CONFIG_HZ", "CONFIG_NO_HZ_FULL", "CONFIG_NR_CPUS",
	"CONFIG_TRANSPARENT_HUGEPAGE", "CONFIG_NUMA", "CONFIG_KASAN",
	"CONFIG_DEBUG_VM", "CONFIG_PAGE_POISONING", "CONFIG_INIT_ON_ALLOC_DEFAULT_ON",
};

static void kconfig_json(struct json *j)
{
	char *cmd = NULL, *line = NULL, path[300];
	size_t cap = 0;
	FILE *f = NULL;
	bool piped = false;

	json_obj_open(j, "kernel_config");
	if (access("/proc/config.gz", R_OK) == 0 &&
	    (f = popen("gzip -dc /proc/config.gz 2>/dev/null", "r"))) {
		piped = true;
		json_str(j, "source", "/proc/config.gz");
	} else {
		struct utsname u;
		if (!uname(&u)) {
			snprintf(path, sizeof(path), "/boot/config-%s", u.release);
			if ((f = file_kernel_open(path, "r")))
				json_str(j, "source", path);
		}
	}
	if (!f) {
		json_str(j, "source", "not readable (no /proc/config.gz or /boot/config-RELEASE)");
		json_obj_close(j);
		return;
	}
	{
		char *val[ARRAY_SIZE(kconfig_keys)] = { 0 };

		while (getline(&line, &cap, f) > 0) {
			for (size_t k = 0; k < ARRAY_SIZE(kconfig_keys); k++) {
				size_t n = strlen(kconfig_keys[k]);
				if (!strncmp(line, kconfig_keys[k], n) && line[n] == '=') {
					free(val[k]);
					val[k] = xstrdup(line + n + 1);
					val[k][strcspn(val[k], "\n")] = '\0';
				}
			}
		}
		/* absent from the file: "not set" */
		for (size_t k = 0; k < ARRAY_SIZE(kconfig_keys); k++) {
			json_str(j, kconfig_keys[k], val[k] ? val[k] : "not set");
			free(val[k]);
		}
	}
	free(line);
	free(cmd);
	if (piped)
		pclose(f);
	else
		fclose(f);
	json_obj_close(j);
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
	f[n++] = (struct meta_fact){ "mitigations", mitigations(), 0 };
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
	kconfig_json(j);
	/* At the start (first sidecar of the process) and, once the run is
	 * over (meta_env_end), at the end with the steal over the run. */
	meta_env_start();
	json_obj_open(j, "environment");
	env_json(j, "start", &env_start);
	if (env_end.taken) {
		unsigned long long dt = env_end.total - env_start.total;

		env_json(j, "end", &env_end);
		json_num(j, "steal_pct", dt ? 100.0 * (double)(env_end.steal -
			 env_start.steal) / (double)dt : 0);
	}
	json_obj_close(j);
}
