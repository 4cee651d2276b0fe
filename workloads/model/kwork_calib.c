/*
 * kwork_calib.c - how much kernel-shaped local work (models/kwork.h) one
 * operation of a model workload pays, on the machine at hand.
 *
 * knob kwork:
 *   auto    the kernel backend's 1-worker cost of the same workload
 *           (kernel:NAME, processes mode, in memcgs of the default depth)
 *           minus the model's own cost with page frames and PTEs but no
 *           residual work (its memcg part), divided by the cost of one
 *           unit measured inside the workload: units = (K - M0) / u.
 *           u is first taken from a bare probe, then refined once from a
 *           model run with those units (u = (M1 - M0) / U1), and the
 *           model is run a last time with the final units as a check.
 *           Where that check misses by more than 10 %, one more secant
 *           step.  Each figure is the median of three runs of 0.4 s, or
 *           of about 20 kernel operations where those are longer (5 s
 *           at most).
 *           Where the kernel backend cannot run (no memcg, no tmpfs, not
 *           root) or the workload has no kernel twin, K comes from probes.
 *   probes  K from documented probes of this machine's kernel, per the
 *           workload's kernel entries: faults x the `fault` probe (first
 *           touch of an anonymous page with its share of mmap/munmap),
 *           syscalls x the `syscall` probe (getppid round trip), page
 *           copies x the `page` probe (harness/calib_probe.c).
 *   N       N units per operation, as given.
 * The units depend on the workload only, never on the variant being
 * measured: the calibration runs the model with its default knobs (the
 * kernel this machine runs), so variants are compared at the same
 * non-memcg work.  The figures are kept per workload for the life of
 * the process (a sweep calibrates each workload once) and go into every
 * result row (kwork_* metrics) and the run's JSON sidecar.
 *
 * The measuring runs happen in a forked child, so the harness state of
 * the run that asked (run statistics, arena) is left alone.
 */
#include "workloads/model/model_workload.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/json.h"
#include "counters/counter.h"
#include "harness/calib_probe.h"
#include "harness/harness.h"
#include "predict/calib.h"

#define CAL_SECONDS 0.4

/* Measured seconds of the next calibration runs: long enough for about
 * 20 operations of the kernel's cost (an AIM9 page_test call of the
 * kernel takes over 100 ms here), at least CAL_SECONDS, at most 5 s. */
static double cal_seconds = CAL_SECONDS;

static double run_ns_once(const struct workload *wl, const char *const *sets)
{
	struct harness_opts ho;
	struct result res;
	long one = 1;
	double ns = NAN;

	harness_defaults(&ho);
	ho.wl = wl;
	ho.lock = lock_find("qspinlock");
	ho.counter = counter_find("percpu_batch");
	ho.knobs = knobset_new();
	for (; sets && *sets; sets++)
		knobset_set_arg(ho.knobs, *sets);
	ho.threads = &one;
	ho.nthreads = 1;
	ho.mode = MODE_PROCESSES;
	ho.seconds = cal_seconds;
	ho.warmup = 1;
	ho.sample_ms = (unsigned)(cal_seconds * 250) + 1;
	memset(&res, 0, sizeof(res));
	if (harness_run_one(&ho, 1, 0, &res) == 0 && res.ops_per_sec > 0)
		ns = 1e9 / res.ops_per_sec;
	result_free(&res);
	knobset_free(ho.knobs);
	return ns;
}

/* The median of three runs: the statistic the comparisons use, so a
 * model calibrated on a loaded machine is neither fitted to the kernel's
 * luckiest run nor to its worst. */
static double run_ns(const struct workload *wl, const char *const *sets)
{
	double v[3];
	unsigned n = 0;

	for (unsigned i = 0; i < 3; i++) {
		double x = run_ns_once(wl, sets);
		if (isfinite(x))
			v[n++] = x;
	}
	if (!n)
		return NAN;
	if (n == 1)
		return v[0];
	if (n == 2)
		return (v[0] + v[1]) / 2;
	return fmax(fmin(v[0], v[1]), fmin(fmax(v[0], v[1]), v[2]));
}

static double model_ns(const struct workload *wl, uint64_t units)
{
	char kw[48];
	const char *sets[] = { "page_work=kernel", kw, NULL };

	snprintf(kw, sizeof(kw), "kwork=%llu", (unsigned long long)units);
	return run_ns(wl, sets);
}

static double probes_ns(const struct mwl_desc *d)
{
	const struct mwl_kentry *k = &d->spec->kentry;
	double f = k->faults ? calib_probe_best("fault", 3) : 0;
	double s = k->syscalls ? calib_probe_best("syscall", 3) : 0;
	double c = k->copies ? calib_probe_best("page", 3) : 0;

	return k->faults * f + k->syscalls * s + k->copies * c;
}

