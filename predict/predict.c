/*
 * predict.c - the seed A/B pairs and their extrapolation; see predict.h.
 *
 * Settings shared by a pair describe the kernel of the thread: e.g. the
 * layout pair runs v6.10-era code (rstat_permemcg_cached, PAGEVEC 31,
 * charge batch 64) in a 3-level hierarchy as in fefc6e6631ff's message;
 * the stats-batch pair runs v5.11 code (v5.10_atomic, batch 32 vs 512);
 * the flush pair runs v6.8-rc code with LKP's cgroup two levels deep
 * (ASSUMPTION: system.slice/<service>; LKP says only "not directly in
 * the root cgroup"); the lru_lock pair runs v5.3-era code with 24
 * containers (Alex Shi's AIM9 setup).
 */
#include "predict/predict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/knob.h"
#include "core/util.h"

/* What the pairs share is the experiment (hierarchy, containers); each
 * side is a kernel profile (models/kernels/), so A and B differ only in
 * what the change changed. */
#define V610 "depth=3,containers=1"
#define V511 "depth=1,containers=1"
#define V68 "depth=2,containers=1"
#define V53 "depth=2"

static const char SHAKEEL[] = "fefc6e6631ff commit message (Shakeel Butt)";

static const struct seed_pair layout_pairs[] = {
	{ "page_fault2", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 50.30, 50.30, SHAKEEL }, { 80, 21.05, 21.05, SHAKEEL } } },
	{ "page_fault1", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 50.07, 50.07, SHAKEEL }, { 80, 24.53, 24.53, SHAKEEL } } },
	{ "fallocate1", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 38.80, 38.80, SHAKEEL }, { 80, 22.33, 22.33, SHAKEEL },
	    { 104, 12.7, 12.7, "LKP 202408081325.cba32176, thread mode, 2S SKL" } } },
	{ "fallocate2", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 38.00, 38.00, SHAKEEL }, { 80, 22.11, 22.11, SHAKEEL } } },
	{ "page_fault3", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 0.11, 0.11, SHAKEEL }, { 80, 0.65, 0.65, SHAKEEL } } },
	{ "page_fault2", V610, "kernel=v6.9", "kernel=70a64b7919cb",
	  { { 104, -11.9, -11.9, "LKP 202405171353.b56b845, 2S SKL" },
	    { 64, -14.4, -14.4, "lore ZkwKRH0Oc1S7r2LP, 2S ICL" },
	    { 224, -3.4, -3.4, "lore ZkwKRH0Oc1S7r2LP, 2S SPR" },
	    { 36, -0.2, -0.2, "lore ZkwKRH0Oc1S7r2LP, 1S SKL desktop" } } },
};

static const struct seed_pair stats_batch_pairs[] = {
	{ "page_fault2", V511, "kernel=v5.11", "kernel=memcg_update_batch",
	  { { 0, 13.7, 26.2, "Feng Tang 2/2, several Xeon generations (sizes not stated)" } } },
	{ "malloc1", V511, "kernel=v5.11", "kernel=memcg_update_batch",
	  { { 0, -0.9, 6.2, "Feng Tang 2/2 (sizes not stated)" } } },
	{ "page_fault1", V511, "kernel=v5.11", "kernel=memcg_update_batch",
	  { { 0, 0, 0, "Feng Tang 2/2: 'no change'" } } },
	{ "lru_shm", V511, "kernel=v5.11", "kernel=memcg_update_batch",
	  { { 0, 43.4, 43.4, "0-day via Feng Tang 2/2 (machine not stated)" } } },
};

static const char LKP8D[] = "LKP 202401221624.cb53a8ca";
static const char YOSRY[] = "lore ZbDJsfsZt2ITyo61, vs pre-8d59";

static const struct seed_pair flush_pairs[] = {
	{ "lru_shm", V68, "kernel=v6.7", "kernel=8d59d2214c",
	  { { 224, -36.6, -36.6, LKP8D } } },
	{ "tlb_flush2", V68, "kernel=v6.7", "kernel=8d59d2214c",
	  { { 52, -32.3, -32.3, "LKP 202401221624, 52 procs on 2S SKL" } } },
	{ "fallocate1", V68, "kernel=v6.7", "kernel=8d59d2214c",
	  { { 224, -33.8, -33.8, "lore ZbDJsfsZt2ITyo61, 224 procs CPL" } } },
	{ "lru_shm", V68, "kernel=v6.7", "kernel=9cee7e8ef3e3",
	  { { 224, -1.4, -1.4, YOSRY } } },
	{ "tlb_flush2", V68, "kernel=v6.7", "kernel=9cee7e8ef3e3",
	  { { 52, 0.9, 0.9, YOSRY } } },
	{ "fallocate1", V68, "kernel=v6.7", "kernel=9cee7e8ef3e3",
	  { { 224, 3.3, 3.3, YOSRY } } },
};

