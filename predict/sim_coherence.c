/*
 * sim_coherence.c - what each access of the simulator costs: the MESI
 * reduction, the 128 B pair prefetcher, copies lost to capacity, the
 * lock word's spinners and the explain account of who took a line from
 * whom.  The model is told in sim.h; the state is sim_coherence.h's;
 * sim.c issues the accesses in global time order.
 */
#include "predict/sim_coherence.h"

#include <math.h>
#include <stdbool.h>

#include "predict/footprint.h"

static double xfer_cost(const struct sim *s, const struct line_st *ln, unsigned c)
{
	if (sibling_pass(s, ln, c))
		return s->c->hit_ns; /* a hyperthread sibling: same L1/L2 */
	if (ln->owner >= 0 && s->cores[ln->owner].node != s->cores[c].node)
		return s->c->xfer_ns * s->c->remote_factor;
	return s->c->xfer_ns;
}

/* Core c takes line ln from its owner: as its writer (write) or as a
 * reader sharing it.  Records c's role; a waiter taking the holder's
 * exclusive copy is a steal (of the lock word's line or its mate). */
static void explain_take(struct sim *s, struct line_st *ln, unsigned c, bool write)
{
	const struct core_st *k = &s->cores[c];

	if (k->waiting >= 0 && measuring(s)) {
		const struct lock_st *L = &s->locks[k->waiting];
		struct sim_explain_lock *e = &s->xp->lock[L->tmpl];

		if (L->holder >= 0 && L->holder != (int)c && ln->owner == L->holder &&
		    !ln->shared) {
			if (ln == &s->lines[L->line])
				e->steals_word++;
			else
				e->steals_mate++;
		}
	}
	if (write) {
		ln->own_wait = k->waiting;
		ln->own_hold = k->holding;
	} else {
		ln->share_wait = k->waiting;
		ln->share_hold = k->holding;
	}
}

static inline enum sim_role role_of(int wait, int hold, int lock)
{
	return wait == lock ? SIM_ROLE_WAITER : hold == lock ? SIM_ROLE_HOLDER : SIM_ROLE_OTHER;
}

/* Core c touched line li now (its iteration): the age of its copy. */
static inline void touch_mark(struct sim *s, unsigned li, unsigned c)
{
	if (s->touched)
		s->touched[(size_t)c * s->nline_inst + li] = s->cores[c].iter;
}

/* The 128 B spatial prefetcher: core c's miss on a line brings its
 * sector mate in as a shared copy.  Asynchronous: no time for c; the
 * mate's owner keeps its copy but no longer exclusively.  With pair_rfo
 * an ownership fill (rfo, called once c owns ln) takes the mate for
 * ownership: the other copies go, and a lock word's spinners re-read it
 * at t (sim.h). */
static void prefetch_mate(struct sim *s, const struct line_st *ln, unsigned c, bool rfo, double t)
{
	struct line_st *m;
	uint32_t *seen;

	if (!s->c->pair_prefetch || ln->mate < 0)
		return;
	m = &s->lines[ln->mate];
	seen = &s->seen[(size_t)c * s->nline_inst + (size_t)ln->mate];
	/* Every L2 fill pairs (sim.h): a half never written comes from
	 * memory, as a first read's does. */
	if (m->version == 0)
		m->version = 1;
	touch_mark(s, (unsigned)ln->mate, c); /* after the fill it is in L2 */
	if (rfo && s->c->pair_rfo) {
		if (m->owner == (int)c && !m->shared && *seen == m->version)
			return;
		if (s->xp)
			explain_take(s, m, c, true);
		m->version++;
		m->owner = (int)c;
		m->shared = false;
		m->nsharers = 0;
		*seen = m->version;
		sim_spinners_reread(s, (unsigned)ln->mate, c, t);
		return;
	}
	if (*seen == m->version)
		return; /* here already (or back, if capacity had taken it) */
	*seen = m->version;
	if (m->owner != (int)c) {
		if (s->xp)
			explain_take(s, m, c, false);
		m->shared = true;
		m->nsharers++;
	}
}

