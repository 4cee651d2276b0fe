/*
 * model_predict.c - `memscale model predict`: the seed A/B pairs on many
 * cores next to the published changes (predict/predict.h), each published
 * row for the machine it ran on (predict/target.h) unless --target says;
 * and one question (--workload W --pair A..B --target T --cpus N), the
 * same evaluation without a published row; with --explain, per side and
 * lock, what the simulated critical section is made of (predict/sim.h,
 * struct sim_explain).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/model.h"
#include "core/csv.h"
#include "core/knob.h"
#include "models/record.h"
#include "predict/footprint.h"
#include "predict/predict.h"
#include "predict/sim_memcg.h"
#include "workloads/wlspec.h"

/* EXPERIMENT: a path to an experiment file, or the name of one in the
 * experiment directory; it must have [published] rows (the pairs). */
static void load_experiment(const char *arg, struct experiment_def *d)
{
	struct experiment_def *all;
	size_t n;
	char names[1024] = "";

	if (strchr(arg, '/') || strstr(arg, ".ini")) {
		check_input_file("model predict", arg, "an experiment file");
		if (!model_experiment_load(arg, d))
			die(EXIT_USAGE, "model predict: %s has no [published] rows (nothing to "
			    "predict)", arg);
		return;
	}
	n = model_experiments(&all);
	for (size_t i = 0; i < n; i++) {
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? "|" : "", all[i].name);
		if (!strcmp(all[i].name, arg) && !d->name)
			*d = all[i];
		else
			model_experiment_free(&all[i]);
	}
	free(all);
	if (!d->name)
		die(EXIT_USAGE, "model predict: unknown experiment '%s' (want %s, or a path)",
		    arg, names);
}

/* One side of --pair: a kernel profile, or knob=value,... (on a
 * profile when it sets kernel=); checked through the knob registry now,
 * before any calibration (exit 2 on a bad name or value). */
static char *pair_side(const char *s)
{
	char *kv = strchr(s, '=') ? xstrdup(s) : xasprintf("kernel=%s", s);
	struct knobset *ks = knobset_new();

	if (!*s)
		die(EXIT_USAGE, "model predict: bad --pair side '' (want a kernel profile or "
		    "knob=value,...)");
	struct model_params mp;

	predict_apply_knobs(ks, kv, 1);
	if (model_params_from_knobs(&mp, ks) || model_knobs_check_read(&mp, ks))
		exit(EXIT_USAGE);
	knobset_free(ks);
	return kv;
}

/* --set KEY=VALUE... of the one-question form: settings both sides
 * share (the pair's common settings), each checked through the knob
 * registry before any calibration. */
static char *question_common(const struct mopts *m)
{
	char *common = xstrdup("");

	for (size_t i = 0; i < m->nsets; i++) {
		const char *eq = strchr(m->sets[i], '=');
		struct knobset *ks = knobset_new();
		struct model_params mp;
		char *t;

		if (!eq || eq == m->sets[i] || strchr(m->sets[i], ','))
			die(EXIT_USAGE, "model predict: bad --set '%s' (want one KEY=VALUE)", m->sets[i]);
		predict_apply_knobs(ks, m->sets[i], 1);
		if (model_params_from_knobs(&mp, ks))
			exit(EXIT_USAGE);
		knobset_free(ks);
		t = xasprintf("%s%s%s", common, *common ? "," : "", m->sets[i]);
		free(common);
		common = t;
	}
	return common;
}

/* A --set value that a side's own settings (its kernel profile or its
 * knob=value list) replace would be recorded but not run: refused, one
 * line naming the knob and the side.  Then the knobs the selected code
 * path does not read (the side's settings with the common ones). */
