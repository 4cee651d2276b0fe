/*
 * kobserve.c - kernel-side counters around a kernel-backend run (see
 * kobserve.h).  /proc/lock_stat's layout is Documentation/locking/
 * lockstat.rst's: per class "name: con-bounces contentions waittime-min
 * waittime-max waittime-total waittime-avg acq-bounces acquisitions
 * holdtime-min holdtime-max holdtime-total holdtime-avg" (times in us).
 */
#include "workloads/kernel/kobserve.h"
#include "workloads/kernel/klocks.h"
#include "core/registry.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct knob_value kperf_values[] = {
	{ "off", "no perf capture" },
	{ "on", "perf lock record -a during the run, perf lock contention into the sidecar" },
	{ NULL },
};
static const struct knob knob_kperf = {
	.name = "kperf_lock", .owner = "kernel backend", .type = KNOB_ENUM,
	.def = "off", .values = kperf_values,
	.help = "capture the kernel's lock contention with perf lock (needs perf "
		"and permission: root or perf_event_paranoid <= -1)",
};
REGISTER(knob, knob_kperf);

#define LOCK_STAT_PATH "/proc/lock_stat"
#define TOP_LOCKS 15

struct run_rec {
	unsigned workers, rep;
	uint64_t ops;
	struct kobs_kv *vm, *mem, *locks; /* deltas */
	int nvm, nmem, nlocks;             /* -1: not available */
	char *perf;                        /* perf lock contention output or why not */
};

static struct {
	struct kobs_kv *vm, *locks;
	int nvm, nlocks;
	struct cg_stat mem;
	bool have_mem;
	pid_t perf_pid;
	char perf_file[64];
	const char *perf_why;
	struct run_rec *runs;
	size_t nruns;
} ko;

void kobs_kv_free(struct kobs_kv *kv, int n)
{
	for (int i = 0; i < n; i++)
		free(kv[i].name);
	free(kv);
}

static void kv_push(struct kobs_kv **kv, int *n, const char *name, const double v[3])
{
	*kv = realloc(*kv, (size_t)(*n + 1) * sizeof(**kv));
	if (!*kv)
		die(1, "out of memory");
	(*kv)[*n].name = xstrdup(name);
	memcpy((*kv)[*n].v, v, sizeof((*kv)[*n].v));
	(*n)++;
}

static const struct kobs_kv *kv_find(const struct kobs_kv *kv, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(kv[i].name, name))
			return &kv[i];
	return NULL;
}

int kobs_read_vmstat(const char *path, struct kobs_kv **out)
{
	FILE *f = file_kernel_open(path, "r");
	char name[128];
	double v[3] = { 0 };
	int n = 0;

	*out = NULL;
	if (!f)
		return -1;
	while (fscanf(f, "%127s %lf", name, &v[0]) == 2)
		kv_push(out, &n, name, v);
	fclose(f);
	return n;
}

/* v[0] contentions, v[1] waittime-total (us), v[2] acquisitions. */
int kobs_read_lock_stat(const char *path, struct kobs_kv **out)
{
	FILE *f = file_kernel_open(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int n = 0;

	*out = NULL;
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		char *colon = strstr(line, ": "), *name = line;
		double x[12];

		if (!colon || line[0] == '#')
			continue;
		*colon = '\0';
		if (sscanf(colon + 1, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf",
			   &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7],
			   &x[8], &x[9], &x[10], &x[11]) != 12)
			continue;
		while (*name == ' ' || *name == '\t')
			name++;
		{
			double v[3] = { x[1], x[4], x[7] };
			const struct kobs_kv *have = kv_find(*out, n, name);
			/* one class may appear once per subclass: sum them */
			if (have) {
				struct kobs_kv *h = (struct kobs_kv *)have;
				for (int i = 0; i < 3; i++)
					h->v[i] += v[i];
			} else {
				kv_push(out, &n, name, v);
			}
		}
	}
	free(line);
	fclose(f);
	return n;
}

/* after - before, entries that moved only. */
static int kv_delta(const struct kobs_kv *b, int nb, const struct kobs_kv *a, int na,
		    struct kobs_kv **out)
{
	int n = 0;