/*
 * Core c's read copy of line li, last touched some iterations ago, is
 * still in its L2 (sim.h: the footprint model, FP_UNIFORM over the
 * iter_bytes of each iteration since)?  A lost copy leaves the sharers.
 */
static bool copy_survives(struct sim *s, struct line_st *ln, unsigned li, unsigned c)
{
	struct core_st *k = &s->cores[c];
	double d, p;

	if (!s->touched || ln->owner == (int)c)
		return true;
	d = (double)(k->iter - s->touched[(size_t)c * s->nline_inst + li]) * s->p->iter_bytes;
	/* fp_locate's p_l2 for an L2 of l2_keep_bytes, without the rest */
	p = fp_survives(s->c->l2_keep_bytes, d, FP_UNIFORM);
	if (p >= 1 || rng_unit(&k->rng) < p)
		return true;
	if (ln->nsharers)
		ln->nsharers--;
	return false;
}

/* Copies of the line other than core c's own: the owner's and the
 * sharers', less c itself if it is a sharer. */
static unsigned other_copies(const struct sim *s, const struct line_st *ln,
			     unsigned c, bool c_has_copy)
{
	unsigned k = ln->nsharers;

	if (c_has_copy && ln->owner != (int)c && k)
		k--;
	if (ln->owner >= 0 && ln->owner != (int)c)
		k++;
	return k;
}

/* One access by core c issued at t; returns its completion time. */
double sim_access_line(struct sim *s, unsigned li, unsigned c, double t,
			  enum sim_op_kind kind)
{
	struct line_st *ln = &s->lines[li];
	uint32_t *seen = &s->seen[(size_t)c * s->nline_inst + li];
	bool has_copy = *seen == ln->version && ln->version != 0;
	bool hit;
	double start, done, f = smt_factor(s, c, t);

	if (has_copy && kind == SOP_READ && !copy_survives(s, ln, li, c))
		has_copy = false; /* lost to capacity: a read miss again */
	touch_mark(s, li, c);
	if (kind == SOP_READ)
		hit = has_copy;
	else
		hit = ln->owner == (int)c && !ln->shared && *seen == ln->version;
	if (hit) {
		done = t + s->c->hit_ns * f;
		if (s->xp) {
			struct sim_explain_lock *e = held_rec(s, c);
			if (e) {
				e->ns[SIM_PART_HIT] += s->c->hit_ns * f;
				e->hits[ln->tmpl]++;
			}
			if (kind != SOP_READ)
				explain_take(s, ln, c, true);
		}
	} else {
		double xfer = xfer_cost(s, ln, c), cost = xfer;
		unsigned k;

		/* A write invalidates every other copy: the first is the
		 * transfer itself, each further one costs inval_step_ns. */
		if (kind != SOP_READ && (k = other_copies(s, ln, c, has_copy)) > 1)
			cost += s->c->inval_step_ns * (double)(k - 1);
		start = t > ln->free_at ? t : ln->free_at;
		done = start + cost;
		if (s->xp) {
			struct sim_explain_lock *e = held_rec(s, c);
			if (e) {
				/* who took it: its writer, unless c owns it and
				 * lost it to readers */
				bool by_reader = kind != SOP_READ && ln->owner == (int)c;
				enum sim_role role = by_reader
					? role_of(ln->share_wait, ln->share_hold, s->cores[c].holding)
					: role_of(ln->own_wait, ln->own_hold, s->cores[c].holding);

				e->ns[SIM_PART_XFER + role] += xfer;
				e->ns[SIM_PART_INVAL] += cost - xfer;
				e->ns[SIM_PART_BUSY] += start - t;
				e->busy_ns[ln->tmpl] += start - t;
				e->xfers[ln->tmpl][role]++;
			}
			if (kind != SOP_READ || ln->owner != (int)c)
				explain_take(s, ln, c, kind != SOP_READ);
		}
		/* A read of a line already shared since its last write is
		 * served from the shared copy: it waits for the transfer in
		 * flight but does not hold up the requests behind it.  Every
		 * other miss needs the owner or an invalidation: one at a
		 * time, FIFO. */
		if (!(kind == SOP_READ && ln->shared))
			ln->free_at = done;
		if (!sibling_pass(s, ln, c)) {
			s->xfers++;
			if (measuring(s))
				s->line_xfers[ln->tmpl]++;
		}
		if (kind == SOP_READ) {
			if (ln->version == 0) /* first touch: from memory */
				ln->version = 1;
			if (ln->owner != (int)c) {
				ln->shared = true;
				ln->nsharers++;
			}
			*seen = ln->version;
		}
		if (kind == SOP_READ)
			prefetch_mate(s, ln, c, false, done);
	}
	if (kind != SOP_READ && !hit) {
		ln->version++;
		ln->owner = (int)c;
		ln->shared = false;
		ln->nsharers = 0;
		*seen = ln->version;
		/* after the line is c's: a spinner's answer comes later */
		prefetch_mate(s, ln, c, true, done);
	}
	if (kind == SOP_RMW) {
		done += s->c->atomic_ns * f;
		if (s->xp) {
			struct sim_explain_lock *e = held_rec(s, c);
			if (e)
				e->ns[SIM_PART_ATOMIC] += s->c->atomic_ns * f;
		}
	}
	return done;
}

