/*
 * sim.c - the discrete-event many-core simulator; the model and its
 * assumptions are in sim.h, the memcg op programs in sim_memcg.c.  This
 * file schedules the cores and runs the locks; what each access costs
 * is sim_coherence.c's.
 *
 * Events: each core has at most one pending event (the time its next
 * shared op is issued), kept in a binary min-heap ordered by (time,
 * sequence) (sim_heap.h), so simultaneous requests are served in the
 * order they were scheduled.  Local work between shared ops is summed
 * without events.  A core waiting for a lock has no event; the releasing
 * core schedules it.  The event being run stays at the heap's root until
 * its core either schedules its next one, which replaces the root (one
 * sift instead of a pop and a push), or waits, and the root is popped.
 * A line or lock op's instance is its template's first plus the core's
 * index in the template's scope (core_st.sidx, opi), looked up, not
 * computed, per access.
 */
#include "predict/sim.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "predict/sim_coherence.h"

/* Core c's instance of each scope (sim.h), by enum sim_scope: set once,
 * the walk scopes again at each of its iterations. */
static void scope_fill(const struct sim *s, struct core_st *k, unsigned c)
{
	unsigned nodes = s->sp->nodes, walk = (unsigned)((k->memcg + k->iter) % s->sp->containers);

	k->sidx[SCOPE_GLOBAL] = 0;
	k->sidx[SCOPE_NODE] = k->node;
	k->sidx[SCOPE_MEMCG] = k->memcg;
	k->sidx[SCOPE_MEMCG_NODE] = k->memcg * nodes + k->node;
	k->sidx[SCOPE_CORE] = c;
	k->sidx[SCOPE_MEMCG_WALK] = walk;
	k->sidx[SCOPE_MEMCG_NODE_WALK] = walk * nodes + k->node;
}

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* ---- SMT siblings (the model in sim.h) ---- */

/* Core c queues at a lock: it spins (PAUSE) until handed the lock. */
static inline void smt_waits(struct sim *s, unsigned c)
{
	s->cores[c].busy_from = INFINITY;
}

/* Core c is handed the lock at t and computes again from then. */
static inline void smt_resumes(struct sim *s, unsigned c, double t)
{
	s->cores[c].busy_from = t;
}

/* Core i's physical core and sibling: the first phys cores one each, the
 * next ones their second threads (c and c + phys share a core, as Linux
 * numbers the CPUs of these Intel machines); nodes follow the physical
 * core (models/memcg.h places workers round-robin). */
static void smt_place(struct sim *s, unsigned i)
{
	const struct sim_params *sp = s->sp;
	unsigned phys = sp->phys_cores && sp->phys_cores < sp->ncores
			? sp->phys_cores : sp->ncores;
	struct core_st *k = &s->cores[i];

	k->phys = i % phys;
	k->node = i % phys % sp->nodes;
	k->sibling = i >= phys ? (int)(i - phys) : i + phys < sp->ncores ? (int)(i + phys) : -1;
	if (!(s->c->smt_slowdown > 0))
		k->sibling = -1; /* no slowdown: the factor is 1 throughout */
	k->busy_from = 0;
}

/* The part of [t0, t1] inside the measured window. */
static double measured_span(const struct sim *s, double t0, double t1)
{
	if (!measuring(s))
		return 0;
	if (t0 < s->t_warm)
		t0 = s->t_warm;
	return t1 > t0 ? t1 - t0 : 0;
}

/* A lock's queue length changes at t: account the time at the old one. */
static void queue_changes(struct sim *s, struct lock_st *L, double t)
{
	L->queue_ns_sum += (double)L->n * measured_span(s, L->n_since, t);
	L->n_since = t;
}

static double handoff_ns(const struct sim *s, const struct lock_st *L, unsigned k)
{
	if (L->kind == LOCK_MODEL_TICKET)
		return s->c->handoff_ns * (double)k / 2.0;
	return s->c->handoff_ns;
}

