/*
 * target.c - the composition of a prediction's costs for a target with
 * the origin of every parameter: the target profile's hardware facts
 * (read by target_file.c), the work reference's local work, and
 * "this machine" from its calibration; see target.h.
 */
#include "predict/target.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "predict/kpath.h"

const char *target_work_path(void)
{
	static char *path;

	if (!path)
		path = xasprintf("%s/reference.txt", data_dir("MEMSCALE_WORK", "predict/work"));
	return path;
}

const struct calib *target_work_reference(void)
{
	static struct calib w;
	static bool loaded;

	if (!loaded) {
		calib_load_or_die(&w, target_work_path());
		loaded = true;
	}
	return &w;
}

const struct calib *target_work(const struct target *t, const struct calib *here)
{
	return !strcmp(t->name, TARGET_HERE) ? here : target_work_reference();
}

const char *param_origin_name(enum param_origin o)
{
	switch (o) {
	case ORIGIN_MEASURED: return "measured here";
	case ORIGIN_SCALED: return "work reference, clock-scaled";
	case ORIGIN_REFERENCE: return "work reference";
	case ORIGIN_PROFILE: return "target profile";
	case ORIGIN_MODEL: return "model";
	case ORIGIN_NOT_MEASURED: return "NOT MEASURED";
	case ORIGIN_CLI: return "command line";
	}
	return "?";
}

/* The figure a probe stands for: its least disturbed repetition (the
 * minimum; on a shared machine a repetition can only be slowed down),
 * else its median.  Same rule for every cost composed here. */
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
	t->pair_bytes = t->pair_rfo = (struct tval){ NAN, "not measured" };
	t->inval_step_cycles = (struct tval){ NAN, "not measured" };
	t->l2_kib = t->llc_mib = t->l2_cycles =
		t->llc_cycles = t->llc_victim = (struct tval){ NAN, "not measured" };
	/* This machine's system calls and faults are measured with its own
	 * entry path and mitigations in them: nothing to add. */
	t->entry_cycles = t->pti_cycles = t->ibrs_entry_cycles =
		(struct tval){ NAN, "measured (the syscall and fault probes)" };
	t->smt = (struct tval){ t->cores ? (double)t->cpus / t->cores : NAN,
				"calibration meta.pus / meta.cores" };
	t->smt_gain = (struct tval){ NAN, "not measured (the probes never load both "
				     "threads of a core)" };
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
/* A cost the profile gives in cycles (at its clock), else the work
 * reference's probe (c) run at the target's clock; noted with its origin
 * either way. */
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

/* A cache level's hit latency from the profile's cycles at its clock, or
 * NAN (noted as not measured) where the profile has none. */
