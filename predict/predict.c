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
	  { { 52, 50.30, 50.30, SHAKEEL,
	      "shakeel-52cpu", true },
	    { 80, 21.05, 21.05, SHAKEEL,
	      "shakeel-80cpu", false } } },
	{ "page_fault1", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 50.07, 50.07, SHAKEEL,
	      "shakeel-52cpu", false },
	    { 80, 24.53, 24.53, SHAKEEL,
	      "shakeel-80cpu", false } } },
	{ "fallocate1", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 38.80, 38.80, SHAKEEL,
	      "shakeel-52cpu", false },
	    { 80, 22.33, 22.33, SHAKEEL,
	      "shakeel-80cpu", false },
	    { 104, 12.7, 12.7, "LKP 202408081325.cba32176, thread mode, 2S SKL",
	      "lkp-skl-fpga01", false } } },
	{ "fallocate2", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 38.00, 38.00, SHAKEEL,
	      "shakeel-52cpu", false },
	    { 80, 22.11, 22.11, SHAKEEL,
	      "shakeel-80cpu", false } } },
	{ "page_fault3", V610, "kernel=70a64b7919cb", "kernel=fefc6e6631ff",
	  { { 52, 0.11, 0.11, SHAKEEL,
	      "shakeel-52cpu", false },
	    { 80, 0.65, 0.65, SHAKEEL,
	      "shakeel-80cpu", false } } },
	{ "page_fault2", V610, "kernel=v6.9", "kernel=70a64b7919cb",
	  { { 104, -11.9, -11.9, "LKP 202405171353.b56b845, 2S SKL",
	      "lkp-skl-fpga01", false },
	    { 64, -14.4, -14.4, "lore ZkwKRH0Oc1S7r2LP, 2S ICL",
	      "lkp-icl-2s-64t", false },
	    { 224, -3.4, -3.4, "lore ZkwKRH0Oc1S7r2LP, 2S SPR",
	      NULL, false },
	    { 36, -0.2, -0.2, "lore ZkwKRH0Oc1S7r2LP, 1S SKL desktop",
	      "skl-1s-36t", false } } },
};

static const struct seed_pair stats_batch_pairs[] = {
	{ "page_fault2", V511, "kernel=v5.11", "kernel=memcg_update_batch",
	  { { 0, 13.7, 26.2, "Feng Tang 2/2, several Xeon generations (sizes not stated)",
	      "lkp-skl-fpga01", true } } },
	{ "malloc1", V511, "kernel=v5.11", "kernel=memcg_update_batch",
	  { { 0, -0.9, 6.2, "Feng Tang 2/2 (sizes not stated)",
	      "lkp-skl-fpga01", false } } },
	{ "page_fault1", V511, "kernel=v5.11", "kernel=memcg_update_batch",
	  { { 0, 0, 0, "Feng Tang 2/2: 'no change'",
	      "lkp-skl-fpga01", false } } },
	{ "lru_shm", V511, "kernel=v5.11", "kernel=memcg_update_batch",
	  { { 0, 43.4, 43.4, "0-day via Feng Tang 2/2 (machine not stated)",
	      "lkp-skl-fpga01", false } } },
};

static const char LKP8D[] = "LKP 202401221624.cb53a8ca";
static const char YOSRY[] = "lore ZbDJsfsZt2ITyo61, vs pre-8d59";

static const struct seed_pair flush_pairs[] = {
	{ "lru_shm", V68, "kernel=v6.7", "kernel=8d59d2214c",
	  { { 224, -36.6, -36.6, LKP8D,
	      "lkp-cpl-4sp2", false } } },
	{ "tlb_flush2", V68, "kernel=v6.7", "kernel=8d59d2214c",
	  { { 52, -32.3, -32.3, "LKP 202401221624, 52 procs on 2S SKL",
	      "lkp-skl-fpga01", true } } },
	{ "fallocate1", V68, "kernel=v6.7", "kernel=8d59d2214c",
	  { { 224, -33.8, -33.8, "lore ZbDJsfsZt2ITyo61, 224 procs CPL",
	      "lkp-cpl-4sp2", false } } },
	{ "lru_shm", V68, "kernel=v6.7", "kernel=9cee7e8ef3e3",
	  { { 224, -1.4, -1.4, YOSRY,
	      "lkp-cpl-4sp2", false } } },
	{ "tlb_flush2", V68, "kernel=v6.7", "kernel=9cee7e8ef3e3",
	  { { 52, 0.9, 0.9, YOSRY,
	      "lkp-skl-fpga01", false } } },
	{ "fallocate1", V68, "kernel=v6.7", "kernel=9cee7e8ef3e3",
	  { { 224, 3.3, 3.3, YOSRY,
	      "lkp-cpl-4sp2", false } } },
};

