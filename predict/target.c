/*
 * target.c - target-machine profiles (registry, "this machine") and the
 * composition of a prediction's costs with the origin of every
 * parameter; see target.h.  The profiles are in predict/targets/, one file each.
 */
#include "predict/target.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/registry.h"
#include "core/util.h"

REGISTRY_BOUNDS(target);

DEFINE_REGISTRY_LOOKUP(target, struct target, target_all, target_find)

const char *param_origin_name(enum param_origin o)
{
	switch (o) {
	case ORIGIN_MEASURED: return "measured here";
	case ORIGIN_SCALED: return "measured here, clock-scaled";
	case ORIGIN_PROFILE: return "target profile";
	case ORIGIN_MODEL: return "model";
	case ORIGIN_NOT_MEASURED: return "NOT MEASURED";
	case ORIGIN_CLI: return "command line";
	}
	return "?";
}

/* The figure a probe stands for: its least disturbed repetition (the
 * minimum; on a shared machine a repetition can only be slowed down),
 * else its median.  Same rule as calib_costs(). */
static double best(const struct calib *c, const char *probe)
{
	return calib_best(c, probe);
}

static double meta_num(const struct calib *c, const char *key)
{
	const char *s = calib_str(c, key);
	double v;

	return s && parse_double(s, 0, 1e12, &v) ? v : NAN;
}

void target_here(struct target *t, const struct calib *c)
{
	static char desc[256], cpu[160];
	const char *host;
	double v;

	memset(t, 0, sizeof(*t));
	t->name = TARGET_HERE;
	snprintf(cpu, sizeof(cpu), "%s", calib_str(c, "meta.cpu_model") ?
		 calib_str(c, "meta.cpu_model") : "not recorded");
	host = calib_str(c, "meta.hostname") ? calib_str(c, "meta.hostname")
						: calib_str(c, "meta.host"); /* older files */
	snprintf(desc, sizeof(desc), "this machine (%s), as calibrated",
		 host ? host : "host not recorded");
	t->description = desc;
	t->cpu = cpu;
	t->identified_by = "the calibration file's meta.* keys (hwloc at calibration time)";
	t->sockets = isnan(v = meta_num(c, "meta.packages")) ? 1 : (unsigned)v;
	t->nodes = isnan(v = meta_num(c, "meta.numa_nodes")) || v < 1 ? 1 : (unsigned)v;
	t->cores = isnan(v = meta_num(c, "meta.cores")) ? 0 : (unsigned)v;
	t->cpus = isnan(v = meta_num(c, "meta.pus")) ? 0 : (unsigned)v;
	v = meta_num(c, "meta.cpu_mhz");
	t->ghz = (struct tval){ isnan(v) ? NAN : v / 1000, "calibration meta.cpu_mhz (nominal clock: cpufreq base_frequency or bogomips / 2)" };
	t->xfer_ns = (struct tval){ best(c, "xfer.atomic"), "calibration xfer.atomic (ping-pong / 2)" };
	t->xfer_remote_ns = (struct tval){ NAN, "not measured (the probes pin two cores of one node)" };
	t->dram_ns = (struct tval){ best(c, "miss"), "calibration miss (dependent loads over 64 MiB)" };
	t->atomic_cycles = (struct tval){ NAN, NULL };
	t->hit_cycles = (struct tval){ NAN, NULL };
	t->pair_bytes = (struct tval){ NAN, "not measured" };
}