/* A queue lock handed to the releaser's own sibling: the waiter's MCS
 * node is in their shared L1/L2, a hit-level latency instead of h. */
static inline double smt_handoff(const struct sim *s, const struct lock_st *L, unsigned c,
				 unsigned w, double h)
{
	if (L->kind == LOCK_MODEL_QUEUE && s->cores[c].phys == s->cores[w].phys)
		return s->c->hit_ns;
	return h;
}

static void iteration_done(struct sim *s, double t)
{
	s->done++;
	if (s->done == s->warm) {
		s->t_warm = t;
		s->xfers_warm = s->xfers;
	}
	if (s->done >= s->target) {
		s->t_end = t;
		s->stop = true;
	}
}

/*
 * Core c's next shared op is due at t > *now.  If no other event is due
 * before t, popping the heap would hand the core straight back: it goes
 * on at t without the heap (the same order, so the same result, at a
 * fraction of the cost while one holder runs and the waiters have no
 * events).  A tie goes through the heap, so the event scheduled first
 * is still served first.  Returns false once the core is queued.
 */
static inline bool run_on(struct sim *s, unsigned c, double *now, double t)
{
	/* The root is c's own event, under way: the next due is a child. */
	size_t n = s->q.n;

	if (n > 1 && !(sim_time_bits(t) < sim_heap_second_bits(&s->q))) {
		sim_heap_replace_top(&s->q, t, c); /* c's next event */
		s->root_live = true;
		return false;
	}
	*now = t;
	s->events++;
	return true;
}

/*
 * Core c has run its part of the program to the end: the iteration is
 * counted (a reclaimer's apart, then it idles for the CPU share the
 * others take) and it starts over.  Returns false when c must stop: the
 * run is over, or c's next op lies ahead of another core's event.
 */
static bool iteration_end(struct sim *s, unsigned c, double *t, double *now)
{
	struct core_st *k = &s->cores[c];

	k->pc = k->pc0;
	k->iter++;
	scope_fill(s, k, c);
	if (k->actor) {
		double sh = s->sp->reclaimer_share;
		if (measuring(s))
			s->actor_done++;
		if (sh > 0 && sh < 1)
			*t += (*t - k->iter_t0) * (1 / sh - 1);
		k->iter_t0 = *t;
	} else {
		iteration_done(s, *t);
	}
	if (s->stop)
		return false;
	return !(*t > *now) || run_on(s, c, now, *t);
}

/* SOP_EVERY: one in `period` arrivals at this op (num in period: spread
 * evenly), from a random per-core phase; counting arrivals, not
 * iterations, folds a block nested in an unrolled batch evenly.  Moves
 * c's pc past the op, and past its block when this arrival skips it. */
static void every_op(struct sim *s, unsigned c, const struct sim_op *op)
{
	struct core_st *k = &s->cores[c];
	/* arrival a's a x num mod period (num 0: a mod period), kept from
	 * one arrival to the next without a divide: a block runs when
	 * floor((a + 1) num / period) > floor(a num / period) */
	uint32_t *r = &s->every_cnt[(size_t)c * s->nevery + s->opi[k->pc].base];
	uint64_t per = op->period, num = op->num, next;

	if (num ? *r + num < per : *r != 0)
		k->pc += op->skip;
	next = *r + (num ? num : 1);
	*r = (uint32_t)(next >= per ? next % per : next);
	k->pc++;
}

/* SOP_LOCAL(_EXP): the time core c's local work takes from t. */
static double local_op(struct sim *s, unsigned c, const struct sim_op *op, double t)
{
	struct core_st *k = &s->cores[c];
	double f = smt_factor(s, c, t);
	double dt = op->kind == SOP_LOCAL ? op->ns * f
		  : -op->ns * f * log(1.0 - rng_unit(&k->rng));

	if (s->xp) {
		struct sim_explain_lock *e = held_rec(s, c);
		if (e)
			e->ns[SIM_PART_LOCAL] += dt;
	}
	return dt;
}