static void question_sets_check(const struct mopts *m, const struct seed_pair *sp)
{
	for (size_t i = 0; i < m->nsets; i++) {
		const char *eq = strchr(m->sets[i], '=');
		char key[64], want[128], got[128];
		const struct knob *k;

		snprintf(key, sizeof(key), "%.*s", (int)(eq - m->sets[i]), m->sets[i]);
		k = knob_find(key);
		if (!k)
			continue; /* question_common refused it already */
		{
			struct knobset *ks = knobset_new();
			predict_apply_knobs(ks, m->sets[i], 1);
			snprintf(want, sizeof(want), "%s", knob_str(ks, k));
			knobset_free(ks);
		}
		for (int side = 0; side < 2; side++) {
			predict_side_value(sp, side, key, got, sizeof(got));
			if (strcmp(got, want))
				die(EXIT_USAGE, "model predict: --set %s is replaced by side %s's "
				    "settings '%s' (%s=%s there); put it in --pair instead",
				    m->sets[i], side ? "B" : "A", side ? sp->b : sp->a, key, got);
		}
	}
	for (int side = 0; side < 2; side++) {
		struct knobset *ks = knobset_new();
		struct model_params mp;

		predict_apply_knobs(ks, sp->common, 1);
		predict_apply_knobs(ks, side ? sp->b : sp->a, 1);
		if (model_params_from_knobs(&mp, ks) || model_knobs_check_read(&mp, ks))
			exit(EXIT_USAGE);
		knobset_free(ks);
	}
}

/* The same settings, whatever their order: the knob values they give. */
static bool same_side(const char *a, const char *b)
{
	struct knobset *x = knobset_new(), *y = knobset_new();
	const struct knob **all;
	size_t n = knob_all(&all);
	bool same = true;

	predict_apply_knobs(x, a, 1);
	predict_apply_knobs(y, b, 1);
	for (size_t i = 0; i < n && same; i++)
		same = !strcmp(knob_str(x, all[i]), knob_str(y, all[i]));
	knobset_free(x);
	knobset_free(y);
	return same;
}

static void print_csv_pct(double v, bool last)
{
	if (isfinite(v))
		printf("%.2f%s", v, last ? "\n" : ",");
	else
		printf("nan%s", last ? "\n" : ",");
}

/* The lines of record e with the most transfers per hold, at most 6. */
static void explain_top_lines(const struct sim_explain_lock *e, const struct sim_prog *prog,
			      double holds, FILE *out)
{
	bool shown[SIM_MAX_LINES] = { false };

	fprintf(out, "    %-26s %9s %9s %9s %9s %9s  (per hold: transfers by the taker's "
		"role, hits, ns waiting for the busy line)\n",
		"line", "waiter", "holder", "other", "hits", "busy_ns");
	for (int n = 0; n < 6; n++) {
		int best = -1;
		uint64_t bx = 0;

		for (unsigned l = 0; l < prog->nlines; l++) {
			uint64_t x = e->xfers[l][0] + e->xfers[l][1] + e->xfers[l][2];
			if (!shown[l] && x > bx) {
				best = (int)l;
				bx = x;
			}
		}
		if (best < 0)
			break;
		shown[best] = true;
		fprintf(out, "    %-26s %9.3f %9.3f %9.3f %9.3f %9.1f\n", prog->lines[best].name,
			(double)e->xfers[best][SIM_ROLE_WAITER] / holds,
			(double)e->xfers[best][SIM_ROLE_HOLDER] / holds,
			(double)e->xfers[best][SIM_ROLE_OTHER] / holds,
			(double)e->hits[best] / holds, e->busy_ns[best] / holds);
	}
}

/* The lock of recording r whose word is on the line program lock d is
 * named after ("lock " + the line's name) in d's scope; -1: none. */
static int rec_lock_of_prog(const struct model_rec *r, const struct sim_lock_def *d)
{
	for (unsigned j = 0; r && j < r->nlocks; j++) {
		char name[40], full[48];
		unsigned l = r->lock_line[j];

		memcg_sim_line_name(r, l, 64, name, sizeof(name));
		snprintf(full, sizeof(full), "lock %s", name);
		if (!strcmp(full, d->name) && (enum sim_scope)r->lines[l].scope == d->scope)
			return (int)j;
	}
	return -1;
}