static void measure(const struct workload *wl, const struct mwl_desc *d,
		    bool try_kernel, struct kwork_cal *c)
{
	char kname[96];
	const struct workload *kwl;
	double u0, m1;
	uint64_t u1;

	memset(c, 0, sizeof(*c));
	cal_seconds = CAL_SECONDS;
	snprintf(kname, sizeof(kname), "kernel:%s", wl->name);
	kwl = try_kernel ? workload_find(kname) : NULL;
	c->kernel_ns = kwl ? run_ns(kwl, NULL) *
		(d->spec->kops_per_op ? d->spec->kops_per_op : 1) : NAN;
	if (isfinite(c->kernel_ns)) {
		c->source = KWORK_SRC_KERNEL;
	} else {
		c->source = KWORK_SRC_PROBES;
		c->kernel_ns = probes_ns(d);
	}
	cal_seconds = fmin(5, fmax(CAL_SECONDS, 20 * c->kernel_ns * 1e-9));
	c->model0_ns = model_ns(wl, 0);
	u0 = kwork_unit_ns(3);
	c->unit_ns = u0;
	if (!isfinite(c->model0_ns) || c->kernel_ns <= c->model0_ns || u0 <= 0) {
		c->units = 0; /* the model alone already costs what the kernel does */
		c->model_ns = c->model0_ns;
		return;
	}
	u1 = (uint64_t)llround((c->kernel_ns - c->model0_ns) / u0);
	m1 = model_ns(wl, u1);
	if (isfinite(m1) && m1 > c->model0_ns && u1)
		c->unit_ns = (m1 - c->model0_ns) / (double)u1;
	c->units = (uint64_t)llround((c->kernel_ns - c->model0_ns) / c->unit_ns);
	c->model_ns = model_ns(wl, c->units);
	/* One more secant step where the check missed by more than 10 %. */
	if (isfinite(c->model_ns) && c->model_ns > c->model0_ns &&
	    fabs(c->model_ns - c->kernel_ns) > 0.1 * c->kernel_ns) {
		c->unit_ns = (c->model_ns - c->model0_ns) / (double)c->units;
		c->units = (uint64_t)llround((c->kernel_ns - c->model0_ns) / c->unit_ns);
		c->model_ns = model_ns(wl, c->units);
	}
}

/* In a child: the runs must not disturb the asking run's harness state. */
static int measure_forked(const struct workload *wl, const struct mwl_desc *d,
			  bool try_kernel, struct kwork_cal *c)
{
	int fds[2], ws;
	pid_t pid;
	ssize_t n;

	if (pipe(fds))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct kwork_cal mine;
		close(fds[0]);
		measure(wl, d, try_kernel, &mine);
		_exit(write(fds[1], &mine, sizeof(mine)) == (ssize_t)sizeof(mine) ? 0 : 1);
	}
	close(fds[1]);
	while ((n = read(fds[0], c, sizeof(*c))) < 0 && errno == EINTR)
		;
	close(fds[0]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof(*c) && WIFEXITED(ws) && !WEXITSTATUS(ws) ? 0 : -EIO;
}

/* kwork_store_resolve()'s measurement: the kernel backend first. */
struct measure_arg {
	const struct mwl_desc *d;
	bool try_kernel;
};

static int measure_stored(const struct workload *wl, void *arg, struct kwork_cal *c)
{
	const struct measure_arg *a = arg;

	return measure_forked(wl, a->d, a->try_kernel, c);
}

static struct {
	const struct workload *wl;
	bool probes;
	struct kwork_cal c;
} cache[32];
static unsigned ncache;

const char *kwork_source_name(enum kwork_source s)
{
	switch (s) {
	case KWORK_SRC_KERNEL: return "kernel backend";
	case KWORK_SRC_PROBES: return "probes";
	case KWORK_SRC_KNOB: return "knob";
	default: return "none";
	}
}

/* kwork.WL.* of a calibration file; false when it has none for wl. */
static bool from_calib(const struct calib *c, const char *wl, struct kwork_cal *out)
{
	char key[160];
	double units;

#define KW(field) (snprintf(key, sizeof(key), "kwork.%s." field, wl), calib_num(c, key))
	units = KW("units");
	if (!isfinite(units))
		return false;
	out->units = (uint64_t)llround(units);
	out->source = KW("source") == KWORK_SRC_PROBES ? KWORK_SRC_PROBES : KWORK_SRC_KERNEL;
	out->unit_ns = KW("unit_ns");
	out->kernel_ns = KW("kernel_ns");
	out->model0_ns = KW("model0_ns");
	out->model_ns = KW("model_ns");
#undef KW
	return true;
}