	*out = NULL;
	if (nb < 0 || na < 0)
		return -1;
	for (int i = 0; i < na; i++) {
		const struct kobs_kv *p = kv_find(b, nb, a[i].name);
		double d[3];
		bool moved = false;

		for (int k = 0; k < 3; k++) {
			d[k] = a[i].v[k] - (p ? p->v[k] : 0);
			moved |= d[k] != 0;
		}
		if (moved)
			kv_push(out, &n, a[i].name, d);
	}
	return n;
}

static int cmp_contended(const void *x, const void *y)
{
	const struct kobs_kv *a = x, *b = y;
	return (a->v[0] < b->v[0]) - (a->v[0] > b->v[0]);
}

static char *run_capture(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!p)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((c = fgetc(p)) != EOF)
		fputc(c, m);
	fclose(m);
	if (pclose(p) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void perf_start(void)
{
	int fd;

	ko.perf_pid = 0;
	ko.perf_why = NULL;
	if (system("command -v perf >/dev/null 2>&1") != 0) {
		ko.perf_why = "not captured: perf is not installed";
		return;
	}
	snprintf(ko.perf_file, sizeof(ko.perf_file), "/tmp/memscale-perf-lock.XXXXXX");
	if ((fd = mkstemp(ko.perf_file)) < 0) {
		ko.perf_why = "not captured: no temporary file";
		return;
	}
	close(fd);
	ko.perf_pid = fork();
	if (ko.perf_pid == 0) {
		int null = file_kernel_fd("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("perf", "perf", "lock", "record", "-a", "-q", "-o", ko.perf_file,
		       (char *)NULL);
		_exit(127);
	}
	if (ko.perf_pid < 0) {
		ko.perf_pid = 0;
		ko.perf_why = "not captured: fork failed";
		unlink(ko.perf_file);
	}
	usleep(300000); /* perf opens its tracepoints before the workers start */
}

static char *perf_stop(void)
{
	int st;
	char *cmd, *out;

	if (!ko.perf_pid)
		return xstrdup(ko.perf_why ? ko.perf_why : "not requested (--set kperf_lock=on)");
	kill(ko.perf_pid, SIGINT);
	while (waitpid(ko.perf_pid, &st, 0) < 0 && errno == EINTR)
		;
	ko.perf_pid = 0;
	/* perf record ends on SIGINT by exiting 0, 130 or by the signal */
	if (!(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 130)) &&
	    !(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT)) {
		unlink(ko.perf_file);
		return xstrdup(WIFEXITED(st) && WEXITSTATUS(st) == 127 ?
			       "not captured: perf could not run" :
			       "not captured: perf lock record failed (permission? "
			       "kernel without lock:contention_begin?)");
	}
	/* it prints its table on stderr */
	cmd = xasprintf("perf lock contention -i %s -E %d 2>&1", ko.perf_file,
			TOP_LOCKS);
	out = run_capture(cmd);
	free(cmd);
	unlink(ko.perf_file);
	return out ? out : xstrdup("not captured: perf lock contention failed");
}

void kobs_begin(struct knobset *ks, const struct cg_stat *memstat_before)
{
	kobs_kv_free(ko.vm, ko.nvm);
	kobs_kv_free(ko.locks, ko.nlocks);
	ko.nvm = kobs_read_vmstat("/proc/vmstat", &ko.vm);
	ko.nlocks = kobs_read_lock_stat(LOCK_STAT_PATH, &ko.locks);
	ko.have_mem = memstat_before != NULL;
	if (memstat_before)
		ko.mem = *memstat_before;
	ko.perf_pid = 0;
	ko.perf_why = NULL;
	if (knob_enum_is(ks, &knob_kperf, "on"))
		perf_start();
}

void kobs_read_knobs(struct knobset *ks)
{
	knob_str(ks, &knob_kperf);
}