/* The row of pair q that asks workload's question a..b at `cpus` CPUs on
 * target `target`: the same workload, target and size, and the same two
 * sides (*dir 1) or the same two turned over (*dir -1); the common
 * settings are not compared.  NULL: none. */
static const struct published_row *pair_row(const struct seed_pair *q, const char *workload,
					    const char *a, const char *b, const char *target,
					    unsigned cpus, int *dir)
{
	int d = 0;

	if (strcmp(q->workload, workload))
		return NULL;
	if (same_side(q->a, a) && same_side(q->b, b))
		d = 1;
	else if (same_side(q->a, b) && same_side(q->b, a))
		d = -1;
	for (size_t k = 0; d && k < q->npub; k++) {
		const struct published_row *p = &q->pub[k];

		if (p->target && !strcmp(p->target, target) && published_size(p) == cpus) {
			*dir = d;
			return p;
		}
	}
	return NULL;
}

/* The [published] row of any experiment that asks the question sp at
 * `cpus` CPUs on target t (pair_row).  NULL: none.  *all is freed by the
 * caller (model_experiment_free each of *nall). */
static const struct published_row *question_published(const struct seed_pair *sp,
						  const struct target *t, unsigned cpus,
						  struct experiment_def **all, size_t *nall,
						  int *dir)
{
	*nall = model_experiments(all);
	for (size_t i = 0; i < *nall; i++)
		for (size_t j = 0; j < (*all)[i].npairs; j++) {
			const struct published_row *p = pair_row(&(*all)[i].pairs[j], sp->workload,
								 sp->a, sp->b, t->name, cpus, dir);

			if (p)
				return p;
		}
	return NULL;
}

/* What a side's published absolute says of the hold (issue 35): with
 * the lock's n instances in use saturated (a lruvec lock has one per
 * node the workers run on), each folio-op waits for the one before it
 * on its instance, so folio-ops/s = n / hold per folio-op, and the
 * published ops/s x the folio-ops per operation gives the hold the
 * kernel had; saturated or not, it bounds that hold from above. */
struct explain_pub {
	const struct published_row *row; /* NULL: no [published] row */
	double ops_s;                /* 0: the row gives no absolute */
};

/* The workers' local work per operation outside the lock sections, by
 * the parts the builder priced (predict/sim_types.h sim_local_parts),
 * and the SMT factor a core pays for it while its sibling computes. */
static void explain_local(const struct sim_prog *prog, const struct predict_sim *side, FILE *out)
{
	const struct sim_local_parts *lp = &prog->local_parts;
	unsigned n = side->ncores, phys = memcg_sim_smt_phys(&side->cfg, n);
	double smt = side->c.sim.smt_slowdown;

	if (!lp->n)
		return;
	fprintf(out, "  local work per operation outside the lock sections: %.1f ns", lp->total);
	if (phys && smt > 1) /* cores phys.. are the siblings of 0.. */
		fprintf(out, " (x%.3f on the %u of %u workers whose SMT sibling also works)",
			smt, 2 * (n - phys), n);
	fputc('\n', out);
	fprintf(out, "    %-52s %10s %7s\n", "part", "ns/op", "share");
	for (unsigned i = 0; i < lp->n; i++)
		fprintf(out, "    %-52s %10.1f %7.3f\n", lp->part[i].name, lp->part[i].ns,
			lp->total > 0 ? lp->part[i].ns / lp->total : 0);
}