/* Core `writer` wrote line li at t: if it holds a lock word, the lock's
 * spinners (queue lock: the queue head, and the pending waiter when the
 * first one took the pending path; ticket lock: every waiter) see their
 * copy invalidated and read it again. */
void sim_spinners_reread(struct sim *s, unsigned li, unsigned writer, double t)
{
	struct lock_st *L;
	unsigned nspin;

	if (s->c->passive_waiters || s->lines[li].lock < 0)
		return;
	L = &s->locks[s->lines[li].lock];
	/* queue lock: the queue head, and the pending waiter before it */
	nspin = L->kind == LOCK_MODEL_TICKET ? L->n : L->front_pending ? 2 : 1;
	if (nspin > L->n)
		nspin = L->n;
	for (unsigned i = 0; i < nspin; i++) {
		unsigned w = L->q[(L->head + i) % s->n];
		if (w != writer) {
			if (s->xp && measuring(s) &&
			    s->seen[(size_t)w * s->nline_inst + li] != s->lines[li].version)
				s->xp->lock[L->tmpl].rereads++;
			sim_access_line(s, li, w, t, SOP_READ);
		}
	}
}

/* Lock instance li's word goes to core w at t, handed over by its
 * holder (and, with the pair prefetcher, its sector mate: a shared copy,
 * or with pair_rfo an owned one). */
void sim_word_handed(struct sim *s, unsigned li, unsigned w, double t)
{
	const struct lock_st *L = &s->locks[li];
	struct line_st *ln = &s->lines[L->line];

	ln->version++;
	ln->owner = (int)w;
	ln->shared = false;
	ln->nsharers = 0;
	if (s->xp) {
		ln->own_wait = -1;
		ln->own_hold = (int)li;
	}
	s->seen[(size_t)w * s->nline_inst + L->line] = ln->version;
	touch_mark(s, L->line, w);
	prefetch_mate(s, ln, w, true, t);
	if (ln->free_at < t)
		ln->free_at = t;
}

/* A data or lock-word access by core c: the access, then the spinners'
 * answer to a write. */
double sim_touch_line(struct sim *s, unsigned li, unsigned c, double t,
		     enum sim_op_kind kind)
{
	double done = sim_access_line(s, li, c, t, kind);

	if (kind != SOP_READ)
		sim_spinners_reread(s, li, c, done);
	return done;
}