static double cache_ns(struct target_costs *tc, const char *name, const struct tval *cycles,
		       double ghz, bool here)
{
	if (here)
		return NAN;
	if (isfinite(cycles->v) && isfinite(ghz) && ghz > 0) {
		note(tc, name, cycles->v / ghz, "ns", ORIGIN_PROFILE, "%.0f cycles at %.2f GHz: %s",
		     cycles->v, ghz, cycles->src);
		return cycles->v / ghz;
	}
	note(tc, name, NAN, "ns", ORIGIN_NOT_MEASURED, "%s", cycles->src ? cycles->src :
	     "no sourced figure");
	return NAN;
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

/* SMT siblings: CPUs past the physical cores are their second threads
 * (sim.h); a thread computes at (1 + g) / 2 of its solo speed while its
 * sibling computes, i.e. its local work takes 2 / (1 + g) as long. */
static void smt_costs(const struct target *t, struct target_costs *tc, bool here)
{
	struct sim_costs *sc = &tc->c.sim;

	sc->smt_slowdown = 0;
	if (here)
		return; /* this machine: its probes never load both threads */
	/* The simulator's siblings follow the topology (predict.c passes the
	 * cores as phys_cores); check_smt() keeps smt consistent with it. */
	if (t->cpus <= t->cores) {
		note(tc, "smt_slowdown", 1, "x", ORIGIN_MODEL, "no SMT siblings: one thread per "
		     "core (%u cores, %u CPUs)", t->cores, t->cpus);
		return;
	}
	if (!isfinite(t->smt_gain.v)) {
		note(tc, "smt_slowdown", 1, "x", ORIGIN_NOT_MEASURED, "%u CPUs on %u cores: "
		     "above %u CPUs siblings share a core, but no sourced SMT gain: they do "
		     "not slow each other: %s", t->cpus, t->cores, t->cores,
		     t->smt_gain.src ? t->smt_gain.src : "");
		return;
	}
	sc->smt_slowdown = 2.0 / (1.0 + t->smt_gain.v);
	note(tc, "smt_slowdown", sc->smt_slowdown, "x", ORIGIN_PROFILE,
	     "smt %u/core: above %u CPUs, CPU c+%u is CPU c's sibling; x%.2f = 2/(1+%.2f) beside a "
	     "computing sibling: %s", t->cpus / t->cores, t->cores, t->cores, sc->smt_slowdown,
	     t->smt_gain.v, t->smt_gain.src);
}

/*
 * The user-kernel round trip of a system call or fault on the target
 * under each era's default mitigations (models/knobs.c, knob
 * mitigations): the target's cycles at its clock, not the work
 * reference's probe, whose round trip holds its CPU's entry path, mitigations
 * and, in a VM, its hypervisor (a getppid of 63 ns on one VM and 163 ns
 * on another).  The simulator adds entry_ns[era] to every fault and
 * system call of the side's kernel; where it is known, target_costs()
 * prices the syscall probe (entry/exit only) as 0 and takes the probed
 * machine's round trip out of the fault probe, ASSUMING an exception
 * entry and exit costs what a system call's does (the fault_trap
 * component, fault - fault.populate, is the nearest measurement and is
 * noted).  Returns whether the entry is the target's.
 */
static bool entry_costs(const struct target *t, const struct calib *c, struct target_costs *tc,
			bool here)
{
	struct memcg_costs *m = &tc->c;
	double ghz = t->ghz.v;
	static const char *const names[MITIGATIONS_NR] = { "entry_ns@v4.15", "entry_ns@v5.19" };

	for (int e = 0; e < MITIGATIONS_NR; e++)
		m->entry_ns[e] = NAN;
	if (here)
		return false;
	if (!isfinite(t->entry_cycles.v) || !isfinite(t->pti_cycles.v) ||
	    !isfinite(t->ibrs_entry_cycles.v) || !(ghz > 0) || !isfinite(best(c, "syscall"))) {
		note(tc, "entry_ns", NAN, "ns", ORIGIN_NOT_MEASURED, "no sourced round-trip "
		     "cycles (or no clock, or no syscall probe): fault_ns and syscall_ns keep "
		     "the work reference's entry and mitigations");
		return false;
	}
	m->entry_ns[MITIGATIONS_V4_15] = (t->entry_cycles.v + t->pti_cycles.v) / ghz;
	m->entry_ns[MITIGATIONS_V5_19] = m->entry_ns[MITIGATIONS_V4_15] + t->ibrs_entry_cycles.v / ghz;
	note(tc, names[MITIGATIONS_V4_15], m->entry_ns[MITIGATIONS_V4_15], "ns", ORIGIN_PROFILE,
	     "(%.0f + %.0f PTI) cycles at %.2f GHz: %s; PTI: %s", t->entry_cycles.v,
	     t->pti_cycles.v, ghz, t->entry_cycles.src, t->pti_cycles.src);
	note(tc, names[MITIGATIONS_V5_19], m->entry_ns[MITIGATIONS_V5_19], "ns", ORIGIN_PROFILE,
	     "v4.15's + %.0f IBRS-entry cycles: %s", t->ibrs_entry_cycles.v,
	     t->ibrs_entry_cycles.src);
	return true;
}

/* Line transfer, atomics, hits, lock hand-off and invalidation: the
 * target's hardware (scale, scale_src: the clock ratio for a probe). */
static void line_costs(const struct target *t, const struct calib *c, struct target_costs *tc,
		       bool here, double scale, const char *scale_src)
{
	struct memcg_costs *m = &tc->c;

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
	/* A write to a line k other cores hold: one transfer plus
	 * inval_step_cycles for each copy past the first (predict/sim.h). */
	if (isfinite(t->inval_step_cycles.v) && t->ghz.v > 0) {
		m->sim.inval_step_ns = t->inval_step_cycles.v / t->ghz.v;
		note(tc, "inval_step_ns", m->sim.inval_step_ns, "ns", ORIGIN_PROFILE,
		     "%.0f cycles at %.2f GHz per copy past the first: %s",
		     t->inval_step_cycles.v, t->ghz.v, t->inval_step_cycles.src);
	} else {
		m->sim.inval_step_ns = 0;
		note(tc, "inval_step_ns", 0, "ns", ORIGIN_NOT_MEASURED,
		     "no sourced curve for invalidating k sharers (%s): a write to a line k "
		     "cores read costs one transfer whatever k (flat invalidation, "
		     "predict/sim.h)", t->inval_step_cycles.src ? t->inval_step_cycles.src
		     : "none");
	}
	/* Read copies lost to capacity (predict/sim.h): the core's L2. */
	m->sim.l2_keep_bytes = isfinite(t->l2_kib.v) ? t->l2_kib.v * 1024 : 0;
	note(tc, "l2_keep_bytes", m->sim.l2_keep_bytes, "B", isfinite(t->l2_kib.v) ? ORIGIN_PROFILE
	     : ORIGIN_NOT_MEASURED, "%s", isfinite(t->l2_kib.v) ? t->l2_kib.src
	     : "no L2 size: read copies are never lost to capacity");
}

/* Local work: the work reference's time per step in cycles (c is
 * target_work(t, ...): never the machine at hand for a profile), run at
 * the target's clock by `scale` (the cycle count of a step is taken to
 * carry over between x86 cores; the clock ratio is the only hardware
 * cost).  entry: the target's round trip is known (entry_costs). */
static void local_costs(const struct calib *c, struct target_costs *tc, bool here, bool entry,
			double scale, const char *scale_src)
{
	struct memcg_costs *m = &tc->c;
	const char *who = here ? "this machine" : "the work reference";
	static const struct { const char *probe, *name; size_t off; } local[] = {
		{ "fault", "fault_ns", offsetof(struct memcg_costs, fault_ns) },
		{ "page", "page_ns", offsetof(struct memcg_costs, page_ns) },
		{ "clear", "clear_ns", offsetof(struct memcg_costs, clear_ns) },
		{ "syscall", "syscall_ns", offsetof(struct memcg_costs, syscall_ns) },
		{ "list", "list_ns", offsetof(struct memcg_costs, list_ns) },
		{ "percpu", "percpu_ns", offsetof(struct memcg_costs, percpu_ns) },
	};

	for (size_t i = 0; i < ARRAY_SIZE(local); i++) {
		double *dst = (double *)((char *)m + local[i].off);
		char basis[256], pre[224] = "";

		if (entry && !strcmp(local[i].probe, "syscall")) {
			/* getppid is entry/exit only: the target's entry_ns */
			const char *hv = calib_str(c, "meta.hypervisor");
			const char *mit = calib_str(c, "meta.mitigations");

			*dst = 0;
			note(tc, local[i].name, 0, "ns", ORIGIN_MODEL, "getppid is entry/exit only: a "
			     "system call costs the target's entry_ns; %s's %.1f ns not used "
			     "(its entry path, hypervisor %s, mitigations: %.160s)", who,
			     best(c, "syscall"), hv ? hv : "unknown", mit ? mit : "not recorded");
			continue;
		}
		*dst = best(c, local[i].probe) * scale;
		/* calib_probe_basis: which figure of the probe family this is
		 * (the steady-state re-fault, not the first touch) and why. */
		calib_probe_basis(c, local[i].probe, basis, sizeof(basis));
		/* The programs add the page's own work (clear_ns or page_ns)
		 * to a fault: a measured steady-state fault includes
		 * clear_page, so it is taken out of it (the clear probe) once. */
		if (!strcmp(local[i].probe, "fault") && isfinite(best(c, "clear")) &&
		    isfinite(best(c, "fault.first")) && best(c, "fault") > best(c, "clear")) {
			*dst = (best(c, "fault") - best(c, "clear")) * scale;
			snprintf(basis + strlen(basis), sizeof(basis) - strlen(basis),
				 "; minus clear %.0f ns (the programs add clear_ns or page_ns)", best(c, "clear"));
		}
		/* The fault's own entry is the target's entry_ns (entry_costs):
		 * this machine's round trip comes out of the probe. */
		if (entry && !strcmp(local[i].probe, "fault")) {
			*dst -= best(c, "syscall") * scale;
			if (!(*dst > 0))
				*dst = 0;
			snprintf(pre, sizeof(pre), "less %s's round trip (syscall %.1f ns, "
				 "scaled), the target's entry_ns added per fault (assumption: an "
				 "exception entry costs what a system call's does; its fault_trap "
				 "%.0f ns); ", who, best(c, "syscall"), calib_num(c, "part.fault_trap_ns"));
		}
		/* A calibration without the clear probe keeps clear_page
		 * inside fault_ns (not taken out above): no clear cost apart. */
		if (!strcmp(local[i].probe, "clear") && !isfinite(*dst))
			*dst = 0;
		note(tc, local[i].name, *dst, "ns", here ? ORIGIN_MEASURED : ORIGIN_SCALED,
		     "%s%s%s probe, least disturbed rep %.1f ns, %s%s%s", pre,
		     here ? "" : "work reference's ", local[i].probe, best(c, local[i].probe),
		     scale_src, *basis ? "; " : "", basis);
	}
}

/* The caches the cold folio lines of a critical section are priced
 * against (sim_memcg.c, predict/footprint.h): the target's sizes and
 * latencies, never this machine's. */
static void cache_costs(const struct target *t, struct target_costs *tc, bool here)
{
	struct memcg_costs *m = &tc->c;

	m->sockets = t->sockets ? t->sockets : 1;
	m->dram_ns = !here && isfinite(t->dram_ns.v) ? t->dram_ns.v : NAN;
	if (isfinite(t->l2_kib.v) && isfinite(t->llc_mib.v) && isfinite(m->dram_ns)) {
		m->l2_bytes = t->l2_kib.v * 1024;
		m->llc_bytes = t->llc_mib.v * 1024 * 1024;
		note(tc, "l2_bytes", m->l2_bytes, "B", ORIGIN_PROFILE, "%s", t->l2_kib.src);
		note(tc, "llc_bytes", m->llc_bytes, "B", ORIGIN_PROFILE, "per socket: %s",
		     t->llc_mib.src);
	} else {
		m->l2_bytes = m->llc_bytes = NAN;
		note(tc, "l2_bytes", NAN, "B", ORIGIN_NOT_MEASURED,
		     "no cache sizes and sourced DRAM latency together: a critical "
		     "section's cold folio lines cost an L1 hit");
	}
	/* L2 / LLC hits, for the lines the footprint finds there; without a
	 * sourced latency they are NAN (the simulator then prices them as
	 * L1 hits and says so). */
	m->l2_ns = cache_ns(tc, "l2_ns", &t->l2_cycles, t->ghz.v, here);
	m->llc_ns = cache_ns(tc, "llc_ns", &t->llc_cycles, t->ghz.v, here);
	m->llc_victim = !here && t->llc_victim.v == 1;
	if (!here)
		note(tc, "llc_victim", isfinite(t->llc_victim.v) ? t->llc_victim.v : NAN, "",
		     isfinite(t->llc_victim.v) ? ORIGIN_PROFILE : ORIGIN_NOT_MEASURED, "%s%s",
		     isfinite(t->llc_victim.v) ? "" : "inclusion unknown, taken as inclusive: ",
		     t->llc_victim.src ? t->llc_victim.src : "no sourced figure");
}

/*
 * The kernel's own instructions inside an LRU lock section, per folio
 * (predict/kpath.h), for each era of the path (knob kpath): the mean of
 * the add and delete sections' counts (a recording's list operations do
 * not say which they were); inside a zone->lock section, per page
 * taken and per page returned; each instruction at the list probe's time
 * per instruction, list_ns over the probe loop's instructions.  So they
 * run at the work reference's pace and the target's clock, as list_ns
 * does; each count is one distribution kernel's, a stand-in for the
 * profiles' commits of its era.
 */
static void kpath_costs(struct target_costs *tc, bool here)
{
	const struct kpath *k = kpath_reference();
	struct memcg_costs *m = &tc->c;
	enum param_origin o = here ? ORIGIN_MEASURED : ORIGIN_SCALED;
	/* one kernel instruction at the list probe's pace */
	double insn = m->list_ns > 0 ? m->list_ns / k->list_probe : 0;

	/* the notes keep the name, not a copy: one buffer per era for good */
	static char names[KPATH_NR][8][40];

	m->insn_ns = insn;
	for (int i = 0; i < KPATH_NR; i++) {
		const struct kpath_count *e = &k->era[i];
		const char *era = knob_kpath.values[i].value;
		double per = (e->add.n + e->del.n) / 2;
		char list[300] = "";
		size_t at = 0;

		snprintf(names[i][0], sizeof(names[i][0]), "kpath_ns@%s", era);
		snprintf(names[i][1], sizeof(names[i][1]), "kpath_iso_ns@%s", era);
		snprintf(names[i][2], sizeof(names[i][2]), "kbody@%s", era);
		snprintf(names[i][3], sizeof(names[i][3]), "kzone_alloc_ns@%s", era);
		snprintf(names[i][4], sizeof(names[i][4]), "kzone_free_ns@%s", era);
		snprintf(names[i][5], sizeof(names[i][5]), "kreclaim_ns@%s", era);
		snprintf(names[i][6], sizeof(names[i][6]), "kfault_ns@%s", era);
		snprintf(names[i][7], sizeof(names[i][7]), "khold_ns@%s", era);
		m->kpath_ns[i] = per * insn;
		m->kpath_iso_ns[i] = e->isolate.n * insn;
		m->kzone_ns[i][0] = e->zalloc.n * insn;
		m->kzone_ns[i][1] = e->zfree.n * insn;
		m->kreclaim_ns[i] = isnan(e->reclaim.n) ? 0 : e->reclaim.n * insn;
		m->kfault_ns[i] = isnan(e->fault.n) ? 0 : e->fault.n * insn;
		m->khold_ns[i] = isnan(e->hold.n) ? 0 : e->hold.n * insn;
		if (!(insn > 0)) {
			note(tc, names[i][0], 0, "ns", ORIGIN_NOT_MEASURED, "no list probe to price the "
			     "kernel path's %.0f instructions per LRU list operation: list_ns/2 "
			     "each", per);
			continue;
		}
		note(tc, names[i][0], m->kpath_ns[i], "ns", o,
		     "%.0f instructions per LRU list operation inside the lock, the mean of add "
		     "%.0f and delete %.0f (%s; predict/work/kpath.ini), a stand-in for the "
		     "profiles of knob kpath=%s; x list_ns / %.0f, the list probe's "
		     "instructions (%s)", per, e->add.n, e->del.n, e->kernel, era, k->list_probe,
		     k->list_probe_src);
		note(tc, names[i][1], m->kpath_iso_ns[i], "ns", o,
		     "%.0f instructions per folio of reclaim's isolation (%s; %s), x list_ns / %.0f",
		     e->isolate.n, e->isolate.src, e->kernel, k->list_probe);
		for (unsigned b = 0; b < e->nbody && at < sizeof(list); b++)
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s %.0f", b ? ", " : "",
					       e->body[b].workload, e->body[b].c.n);
		note(tc, names[i][2], e->nbody, "wl", o,
		     "system-call instructions per operation outside the LRU and zone sections "
		     "(%s, where kpath.ini's body.WORKLOAD.source names no other): %s; each x "
		     "list_ns / %.0f = %.4g ns; other workloads' system calls cost their entry "
		     "only", e->kernel,
		     e->nbody ? list : "none counted", k->list_probe, insn);
		note(tc, names[i][3], m->kzone_ns[i][0], "ns", o,
		     "%.0f instructions per page rmqueue_bulk takes, inside zone->lock (%s; %s), "
		     "x list_ns / %.0f", e->zalloc.n, e->zalloc.src, e->kernel, k->list_probe);
		note(tc, names[i][4], m->kzone_ns[i][1], "ns", o,
		     "%.0f instructions per page free_pcppages_bulk returns, inside zone->lock "
		     "(%s; %s), x list_ns / %.0f", e->zfree.n, e->zfree.src, e->kernel, k->list_probe);
		if (isnan(e->reclaim.n))
			note(tc, names[i][5], 0, "ns", ORIGIN_NOT_MEASURED, "reclaim's work per folio "
			     "freed outside the LRU and zone sections not counted for %s: priced at "
			     "nothing", e->kernel);
		else
			note(tc, names[i][5], m->kreclaim_ns[i], "ns", o,
			     "%.0f instructions per folio reclaim frees, outside the LRU and zone "
			     "sections (%s; %s), x list_ns / %.0f; kswapd's folios and direct "
			     "reclaim's alike", e->reclaim.n, e->reclaim.src, e->kernel, k->list_probe);
		/* a build option's extra per fault: only where counted */
		if (!isnan(e->fault.n))
			note(tc, names[i][6], m->kfault_ns[i], "ns", o,
			     "%.0f instructions per page fault beyond fault_ns (%s; %s), x list_ns / "
			     "%.0f", e->fault.n, e->fault.src, e->kernel, k->list_probe);
		if (!isnan(e->hold.n))
			note(tc, names[i][7], m->khold_ns[i], "ns", o,
			     "%.0f instructions per hold of an LRU or zone lock beyond its per-folio "
			     "and per-page work (%s; %s), x list_ns / %.0f", e->hold.n, e->hold.src,
			     e->kernel, k->list_probe);
	}
}