static void explain_implied(const struct explain_pub *xp, const struct sim_prog *prog,
			    const struct sim_result *r, unsigned ncores, int sat,
			    double folio_per_op, double hold_folio, FILE *out)
{
	if (!xp->row) {
		fprintf(out, "  published absolute: none (no [published] row for this workload, pair, "
			"target and size): no implied hold\n");
		return;
	}
	if (!(xp->ops_s > 0)) {
		fprintf(out, "  published absolute: none (the [published] row, %s, gives no "
			"base_ops_s/patch_ops_s): no implied hold\n",
			xp->row->note ? xp->row->note : "no source");
		return;
	}
	if (sat < 0 || !(folio_per_op > 0)) {
		/* n workers each taking t per operation pass n / t ops/s */
		double implied = 1e9 * ncores / xp->ops_s;

		fprintf(out, "  published absolute: %.4g ops/s (%s); no lock with folio-ops to "
			"imply a hold from\n", xp->ops_s, xp->row->abs_source);
		fprintf(out, "    implied time per operation per worker = %u workers / %.4g ops/s "
			"= %.1f ns; simulated %.1f ns (implied/simulated %.2f)\n", ncores,
			xp->ops_s, implied, r->ns_per_op_core, implied / r->ns_per_op_core);
		return;
	}
	{
		unsigned n = r->lock[sat].instances ? r->lock[sat].instances : 1;
		double implied = 1e9 * n / (xp->ops_s * folio_per_op);

		fprintf(out, "  published absolute: %.4g ops/s (%s)\n", xp->ops_s,
			xp->row->abs_source);
		fprintf(out, "    assumption: lock '%s' (the busiest here, utilisation %.3f; %u "
			"instance%s in use) is saturated in the kernel, so folio-ops/s = %u / hold "
			"per folio-op\n", prog->locks[sat].name, r->lock[sat].util, n,
			n == 1 ? "" : "s", n);
		fprintf(out, "    implied hold per folio-op = %u / (%.4g ops/s x %.3f folio-ops/op) "
			"= %.1f ns; simulated %.1f ns (implied/simulated %.2f)\n", n, xp->ops_s,
			folio_per_op, implied, hold_folio, implied / hold_folio);
		/* n instances held h per folio-op pass at most n / h folio-ops
		 * a second, so h <= n / (ops/s x folio-ops/op) whether or not
		 * the lock was saturated */
		fprintf(out, "    without the assumption, an upper bound: %u instance%s cannot pass "
			"more than %u / hold folio-ops/s, so the kernel's hold was at most "
			"%.1f ns\n", n, n == 1 ? "" : "s", n, implied);
	}
}

/* A zone->lock whose drained pages read a far struct page line
 * (RL_PAGE_FAR, buddy_merge_likely()'s order-1 buddy on a full node;
 * the pages reclaim frees, so the recording's reclaim calls or the
 * worker's own part): what each costs, where the footprint model finds
 * it (predict/sim_memcg.h memcg_zone_far_line_ns) and how many a hold
 * of the recording that has them reads.  Part of the hold's local work. */
static void explain_far_lines(const struct predict_sim *side, const struct model_rec *rec,
			      const struct sim_lock_def *lock, FILE *out)
{
	const struct model_rec *fr = rec;
	int rl = rec_lock_of_prog(fr, lock);
	struct fp_where w;
	double ns;

	if (rl < 0 || !fr->local_in[rl][RL_PAGE_FAR]) {
		fr = rec ? rec->actor : NULL;
		rl = rec_lock_of_prog(fr, lock);
	}
	if (rl < 0 || !fr->holds[rl] || !fr->local_in[rl][RL_PAGE_FAR])
		return;
	ns = memcg_zone_far_line_ns(&side->cfg, &side->c, &w);
	fprintf(out, "    far struct page lines: each page drained reads the order-1 buddy's, any "
		"page of the full node, at %.4g ns", ns);
	if (isfinite(w.p_dram))
		fprintf(out, " (L2 %.2f%%, LLC %.2f%%, DRAM %.2f%% of the node's struct page array)",
			100 * w.p_l2, 100 * w.p_llc, 100 * w.p_dram);
	else
		fprintf(out, " (no cache sizes: another CPU's transfer or a hit)");
	fprintf(out, "; %.2f per hold of the %s, %.4g ns of its local work\n",
		(double)fr->local_in[rl][RL_PAGE_FAR] / (double)fr->holds[rl],
		fr == rec ? "workers' recording" : "reclaim calls' recording",
		(double)fr->local_in[rl][RL_PAGE_FAR] / (double)fr->holds[rl] * ns);
}

