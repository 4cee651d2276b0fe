/*
 * predict.c - extrapolation of the seed A/B pairs (read from the
 * experiment files by the command line) with the simulator; see
 * predict.h.  A point's simulations (two sides, and the band's eight)
 * and a table's points are planned first, run together on threads
 * (predict_sims_run, at the end), then read in the order a one-at-a-time
 * evaluation would have: the output does not depend on --jobs.
 */
#include "predict/predict.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/knob.h"
#include "core/util.h"
#include "models/record.h"

unsigned published_size(const struct published_row *p)
{
	return p->workers ? p->workers : p->cpus;
}

void predict_apply_knobs(struct knobset *ks, const char *list, unsigned cpus)
{
	char *dup = xstrdup(list), *save = NULL;

	for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq && !strcmp(eq + 1, "cpus")) {
			char *kv = xasprintf("%.*s=%u", (int)(eq - tok), tok, cpus);
			knobset_set_arg(ks, kv);
			free(kv);
		} else {
			knobset_set_arg(ks, tok);
		}
	}
	free(dup);
}

/* The simulator configuration of one side on `cpus` CPUs of a machine
 * with `nodes` NUMA nodes and `phys` physical cores. */
static void side_cfg(const struct seed_pair *sp, const char *diff,
		     const struct predict_opts *o, unsigned cpus, unsigned nodes,
		     unsigned line_size, unsigned phys, bool here, struct memcg_sim_cfg *cfg)
{
	struct knobset *ks = knobset_new();
	char nodestr[32];

	predict_apply_knobs(ks, sp->common, cpus);
	predict_apply_knobs(ks, diff, cpus);
	snprintf(nodestr, sizeof(nodestr), "nodes=%u", nodes < cpus ? nodes : cpus);
	if (!knobset_is_set(ks, "nodes"))
		knobset_set_arg(ks, nodestr);
	memset(cfg, 0, sizeof(*cfg));
	if (model_params_from_knobs(&cfg->p, ks) || model_knobs_check_read(&cfg->p, ks))
		exit(EXIT_USAGE);
	knobset_free(ks);
	cfg->line_size = line_size;
	cfg->phys_cores = phys;
	cfg->cpus = cpus;
	cfg->lock_kind = o->lock_kind;
	cfg->seed = o->seed;
	cfg->p.mm_shared = o->threads;
	/* A target profile's prediction is of the benchmark as published:
	 * only what its own timer covers.  The machine at hand is predicted
	 * as memscale's runs measure it, the whole loop. */
	cfg->p.bench_window = !here;
}

/* A simulation's shared ops at most (memcg_sim_cfg.ops_budget): the
 * default 300000 iterations of a program of up to 66 shared ops per
 * iteration (every published row's but the 8d59d2214c side at 224 CPUs,
 * which has 179) run whole; at least MIN_PER_CORE iterations per CPU. */
#define PREDICT_OPS_BUDGET 20e6
#define MIN_PER_CORE 400
#define BAND_ITERS_DIV 8      /* the band's runs: an eighth of the iterations */
#define BAND_MIN_PER_CORE 50  /* ... and at least this many per core */

/* Iterations per core of a band simulation of a point at cpus CPUs. */
static uint64_t band_per_core(uint64_t iters, unsigned cpus)
{
	uint64_t n = iters / BAND_ITERS_DIV / cpus;

	return n < BAND_MIN_PER_CORE ? BAND_MIN_PER_CORE : n;
}

unsigned predict_members(uint64_t iters, unsigned cpus)
{
	uint64_t k = iters / ((uint64_t)(cpus ? cpus : 1) * MIN_PER_CORE);

	return k < 1 ? 1 : k > PREDICT_MEMBERS ? PREDICT_MEMBERS : (unsigned)k;
}

void predict_side_sim(const struct seed_pair *sp, const char *diff,
		      const struct memcg_costs *c, const struct predict_opts *o,
		      uint64_t iters, unsigned member, const struct predict_point *pt,
		      struct predict_sim *out)
{
	unsigned k = predict_members(iters, pt->cpus);