/* The ancestor walk of 8d59d2214c23: the step cost per ancestor level
 * from c's walk.permemcg / walk.cached probes (the work reference's for
 * a profile, clock-scaled), never an assumed miss rate; --walk-miss
 * replaces the measured steps. */
static void walk_costs(const struct calib *c, const struct target_overrides *ov,
		       struct target_costs *tc, bool here, double scale, const char *scale_src)
{
	struct memcg_costs *m = &tc->c;
	const char *who = here ? "this machine" : "the work reference";

	m->walk_step_ns[0] = calib_median(c, "walk.permemcg");
	m->walk_step_ns[1] = calib_median(c, "walk.cached");
	if (ov && isfinite(ov->walk_miss)) {
		m->walk_miss = ov->walk_miss;
		m->walk_step_ns[0] = m->walk_step_ns[1] = NAN;
		note(tc, "walk_miss", m->walk_miss, "", ORIGIN_CLI,
		     "--walk-miss (replaces the measured walk steps)");
	} else if (isfinite(m->walk_step_ns[0]) && isfinite(m->walk_step_ns[1])) {
		m->walk_miss = 0;
		m->walk_step_ns[0] *= scale;
		m->walk_step_ns[1] *= scale;
		note(tc, "walk_step", m->walk_step_ns[0], "ns", here ? ORIGIN_MEASURED : ORIGIN_SCALED,
		     "%swalk.permemcg probe median, per ancestor level (%s's caches), %s",
		     here ? "" : "work reference's ", who, scale_src);
		note(tc, "walk_step_cached", m->walk_step_ns[1], "ns",
		     here ? ORIGIN_MEASURED : ORIGIN_SCALED, "%swalk.cached probe median, per "
		     "ancestor level (%s's caches), %s", here ? "" : "work reference's ", who,
		     scale_src);
	} else {
		m->walk_miss = 0;
		m->walk_step_ns[0] = m->walk_step_ns[1] = NAN;
		note(tc, "walk_miss", 0, "", ORIGIN_NOT_MEASURED,
		     "no walk.* probes in the calibration: ancestor-walk loads cost L1 hits only");
	}
}