static const struct seed_pair lru_lock_pairs[] = {
	{ "aim9_page_test", V53 ",containers=24", "kernel=v5.10", "kernel=v5.11",
	  { { 24, 4.24, 4.24, "Alex Shi 00/14: Hmean 34355.4 -> 35810.9, 2S x 6C HT",
	      "e5-2630-2s", true } } },
	{ "aim9_brk_test", V53 ",containers=24", "kernel=v5.10", "kernel=v5.11",
	  { { 24, 2.41, 2.41, "Alex Shi 00/14: Hmean 95470 -> 97769.6",
	      "e5-2630-2s", false } } },
	{ "lru_file_readtwice", V53 ",containers=32", "kernel=v5.10", "kernel=v5.11",
	  { { 32, 17, 17, "Alex Shi: 64 dd in 32 containers, 2S x 8C HT, 123 -> 144 MB/s",
	      "xeon-2s-32t", false } } },
	{ "lru_file_readtwice", V53 ",containers=40", "kernel=v5.10", "kernel=v5.11",
	  { { 40, 62, 62, "Daniel Jordan, v18: modified readtwice, 2P x 10C x 2HT",
	      "bdw-2s-40t", false } } },
	{ "lru_file_readtwice", V53 ",containers=104", "kernel=v5.10", "kernel=v5.11",
	  { { 104, 80, 80, "v11-v18 cover letters: 208 dd in 104 containers, 2S x 26C HT",
	      "xeon-2s-104t", false } } },
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

size_t predict_count(void)
{
	return ARRAY_SIZE(experiments);
}

const struct experiment_def *predict_at(size_t i)
{
	return i < ARRAY_SIZE(experiments) ? &experiments[i] : NULL;
}

void predict_apply_knobs(struct knobset *ks, const char *list)
{
	char *dup = xstrdup(list), *save = NULL;

	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		knobset_set_arg(ks, tok);
	free(dup);
}

/* Simulated throughput of one side on `cpus` CPUs of a machine with
 * `nodes` NUMA nodes, or NAN. */
static double side(const struct seed_pair *sp, const char *diff,
		   const struct memcg_costs *c, const struct predict_opts *o,
		   unsigned cpus, unsigned nodes, unsigned line_size)
{
	struct knobset *ks = knobset_new();
	struct memcg_sim_cfg cfg;
	struct sim_result r;
	const char *err = NULL;
	char nodestr[32];
	uint64_t per_core;

	predict_apply_knobs(ks, sp->common);
	predict_apply_knobs(ks, diff);
	snprintf(nodestr, sizeof(nodestr), "nodes=%u", nodes < cpus ? nodes : cpus);
	if (!knobset_is_set(ks, "nodes"))
		knobset_set_arg(ks, nodestr);
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

/* The effective value of knob `name` on one side of a pair (its common
 * settings, its kernel profile, the knob's default). */
const char *predict_side_value(const struct seed_pair *sp, bool patch, const char *name,
			       char *buf, size_t len)
{
	struct knobset *ks = knobset_new();
	const struct knob *k = knob_find(name);

	predict_apply_knobs(ks, sp->common);
	predict_apply_knobs(ks, patch ? sp->b : sp->a);
	snprintf(buf, len, "%s", k ? knob_str(ks, k) : "");
	knobset_free(ks);
	return buf;
}

void predict_pair_label(const struct seed_pair *sp, char *buf, size_t len)
{
	/* The sides as the experiment files and `memscale published` name
	 * them (kernel profiles), so rows match the published tables. */
	snprintf(buf, len, "%s -> %s", sp->a, strchr(sp->b, '=') ? strchr(sp->b, '=') + 1 : sp->b);
}

void predict_session_init(struct predict_session *s, const struct calib *c,
			  const struct predict_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->c = c;
	s->o = o;
	target_here(&s->here, c);
}

void predict_session_free(struct predict_session *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->tc[i]);
	s->n = 0;
}

static const struct target_costs *session_costs(struct predict_session *s,
						const struct target *t)
{
	struct target_overrides ov = { s->o->walk_miss, s->o->remote_factor, s->o->line_size };

	for (size_t i = 0; i < s->n; i++)
		if (s->t[i] == t)
			return s->tc[i];
	if (s->n == ARRAY_SIZE(s->t))
		die(1, "predict: too many targets in one session");
	s->t[s->n] = t;
	s->tc[s->n] = xcalloc(1, sizeof(struct target_costs));
	target_costs(t, s->c, &ov, s->tc[s->n]);
	return s->tc[s->n++];
}

/* --target, else the machine the published row ran on, else (a size
 * nobody published, a user's own question) this machine. */
static const struct target *point_target(struct predict_session *s,
					 const struct published *pub)
{
	const char *name = s->o->target ? s->o->target : pub ? pub->target : TARGET_HERE;

	if (!name)
		return NULL;
	if (!strcmp(name, TARGET_HERE))
		return &s->here;
	return target_find(name);
}

void predict_point_eval_target(struct predict_session *s, const struct published *pub,
			       struct predict_point *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->t = point_target(s, pub);
}

void predict_point_eval(struct predict_session *s, const struct seed_pair *sp,
			const struct published *pub, unsigned cpus,
			struct predict_point *pt)
{
	double a, b;

	memset(pt, 0, sizeof(*pt));
	pt->sp = sp;
	pt->pub = pub;
	pt->cpus = cpus;
	pt->pct = pt->err = NAN;
	pt->t = point_target(s, pub);
	if (!pt->t)
		return;
	pt->tc = session_costs(s, pt->t);
	a = side(sp, sp->a, &pt->tc->c, s->o, cpus, pt->tc->nodes, pt->tc->line_size);
	b = side(sp, sp->b, &pt->tc->c, s->o, cpus, pt->tc->nodes, pt->tc->line_size);
	pt->pct = 100.0 * (b - a) / a;
	if (pub && isfinite(pt->pct))
		pt->err = pt->pct < pub->lo ? pt->pct - pub->lo
			: pt->pct > pub->hi ? pt->pct - pub->hi : 0;
}

void predict_print_target(struct predict_session *s, const struct predict_point *pt,
			  FILE *out)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->t[i] != pt->t || s->printed[i])
			continue;
		target_print_params(pt->t, s->tc[i], out);
		s->printed[i] = true;
	}
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

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int predict_run(const struct experiment_def *e, const struct calib *c,
		const struct predict_opts *o, FILE *out)
{
	struct predict_session ses;
	double abs_sum = 0;
	unsigned nerr = 0, nsign = 0, nsigned = 0;

	predict_session_init(&ses, c, o);
	fprintf(out, "# experiment %s: %s\n", e->name, e->summary);
	fprintf(out, "# published numbers are shown for comparison only; nothing is fitted to them.\n"
		"# Each published row is predicted for the machine it ran on (its target profile;\n"
		"# --target overrides); other sizes for %s.\n",
		o->target ? o->target : "this machine (target 'here')");
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
		/* Only the published sizes asked for, and a row states none:
		 * the size of the machine it is predicted for. */
		if (!n && o->ncpus == 0) {
			struct predict_point tmp;
			predict_point_eval_target(&ses, sp->pub[0].note ? &sp->pub[0] : NULL, &tmp);
			if (tmp.t && tmp.t->cpus)
				cpus[n++] = tmp.t->cpus;
		}
		qsort(cpus, n, sizeof(long), cmp_long);
		predict_pair_label(sp, ab, sizeof(ab));
		for (size_t k = 0; k < n; k++) {
			const struct published *p = pub_at(sp, (unsigned)cpus[k]);
			struct predict_point pt;
			char pb[32];

			predict_point_eval(&ses, sp, p, (unsigned)cpus[k], &pt);
			if (pt.t)
				predict_print_target(&ses, &pt, out);
			fprintf(out, "%-18s %-44s %5ld", sp->workload, ab, cpus[k]);
			if (isfinite(pt.pct))
				fprintf(out, "  %+7.1f%% %4u", pt.pct, pt.tc->line_size);
			else
				fprintf(out, "  %8s %4s", "-", "-");
			if (p && isfinite(pt.err)) {
				double mid = (p->lo + p->hi) / 2;
				fprintf(out, " %+8.1f", pt.err);
				if (mid != 0)
					fprintf(out, " %+6.0f%%", 100 * pt.err / fabs(mid));
				else
					fprintf(out, " %7s", "-");
				abs_sum += fabs(pt.err);
				nerr++;
				/* Signs are compared where the published range
				 * lies on one side of zero. */
				if (p->lo > 0 || p->hi < 0) {
					nsigned++;
					nsign += (pt.pct > 0) == (p->lo > 0);
				}
			} else {
				fprintf(out, " %8s %7s", "-", "-");
			}
			fmt_pub(pb, sizeof(pb), p);
			fprintf(out, "  %-13s %-16s %s\n", pb, pt.t ? pt.t->name : "(no profile)",
				p ? p->note : "");
			fflush(out);
		}
		free(cpus);
	}
	if (nerr)
		fprintf(out, "# mean |error| over %u published points: %.1f pp; signs match on %u of %u "
			"(rows whose published change has a sign)\n", nerr, abs_sum / nerr, nsign, nsigned);
	predict_session_free(&ses);
	return 0;
}