/* --explain: side `label` (settings diff) simulated again, as the
 * prediction's first member did (same program, costs, size and seed, so
 * the same run), with the hold accounting on. */
static void explain_side(const char *label, const char *diff, const struct seed_pair *sp,
			 const struct predict_opts *po, const struct predict_point *pt,
			 const struct explain_pub *xpub, FILE *out)
{
	int sat = -1;
	double sat_folio_op = NAN, sat_hold_folio = NAN;
	struct predict_sim side;
	struct sim_explain *xp = xcalloc(1, sizeof(*xp));
	struct sim_result r;
	struct sim_prog prog;
	const struct model_rec *rec;
	const char *err = NULL;
	const struct wl_spec *spec = wl_spec_find(sp->workload);

	predict_side_sim(sp, diff, &pt->tc->c, po, po->iters, 0, pt, &side);
	side.c.sim.explain = xp;
	if (memcg_sim_run_prog(side.workload, &side.cfg, &side.c, side.ncores, side.per_core,
			       &r, &err, &prog)) {
		fprintf(out, "explain: side %s (%s): %s\n", label, diff, err);
		free(xp);
		return;
	}
	rec = model_rec_cached(side.workload, &side.cfg.p, MODEL_REC_WARMUP, MODEL_REC_OPS);
	fprintf(out, "explain: side %s (%s) on %s, %u CPUs: %.4g ops/s\n", label, diff,
		pt->t->name, pt->cpus, r.ops_per_sec);
	if (pt->members > 1)
		fprintf(out, "  the first of the %u simulations (seeds %llu..%llu) whose mean the "
			"prediction is: this one's seed %llu\n", pt->members,
			(unsigned long long)side.cfg.seed,
			(unsigned long long)side.cfg.seed + pt->members - 1,
			(unsigned long long)side.cfg.seed);
	if (side.cfg.p.bench_window && spec && spec->untimed)
		fprintf(out, "  the benchmark's own window: %s's timer leaves out %s, "
			"so it is not recorded\n", spec->test, spec->untimed);
	if (prog.flusher.per_s > 0) {
		const struct sim_flusher *f = &prog.flusher;

		fprintf(out, "  stats flushers: %.4g flushes/s (periodic %.3g/s, asked for on the "
			"update path and by readers at most %.4g/s, one at a time: at most 1 / %.4g us), "
			"each moving %.0f per-CPU lines over %u CPUs; each core loses %.3g%% of its "
			"time (added to its local work)\n", f->per_s, f->periodic_per_s,
			f->asked_per_s, f->flush_ns / 1000, f->lines, pt->cpus, 100 * f->share);
		if (f->in_lock_lines && f->in_lock_p > 1e-3)
			fprintf(out, "  after a flush, %u per-CPU lines written only under a lock come "
				"back inside its section: a flush came since the core's last hold "
				"with chance %.3g (%s), +%.4g ns per hold\n", f->in_lock_lines,
				f->in_lock_p, f->iter_from_run ? "its iteration from a first run"
				: "its local work, a lower bound", f->in_lock_ns);
	}
	if (memcg_sim_has_actor(rec))
		fprintf(out, "  global reclaim: kswapd, one per node at %.3g of a CPU (%s), "
			"%.4g reclaim calls/s, does %.1f%% of the reclaim calls, the workers' direct "
			"reclaim %.1f%% (kswapd's rate over all the calls needed in this run: %.2f; = its share at a fixed point)\n",
			r.actor_share, r.actor_share_from_env ? "MEMSCALE_KSWAPD_SHARE"
			: r.actor_share == MEMCG_KSWAPD_SHARE ? "default MEMCG_KSWAPD_SHARE" : "the configuration's",
			r.actor_per_sec, 100 * r.reclaim_by_actor,
			100 * (1 - r.reclaim_by_actor), r.actor_cover);
	explain_local(&prog, &side, out);
	if (!prog.nlocks)
		fprintf(out, "  no lock in the program\n");
	for (unsigned i = 0; i < prog.nlocks; i++) {
		const struct sim_explain_lock *e = &xp->lock[i];
		double holds = (double)e->holds, sum = 0, folio = NAN;

		/* folio-ops per hold: the recording's list operations done
		 * under this lock, per hold (a zone->lock's are the pages it
		 * moves between the per-CPU and the buddy lists).  The
		 * recording's lock is the one on the line of the program
		 * lock's name and scope: global reclaim adds the walk's twin
		 * of a lruvec lock, so the two lists need not match by index. */
		const struct model_rec *fr = rec;
		int rl = rec_lock_of_prog(fr, &prog.locks[i]);
		if (rl < 0 && rec && rec->actor) /* only in the reclaim calls */
			rl = rec_lock_of_prog(fr = rec->actor, &prog.locks[i]);
		if (rl >= 0 && fr->holds[rl])
			folio = (double)fr->local_in[rl][RL_LIST] / (double)fr->holds[rl];
		fprintf(out, "  lock '%s'%s: utilisation %.3f, hold %.1f ns, queue %.2f, "
			"%.3f holds/op, %.2f folio-ops/hold\n", prog.locks[i].name,
			prog.locks[i].scope >= SCOPE_MEMCG_WALK ? " (global reclaim's memcg walk)" : "",
			r.lock[i].util, r.lock[i].hold_ns, r.lock[i].mean_waiters,
			r.lock[i].acq_per_op, folio);
		explain_far_lines(&side, rec, &prog.locks[i], out);
		if (!e->holds)
			continue;
		fprintf(out, "    %-26s %10s %12s %7s\n", "part", "ns/hold", "ns/folio-op", "share");
		for (int k = 0; k < SIM_PART_HANDOFF; k++)
			sum += e->ns[k];
		if (folio > 0 && (sat < 0 || r.lock[i].util > r.lock[sat].util)) {
			sat = (int)i;
			sat_folio_op = r.lock[i].acq_per_op * folio;
			sat_hold_folio = sum / holds / folio;
		}
		for (int k = 0; k <= SIM_PART_HANDOFF; k++) {
			double v = e->ns[k] / holds;
			if (k == SIM_PART_HANDOFF)
				fprintf(out, "    %-26s %10.1f %12.2f %7.3f\n", "all (the hold)",
					sum / holds, sum / holds / folio, 1.0);
			fprintf(out, "    %-26s %10.1f %12.2f %7.3f\n",
				k == SIM_PART_HANDOFF ? "handoff (between holds)" : sim_part_name(k),
				v, v / folio, sum > 0 ? e->ns[k] / sum : 0);
		}
		fprintf(out, "    waiters per hold: arrivals %.3f (pending path %.3f), their RMWs "
			"%.3f, spinner re-reads %.3f; steals of the holder's lock-word line %.3f, "
			"of its sector mate %.3f\n", (double)e->arrivals / holds,
			(double)e->pending / holds, (double)e->arrival_rmws / holds,
			(double)e->rereads / holds, (double)e->steals_word / holds,
			(double)e->steals_mate / holds);
		explain_top_lines(e, &prog, holds, out);
	}
	explain_implied(xpub, &prog, &r, side.ncores, sat, sat_folio_op, sat_hold_folio, out);
	sim_prog_free(&prog);
	free(xp);
}