	memset(out, 0, sizeof(*out));
	side_cfg(sp, diff, o, pt->cpus, pt->tc->nodes, pt->tc->line_size, pt->t->cores,
		 !strcmp(pt->t->name, TARGET_HERE), &out->cfg);
	out->workload = sp->workload;
	out->c = *c;
	out->ncores = pt->cpus;
	/* the members share one run's iterations, budget and floor */
	out->per_core = iters / k / pt->cpus;
	if (out->per_core < MIN_PER_CORE / k)
		out->per_core = MIN_PER_CORE / k;
	out->cfg.ops_budget = PREDICT_OPS_BUDGET / k;
	out->cfg.ops_min_per_core = MIN_PER_CORE / k;
	out->cfg.seed = (o->seed ? o->seed : 1) + member;
}

/* Simulated throughput of one side that ran, or NAN (said on stderr). */
static double side_value(const struct predict_sim *v)
{
	if (v->rc) {
		warnx_("predict: %s on %u CPUs: %s", v->workload, v->ncores, v->err);
		return NAN;
	}
	return v->r.ops_per_sec;
}

/* The mean of a side's k members v[0..k), or NAN at the first that did
 * not run (said once). */
static double members_value(const struct predict_sim *v, unsigned k)
{
	double sum = 0;

	for (unsigned m = 0; m < k; m++) {
		double x = side_value(&v[m]);

		if (!isfinite(x))
			return NAN;
		sum += x;
	}
	return sum / k;
}

/*
 * The sensitivity band: the change again with the calibrated local work
 * (fault, page, syscall) x0.5 and x2, with the memcg work on the shared
 * paths (list operations under the LRU lock, per-CPU stat adds,
 * ancestor-walk steps) x0.67 and x1.5, with the other request type of the
 * spatial prefetcher's pair fill after an ownership miss, and with the
 * footprint model's scan reuse (predict.h PREDICT_BAND_N); the band is the
 * range of the seven changes.  It says how much the answer rests on the
 * measured costs and on those two choices, not how likely it is.  Its
 * twelve simulations run an eighth of the central value's iterations, at
 * least BAND_MIN_PER_CORE per core, and an eighth of its op budget (both
 * sides of each pair alike, same seed; band_per_core): they price a cost
 * twice or half as large, or a different coherence or cache rule, beyond
 * the simulation's own noise.  At half the iterations and 400 per core
 * the four cost variants were two thirds of a prediction's time (make
 * bench prints it); the central value does not depend on them.
 */
const char *const predict_band_names[PREDICT_BAND_N] = {
	"local work x0.5", "local work x2", "shared-path work x0.67", "shared-path work x1.5",
	"the pair fill's other request type", "the footprint as a scan",
};

bool predict_band_costs(const struct memcg_costs *base, int k, unsigned line_size,
			struct memcg_costs *c)
{
	static const double local_x[] = { 0.5, 2 }, cs_x[] = { 0.67, 1.5 };
	double f = k < 2 ? local_x[k] : k < 4 ? cs_x[k - 2] : 1;

	*c = *base;
	if (k == 4) {
		if (line_size != 128) /* no pair fills */
			return false;
		c->sim.pair_rfo = !base->sim.pair_rfo;
	} else if (k == 5) {
		/* the footprint's users need the target's caches
		 * (sim_memcg.c target_caches) */
		if (!(base->l2_bytes > 0 && base->llc_bytes > 0 && base->dram_ns > 0))
			return false;
		c->fp_scan = true;
	} else if (k < 2) {
		c->fault_ns *= f;
		c->page_ns *= f;
		c->clear_ns *= f;
		c->syscall_ns *= f;
		for (int e = 0; e < MITIGATIONS_NR; e++)
			c->entry_ns[e] *= f; /* NAN stays NAN */
		c->extra_local_ns *= f; /* validation's calibrated local work */
		/* the kernel's counted work outside the lock sections: the
		 * system-call bodies (at insn_ns each) and a build's extra
		 * per fault */
		c->insn_ns *= f;
		for (int e = 0; e < KPATH_NR; e++)
			c->kfault_ns[e] *= f;
	} else {
		c->cs_scale = f; /* the lock sections' list and folio work */
		c->percpu_ns *= f;
		c->walk_step_ns[0] *= f;
		c->walk_step_ns[1] *= f;
	}
	return true;
}