/*
 * SOP_LOCK by core c at *t on lock instance li: a free lock is taken
 * (an RMW on its word; returns true, *t its end); a held one queues c
 * after an active waiter's RMWs on the word (returns false: c waits for
 * the release).
 */
static bool lock_acquire(struct sim *s, unsigned c, unsigned li, double *t)
{
	struct core_st *k = &s->cores[c];
	struct lock_st *L = &s->locks[li];

	if (L->holder < 0) {
		L->holder = (int)c;
		*t = sim_touch_line(s, L->line, c, *t, SOP_RMW);
		L->acq_t = *t;
		k->holding = (int)li;
		if (measuring(s)) {
			L->acqs++;
			if (s->xp)
				s->xp->lock[L->tmpl].holds++;
		}
		return true;
	}
	k->wait_start = *t;
	k->waiting = (int)li;
	if (s->xp && measuring(s)) {
		s->xp->lock[L->tmpl].arrivals++;
		s->xp->lock[L->tmpl].pending += L->kind == LOCK_MODEL_QUEUE && !L->n;
	}
	if (!s->c->passive_waiters) {
		/* qspinlock: the fast path's failed cmpxchg, then the pending
		 * bit (nobody waiting) or xchg_tail; ticket: the ticket
		 * fetch-and-add.  The waiter's own time is waiting time
		 * either way. */
		double ta = sim_touch_line(s, L->line, c, *t, SOP_RMW);
		if (L->kind == LOCK_MODEL_QUEUE)
			sim_touch_line(s, L->line, c, ta, SOP_RMW);
		if (s->xp && measuring(s))
			s->xp->lock[L->tmpl].arrival_rmws += L->kind == LOCK_MODEL_QUEUE ? 2 : 1;
	}
	queue_changes(s, L, *t);
	if (!L->n)
		L->front_pending = L->kind == LOCK_MODEL_QUEUE;
	L->q[(L->head + L->n++) % s->n] = c;
	smt_waits(s, c);
	return false;
}

/* Core c, releasing lock instance li at t, hands it to the first waiter:
 * the lock word moves to it after handoff(k), and it runs from then. */
static void hand_off(struct sim *s, unsigned c, unsigned li, double t)
{
	struct lock_st *L = &s->locks[li];
	unsigned w = L->q[L->head];
	double h = smt_handoff(s, L, c, w, handoff_ns(s, L, 1 + L->n)), tw = t + h;

	queue_changes(s, L, t);
	L->head = (L->head + 1) % s->n;
	L->n--;
	/* the pending waiter took it; the next is a queued one */
	L->front_pending = false;
	L->holder = (int)w;
	L->acq_t = tw;
	s->cores[w].waiting = -1;
	s->cores[w].holding = (int)li;
	if (measuring(s)) {
		L->acqs++;
		if (s->xp) {
			s->xp->lock[L->tmpl].holds++;
			s->xp->lock[L->tmpl].ns[SIM_PART_HANDOFF] += h;
		}
	}
	sim_word_handed(s, li, w, tw);
	/* The spinners left read the word the new holder locked: the queue
	 * head spinning on lock->val, or the next waiter, made queue head by
	 * the MCS hand-off (qspinlock.c: arch_mcs_spin_unlock_contended
	 * after set_locked). */
	if (L->kind == LOCK_MODEL_QUEUE)
		sim_spinners_reread(s, L->line, w, tw);
	s->wait_ns += tw - s->cores[w].wait_start;
	smt_resumes(s, w, tw);
	s->cores[w].pc++;
	sim_heap_push(&s->q, tw, w);
}

/* SOP_UNLOCK by core c at t: the release store, then the hand-off to
 * the first waiter if any.  Returns the store's end. */