/* The band's variants one by one (predict/predict.h predict_band_names):
 * which of the measured costs and modelling choices moves the change. */
static void explain_band(const struct predict_point *pt, FILE *out)
{
	const char *sep = "";

	if (!isfinite(pt->band_lo))
		return;
	fprintf(out, "band: %+.1f..%+.1f%% over the central %+.1f%% and its variants:",
		pt->band_lo, pt->band_hi, pt->pct);
	for (int k = 0; k < PREDICT_BAND_N; k++, sep = ";") {
		if (isfinite(pt->band_pct[k]))
			fprintf(out, "%s %s %+.1f%%", sep, predict_band_names[k], pt->band_pct[k]);
		else
			fprintf(out, "%s %s left out (it changes nothing here)", sep,
				predict_band_names[k]);
	}
	fputc('\n', out);
}

/* --explain of the question sp at point pt: both sides, each beside its
 * published absolute (question_published) where there is one. */
static void explain_question(const struct seed_pair *sp, const struct predict_opts *po,
			     const struct predict_point *pt, FILE *out)
{
	struct experiment_def *all;
	size_t nall;
	int dir = 0;
	const struct published_row *pub = question_published(sp, pt->t, pt->cpus, &all, &nall, &dir);
	struct explain_pub xa = { pub, 0 }, xb = { pub, 0 };

	if (pub) {
		xa.ops_s = dir > 0 ? pub->base_ops_s : pub->patch_ops_s;
		xb.ops_s = dir > 0 ? pub->patch_ops_s : pub->base_ops_s;
	}
	explain_band(pt, out);
	explain_side("A", sp->a, sp, po, pt, &xa, out);
	explain_side("B", sp->b, sp, po, pt, &xb, out);
	for (size_t i = 0; i < nall; i++)
		model_experiment_free(&all[i]);
	free(all);
}