/* The simulations of one point: A and B at the central costs, then A
 * and B under each band variant at band_per_core's iterations. */
#define POINT_SIMS (2 * PREDICT_MEMBERS + 2 * PREDICT_BAND_N)

/* The band from the variants' runs (pt->band_sim: point_plan). */
static void band(const struct predict_sim *v, struct predict_point *pt)
{
	pt->band_lo = pt->band_hi = pt->pct;
	for (unsigned k = 0; k < PREDICT_BAND_N; k++) {
		int at = pt->band_sim[k];
		double a, b, x;

		if (at < 0)
			continue;
		a = side_value(&v[at]);
		b = side_value(&v[at + 1]);
		x = 100.0 * (b - a) / a;
		pt->band_pct[k] = x;

		if (isfinite(x)) {
			pt->band_lo = fmin(pt->band_lo, x);
			pt->band_hi = fmax(pt->band_hi, x);
		}
	}
}

/* What bounds the throughput, from the simulated sides: the fraction of
 * core time spent waiting for locks, else the share of an iteration spent
 * in line transfers (transfers x xfer_ns / iteration time). */
static const char *regime_class(const struct sim_result *a, const struct sim_result *b,
				const struct memcg_costs *c)
{
	double lockf = fmax(a->lock_wait_frac, b->lock_wait_frac);
	double la = a->ns_per_op_core > 0 ? a->xfer_per_op * c->sim.xfer_ns / a->ns_per_op_core : 0;
	double lb = b->ns_per_op_core > 0 ? b->xfer_per_op * c->sim.xfer_ns / b->ns_per_op_core : 0;

	if (lockf >= 0.3)
		return "lock-bound";
	if (fmax(la, lb) >= 0.3)
		return "line-bound";
	if (lockf >= 0.05 || fmax(la, lb) >= 0.05)
		return "contended";
	return "local-bound";
}

/* A lock's name in a regime: its program name less "lock " ("pgdat+0",
 * "zone+1152"), "?" without a program. */
static const char *lock_label(const struct sim_prog *names, unsigned i)
{
	const char *n;

	if (!names || i >= names->nlocks)
		return "?";
	n = names->locks[i].name;
	return !strncmp(n, "lock ", 5) ? n + 5 : n;
}

/* Is lock i a walk-scoped lock sharing the instances of a lock of the
 * same name (predict/sim.h: its statistics are that lock's)? */
static bool walk_twin_of(const struct sim_prog *names, unsigned i)
{
	if (!names || i >= names->nlocks || (names->locks[i].scope != SCOPE_MEMCG_WALK &&
					     names->locks[i].scope != SCOPE_MEMCG_NODE_WALK))
		return false;
	for (unsigned k = 0; k < names->nlocks; k++)
		if (k != i && !strcmp(names->locks[k].name, names->locks[i].name))
			return true;
	return false;
}

/* Every lock of one side: the busiest first, "lock util U queue Q hold
 * H ns at NAME", then the others by name, " and NAME util U queue Q hold
 * H ns" (no commas: a CSV field); "no lock" without one. */