void target_costs(const struct target *t, const struct calib *c,
		  const struct target_overrides *ov, struct target_costs *tc)
{
	struct memcg_costs *m = &tc->c;
	double here_ghz = meta_num(c, "meta.cpu_mhz") / 1000; /* c's clock */
	bool here = !strcmp(t->name, TARGET_HERE), entry;
	double scale = 1;
	char scale_src[120];

	memset(tc, 0, sizeof(*tc));
	tc->nodes = t->nodes ? t->nodes : 1;

	/* the clock ratio local work is run at (local_costs) */
	if (!here && isfinite(here_ghz) && here_ghz > 0 && isfinite(t->ghz.v)) {
		scale = here_ghz / t->ghz.v;
		snprintf(scale_src, sizeof(scale_src), "x %.2f/%.2f GHz (work reference/target "
			 "clock)", here_ghz, t->ghz.v);
	} else if (!here) {
		snprintf(scale_src, sizeof(scale_src), "unscaled: %s clock unknown",
			 isfinite(here_ghz) ? "target" : "the work reference's");
	} else {
		snprintf(scale_src, sizeof(scale_src), "this machine");
	}
	entry = entry_costs(t, c, tc, here);
	local_costs(c, tc, here, entry, scale, scale_src);
	kpath_costs(tc, here);

	line_costs(t, c, tc, here, scale, scale_src);

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
		note(tc, "miss_ns", m->miss_ns, "ns", here ? ORIGIN_MEASURED : ORIGIN_REFERENCE,
		     "miss probe%s", here ? "" : " of the work reference (its DRAM: the profile has "
		     "no sourced figure)");
	}

	cache_costs(t, tc, here);
	walk_costs(c, ov, tc, here, scale, scale_src);

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
	/* How the pair line of an ownership fill comes (predict/sim.h);
	 * without pairing there is none. */
	m->sim.pair_rfo = false;
	if (tc->line_size == 128 && isfinite(t->pair_rfo.v)) {
		m->sim.pair_rfo = t->pair_rfo.v != 0;
		note(tc, "pair_rfo", t->pair_rfo.v, "", ORIGIN_PROFILE, "%s", t->pair_rfo.src);
	} else if (tc->line_size == 128) {
		note(tc, "pair_rfo", 0, "", ORIGIN_NOT_MEASURED,
		     "the pair line of every fill comes as a shared copy");
	}
	smt_costs(t, tc, here);
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