static void to_calib(struct calib *c, const char *wl, const struct kwork_cal *k)
{
	const struct { const char *field; double v; } f[] = {
		{ "units", (double)k->units }, { "source", k->source },
		{ "unit_ns", k->unit_ns }, { "kernel_ns", k->kernel_ns },
		{ "model0_ns", k->model0_ns }, { "model_ns", k->model_ns },
	};
	char key[160];

	for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
		if (!isfinite(f[i].v) || f[i].v < 0)
			continue;
		snprintf(key, sizeof(key), "kwork.%s.%s", wl, f[i].field);
		calib_set_num(c, key, f[i].v);
	}
}

/* A run's own kwork figures get a hash of their own ("run-..."), so two
 * runs that each calibrated never pass for one calibration. */
static void run_hash(const char *wl, struct kwork_cal *c)
{
	char txt[320], h[17];

	snprintf(txt, sizeof(txt), "%s %d %llu %.9g %.9g %.9g %.9g", wl, c->source,
		 (unsigned long long)c->units, c->unit_ns, c->kernel_ns, c->model0_ns,
		 c->model_ns);
	calib_hash_bytes(txt, strlen(txt), h);
	snprintf(c->calib_file, sizeof(c->calib_file), "none");
	snprintf(c->calib_hash, sizeof(c->calib_hash), "run-%s", h);
}

/* Reads wl's kwork from the calibration file named by knob calib_file
 * (auto: the machine's, when there is one).  1 found; 0 not there, the
 * machine's store may have it (auto); 2 not in the named file (a note
 * said so: this run's own); or EXIT_USAGE + 1 after a message (a bad
 * file). */
static int resolve_from_file(const struct workload *wl, struct knobset *ks,
			     struct kwork_cal *out)
{
	const char *file = knob_str(ks, &knob_calib_file);
	bool named = strcmp(file, "auto");
	const char *path = named ? file : calib_machine_path();
	struct calib c;
	char err[768];
	bool found;

	if (!strcmp(file, "none"))
		return 0;
	if (!named && access(path, F_OK))
		return 0; /* the machine's store, kwork_store.c */
	if (calib_load(&c, path, err, sizeof(err))) {
		fprintf(stderr, "memscale: calibration %s\n", err); /* err names the file */
		return EXIT_USAGE + 1;
	}
	found = from_calib(&c, wl->name, out);
	calib_free(&c);
	if (!found) {
		if (named)
			fprintf(stderr, "memscale: %s: calibration %s has no kernel-shaped "
				"work for this workload ('memscale model calibrate' without "
				"--no-workloads measures it): calibrated for this run only\n",
				wl->name, path);
		return named ? 2 : 0;
	}
	if (calib_file_hash(path, out->calib_hash)) {
		fprintf(stderr, "memscale: cannot read calibration '%s' again\n", path);
		return EXIT_USAGE + 1;
	}
	snprintf(out->calib_file, sizeof(out->calib_file), "%s", path);
	return 1;
}

/* The resolved calibration goes into the knob set, so every result row
 * (knob columns calib_file, calib_hash) and the sidecar record it; a
 * calib_hash asked for must be the one found. */