void kobs_end(unsigned workers, unsigned rep, uint64_t ops,
	      const struct cg_stat *memstat_after)
{
	struct run_rec r = { .workers = workers, .rep = rep, .ops = ops };
	struct kobs_kv *a;
	int na;

	r.perf = perf_stop();
	na = kobs_read_vmstat("/proc/vmstat", &a);
	r.nvm = kv_delta(ko.vm, ko.nvm, a, na, &r.vm);
	kobs_kv_free(a, na);
	na = kobs_read_lock_stat(LOCK_STAT_PATH, &a);
	r.nlocks = kv_delta(ko.locks, ko.nlocks, a, na, &r.locks);
	kobs_kv_free(a, na);
	if (r.nlocks > 0)
		qsort(r.locks, (size_t)r.nlocks, sizeof(*r.locks), cmp_contended);
	r.nmem = -1;
	if (ko.have_mem && memstat_after) {
		r.nmem = 0;
		for (unsigned i = 0; i < memstat_after->n; i++) {
			long long b = cg_stat_get(&ko.mem, memstat_after->kv[i].name);
			double d[3] = { (double)memstat_after->kv[i].value - (b < 0 ? 0 : (double)b) };
			if (d[0] != 0)
				kv_push(&r.mem, &r.nmem, memstat_after->kv[i].name, d);
		}
	}
	ko.runs = realloc(ko.runs, (ko.nruns + 1) * sizeof(*ko.runs));
	if (!ko.runs)
		die(1, "out of memory");
	ko.runs[ko.nruns++] = r;
}

static void kv_json(struct json *j, const char *key, const struct kobs_kv *kv, int n,
		    const char *missing)
{
	if (n < 0) {
		json_str(j, key, missing);
		return;
	}
	json_obj_open(j, key);
	for (int i = 0; i < n; i++)
		json_num(j, kv[i].name, kv[i].v[0]);
	json_obj_close(j);
}

/* perf lock contention's table as rows (klocks.c), each with the model
 * lock class it stands for; nothing when perf did not capture. */
static void perf_rows_json(struct json *j, const char *perf)
{
	struct klock_row *rows;
	int n = perf ? klock_parse_perf(perf, &rows) : -1;

	if (n < 0)
		return;
	json_arr_open(j, "perf_lock_rows");
	for (int i = 0; i < n; i++) {
		const char *mc = klock_model_class(rows[i].name);
		json_obj_open(j, NULL);
		json_str(j, "name", rows[i].name);
		json_str(j, "type", rows[i].type);
		json_str(j, "model_class", mc ? mc : "");
		json_num(j, "contended", rows[i].contended);
		json_num(j, "wait_total_ns", rows[i].wait_total_ns);
		json_num(j, "wait_max_ns", rows[i].wait_max_ns);
		json_num(j, "wait_min_ns", rows[i].wait_min_ns);
		json_num(j, "wait_avg_ns", rows[i].wait_avg_ns);
		json_obj_close(j);
	}
	json_arr_close(j);
	free(rows);
}

void kobs_sidecar(struct json *j)
{
	json_arr_open(j, "kernel_observability");
	for (size_t i = 0; i < ko.nruns; i++) {
		const struct run_rec *r = &ko.runs[i];

		json_obj_open(j, NULL);
		json_int(j, "workers", r->workers);
		json_int(j, "rep", r->rep);
		json_int(j, "ops", (long long)r->ops);
		kv_json(j, "vmstat_delta", r->vm, r->nvm, "not readable (/proc/vmstat)");
		kv_json(j, "memory_stat_delta", r->mem, r->nmem,
			"no memcgs (kmemcg=off or none available)");
		if (r->nlocks < 0) {
			json_str(j, "lock_stat_delta", "not available (kernel without "
				 "CONFIG_LOCK_STAT, or /proc/lock_stat not readable)");
		} else {
			json_arr_open(j, "lock_stat_delta");
			for (int k = 0; k < r->nlocks && k < TOP_LOCKS; k++) {
				json_obj_open(j, NULL);
				json_str(j, "class", r->locks[k].name);
				json_str(j, "model_class",
					 klock_model_class(r->locks[k].name) ?
					 klock_model_class(r->locks[k].name) : "");
				json_num(j, "contentions", r->locks[k].v[0]);
				json_num(j, "waittime_total_us", r->locks[k].v[1]);
				json_num(j, "acquisitions", r->locks[k].v[2]);
				json_obj_close(j);
			}
			json_arr_close(j);
		}
		json_str(j, "perf_lock_contention", r->perf);
		perf_rows_json(j, r->perf);
		json_obj_close(j);
	}
	json_arr_close(j);
}