static double lock_release(struct sim *s, unsigned c, unsigned li, double t)
{
	struct lock_st *L = &s->locks[li];

	t = sim_access_line(s, L->line, c, t, SOP_WRITE);
	L->held_ns += measured_span(s, L->acq_t, t);
	if (s->cores[c].holding == (int)li)
		s->cores[c].holding = -1;
	if (L->n)
		hand_off(s, c, li, t);
	else
		L->holder = -1;
	return t;
}

/* Run core c from its current op at time now until it must wait. */
static void step(struct sim *s, unsigned c, double now)
{
	const struct sim_prog *p = s->p;
	struct core_st *k = &s->cores[c];
	double t = now;

	for (;;) {
		const struct sim_op *op;
		unsigned li;

		if (k->pc == k->pc_end) {
			if (!iteration_end(s, c, &t, &now))
				return;
			continue;
		}
		op = &p->ops[k->pc];
		if (op->kind == SOP_EVERY) {
			every_op(s, c, op);
			continue;
		}
		if (op->kind == SOP_LOCAL || op->kind == SOP_LOCAL_EXP) {
			t += local_op(s, c, op, t);
			k->pc++;
			continue;
		}
		/* Shared ops are issued in global time order. */
		if (t > now && !run_on(s, c, &now, t))
			return;
		li = s->opi[k->pc].base + k->sidx[s->opi[k->pc].scope];
		if (op->kind == SOP_READ || op->kind == SOP_WRITE || op->kind == SOP_RMW) {
			t = sim_touch_line(s, li, c, t, op->kind);
			k->pc++;
			continue;
		}
		if (op->kind == SOP_LOCK) {
			if (!lock_acquire(s, c, li, &t))
				return; /* woken by the release */
		} else {
			t = lock_release(s, c, li, t);
		}
		k->pc++;
	}
}

/* The regime: per lock template its busiest instance, per line template
 * its transfers; holds and queues still open at the end are counted up
 * to it. */
static void sim_regime_fill(struct sim *s, struct sim_result *r, uint64_t ops, double span)
{
	const struct sim_prog *p = s->p;

	r->nlocks = p->nlocks;
	r->nlines = p->nlines;
	for (unsigned i = 0; i < p->nlocks; i++) {
		unsigned n = sim_scope_count(s->sp, p->locks[i].scope);
		struct sim_lock_stat *st = &r->lock[i];
		uint64_t acqs = 0;

		for (unsigned j = 0; j < n; j++) {
			struct lock_st *L = &s->locks[s->lock_base[i] + j];
			double held = L->held_ns;

			if (L->holder >= 0)
				held += measured_span(s, L->acq_t, s->t_end);
			queue_changes(s, L, s->t_end);
			acqs += L->acqs;
			st->instances += L->acqs > 0;
			if (held / span > st->util || j == 0) {
				st->util = held / span;
				st->mean_waiters = L->queue_ns_sum / span;
				st->hold_ns = L->acqs ? held / (double)L->acqs : 0;
			}
		}
		st->acq_per_op = (double)acqs / (double)ops;
	}
	for (unsigned i = 0; i < p->nlines; i++)
		r->line_xfer_per_op[i] = (double)s->line_xfers[i] / (double)ops;
}

/* The cores: workers (placed on physical cores and nodes), then reclaimers. */
static void setup_cores(struct sim *s)
{
	s->cores = xcalloc(s->n, sizeof(*s->cores));
	for (unsigned i = 0; i < s->n; i++) {
		struct core_st *k = &s->cores[i];

		k->memcg = i % s->sp->containers;
		k->rng = mix64(s->sp->seed + i) | 1;
		k->waiting = k->holding = -1;
		k->pc_end = s->p->actor_start ? s->p->actor_start : s->p->nops;
		if (i < s->sp->ncores) {
			smt_place(s, i); /* siblings share a node: phys is a multiple of the nodes */
		} else {
			/* a reclaimer: a CPU of its own (no sibling), on node j */
			k->actor = true;
			k->pc = k->pc0 = s->p->actor_start;
			k->pc_end = s->p->nops;
			k->node = (i - s->sp->ncores) % s->sp->nodes;
			k->phys = i;
			k->sibling = -1;
		}
		scope_fill(s, k, i);
	}
}