static void side_locks(const struct sim_result *r, const struct sim_prog *names,
		       char *buf, size_t len)
{
	int best = -1;
	size_t off;
	unsigned order[SIM_MAX_LOCKS], n = 0;

	for (unsigned i = 0; i < r->nlocks; i++)
		if (!walk_twin_of(names, i) && (best < 0 || r->lock[i].util > r->lock[best].util))
			best = (int)i;
	if (best < 0) {
		snprintf(buf, len, "no lock");
		return;
	}
	off = (size_t)snprintf(buf, len, "lock util %.2f queue %.1f hold %.0f ns at %s",
			       r->lock[best].util, r->lock[best].mean_waiters,
			       r->lock[best].hold_ns, lock_label(names, (unsigned)best));
	for (unsigned i = 0; i < r->nlocks; i++)
		if ((int)i != best && !walk_twin_of(names, i)) {
			unsigned k = n++;

			while (k && strcmp(lock_label(names, order[k - 1]),
					   lock_label(names, i)) > 0) {
				order[k] = order[k - 1];
				k--;
			}
			order[k] = i;
		}
	for (unsigned j = 0; j < n && off < len; j++) {
		const struct sim_lock_stat *l = &r->lock[order[j]];

		off += (size_t)snprintf(buf + off, len - off, " and %s util %.2f queue %.1f hold %.0f ns",
					lock_label(names, order[j]), l->util, l->mean_waiters,
					l->hold_ns);
	}
}

/* "; <label> lines/op: NAME X ..." for the three lines of r with the
 * most transfers per iteration, appended at buf + off. */
static void top_lines(const struct sim_result *b, const struct sim_prog *names,
		      const char *label, char *buf, size_t off, size_t len)
{
	int top[3] = { -1, -1, -1 };

	for (unsigned i = 0; i < b->nlines; i++) {
		double x = b->line_xfer_per_op[i];
		for (int k = 0; k < 3; k++)
			if (x > 0 && (top[k] < 0 || x > b->line_xfer_per_op[top[k]])) {
				for (int j = 2; j > k; j--)
					top[j] = top[j - 1];
				top[k] = (int)i;
				break;
			}
	}
	for (int k = 0; k < 3 && top[k] >= 0 && off < len; k++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s%s %.2f", k ? " " : "; ",
					k ? "" : label, names && (unsigned)top[k] < names->nlines
					? names->lines[top[k]].name : "?",
					b->line_xfer_per_op[top[k]]);
}

static void row_regime(const struct sim_result *a, const struct sim_result *b,
		   const struct memcg_costs *c, const struct sim_prog *names_a,
		   const struct sim_prog *names, char *buf, size_t len)
{
	char la[PREDICT_REGIME_LEN / 2], lb[PREDICT_REGIME_LEN / 2];
	size_t off;

	side_locks(a, names_a, la, sizeof(la));
	side_locks(b, names, lb, sizeof(lb));
	off = (size_t)snprintf(buf, len, "%s; A %s; B %s", regime_class(a, b, c), la, lb);
	/* global reclaim (predict/sim_memcg.c run_with_kswapd): who reclaims */
	if (off < len && (a->reclaim_by_actor > 0 || b->reclaim_by_actor > 0))
		off += (size_t)snprintf(buf + off, len - off,
					"; kswapd reclaims A %.1f%% B %.1f%% (direct reclaim the rest)%s",
					100 * a->reclaim_by_actor, 100 * b->reclaim_by_actor,
					a->actor_share_from_env || b->actor_share_from_env
					? " at the MEMSCALE_KSWAPD_SHARE override" : "");
	if (off < len)
		top_lines(b, names, "B lines/op: ", buf, off, len);
}

void predict_regime_one(const struct sim_result *r, const struct memcg_costs *c,
			const struct sim_prog *names, char *buf, size_t len)
{
	char l[PREDICT_REGIME_LEN / 2];
	size_t off;

	side_locks(r, names, l, sizeof(l));
	off = (size_t)snprintf(buf, len, "%s; %s", regime_class(r, r, c), l);
	top_lines(r, names, "lines/op: ", buf, off, len);
}

/* The effective value of knob `name` on one side of a pair (its common
 * settings, its kernel profile, the knob's default). */