static int record_calib(const struct workload *wl, struct knobset *ks,
			const struct kwork_cal *c)
{
	const char *want = knob_str(ks, &knob_calib_hash);
	char err[256];

	if (strcmp(want, "any") && strcmp(want, c->calib_hash)) {
		fprintf(stderr, "memscale: %s: the kernel-shaped work's calibration (%s) has "
			"hash %s, not the calib_hash=%s asked for\n", wl->name, c->calib_file,
			c->calib_hash, want);
		return EXIT_USAGE;
	}
	if (!knobset_set(ks, knob_calib_file.name, c->calib_file, err, sizeof(err)) ||
	    !knobset_set(ks, knob_calib_hash.name, c->calib_hash, err, sizeof(err))) {
		fprintf(stderr, "memscale: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

int kwork_resolve(const struct workload *wl, const struct mwl_desc *d,
		  struct knobset *ks, struct kwork_cal *out)
{
	const char *v = knob_str(ks, &knob_kwork);
	bool probes = !strcmp(v, "probes");
	long n;
	int rc;

	memset(out, 0, sizeof(*out));
	if (strcmp(v, "auto") && !probes) {
		if (!parse_long(v, 0, 1L << 40, &n)) {
			fprintf(stderr, "memscale: bad value '%s' for knob 'kwork' "
				"(want auto, probes or a number of units >= 0)\n", v);
			return EXIT_USAGE;
		}
		out->source = KWORK_SRC_KNOB;
		out->units = (uint64_t)n;
		out->kernel_ns = out->model0_ns = out->model_ns = out->unit_ns = NAN;
		snprintf(out->calib_file, sizeof(out->calib_file), "none");
		snprintf(out->calib_hash, sizeof(out->calib_hash), "none");
		return record_calib(wl, ks, out);
	}
	for (unsigned i = 0; i < ncache; i++)
		if (cache[i].wl == wl && cache[i].probes == probes) {
			*out = cache[i].c;
			return record_calib(wl, ks, out);
		}
	rc = probes ? 2 : resolve_from_file(wl, ks, out);
	if (rc > 2)
		return rc - 1;
	if (rc == 0 && strcmp(knob_str(ks, &knob_calib_file), "none")) {
		struct measure_arg a = { d, true };
		switch (kwork_store_resolve(wl, measure_stored, &a, out)) {
		case KWS_FOUND: case KWS_KEPT: rc = 1; break;
		case KWS_MEASURED: run_hash(wl->name, out); rc = 1; break;
		case KWS_BAD: return EXIT_USAGE;
		case KWS_FAILED:
			fprintf(stderr, "memscale: %s: the kwork calibration failed; "
				"pass --set kwork=N\n", wl->name);
			return 1;
		case KWS_UNUSABLE: break;
		}
	}
	if (rc != 1) {
		/* (Read from the file: nothing to say; rows and sidecar record
		 * the file and its hash, and stderr stays as will-it-scale's
		 * output expects it.) */
		if (measure_forked(wl, d, !probes, out)) {
			fprintf(stderr, "memscale: %s: the kwork calibration failed; "
				"pass --set kwork=N\n", wl->name);
			return 1;
		}
		run_hash(wl->name, out);
		fprintf(stderr, "memscale: %s: kernel-shaped work calibrated from %s: "
			"kernel %.0f ns/op, model without it %.0f ns/op, %llu units of "
			"%.2f ns, model with it %.0f ns/op\n", wl->name,
			kwork_source_name(out->source), out->kernel_ns, out->model0_ns,
			(unsigned long long)out->units, out->unit_ns, out->model_ns);
	}
	if (ncache < ARRAY_SIZE(cache))
		cache[ncache++] = (typeof(cache[0])){ wl, probes, *out };
	return record_calib(wl, ks, out);
}

unsigned kwork_calibrate_all(struct calib *c, bool verbose)
{
	const struct workload **v;
	size_t n = workload_all(&v);
	unsigned done = 0;

	for (size_t i = 0; i < n; i++) {
		struct knobset *ks;
		struct json j;
		FILE *null;

		if (!(v[i]->flags & WL_F_MODEL) || !v[i]->sidecar)
			continue;
		/* The sidecar hook resolves the kwork exactly as a run's
		 * set-up does (its mwl_desc is private to the workload file). */
		ks = knobset_new();
		knobset_set_arg(ks, "page_work=kernel");
		knobset_set_arg(ks, "calib_file=none");
		if (!(null = file_kernel_open("/dev/null", "w")))
			die_errno(1, "calibrate: /dev/null");
		json_begin(&j, null);
		v[i]->sidecar(&j, ks, MODE_PROCESSES);
		json_end(&j);
		fclose(null);
		knobset_free(ks);
		for (unsigned k = 0; k < ncache; k++)
			if (cache[k].wl == v[i] && !cache[k].probes) {
				to_calib(c, v[i]->name, &cache[k].c);
				done++;
				if (verbose)
					fprintf(stderr, "calibrate: kwork.%-28s %6llu units of %.2f ns "
						"(%s)\n", v[i]->name,
						(unsigned long long)cache[k].c.units,
						cache[k].c.unit_ns, kwork_source_name(cache[k].c.source));
			}
	}
	return done;
}

void kwork_json(struct json *j, const struct kwork_cal *c)
{
	json_obj_open(j, "kwork");
	json_str(j, "source", kwork_source_name(c->source));
	json_int(j, "units_per_op", (long long)c->units);
	if (c->source != KWORK_SRC_KNOB) {
		json_num(j, "kernel_ns_per_op", c->kernel_ns);
		json_num(j, "model_without_ns_per_op", c->model0_ns);
		json_num(j, "model_with_ns_per_op", c->model_ns);
		json_num(j, "unit_ns", c->unit_ns);
	}
	json_int(j, "footprint_lines", KWORK_LINES);
	json_str(j, "calib_file", c->calib_file);
	json_str(j, "calib_hash", c->calib_hash);
	json_str(j, "calibration", c->source == KWORK_SRC_KERNEL
		 ? "kernel:NAME, 1 worker, processes mode, 0.4 s, default knobs"
		 : c->source == KWORK_SRC_PROBES
		 ? "faults x fault + syscalls x syscall + copies x page probes"
		 : "given by knob kwork");
	json_obj_close(j);
}