void target_work_crosscheck(const struct calib *here, FILE *f)
{
	static const char *const probes[] = { "fault", "page", "clear", "syscall", "list",
					      "percpu", "walk.permemcg", "walk.cached" };
	const struct calib *w = target_work_reference();
	double gh = meta_num(here, "meta.cpu_mhz") / 1000, gw = meta_num(w, "meta.cpu_mhz") / 1000;
	bool cycles = gh > 0 && gw > 0; /* else ns: a clock is not recorded */
	const char *cpu = calib_str(w, "meta.cpu_model"), *kern = calib_str(w, "meta.kernel");

	fprintf(f, "# cross-check: this machine's calibration against the work reference "
		"(%s, %s; %s), in %s.\n# Only target 'here' reads this machine's; every "
		"profile's prediction reads the reference.\n",
		getenv("MEMSCALE_WORK") ? target_work_path() : "predict/work/reference.txt",
		cpu ? cpu : "cpu not recorded", kern ? kern : "kernel not recorded",
		cycles ? "cycles at each one's clock" : "ns (a clock is not recorded)");
	if (!cycles)
		gh = gw = 1;
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++) {
		bool walk = !strncmp(probes[i], "walk.", 5);
		double a = (walk ? calib_median(here, probes[i]) : best(here, probes[i])) * gh;
		double b = (walk ? calib_median(w, probes[i]) : best(w, probes[i])) * gw;

		if (isfinite(a) && isfinite(b) && b > 0)
			fprintf(f, "#   %-14s %10.1f here %10.1f reference  x%.2f\n", probes[i], a, b,
				a / b);
		else
			fprintf(f, "#   %-14s not in both calibrations\n", probes[i]);
	}
}

void calib_costs(const struct calib *c, struct memcg_costs *out)
{
	struct target here;
	struct target_costs tc;

	/* One composition for every user: this machine as the target.
	 * Each probe stands for its least disturbed repetition (the minimum:
	 * on a shared machine a repetition can only be slowed down), else its
	 * median; nothing is assumed: the walk cost is the walk_step probe's
	 * or none, and one node has no remote transfers. */
	target_here(&here, c);
	target_costs(&here, c, NULL, &tc);
	*out = tc.c;
}