/* Each line or lock op's target: its first instance and its scope. */
static void setup_opi(struct sim *s)
{
	const struct sim_prog *p = s->p;

	s->opi = xcalloc(p->nops + 1, sizeof(*s->opi));
	for (size_t i = 0; i < p->nops; i++) {
		const struct sim_op *op = &p->ops[i];

		if (op->kind == SOP_READ || op->kind == SOP_WRITE || op->kind == SOP_RMW) {
			s->opi[i].base = s->line_base[op->target];
			s->opi[i].scope = p->lines[op->target].scope;
		} else if (op->kind == SOP_LOCK || op->kind == SOP_UNLOCK) {
			s->opi[i].base = s->lock_base[op->target];
			s->opi[i].scope = p->locks[op->target].scope;
		} else if (op->kind == SOP_EVERY) {
			s->opi[i].base = (unsigned)s->nevery++; /* its every_cnt slot */
		}
	}
	/* Each core's first arrival at an EVERY op is arrival a, its phase,
	 * drawn from the seed, the core and the op. */
	s->every_cnt = xcalloc(s->n * s->nevery + 1, sizeof(uint32_t));
	for (unsigned c = 0; c < s->n; c++)
		for (size_t i = 0; i < p->nops; i++) {
			const struct sim_op *op = &p->ops[i];
			uint64_t a, per = op->period, num = op->num;

			if (op->kind != SOP_EVERY)
				continue;
			a = mix64(s->sp->seed ^ ((uint64_t)c << 32) ^ i) % per;
			s->every_cnt[c * s->nevery + s->opi[i].base] =
				(uint32_t)(num ? a * num % per : a);
		}
}

/* The line instances of every template (a walk template's are its
 * twin's); returns each template's twin, -1: none (the caller frees it). */
static int *setup_lines(struct sim *s)
{
	s->line_base = xcalloc(s->p->nlines + 1, sizeof(unsigned));
	int *line_alias = xcalloc(s->p->nlines + 1, sizeof(int));
	for (unsigned i = 0; i < s->p->nlines; i++) {
		line_alias[i] = sim_line_twin(s->p, i);
		if (line_alias[i] >= 0) {
			s->line_base[i] = s->line_base[line_alias[i]];
			continue;
		}
		s->line_base[i] = (unsigned)s->nline_inst;
		s->nline_inst += sim_scope_count(s->sp, s->p->lines[i].scope);
	}
	s->lines = xcalloc(s->nline_inst, sizeof(*s->lines));
	for (unsigned i = 0; i < s->p->nlines; i++) {
		unsigned n = sim_scope_count(s->sp, s->p->lines[i].scope);

		if (line_alias[i] >= 0)
			continue; /* the twin's instances */
		for (unsigned j = 0; j < n; j++) {
			struct line_st *ln = &s->lines[s->line_base[i] + j];
			ln->owner = -1;
			ln->lock = -1;
			ln->tmpl = i;
			ln->own_wait = ln->own_hold = ln->share_wait = ln->share_hold = -1;
			/* Mates share the scope, so instance j pairs with j. */
			ln->mate = s->p->lines[i].mate < 0 ? -1
				 : (int)(s->line_base[s->p->lines[i].mate] + j);
		}
	}
	return line_alias;
}