/* What both sides of the question (workload, sides a and b, --target
 * and --cpus) share under experiment ed: the settings of its pair whose
 * [published] row asks that question (a row's build=KNOB:VALUE is in
 * its pair's), else the experiment's own. */
static const char *experiment_common(const struct experiment_def *ed, const struct mopts *m,
				     const char *a, const char *b, unsigned cpus)
{
	int dir;

	for (size_t j = 0; j < ed->npairs; j++)
		if (pair_row(&ed->pairs[j], m->workload, a, b, m->target, cpus, &dir))
			return ed->pairs[j].common;
	return ed->common;
}

/* model predict --workload W --pair A..B --target T --cpus N: one question. */
static int predict_question(struct mopts *m)
{
	const char *dots = m->pair ? strstr(m->pair, "..") : NULL;
	char *a_arg, *a, *b, *common;
	const struct target *t = NULL;
	struct seed_pair sp = { 0 };
	struct predict_opts po;
	struct predict_session ses;
	struct predict_point pt;
	struct calib c;
	long cpus;

	if (m->nargs)
		die(EXIT_USAGE, "model predict: give EXPERIMENT or --workload, not both ('%s')",
		    m->args[0]);
	if (!m->pair || !m->target || !m->cpus)
		die(EXIT_USAGE, "model predict --workload: missing %s", !m->pair ? "--pair A..B" :
		    !m->target ? "--target T" : "--cpus N");
	model_check_workload(m->workload);
	if (!parse_long(m->cpus, 1, 65536, &cpus))
		die(EXIT_USAGE, "model predict: bad --cpus '%s' (want one count 1..65536)", m->cpus);
	if (!dots || dots == m->pair || !dots[2])
		die(EXIT_USAGE, "model predict: bad --pair '%s' (want A..B: kernel profiles or "
		    "knob=value,... sets)", m->pair);
	a_arg = xasprintf("%.*s", (int)(dots - m->pair), m->pair);
	a = pair_side(a_arg);
	b = pair_side(dots + 2);
	free(a_arg);
	common = question_common(m);
	if (m->experiment) {
		/* the experiment's shared settings first, --set over them:
		 * the question its ledger rows ask (with the build of the
		 * row that asks it, experiment_common) */
		struct experiment_def ed = { 0 };
		char *joined;
		const char *shared;

		load_experiment(m->experiment, &ed);
		shared = experiment_common(&ed, m, a, b, (unsigned)cpus);
		joined = xasprintf("%s%s%s", shared, *shared && *common ? "," : "", common);
		model_experiment_free(&ed);
		free(common);
		common = joined;
	}
	if (same_side(a, b))
		die(EXIT_USAGE, "model predict: --pair '%s': both sides are the same settings", m->pair);
	sp.workload = m->workload;
	sp.common = common;
	sp.a = a;
	sp.b = b;
	question_sets_check(m, &sp);
	if (strcmp(m->target, TARGET_HERE)) {
		t = target_find(m->target);
		if (!t)
			die(EXIT_USAGE, "model predict: unknown --target '%s' (see 'memscale list targets')",
			    m->target);
		if ((unsigned long)cpus > t->cpus)
			die(EXIT_USAGE, "model predict: --cpus %ld is above %s's %u CPUs", cpus,
			    t->name, t->cpus);
	}
	model_get_calib(m, &c);
	model_predict_opts(m, &po);
	po.band = true;
	predict_session_init(&ses, &c, &po);
	if (!t && ses.here.cpus && (unsigned long)cpus > ses.here.cpus)
		die(EXIT_USAGE, "model predict: --cpus %ld is above this machine's %u CPUs", cpus,
		    ses.here.cpus);
	predict_point_eval(&ses, &sp, NULL, (unsigned)cpus, &pt);
	if (pt.tc)
		predict_print_target(&ses, &pt, m->csv ? stderr : stdout);
	if (*common)
		fprintf(m->csv ? stderr : stdout, "# both sides: %s (%s)\n", common,
			m->experiment ? "--experiment's [fixed] and [predict], then --set" : "--set");
	if (m->csv) {
		printf("workload,base,patch,target,cpus,mode,predicted_pct,band_lo_pct,"
		       "band_hi_pct,regime,base_ops_s,patch_ops_s\n");
		csv_field(stdout, m->workload, 0);
		csv_field(stdout, a, 0);
		csv_field(stdout, b, 0);
		csv_field(stdout, pt.t ? pt.t->name : m->target, 0);
		printf("%ld,%s,", cpus, m->mode ? m->mode : "processes");
		print_csv_pct(pt.pct, false);
		print_csv_pct(pt.band_lo, false);
		print_csv_pct(pt.band_hi, false);
		csv_field(stdout, pt.regime, 0);
		csv_num(stdout, pt.base_ops_s, 0);
		csv_num(stdout, pt.patch_ops_s, 1);
	} else {
		printf("%-18s %-30s %-30s %-16s %5ld %-9s %+8.1f%%  band %+.1f..%+.1f%%  %s\n",
		       m->workload, a, b, pt.t ? pt.t->name : m->target, cpus,
		       m->mode ? m->mode : "processes", pt.pct, pt.band_lo, pt.band_hi, pt.regime);
	}
	if (m->explain && pt.tc)
		explain_question(&sp, &po, &pt, m->csv ? stderr : stdout);
	predict_session_free(&ses);
	if (m->sensitivity)
		model_print_question_sensitivity(&sp, (unsigned)cpus, &c, &po,
						 m->csv ? stderr : stdout);
	calib_free(&c);
	free(a);
	free(b);
	free(common);
	return fflush(stdout) ? 1 : 0;
}