static const struct seed_pair lru_lock_pairs[] = {
	{ "aim9_page_test", V53 ",containers=24", "kernel=v5.10", "kernel=v5.11",
	  { { 24, 4.24, 4.24, "Alex Shi 00/14: Hmean 34355.4 -> 35810.9, 2S x 6C HT" } } },
	{ "aim9_brk_test", V53 ",containers=24", "kernel=v5.10", "kernel=v5.11",
	  { { 24, 2.41, 2.41, "Alex Shi 00/14: Hmean 95470 -> 97769.6" } } },
	{ "lru_file_readtwice", V53 ",containers=32", "kernel=v5.10", "kernel=v5.11",
	  { { 32, 17, 17, "Alex Shi: 64 dd in 32 containers, 2S x 8C HT, 123 -> 144 MB/s" } } },
	{ "lru_file_readtwice", V53 ",containers=40", "kernel=v5.10", "kernel=v5.11",
	  { { 40, 62, 62, "Daniel Jordan, v18: modified readtwice, 2P x 10C x 2HT" } } },
	{ "lru_file_readtwice", V53 ",containers=104", "kernel=v5.10", "kernel=v5.11",
	  { { 104, 80, 80, "v11-v18 cover letters: 208 dd in 104 containers, 2S x 26C HT" } } },
};

static const struct experiment_def experiments[] = {
	{ "layout_false_sharing", "mem_cgroup_per_node layouts (70a64b7919 / fefc6e6631)",
	  layout_pairs, ARRAY_SIZE(layout_pairs) },
	{ "stats_batch", "MEMCG_UPDATE_BATCH 32 vs 512 (Feng Tang, v5.11-rc1)",
	  stats_batch_pairs, ARRAY_SIZE(stats_batch_pairs) },
	{ "permemcg_flush", "per-memcg flush threshold 8d59d2214c and its fix 9cee7e8ef3",
	  flush_pairs, ARRAY_SIZE(flush_pairs) },
	{ "lru_lock_split", "pgdat->lru_lock vs lruvec->lru_lock (6168d0da2b47)",
	  lru_lock_pairs, ARRAY_SIZE(lru_lock_pairs) },
};

const struct experiment_def *predict_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(experiments); i++)
		if (!strcmp(experiments[i].name, name))
			return &experiments[i];
	return NULL;
}

const char *predict_names(void)
{
	return "layout_false_sharing|stats_batch|permemcg_flush|lru_lock_split";
}

unsigned predict_nodes(unsigned cpus)
{
	return cpus <= 56 ? 1 : cpus <= 112 ? 2 : 4;
}

void predict_apply_knobs(struct knobset *ks, const char *list)
{
	char *dup = xstrdup(list), *save = NULL;

	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		knobset_set_arg(ks, tok);
	free(dup);
}

/* Simulated throughput of one side on `cpus` CPUs, or NAN. */
static double side(const struct seed_pair *sp, const char *diff,
		   const struct memcg_costs *c, const struct predict_opts *o,
		   unsigned cpus, unsigned line_size)
{
	struct knobset *ks = knobset_new();
	struct memcg_sim_cfg cfg;
	struct sim_result r;
	const char *err = NULL;
	char nodes[32];
	uint64_t per_core;

	predict_apply_knobs(ks, sp->common);
	predict_apply_knobs(ks, diff);
	snprintf(nodes, sizeof(nodes), "nodes=%u", predict_nodes(cpus));
	if (!knobset_is_set(ks, "nodes"))
		knobset_set_arg(ks, nodes);
	memset(&cfg, 0, sizeof(cfg));
	if (model_params_from_knobs(&cfg.p, ks))
		exit(EXIT_USAGE);
	knobset_free(ks);
	cfg.line_size = line_size;
	cfg.lock_kind = o->lock_kind;
	per_core = o->iters / cpus;
	if (per_core < 400)
		per_core = 400;
	if (memcg_sim_run(sp->workload, &cfg, c, cpus, per_core, &r, &err)) {
		warnx_("predict: %s on %u CPUs: %s", sp->workload, cpus, err);
		return NAN;
	}
	return r.ops_per_sec;
}

static const struct published *pub_at(const struct seed_pair *sp, unsigned cpus)
{
	for (size_t i = 0; i < PREDICT_MAX_PUB && sp->pub[i].note; i++)
		if (sp->pub[i].cpus == cpus || sp->pub[i].cpus == 0)
			return &sp->pub[i];
	return NULL;
}

static void fmt_pub(char *buf, size_t len, const struct published *p)
{
	if (!p)
		snprintf(buf, len, "-");
	else if (p->lo == p->hi)
		snprintf(buf, len, "%+.1f%%", p->lo);
	else
		snprintf(buf, len, "%+.1f..%+.1f%%", p->lo, p->hi);
}