const char *predict_side_value(const struct seed_pair *sp, bool patch, const char *name,
			       char *buf, size_t len)
{
	struct knobset *ks = knobset_new();
	const struct knob *k = knob_find(name);

	predict_apply_knobs(ks, sp->common, 1);
	predict_apply_knobs(ks, patch ? sp->b : sp->a, 1);
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
	/* a profile's work from the work reference, never from s->c */
	target_costs(t, s->o->work && strcmp(t->name, TARGET_HERE) ? s->o->work
		     : target_work(t, s->c), &ov, s->tc[s->n]);
	return s->tc[s->n++];
}

/* --target, else the machine the published row ran on, else (a size
 * nobody published, a user's own question) this machine. */
static const struct target *point_target(struct predict_session *s,
					 const struct published_row *pub)
{
	const char *name = s->o->target ? s->o->target : pub ? pub->target : TARGET_HERE;

	if (!name)
		return NULL;
	if (!strcmp(name, TARGET_HERE))
		return &s->here;
	return target_find(name);
}

void predict_point_eval_target(struct predict_session *s, const struct published_row *pub,
			       struct predict_point *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->t = point_target(s, pub);
}

/* The point's target and its simulations (none without a target): *nsim
 * of them into v (room for POINT_SIMS). */
static void point_plan(struct predict_session *s, const struct predict_req *q,
		       struct predict_point *pt, struct predict_sim *v, size_t *nsim)
{
	const struct seed_pair *sp = q->sp;

	memset(pt, 0, sizeof(*pt));
	pt->sp = sp;
	pt->pub = q->pub;
	pt->cpus = q->cpus;
	pt->pct = pt->err = pt->band_lo = pt->band_hi = NAN;
	for (int k = 0; k < PREDICT_BAND_N; k++) {
		pt->band_pct[k] = NAN;
		pt->band_sim[k] = -1;
	}
	pt->base_ops_s = pt->patch_ops_s = NAN;
	snprintf(pt->regime, sizeof(pt->regime), "unknown");
	*nsim = 0;
	pt->t = point_target(s, q->pub);
	if (!pt->t)
		return;
	pt->tc = session_costs(s, pt->t);
	pt->members = predict_members(s->o->iters, pt->cpus);
	for (unsigned m = 0; m < pt->members; m++) {
		predict_side_sim(sp, sp->a, &pt->tc->c, s->o, s->o->iters, m, pt, &v[m]);
		predict_side_sim(sp, sp->b, &pt->tc->c, s->o, s->o->iters, m, pt,
				 &v[pt->members + m]);
	}
	*nsim = 2 * pt->members;
	/* The band's are run with the central ones, whose outcome they
	 * would wait for otherwise: point_finish reads them only when the
	 * central change is a number. */
	if (s->o->band)
		for (int k = 0; k < PREDICT_BAND_N; k++) {
			struct memcg_costs c;

			/* a variant that changes nothing here is not run: it
			 * would only add the band runs' own noise */
			if (!predict_band_costs(&pt->tc->c, k, pt->tc->line_size, &c))
				continue;
			pt->band_sim[k] = (int)*nsim;
			for (int side = 0; side < 2; side++, (*nsim)++) {
				predict_side_sim(sp, side ? sp->b : sp->a, &c, s->o, s->o->iters,
						 0, pt, &v[*nsim]);
				v[*nsim].per_core = band_per_core(s->o->iters, pt->cpus);
				v[*nsim].cfg.ops_budget = PREDICT_OPS_BUDGET / BAND_ITERS_DIV;
				v[*nsim].cfg.ops_min_per_core = BAND_MIN_PER_CORE;
			}
		}
}