static void note(struct target_costs *tc, const char *name, double v, const char *unit,
		 enum param_origin o, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void note(struct target_costs *tc, const char *name, double v, const char *unit,
		 enum param_origin o, const char *fmt, ...)
{
	struct param_note *p;
	va_list ap;

	if (tc->np == TARGET_MAX_PARAMS)
		die(1, "target: too many parameters");
	p = &tc->p[tc->np++];
	p->name = name;
	p->value = v;
	p->unit = unit;
	p->origin = o;
	va_start(ap, fmt);
	vsnprintf(p->src, sizeof(p->src), fmt, ap);
	va_end(ap);
}

/* Probes whose repetitions differ by more than 2x, and the machine
 * conditions recorded at calibration (hypervisor, steal). */
/* A cost the profile gives in cycles (at its clock), else this machine's
 * probe run at the target's clock; noted with its origin either way. */
static double cycles_or_probe(struct target_costs *tc, const char *name,
			      const struct tval *cycles, double ghz, const struct calib *c,
			      const char *probe, bool here, double scale, const char *scale_src)
{
	double v;

	if (isfinite(cycles->v) && isfinite(ghz)) {
		v = cycles->v / ghz;
		note(tc, name, v, "ns", ORIGIN_PROFILE, "%.0f cycles at %.2f GHz: %s",
		     cycles->v, ghz, cycles->src);
	} else {
		v = best(c, probe) * scale;
		note(tc, name, v, "ns", here ? ORIGIN_MEASURED : ORIGIN_SCALED, "%s probe, %s",
		     probe, scale_src);
	}
	return v;
}

static void probe_warnings(const struct calib *c, struct target_costs *tc)
{
	static const char *const probes[] = {
		"xfer.atomic", "hit", "miss", "atomic.uncontended", "percpu", "list",
		"page", "fault", "syscall", "walk.permemcg", "walk.cached", NULL,
	};
	char *w = tc->warnings;
	size_t len = sizeof(tc->warnings), used = 0;
	const char *hv = calib_str(c, "meta.hypervisor");
	double steal = calib_num(c, "steal_pct");

	w[0] = '\0';
	for (size_t i = 0; probes[i]; i++) {
		char kmin[96], kmax[96];
		double lo, hi;

		snprintf(kmin, sizeof(kmin), "%s.min_ns", probes[i]);
		snprintf(kmax, sizeof(kmax), "%s.max_ns", probes[i]);
		lo = calib_num(c, kmin);
		hi = calib_num(c, kmax);
		if (lo > 0 && hi / lo > 2 && used < len)
			used += (size_t)snprintf(w + used, len - used, "%s%s varied %.1fx over its repetitions",
						 used ? "; " : "", probes[i], hi / lo);
	}
	if (hv && !strcmp(hv, "yes") && used < len)
		used += (size_t)snprintf(w + used, len - used, "%scalibrated in a virtual machine "
					 "(faults and system calls include hypervisor work)",
					 used ? "; " : "");
	if (steal > 1 && used < len)
		used += (size_t)snprintf(w + used, len - used, "%s%.1f%% of CPU time stolen during calibration",
					 used ? "; " : "", steal);
}

void target_costs(const struct target *t, const struct calib *c,
		  const struct target_overrides *ov, struct target_costs *tc)
{
	struct memcg_costs *m = &tc->c;
	double here_ghz = meta_num(c, "meta.cpu_mhz") / 1000;
	bool here = !strcmp(t->name, TARGET_HERE);
	double scale = 1;
	static const struct { const char *probe, *name; size_t off; } local[] = {
		{ "fault", "fault_ns", offsetof(struct memcg_costs, fault_ns) },
		{ "page", "page_ns", offsetof(struct memcg_costs, page_ns) },
		{ "syscall", "syscall_ns", offsetof(struct memcg_costs, syscall_ns) },
		{ "list", "list_ns", offsetof(struct memcg_costs, list_ns) },
		{ "percpu", "percpu_ns", offsetof(struct memcg_costs, percpu_ns) },
	};
	char scale_src[120];

	memset(tc, 0, sizeof(*tc));
	tc->nodes = t->nodes ? t->nodes : 1;

	/* Local work: this machine's time per step in cycles, run at the
	 * target's clock (the cycle count of a step is taken to carry over
	 * between x86 cores; the clock ratio is the only hardware cost). */
	if (!here && isfinite(here_ghz) && here_ghz > 0 && isfinite(t->ghz.v)) {
		scale = here_ghz / t->ghz.v;
		snprintf(scale_src, sizeof(scale_src), "x %.2f/%.2f GHz (here/target clock)",
			 here_ghz, t->ghz.v);
	} else if (!here) {
		snprintf(scale_src, sizeof(scale_src), "unscaled: %s clock unknown",
			 isfinite(here_ghz) ? "target" : "this machine's");
	} else {
		snprintf(scale_src, sizeof(scale_src), "this machine");
	}
	for (size_t i = 0; i < ARRAY_SIZE(local); i++) {
		double *dst = (double *)((char *)m + local[i].off);
		char basis[256];
		*dst = best(c, local[i].probe) * scale;
		/* calib_probe_basis: which figure of the probe family this is
		 * (the steady-state re-fault, not the first touch) and why. */
		calib_probe_basis(c, local[i].probe, basis, sizeof(basis));
		/* The programs add the page's own work (page_ns) to a fault:
		 * a measured steady-state fault includes clear_page, so the
		 * page work is taken out of it (the clear probe) once. */
		if (!strcmp(local[i].probe, "fault") && isfinite(best(c, "clear")) &&
		    isfinite(best(c, "fault.first")) && best(c, "fault") > best(c, "clear")) {
			*dst = (best(c, "fault") - best(c, "clear")) * scale;
			snprintf(basis + strlen(basis), sizeof(basis) - strlen(basis),
				 "; minus clear %.0f ns (the programs add page_ns)", best(c, "clear"));
		}
		note(tc, local[i].name, *dst, "ns", here ? ORIGIN_MEASURED : ORIGIN_SCALED,
		     "%s probe, least disturbed rep %.1f ns, %s%s%s", local[i].probe,
		     best(c, local[i].probe), scale_src, *basis ? "; " : "", basis);
	}

	/* Line transfer, atomics, hits: the target's hardware. */
	m->sim.xfer_ns = t->xfer_ns.v;
	note(tc, "xfer_ns", m->sim.xfer_ns, "ns", here ? ORIGIN_MEASURED : ORIGIN_PROFILE,
	     "%s", t->xfer_ns.src);
	m->sim.atomic_ns = cycles_or_probe(tc, "atomic_ns", &t->atomic_cycles, t->ghz.v, c,
					   "atomic.uncontended", here, scale, scale_src);
	m->sim.hit_ns = cycles_or_probe(tc, "hit_ns", &t->hit_cycles, t->ghz.v, c, "hit",
					here, scale, scale_src);
	m->sim.handoff_ns = m->sim.xfer_ns;
	note(tc, "handoff_ns", m->sim.handoff_ns, "ns", ORIGIN_MODEL,
	     "queue-lock hand-off = one transfer of the waiter's line (OLS'12 c)");

	if (ov && isfinite(ov->remote_factor)) {
		m->sim.remote_factor = ov->remote_factor;
		note(tc, "remote_factor", m->sim.remote_factor, "x", ORIGIN_CLI, "--remote-factor");
	} else if (tc->nodes > 1 && isfinite(t->xfer_remote_ns.v) && t->xfer_ns.v > 0) {
		m->sim.remote_factor = t->xfer_remote_ns.v / t->xfer_ns.v;
		note(tc, "remote_factor", m->sim.remote_factor, "x", ORIGIN_PROFILE,
		     "cross-socket %.0f ns / same-socket %.0f ns: %s", t->xfer_remote_ns.v,
		     t->xfer_ns.v, t->xfer_remote_ns.src);
	} else if (tc->nodes > 1) {
		m->sim.remote_factor = 1;
		note(tc, "remote_factor", 1, "x", ORIGIN_NOT_MEASURED,
		     "%d nodes but no cross-node figure: transfers cost the same-node figure",
		     (int)tc->nodes);
	} else {
		m->sim.remote_factor = 1;
		note(tc, "remote_factor", 1, "x", ORIGIN_MODEL, "one node: no cross-node transfer");
	}

	if (isfinite(t->dram_ns.v) && !here) {
		m->miss_ns = t->dram_ns.v;
		note(tc, "miss_ns", m->miss_ns, "ns", ORIGIN_PROFILE, "%s", t->dram_ns.src);
	} else {
		m->miss_ns = best(c, "miss");
		note(tc, "miss_ns", m->miss_ns, "ns", ORIGIN_MEASURED,
		     "miss probe%s", here ? "" : " (this machine's DRAM: the profile has no sourced figure)");
	}

	/* The ancestor walk of 8d59d2214c23: the step cost per ancestor
	 * level measured here (walk.permemcg / walk.cached probes), never an
	 * assumed miss rate; --walk-miss replaces the measured steps. */
	m->walk_step_ns[0] = calib_median(c, "walk.permemcg");
	m->walk_step_ns[1] = calib_median(c, "walk.cached");
	if (ov && isfinite(ov->walk_miss)) {
		m->walk_miss = ov->walk_miss;
		m->walk_step_ns[0] = m->walk_step_ns[1] = NAN;
		note(tc, "walk_miss", m->walk_miss, "", ORIGIN_CLI,
		     "--walk-miss (replaces the measured walk steps)");
	} else if (isfinite(m->walk_step_ns[0]) && isfinite(m->walk_step_ns[1])) {
		m->walk_miss = 0;
		note(tc, "walk_step", m->walk_step_ns[0], "ns", ORIGIN_MEASURED,
		     "walk.permemcg probe median, per ancestor level (this machine's caches)");
		note(tc, "walk_step_cached", m->walk_step_ns[1], "ns", ORIGIN_MEASURED,
		     "walk.cached probe median, per ancestor level (this machine's caches)");
	} else {
		m->walk_miss = 0;
		m->walk_step_ns[0] = m->walk_step_ns[1] = NAN;
		note(tc, "walk_miss", 0, "", ORIGIN_NOT_MEASURED,
		     "no walk.* probes in the calibration: ancestor-walk loads cost L1 hits only");
	}

	if (ov && ov->line_size) {
		tc->line_size = ov->line_size;
		note(tc, "line_size", tc->line_size, "B", ORIGIN_CLI, "--line");
	} else if (isfinite(t->pair_bytes.v)) {
		tc->line_size = (unsigned)t->pair_bytes.v;
		note(tc, "line_size", tc->line_size, "B", ORIGIN_PROFILE, "%s", t->pair_bytes.src);
	} else {
		tc->line_size = 64;
		note(tc, "line_size", 64, "B", ORIGIN_NOT_MEASURED,
		     "prefetcher pairing unknown: 64-byte lines");
	}
	note(tc, "nodes", tc->nodes, "", here ? ORIGIN_MEASURED : ORIGIN_PROFILE,
	     "%u socket(s), %u NUMA node(s), %u cores, %u CPUs: %s", t->sockets, t->nodes,
	     t->cores, t->cpus, t->identified_by);
	probe_warnings(c, tc);
}

void target_print_params(const struct target *t, const struct target_costs *tc, FILE *f)
{
	fprintf(f, "# target %s: %s\n", t->name, t->description);
	fprintf(f, "#   cpu: %s%s%s\n", t->cpu, t->stand_in ? "; stand-in figures: " : "",
		t->stand_in ? t->stand_in : "");
	fprintf(f, "#   %-14s %10s %-4s %-28s %s\n", "parameter", "value", "unit", "origin", "source");
	for (size_t i = 0; i < tc->np; i++) {
		const struct param_note *p = &tc->p[i];
		fprintf(f, "#   %-14s %10.4g %-4s %-28s %s\n", p->name, p->value, p->unit,
			param_origin_name(p->origin), p->src);
	}
	fprintf(f, "#   operation counts, access sets, batch, fold and flush periods: model "
		"(the workload programs, 'memscale model program WORKLOAD')\n");
	if (tc->warnings[0])
		fprintf(f, "#   calibration warnings: %s\n", tc->warnings);
}

static void print_tval(FILE *f, const char *name, const char *unit, const struct tval *v)
{
	if (isfinite(v->v))
		fprintf(f, "    %-16s %8.4g %-7s %s\n", name, v->v, unit, v->src ? v->src : "");
	else
		fprintf(f, "    %-16s %8s %-7s %s\n", name, "-", "", v->src ? v->src : "no sourced figure");
}

void target_list(FILE *f)
{
	const struct target **v;
	size_t n = target_all(&v);

	fprintf(f, "%-20s %s\n", "NAME", "DESCRIPTION");
	fprintf(f, "%-20s %s\n", TARGET_HERE,
		"this machine, from the calibration file (the default for a user's own question)");
	for (size_t i = 0; i < n; i++) {
		const struct target *t = v[i];
		fprintf(f, "%-20s %s\n", t->name, t->description);
		fprintf(f, "    cpu: %s (identified by: %s)\n", t->cpu, t->identified_by);
		fprintf(f, "    topology: %u socket(s), %u NUMA node(s), %u cores, %u CPUs\n",
			t->sockets, t->nodes, t->cores, t->cpus);
		if (t->stand_in)
			fprintf(f, "    stand-in: %s\n", t->stand_in);
		print_tval(f, "clock", "GHz", &t->ghz);
		print_tval(f, "xfer", "ns", &t->xfer_ns);
		print_tval(f, "xfer_remote", "ns", &t->xfer_remote_ns);
		print_tval(f, "dram", "ns", &t->dram_ns);
		print_tval(f, "atomic", "cycles", &t->atomic_cycles);
		print_tval(f, "hit", "cycles", &t->hit_cycles);
		print_tval(f, "prefetch_pair", "bytes", &t->pair_bytes);
	}
}