/* Signed distance from the published range (0 inside it), in points. */
static double err_pp(double pred, const struct published *p)
{
	if (pred < p->lo)
		return pred - p->lo;
	if (pred > p->hi)
		return pred - p->hi;
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int predict_run(const struct experiment_def *e, const struct calib *c,
		const struct predict_opts *o, FILE *out)
{
	struct memcg_costs costs;
	unsigned sizes[2] = { 64, 128 };
	unsigned nsizes = o->line_size ? 1 : 2;
	double abs_sum[2] = { 0, 0 };
	unsigned nerr = 0;

	if (o->line_size)
		sizes[0] = o->line_size;
	calib_costs(c, &costs);
	if (!isnan(o->walk_miss)) {
		/* an explicit assumption replaces the measured walk */
		costs.walk_miss = o->walk_miss;
		costs.walk_step_ns[0] = costs.walk_step_ns[1] = NAN;
	}
	if (!isnan(o->remote_factor))
		costs.sim.remote_factor = o->remote_factor;
	fprintf(out, "# experiment %s: %s\n", e->name, e->summary);
	fprintf(out, "# costs (ns): xfer %.1f  hit %.2f  atomic %.1f  handoff %.1f  "
		"fault %.0f  page %.0f  syscall %.0f  percpu %.1f  list %.1f  miss %.1f  "
		"remote x%.1f (assumed)\n",
		costs.sim.xfer_ns, costs.sim.hit_ns, costs.sim.atomic_ns,
		costs.sim.handoff_ns, costs.fault_ns, costs.page_ns, costs.syscall_ns,
		costs.percpu_ns, costs.list_ns, costs.miss_ns, costs.sim.remote_factor);
	if (isnan(costs.walk_step_ns[0]) || isnan(costs.walk_step_ns[1]))
		fprintf(out, "# walk: walk_miss %.2f (assumed; %s)\n", costs.walk_miss,
			isnan(o->walk_miss) ? "no walk.* probes in the calibration"
					    : "--walk-miss given");
	else
		fprintf(out, "# walk step (ns per ancestor level, measured): "
			"permemcg %.2f  cached %.2f\n", costs.walk_step_ns[0],
			costs.walk_step_ns[1]);
	fprintf(out, "# published numbers are shown for comparison only; nothing is fitted to them\n");
	fprintf(out, "%-18s %-44s %5s", "workload", "A -> B", "cpus");
	for (unsigned s = 0; s < nsizes; s++)
		fprintf(out, "  %5s%-3u %8s %7s", "pred", sizes[s], "err(pp)", "rel");
	fprintf(out, "  %-13s %s\n", "published", "source");

	for (size_t i = 0; i < e->npairs; i++) {
		const struct seed_pair *sp = &e->pairs[i];
		long *cpus = xmalloc((o->ncpus + PREDICT_MAX_PUB) * sizeof(long));
		size_t n = 0;
		char ab[96];

		/* The requested sizes plus the published machines' sizes. */
		for (size_t k = 0; k < o->ncpus; k++)
			cpus[n++] = o->cpus[k];
		for (size_t k = 0; k < PREDICT_MAX_PUB && sp->pub[k].note; k++) {
			bool have = false;
			for (size_t m = 0; m < n; m++)
				have |= cpus[m] == (long)sp->pub[k].cpus;
			if (!have && sp->pub[k].cpus)
				cpus[n++] = sp->pub[k].cpus;
		}
		qsort(cpus, n, sizeof(long), cmp_long);
		snprintf(ab, sizeof(ab), "%s -> %s", sp->a, strchr(sp->b, '=') + 1);
		for (size_t k = 0; k < n; k++) {
			const struct published *p = pub_at(sp, (unsigned)cpus[k]);
			char pb[32];

			fprintf(out, "%-18s %-44s %5ld", sp->workload, ab, cpus[k]);
			for (unsigned s = 0; s < nsizes; s++) {
				double a = side(sp, sp->a, &costs, o, (unsigned)cpus[k], sizes[s]);
				double b = side(sp, sp->b, &costs, o, (unsigned)cpus[k], sizes[s]);
				double pct = 100.0 * (b - a) / a;

				fprintf(out, "  %+7.1f%%", pct);
				if (p && isfinite(pct)) {
					double d = err_pp(pct, p), mid = (p->lo + p->hi) / 2;
					fprintf(out, " %+8.1f", d);
					if (mid != 0)
						fprintf(out, " %+6.0f%%", 100 * d / fabs(mid));
					else
						fprintf(out, " %7s", "-");
					abs_sum[s] += fabs(d);
				} else {
					fprintf(out, " %8s %7s", "-", "-");
				}
			}
			if (p)
				nerr++;
			fmt_pub(pb, sizeof(pb), p);
			fprintf(out, "  %-13s %s\n", pb, p ? p->note : "");
			fflush(out);
		}
		free(cpus);
	}
	if (nerr) {
		fprintf(out, "# mean |error| over %u published points:", nerr);
		for (unsigned s = 0; s < nsizes; s++)
			fprintf(out, " %.1f pp (%u B lines)", abs_sum[s] / nerr, sizes[s]);
		fprintf(out, "\n");
	}
	return 0;
}