/* The point from its simulations, run. */
static void point_finish(struct predict_session *s, struct predict_point *pt,
			 const struct predict_sim *v, size_t nsim)
{
	const struct published_row *pub = pt->pub;
	double a, b;

	if (!nsim)
		return;
	a = members_value(v, pt->members);
	b = members_value(&v[pt->members], pt->members);
	pt->base_ops_s = a;
	pt->patch_ops_s = b;
	pt->pct = 100.0 * (b - a) / a;
	/* the first member of each side; the patch side's program names
	 * rb's lines */
	if (isfinite(pt->pct))
		row_regime(&v[0].r, &v[pt->members].r, &pt->tc->c, &v[0].prog,
			   &v[pt->members].prog, pt->regime, sizeof(pt->regime));
	if (isfinite(pt->pct)) {
		if (s->o->band) {
			band(v, pt);
			/* its sign changes inside the band: the central value
			 * is still printed and scored, but says so */
			if (pt->band_lo < 0 && pt->band_hi > 0) {
				size_t n = strlen(pt->regime);
				snprintf(pt->regime + n, sizeof(pt->regime) - n, "; undetermined");
			}
		}
	}
	if (pub && isfinite(pt->pct))
		pt->err = pt->pct < pub->lo ? pt->pct - pub->lo
			: pt->pct > pub->hi ? pt->pct - pub->hi : 0;
}

void predict_points_eval(struct predict_session *s, const struct predict_req *req, size_t n,
			 struct predict_point *pts)
{
	struct predict_sim *v = xcalloc(n * POINT_SIMS + 1, sizeof(*v));
	size_t *first = xcalloc(n + 1, sizeof(size_t)), *nsim = xcalloc(n + 1, sizeof(size_t));
	size_t total = 0;

	for (size_t i = 0; i < n; i++) {
		first[i] = total;
		point_plan(s, &req[i], &pts[i], &v[total], &nsim[i]);
		total += nsim[i];
	}
	predict_sims_run(v, total, s->o->jobs);
	for (size_t i = 0; i < n; i++)
		point_finish(s, &pts[i], &v[first[i]], nsim[i]);
	predict_sims_free(v, total);
	free(v);
	free(first);
	free(nsim);
}

void predict_point_eval(struct predict_session *s, const struct seed_pair *sp,
			const struct published_row *pub, unsigned cpus,
			struct predict_point *pt)
{
	struct predict_req q = { sp, pub, cpus };