int model_predict(struct mopts *m)
{
	struct experiment_def ed = { 0 }, *e = &ed;
	struct predict_opts po;
	struct calib c;
	int rc;

	if (m->workload)
		return predict_question(m);
	if (m->pair || m->mode || m->csv || m->explain || m->experiment)
		die(EXIT_USAGE, "model predict: --pair, --mode, -f, --explain and --experiment go "
		    "with --workload W");
	if (m->nsets)
		die(EXIT_USAGE, "model predict EXPERIMENT: --set %s is not read (the experiment "
		    "file's [fixed] and variants give the settings; --set goes with --workload W)",
		    m->sets[0]);
	model_need_args(m, 1, "EXPERIMENT");
	load_experiment(m->args[0], e);
	model_predict_opts(m, &po);
	if (m->cpus && !strcmp(m->cpus, "published"))
		po.ncpus = 0; /* only the sizes of the published rows */
	else
		po.ncpus = model_cpu_list(m->cpus, "52,80,104,224", &po.cpus);
	model_get_calib(m, &c);
	rc = predict_run(e, &c, &po, stdout);
	if (!rc && m->sensitivity)
		model_print_sensitivity(e, &c, &po, stdout);
	calib_free(&c);
	free(po.cpus);
	model_experiment_free(e);
	return rc;
}