int sim_run(const struct sim_prog *p, const struct sim_costs *c,
	    const struct sim_params *sp, struct sim_result *r, const char **err)
{
	struct sim s = { .p = p, .c = c, .sp = sp, .xp = c->explain };
	size_t nlock_inst = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (c->explain)
		memset(c->explain, 0, sizeof(*c->explain));
	if ((*err = sim_params_check(p, c, sp)))
		return -1;
	s.n = sp->ncores + sp->reclaimers;
	setup_cores(&s);
	int *line_alias = setup_lines(&s);
	s.seen = xcalloc((size_t)s.n * s.nline_inst, sizeof(uint32_t));
	if (c->l2_keep_bytes > 0 && p->iter_bytes > 0)
		s.touched = xcalloc((size_t)s.n * s.nline_inst, sizeof(uint64_t));
	s.lock_base = xcalloc(p->nlocks + 1, sizeof(unsigned));
	int *lock_alias = xcalloc(p->nlocks + 1, sizeof(int));
	for (unsigned i = 0; i < p->nlocks; i++) {
		lock_alias[i] = sim_lock_twin(p, i);
		if (lock_alias[i] >= 0) {
			s.lock_base[i] = s.lock_base[lock_alias[i]];
			continue;
		}
		s.lock_base[i] = (unsigned)nlock_inst;
		nlock_inst += sim_scope_count(sp, p->locks[i].scope);
	}
	s.locks = xcalloc(nlock_inst + 1, sizeof(*s.locks));
	for (unsigned i = 0; i < p->nlocks; i++) {
		unsigned n = sim_scope_count(sp, p->locks[i].scope);

		if (lock_alias[i] >= 0)
			continue; /* the twin's instances */
		for (unsigned j = 0; j < n; j++) {
			struct lock_st *L = &s.locks[s.lock_base[i] + j];
			L->holder = -1;
			L->q = xcalloc(s.n, sizeof(unsigned));
			L->kind = p->locks[i].kind;
			L->tmpl = i;
			/* Same scope as its line, so instance j matches. */
			L->line = s.line_base[p->locks[i].line] + j;
			if (s.lines[L->line].lock >= 0)
				die(1, "sim: two lock words on line '%s'",
				    p->lines[p->locks[i].line].name);
			s.lines[L->line].lock = (int)(s.lock_base[i] + j);
		}
	}
	setup_opi(&s);
	s.q.ev = xcalloc(s.n + 1, sizeof(*s.q.ev));
	s.target = (uint64_t)sp->ncores * sp->iters_per_core;
	s.warm = (uint64_t)(sp->warm_frac * (double)s.target);
	if (s.warm < 1)
		s.warm = 1;
	if (s.warm >= s.target)
		s.warm = s.target - 1;

	for (unsigned i = 0; i < s.n; i++)
		sim_heap_push(&s.q, 0.0, i);
	while (!s.stop && s.q.n) {
		sim_event e = s.q.ev[0]; /* stays the root while it runs */
		s.events++;
		s.root_live = false;
		step(&s, sim_event_core(e), sim_event_time(e));
		if (!s.root_live)
			sim_heap_pop(&s.q); /* c waits for a lock, or the run is over */
	}
	if (!s.stop) {
		*err = "deadlock: every core waits for a lock nobody holds";
		rc = -1;
	} else if (s.t_end <= s.t_warm) {
		*err = "run too short to measure (no time passed)";
		rc = -1;
	} else {
		double span = s.t_end - s.t_warm;
		uint64_t ops = s.target - s.warm;
		r->ops_per_sec = (double)ops / span * 1e9;
		r->actor_per_sec = (double)s.actor_done / span * 1e9;
		r->ns_per_op_core = span * sp->ncores / (double)ops;
		r->lock_wait_frac = s.wait_ns / (s.t_end * sp->ncores);
		r->xfer_per_op = (double)(s.xfers - s.xfers_warm) / (double)ops;
		r->events = s.events;
		r->sim_ns = s.t_end;
		sim_regime_fill(&s, r, ops, span);
	}
	free(line_alias);
	free(lock_alias);
	for (size_t i = 0; i < nlock_inst; i++)
		free(s.locks[i].q);
	free(s.locks);
	free(s.lock_base);
	free(s.seen);
	free(s.touched);
	free(s.every_cnt);
	free(s.lines);
	free(s.line_base);
	free(s.opi);
	free(s.cores);
	free(s.q.ev);
	return rc;
}