	predict_points_eval(s, &q, 1, pt);
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

static const struct published_row *pub_at(const struct seed_pair *sp, unsigned cpus)
{
	for (size_t i = 0; i < sp->npub; i++)
		if (published_size(&sp->pub[i]) == cpus || sp->pub[i].cpus == 0)
			return &sp->pub[i];
	return NULL;
}

static void fmt_pub(char *buf, size_t len, const struct published_row *p)
{
	if (!p)
		snprintf(buf, len, "-");
	else if (p->lo == p->hi)
		snprintf(buf, len, "%+.1f%%", p->lo);
	else
		snprintf(buf, len, "%+.1f..%+.1f%%", p->lo, p->hi);
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
		long *cpus = xmalloc((o->ncpus + sp->npub + 1) * sizeof(long));
		size_t n = 0;
		char ab[96];
		struct predict_req *req;
		struct predict_point *pts;

		/* The requested sizes plus the published machines' sizes. */
		for (size_t k = 0; k < o->ncpus; k++)
			cpus[n++] = o->cpus[k];
		for (size_t k = 0; k < sp->npub; k++) {
			bool have = false;
			for (size_t m = 0; m < n; m++)
				have |= cpus[m] == (long)published_size(&sp->pub[k]);
			if (!have && sp->pub[k].cpus)
				cpus[n++] = published_size(&sp->pub[k]);
		}
		/* Only the published sizes asked for, and a row states none:
		 * the size of the machine it is predicted for. */
		if (!n && o->ncpus == 0) {
			struct predict_point tmp;
			predict_point_eval_target(&ses, sp->npub ? &sp->pub[0] : NULL, &tmp);
			if (tmp.t && tmp.t->cpus)
				cpus[n++] = tmp.t->cpus;
		}
		qsort(cpus, n, sizeof(long), cmp_long_asc);
		predict_pair_label(sp, ab, sizeof(ab));
		/* the pair's sizes predicted together, then printed in order */
		req = xcalloc(n + 1, sizeof(*req));
		pts = xcalloc(n + 1, sizeof(*pts));
		for (size_t k = 0; k < n; k++)
			req[k] = (struct predict_req){ sp, pub_at(sp, (unsigned)cpus[k]),
						       (unsigned)cpus[k] };
		predict_points_eval(&ses, req, n, pts);
		for (size_t k = 0; k < n; k++) {
			const struct published_row *p = req[k].pub;
			struct predict_point pt = pts[k];
			char pb[32];

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
		free(req);
		free(pts);
		free(cpus);
	}
	if (nerr)
		fprintf(out, "# mean |error| over %u published points: %.1f pp; signs match on %u of %u "
			"(rows whose published change has a sign)\n", nerr, abs_sum / nerr, nsign, nsigned);
	predict_session_free(&ses);
	return 0;
}

/* ---- simulations run together (predict.h) ---- */

unsigned predict_jobs(unsigned jobs)
{
	cpu_set_t set;
	long n;

	if (jobs)
		return jobs;
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* Byte for byte the same inputs (padding compared too: a difference
 * there only costs a simulation). */
static bool same_inputs(const struct predict_sim *x, const struct predict_sim *y)
{
	return x->ncores == y->ncores && x->per_core == y->per_core &&
	       !strcmp(x->workload, y->workload) && !memcmp(&x->cfg, &y->cfg, sizeof(x->cfg)) &&
	       !memcmp(&x->c, &y->c, sizeof(x->c));
}

static void sim_one(struct predict_sim *v)
{
	v->err = NULL;
	v->rc = memcg_sim_run_prog(v->workload, &v->cfg, &v->c, v->ncores, v->per_core,
				   &v->r, &v->err, &v->prog);
}

/*
 * The simulations run together: a queue that this thread fills, one
 * recording at a time, while jobs - 1 workers take from it, longest
 * first; then this thread works it too.  What the simulations share
 * that is not theirs: the recorder's cache (models/record.c,
 * model_rec_cached), which memcg_sim_run_prog reads.  So each group's
 * recording (same workload, model_params_equal parameters) is made
 * (or found) before its simulations are queued, and no more groups are
 * queued than the cache keeps before the queue is drained: the cache
 * keeps the recordings asked for last, and a further recording would
 * reuse the memory of one whose simulations still run.  The rest of a run (the program
 * it builds, the simulator's state) is its own: predict/sim.c and
 * sim_memcg.c keep no writable static data.
 */
struct sim_pool {
	struct predict_sim *v;
	size_t *idx;          /* queued simulations; [next, n) not taken */
	size_t n, next;
	unsigned running;     /* taken, not finished */
	bool closed;          /* nothing more will be queued */
	pthread_mutex_t mu;
	pthread_cond_t more, idle; /* queued or closed; running fell to 0 */
};

/* Longest first (events grow with cores x iterations), then in order. */
static int cmp_cost(const void *a, const void *b, void *base)
{
	const struct predict_sim *v = base;
	const struct predict_sim *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];
	double cx = (double)x->ncores * (double)x->per_core, cy = (double)y->ncores * (double)y->per_core;

	if (cx != cy)
		return cx < cy ? 1 : -1;
	return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Takes queued simulations and runs them until the queue is empty and
 * (wait) closed, or (!wait) just empty. */
static void pool_work(struct sim_pool *p, bool wait)
{
	pthread_mutex_lock(&p->mu);
	for (;;) {
		size_t k;

		while (p->next == p->n && !p->closed && wait)
			pthread_cond_wait(&p->more, &p->mu);
		if (p->next == p->n)
			break;
		k = p->idx[p->next++];
		p->running++;
		pthread_mutex_unlock(&p->mu);
		sim_one(&p->v[k]);
		pthread_mutex_lock(&p->mu);
		if (!--p->running)
			pthread_cond_broadcast(&p->idle);
	}
	pthread_mutex_unlock(&p->mu);
}

static void *sim_worker(void *arg)
{
	pool_work(arg, true);
	return NULL;
}

/* Queues the n simulations grp[], the untaken ones resorted. */
static void pool_add(struct sim_pool *p, const size_t *grp, size_t n)
{
	pthread_mutex_lock(&p->mu);
	memcpy(p->idx + p->n, grp, n * sizeof(*grp));
	p->n += n;
	qsort_r(p->idx + p->next, p->n - p->next, sizeof(*p->idx), cmp_cost, p->v);
	pthread_cond_broadcast(&p->more);
	pthread_mutex_unlock(&p->mu);
}

/* This thread works the queue empty, then waits for the workers'
 * simulations under way. */
static void pool_drain(struct sim_pool *p)
{
	pool_work(p, false);
	pthread_mutex_lock(&p->mu);
	while (p->running)
		pthread_cond_wait(&p->idle, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

/* Simulations with the same inputs as an earlier one: its result. */
static void sims_mark_same(struct predict_sim *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		v[i].same = -1;
		for (size_t k = 0; k < i && v[i].same < 0; k++)
			if (v[k].same < 0 && same_inputs(&v[i], &v[k]))
				v[i].same = (long)k;
	}
}

void predict_sims_run(struct predict_sim *v, size_t n, unsigned jobs)
{
	struct sim_pool pool = { .v = v, .idx = xcalloc(n + 1, sizeof(size_t)) };
	size_t *grp = xcalloc(n + 1, sizeof(size_t));
	bool *queued = xcalloc(n + 1, sizeof(bool));
	pthread_t *tid;
	unsigned nt = 0, ngroups = 0;

	jobs = predict_jobs(jobs);
	sims_mark_same(v, n);
	pthread_mutex_init(&pool.mu, NULL);
	pthread_cond_init(&pool.more, NULL);
	pthread_cond_init(&pool.idle, NULL);
	tid = xcalloc(jobs, sizeof(*tid));
	/* a thread that cannot be made leaves its share to the others */
	while (nt + 1 < jobs && nt + 1 < n && !pthread_create(&tid[nt], NULL, sim_worker, &pool))
		nt++;
	for (size_t i = 0; i < n; i++) {
		size_t ng = 0;

		if (queued[i] || v[i].same >= 0)
			continue;
		for (size_t k = i; k < n; k++)
			if (!queued[k] && v[k].same < 0 && !strcmp(v[k].workload, v[i].workload) &&
			    model_params_equal(&v[k].cfg.p, &v[i].cfg.p)) {
				queued[k] = true;
				grp[ng++] = k;
			}
		if (ngroups == MODEL_REC_CACHED) {
			pool_drain(&pool);
			ngroups = 0;
		}
		/* a workload the recorder does not know or a failed recording:
		 * one at a time here, as it fails */
		if (nt && model_rec_cached(v[i].workload, &v[i].cfg.p, MODEL_REC_WARMUP,
					   MODEL_REC_OPS)) {
			pool_add(&pool, grp, ng);
			ngroups++;
		} else {
			for (size_t k = 0; k < ng; k++)
				sim_one(&v[grp[k]]);
		}
	}
	pthread_mutex_lock(&pool.mu);
	pool.closed = true;
	pthread_cond_broadcast(&pool.more);
	pthread_mutex_unlock(&pool.mu);
	pool_work(&pool, true);
	for (unsigned i = 0; i < nt; i++)
		pthread_join(tid[i], NULL);
	for (size_t i = 0; i < n; i++)
		if (v[i].same >= 0) {
			const struct predict_sim *o = &v[v[i].same];

			v[i].rc = o->rc;
			v[i].err = o->err;
			v[i].r = o->r;
			v[i].prog = o->prog; /* shared: freed with o */
		}
	pthread_cond_destroy(&pool.more);
	pthread_cond_destroy(&pool.idle);
	pthread_mutex_destroy(&pool.mu);
	free(tid);
	free(pool.idx);
	free(grp);
	free(queued);
}

void predict_sims_free(struct predict_sim *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].same < 0 && v[i].rc == 0)
			sim_prog_free(&v[i].prog);
}
