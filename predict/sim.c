/*
 * sim.c - the discrete-event many-core simulator; the model and its
 * assumptions are in sim.h, the memcg op programs in sim_memcg.c.
 *
 * Events: each core has at most one pending event (the time its next
 * shared op is issued), kept in a binary min-heap ordered by (time,
 * sequence), so simultaneous requests are served in the order they were
 * scheduled.  Local work between shared ops is summed without events.  A
 * core waiting for a lock has no event; the releasing core schedules it.
 */
#include "predict/sim.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void sim_prog_init(struct sim_prog *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
}

void sim_prog_free(struct sim_prog *p)
{
	free(p->ops);
	p->ops = NULL;
	p->nops = p->cap = 0;
}

static struct sim_op *emit(struct sim_prog *p, enum sim_op_kind kind)
{
	if (p->nops == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->ops = realloc(p->ops, p->cap * sizeof(*p->ops));
		if (!p->ops)
			die(1, "out of memory");
	}
	memset(&p->ops[p->nops], 0, sizeof(p->ops[0]));
	p->ops[p->nops].kind = kind;
	p->ops[p->nops].period = 1;
	return &p->ops[p->nops++];
}

/* The scope a walk scope shares its instances with (itself otherwise). */
static enum sim_scope walk_base(enum sim_scope s)
{
	return s == SCOPE_MEMCG_WALK ? SCOPE_MEMCG : s == SCOPE_MEMCG_NODE_WALK ? SCOPE_MEMCG_NODE : s;
}

unsigned sim_line(struct sim_prog *p, const char *name, enum sim_scope scope)
{
	for (unsigned i = 0; i < p->nlines; i++) {
		if (!strcmp(p->lines[i].name, name)) {
			if (p->lines[i].scope == scope)
				return i;
			if (walk_base(p->lines[i].scope) != walk_base(scope))
				die(1, "sim: line '%s' used with two scopes", name);
		}
	}
	if (p->nlines == SIM_MAX_LINES)
		die(1, "sim: too many lines in program '%s'", p->name);
	snprintf(p->lines[p->nlines].name, sizeof(p->lines[0].name), "%s", name);
	p->lines[p->nlines].scope = scope;
	p->lines[p->nlines].mate = -1;
	return p->nlines++;
}

void sim_line_mate(struct sim_prog *p, unsigned a, unsigned b)
{
	struct sim_line_def *la = &p->lines[a], *lb = &p->lines[b];

	if (a == b || a >= p->nlines || b >= p->nlines)
		die(1, "sim: bad sector mates %u, %u in program '%s'", a, b, p->name);
	if (la->scope != lb->scope)
		die(1, "sim: sector mates '%s' and '%s' differ in scope", la->name, lb->name);
	if ((la->mate >= 0 && la->mate != (int)b) || (lb->mate >= 0 && lb->mate != (int)a))
		die(1, "sim: line '%s' or '%s' already has a sector mate", la->name, lb->name);
	la->mate = (int)b;
	lb->mate = (int)a;
}

unsigned sim_lock(struct sim_prog *p, const char *name, enum sim_scope scope,
		  enum lock_model_kind kind, unsigned line)
{
	for (unsigned i = 0; i < p->nlocks; i++)
		if (!strcmp(p->locks[i].name, name) && p->locks[i].scope == scope)
			return i;
	if (p->nlocks == SIM_MAX_LOCKS)
		die(1, "sim: too many locks in program '%s'", p->name);
	if (p->lines[line].scope != scope)
		die(1, "sim: lock '%s' and its line differ in scope", name);
	snprintf(p->locks[p->nlocks].name, sizeof(p->locks[0].name), "%s", name);
	p->locks[p->nlocks].scope = scope;
	p->locks[p->nlocks].kind = kind;
	p->locks[p->nlocks].line = (int)line;
	return p->nlocks++;
}

void sim_actor_begin(struct sim_prog *p)
{
	if (!p->nops || p->actor_start)
		die(1, "sim: program '%s': an actor part needs a worker part before it, once",
		    p->name);
	p->actor_start = p->nops;
	p->merge_floor = p->nops;
}

void sim_local(struct sim_prog *p, double ns)
{
	/* Merge with a preceding LOCAL: fewer ops, same timing. */
	if (p->nops > p->merge_floor && p->ops[p->nops - 1].kind == SOP_LOCAL) {
		p->ops[p->nops - 1].ns += ns;
		return;
	}
	emit(p, SOP_LOCAL)->ns = ns;
}

void sim_local_exp(struct sim_prog *p, double ns)
{
	emit(p, SOP_LOCAL_EXP)->ns = ns;
}

void sim_access(struct sim_prog *p, enum sim_op_kind kind, unsigned line)
{
	emit(p, kind)->target = line;
}

void sim_lock_op(struct sim_prog *p, unsigned lock)
{
	emit(p, SOP_LOCK)->target = lock;
}

void sim_unlock_op(struct sim_prog *p, unsigned lock)
{
	emit(p, SOP_UNLOCK)->target = lock;
}

size_t sim_every(struct sim_prog *p, unsigned period)
{
	struct sim_op *op = emit(p, SOP_EVERY);
	op->period = period ? period : 1;
	return p->nops - 1;
}

size_t sim_every_n(struct sim_prog *p, unsigned num, unsigned period)
{
	size_t h = sim_every(p, period);

	p->ops[h].num = num > 1 && num < p->ops[h].period ? num : 0;
	return h;
}

double sim_op_weight(const struct sim_prog *p, size_t i)
{
	double w = 1;

	for (size_t j = 0; j < i; j++)
		if (p->ops[j].kind == SOP_EVERY && j + p->ops[j].skip >= i)
			w *= (p->ops[j].num ? p->ops[j].num : 1) / (double)p->ops[j].period;
	return w;
}

void sim_every_end(struct sim_prog *p, size_t handle)
{
	p->ops[handle].skip = (unsigned)(p->nops - handle - 1);
	/* Never merge later local work into the closed block. */
	p->merge_floor = p->nops;
}

double sim_prog_local_ns(const struct sim_prog *p)
{
	double sum = 0;
	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i].kind == SOP_LOCAL || p->ops[i].kind == SOP_LOCAL_EXP)
			sum += sim_op_weight(p, i) * p->ops[i].ns;
	return sum;
}

static const char *const op_names[] = {
	[SOP_LOCAL] = "local", [SOP_LOCAL_EXP] = "local_exp",
	[SOP_READ] = "read", [SOP_WRITE] = "write", [SOP_RMW] = "rmw",
	[SOP_LOCK] = "lock", [SOP_UNLOCK] = "unlock", [SOP_EVERY] = "every",
};
static const char *const scope_names[] = {
	[SCOPE_GLOBAL] = "global", [SCOPE_NODE] = "node",
	[SCOPE_MEMCG] = "memcg", [SCOPE_MEMCG_NODE] = "memcg,node",
	[SCOPE_CORE] = "core", [SCOPE_MEMCG_WALK] = "walk",
	[SCOPE_MEMCG_NODE_WALK] = "walk,node",
};

void sim_prog_dump(const struct sim_prog *p, FILE *f)
{
	int depth = 0;
	size_t ends[64];

	fprintf(f, "program %s: %zu ops, %u lines, %u locks, local %.1f ns/iter\n",
		p->name, p->nops, p->nlines, p->nlocks, sim_prog_local_ns(p));
	for (unsigned i = 0; i < p->nlines; i++)
		if (p->lines[i].mate > (int)i)
			fprintf(f, "  sector %s ~ %s\n", p->lines[i].name,
				p->lines[p->lines[i].mate].name);
	for (size_t i = 0; i < p->nops; i++) {
		const struct sim_op *op = &p->ops[i];
		while (depth > 0 && i > ends[depth - 1])
			depth--;
		if (p->actor_start && i == p->actor_start)
			fprintf(f, "actor: a reclaimer per node (kswapd), one reclaim call an "
				   "iteration, not an operation:\n");
		fprintf(f, "%*s%-6s", 2 + 2 * depth, "", op_names[op->kind]);
		switch (op->kind) {
		case SOP_LOCAL:
		case SOP_LOCAL_EXP:
			fprintf(f, " %.1f ns\n", op->ns);
			break;
		case SOP_READ:
		case SOP_WRITE:
		case SOP_RMW:
			fprintf(f, " %s [%s]\n", p->lines[op->target].name,
				scope_names[p->lines[op->target].scope]);
			break;
		case SOP_LOCK:
		case SOP_UNLOCK:
			fprintf(f, " %s (%s) [%s]\n", p->locks[op->target].name,
				p->locks[op->target].kind == LOCK_MODEL_TICKET
					? "ticket" : "queue",
				scope_names[p->locks[op->target].scope]);
			break;
		case SOP_EVERY:
			fprintf(f, " %u/%u iterations:\n", op->num ? op->num : 1, op->period);
			if (depth < 64)
				ends[depth++] = i + op->skip;
			break;
		}
	}
}

/* ---- run-time state ---- */

struct line_st {
	double free_at;    /* the line serves one transfer at a time */
	uint32_t version;  /* bumped by every write */
	int owner;         /* last writer, -1: memory */
	bool shared;       /* read by a non-owner since the last write */
	unsigned nsharers; /* non-owners holding the current version */
	int mate;          /* instance of its sector mate, -1: none */
	int lock;          /* lock instance whose word lives here, -1: none */
	unsigned tmpl;     /* its template, for the per-line statistics */
	/* sim_costs.explain only: the lock instances the last writer and
	 * the last reader sharing it waited for / held then (-1: none). */
	int own_wait, own_hold, share_wait, share_hold;
};

struct lock_st {
	int holder;
	unsigned head, n; /* FIFO of waiting cores in q[] */
	unsigned *q;
	unsigned line;    /* instance of its lock-word line */
	unsigned tmpl;    /* its template */
	enum lock_model_kind kind;
	bool front_pending; /* queue lock: the first waiter took the pending
			     * path (it arrived with nobody waiting) */
	/* Regime statistics over the measured window. */
	double acq_t;     /* when the holder took it */
	double n_since;   /* when n last changed */
	double held_ns, queue_ns_sum;
	uint64_t acqs;
};

struct core_st {
	size_t pc, pc0, pc_end; /* its part of the program: [pc0, pc_end) */
	bool actor;          /* a reclaimer (sim_params.reclaimers) */
	double iter_t0;      /* a reclaimer: when its iteration began */
	uint64_t iter;
	unsigned memcg, node, phys;
	int sibling;         /* the other thread of its physical core, -1: none */
	double busy_from;    /* computing from then on (INFINITY: waiting for a
			      * lock, spinning with PAUSE) */
	uint64_t rng;
	double wait_start;
	int waiting, holding; /* lock instance waited for / taken last, -1 */
};

struct event {
	double t;
	uint64_t seq;
	unsigned core;
};

struct sim {
	const struct sim_prog *p;
	const struct sim_costs *c;
	const struct sim_params *sp;
	struct core_st *cores;
	struct line_st *lines;
	struct lock_st *locks;
	uint32_t *seen;        /* ncores x nline_inst: version last seen */
	uint32_t *every_cnt;   /* ncores x nops: arrivals at each EVERY op */
	unsigned *line_base, *lock_base;
	size_t nline_inst;
	unsigned n;            /* cores: ncores workers, then the reclaimers */
	uint64_t actor_done;   /* reclaimer iterations in the measured window */
	struct event *heap;
	size_t nheap;
	uint64_t seq, done, target, warm, events, xfers, xfers_warm;
	uint64_t line_xfers[SIM_MAX_LINES]; /* per template, measured window */
	double t_warm, t_end, wait_ns;
	bool stop;
	struct sim_explain *xp; /* sim_costs.explain */
};

static unsigned scope_count(const struct sim_params *sp, enum sim_scope s)
{
	switch (s) {
	case SCOPE_GLOBAL: return 1;
	case SCOPE_NODE: return sp->nodes;
	case SCOPE_MEMCG: return sp->containers;
	case SCOPE_MEMCG_NODE: return sp->containers * sp->nodes;
	case SCOPE_CORE: return sp->ncores + sp->reclaimers;
	case SCOPE_MEMCG_WALK: return sp->containers;
	case SCOPE_MEMCG_NODE_WALK: return sp->containers * sp->nodes;
	}
	return 1;
}

static unsigned scope_index(const struct sim *s, enum sim_scope sc, unsigned c)
{
	const struct core_st *k = &s->cores[c];

	switch (sc) {
	case SCOPE_GLOBAL: return 0;
	case SCOPE_NODE: return k->node;
	case SCOPE_MEMCG: return k->memcg;
	case SCOPE_MEMCG_NODE: return k->memcg * s->sp->nodes + k->node;
	case SCOPE_CORE: return c;
	case SCOPE_MEMCG_WALK:
		return (unsigned)((k->memcg + k->iter) % s->sp->containers);
	case SCOPE_MEMCG_NODE_WALK:
		return (unsigned)((k->memcg + k->iter) % s->sp->containers) * s->sp->nodes + k->node;
	}
	return 0;
}

static inline unsigned line_inst(const struct sim *s, unsigned tmpl, unsigned c)
{
	return s->line_base[tmpl] + scope_index(s, s->p->lines[tmpl].scope, c);
}

static inline uint64_t rng_next(uint64_t *x)
{
	/* xorshift64* */
	*x ^= *x >> 12;
	*x ^= *x << 25;
	*x ^= *x >> 27;
	return *x * 0x2545F4914F6CDD1DULL;
}

static inline double rng_unit(uint64_t *x)
{
	return (double)(rng_next(x) >> 11) * (1.0 / 9007199254740992.0);
}

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void heap_push(struct sim *s, double t, unsigned core)
{
	size_t i = s->nheap++;
	struct event e = { t, s->seq++, core };

	while (i > 0) {
		size_t parent = (i - 1) / 2;
		struct event *pe = &s->heap[parent];
		if (pe->t < e.t || (pe->t == e.t && pe->seq < e.seq))
			break;
		s->heap[i] = *pe;
		i = parent;
	}
	s->heap[i] = e;
}

static struct event heap_pop(struct sim *s)
{
	struct event top = s->heap[0], last = s->heap[--s->nheap];
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct event *cand = &last;
		if (l < s->nheap && (s->heap[l].t < cand->t ||
				     (s->heap[l].t == cand->t && s->heap[l].seq < cand->seq))) {
			m = l;
			cand = &s->heap[l];
		}
		if (r < s->nheap && (s->heap[r].t < cand->t ||
				     (s->heap[r].t == cand->t && s->heap[r].seq < cand->seq)))
			m = r;
		if (m == i)
			break;
		s->heap[i] = s->heap[m];
		i = m;
	}
	if (s->nheap)
		s->heap[i] = last;
	return top;
}

/* ---- SMT siblings (the model in sim.h) ---- */

/* The factor on core c's compute at t: smt_slowdown while its sibling
 * computes, 1 while the sibling waits for a lock (it spins with PAUSE) or
 * when it has none.  Read when the work starts: a sibling that begins or
 * ends a wait part-way through does not change work already under way. */
static inline double smt_factor(const struct sim *s, unsigned c, double t)
{
	const struct core_st *k = &s->cores[c];

	if (k->sibling < 0 || !(s->cores[k->sibling].busy_from <= t))
		return 1.0;
	return s->c->smt_slowdown;
}

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

/* A line passed between the two threads of one core stays in their
 * shared L1/L2: a hit-level latency, no coherence transfer. */
static inline bool sibling_pass(const struct sim *s, const struct line_st *ln, unsigned c)
{
	return ln->owner >= 0 && ln->owner != (int)c &&
	       s->cores[ln->owner].phys == s->cores[c].phys;
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

static double xfer_cost(const struct sim *s, const struct line_st *ln, unsigned c)
{
	if (sibling_pass(s, ln, c))
		return s->c->hit_ns; /* a hyperthread sibling: same L1/L2 */
	if (ln->owner >= 0 && s->cores[ln->owner].node != s->cores[c].node)
		return s->c->xfer_ns * s->c->remote_factor;
	return s->c->xfer_ns;
}

static inline bool measuring(const struct sim *s)
{
	return s->done >= s->warm;
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

/* ---- sim_costs.explain: where a holder's time goes ---- */

static const char *const part_names[SIM_PART_N] = {
	[SIM_PART_LOCAL] = "local", [SIM_PART_HIT] = "hit",
	[SIM_PART_XFER + SIM_ROLE_WAITER] = "xfer_waiter",
	[SIM_PART_XFER + SIM_ROLE_HOLDER] = "xfer_holder",
	[SIM_PART_XFER + SIM_ROLE_OTHER] = "xfer_other",
	[SIM_PART_INVAL] = "inval", [SIM_PART_BUSY] = "busy",
	[SIM_PART_ATOMIC] = "atomic", [SIM_PART_HANDOFF] = "handoff",
};

const char *sim_part_name(enum sim_part part)
{
	return (unsigned)part < SIM_PART_N ? part_names[part] : "?";
}

/* The explain record of the lock core c holds, or NULL (not holding,
 * or outside the measured window). */
static struct sim_explain_lock *held_rec(const struct sim *s, unsigned c)
{
	int h = s->cores[c].holding;

	if (h < 0 || !measuring(s))
		return NULL;
	return &s->xp->lock[s->locks[h].tmpl];
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

/* The 128 B spatial prefetcher: core c's miss on a line brings its
 * sector mate in as a shared copy.  Asynchronous: no time for c; the
 * mate's owner keeps its copy but no longer exclusively. */
static void prefetch_mate(struct sim *s, const struct line_st *ln, unsigned c)
{
	struct line_st *m;
	uint32_t *seen;

	if (!s->c->pair_prefetch || ln->mate < 0)
		return;
	m = &s->lines[ln->mate];
	seen = &s->seen[(size_t)c * s->nline_inst + (size_t)ln->mate];
	if (m->version == 0 || *seen == m->version)
		return; /* never written (nothing to steal) or already here */
	*seen = m->version;
	if (m->owner != (int)c) {
		if (s->xp)
			explain_take(s, m, c, false);
		m->shared = true;
		m->nsharers++;
	}
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
static double access_line(struct sim *s, unsigned li, unsigned c, double t,
			  enum sim_op_kind kind)
{
	struct line_st *ln = &s->lines[li];
	uint32_t *seen = &s->seen[(size_t)c * s->nline_inst + li];
	bool has_copy = *seen == ln->version && ln->version != 0;
	bool hit;
	double start, done, f = smt_factor(s, c, t);

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
		prefetch_mate(s, ln, c);
	}
	if (kind != SOP_READ && !hit) {
		ln->version++;
		ln->owner = (int)c;
		ln->shared = false;
		ln->nsharers = 0;
		*seen = ln->version;
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

/* A lock's queue length changes at t: account the time at the old one. */
static void queue_changes(struct sim *s, struct lock_st *L, double t)
{
	L->queue_ns_sum += (double)L->n * measured_span(s, L->n_since, t);
	L->n_since = t;
}

/* Core `writer` wrote line li at t: if it holds a lock word, the lock's
 * spinners (queue lock: the queue head, and the pending waiter when the
 * first one took the pending path; ticket lock: every waiter) see their
 * copy invalidated and read it again. */
static void spinners_reread(struct sim *s, unsigned li, unsigned writer, double t)
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
			access_line(s, li, w, t, SOP_READ);
		}
	}
}

/* A data or lock-word access by core c: the access, then the spinners'
 * answer to a write. */
static double touch_line(struct sim *s, unsigned li, unsigned c, double t,
		     enum sim_op_kind kind)
{
	double done = access_line(s, li, c, t, kind);

	if (kind != SOP_READ)
		spinners_reread(s, li, c, done);
	return done;
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
	if (s->nheap && !(t < s->heap[0].t)) {
		heap_push(s, t, c);
		return false;
	}
	*now = t;
	s->events++;
	return true;
}

/* Run core c from its current op at time now until it must wait. */
static void step(struct sim *s, unsigned c, double now)
{
	const struct sim_prog *p = s->p;
	struct core_st *k = &s->cores[c];
	double t = now;

	for (;;) {
		const struct sim_op *op;

		if (k->pc == k->pc_end) {
			k->pc = k->pc0;
			k->iter++;
			if (k->actor) {
				/* a reclaimer: counted apart, then idle for the
				 * CPU share the others take */
				double sh = s->sp->reclaimer_share;
				if (measuring(s))
					s->actor_done++;
				if (sh > 0 && sh < 1)
					t += (t - k->iter_t0) * (1 / sh - 1);
				k->iter_t0 = t;
			} else {
				iteration_done(s, t);
			}
			if (s->stop)
				return;
			if (t > now && !run_on(s, c, &now, t))
				return;
			continue;
		}
		op = &p->ops[k->pc];
		switch (op->kind) {
		case SOP_EVERY: {
			/* One in `period` arrivals at this op, from a random
			 * per-core phase (count arrivals, not iterations, so a
			 * block nested in an unrolled batch folds evenly). */
			uint64_t phase = mix64(s->sp->seed ^ ((uint64_t)c << 32) ^ k->pc);
			uint32_t *cnt = &s->every_cnt[(size_t)c * p->nops + k->pc];
			if ((*cnt)++ == 0)
				*cnt += (uint32_t)(phase % op->period);
			if (op->num) {
				/* num of every period arrivals, evenly */
				uint64_t a = *cnt - 1;
				if ((a + 1) * op->num / op->period == a * op->num / op->period)
					k->pc += op->skip;
			} else if ((*cnt - 1) % op->period)
				k->pc += op->skip;
			k->pc++;
			continue;
		}
		case SOP_LOCAL:
		case SOP_LOCAL_EXP: {
			double f = smt_factor(s, c, t);
			double dt = op->kind == SOP_LOCAL ? op->ns * f
				  : -op->ns * f * log(1.0 - rng_unit(&k->rng));
			if (s->xp) {
				struct sim_explain_lock *e = held_rec(s, c);
				if (e)
					e->ns[SIM_PART_LOCAL] += dt;
			}
			t += dt;
			k->pc++;
			continue;
		}
		default:
			break;
		}
		/* Shared ops are issued in global time order. */
		if (t > now && !run_on(s, c, &now, t))
			return;
		if (op->kind == SOP_READ || op->kind == SOP_WRITE || op->kind == SOP_RMW) {
			t = touch_line(s, line_inst(s, op->target, c), c, t, op->kind);
			k->pc++;
			continue;
		}
		{
			const struct sim_lock_def *ld = &p->locks[op->target];
			struct lock_st *L = &s->locks[s->lock_base[op->target] +
						      scope_index(s, ld->scope, c)];

			int li = (int)(L - s->locks);

			if (op->kind == SOP_LOCK) {
				if (L->holder < 0) {
					L->holder = (int)c;
					t = touch_line(s, L->line, c, t, SOP_RMW);
					L->acq_t = t;
					k->holding = li;
					if (measuring(s)) {
						L->acqs++;
						if (s->xp)
							s->xp->lock[L->tmpl].holds++;
					}
					k->pc++;
					continue;
				}
				k->wait_start = t;
				k->waiting = li;
				if (s->xp && measuring(s)) {
					s->xp->lock[L->tmpl].arrivals++;
					s->xp->lock[L->tmpl].pending += L->kind == LOCK_MODEL_QUEUE && !L->n;
				}
				if (!s->c->passive_waiters) {
					/* qspinlock: the fast path's failed cmpxchg, then
					 * the pending bit (nobody waiting) or xchg_tail;
					 * ticket: the ticket fetch-and-add.  The waiter's
					 * own time is waiting time either way. */
					double ta = touch_line(s, L->line, c, t, SOP_RMW);
					if (L->kind == LOCK_MODEL_QUEUE)
						touch_line(s, L->line, c, ta, SOP_RMW);
					if (s->xp && measuring(s))
						s->xp->lock[L->tmpl].arrival_rmws +=
							L->kind == LOCK_MODEL_QUEUE ? 2 : 1;
				}
				queue_changes(s, L, t);
				if (!L->n)
					L->front_pending = L->kind == LOCK_MODEL_QUEUE;
				L->q[(L->head + L->n++) % s->n] = c;
				smt_waits(s, c);
				return; /* woken by the release */
			}
			/* SOP_UNLOCK: the release store, then the hand-off. */
			t = access_line(s, L->line, c, t, SOP_WRITE);
			L->held_ns += measured_span(s, L->acq_t, t);
			if (k->holding == li)
				k->holding = -1;
			if (L->n) {
				unsigned w = L->q[L->head];
				double h = smt_handoff(s, L, c, w, handoff_ns(s, L, 1 + L->n)),
				       tw = t + h;
				struct line_st *ln = &s->lines[L->line];

				queue_changes(s, L, t);
				L->head = (L->head + 1) % s->n;
				L->n--;
				/* the pending waiter took it; the next is a queued one */
				L->front_pending = false;
				L->holder = (int)w;
				L->acq_t = tw;
				s->cores[w].waiting = -1;
				s->cores[w].holding = li;
				if (measuring(s)) {
					L->acqs++;
					if (s->xp) {
						s->xp->lock[L->tmpl].holds++;
						s->xp->lock[L->tmpl].ns[SIM_PART_HANDOFF] += h;
					}
				}
				/* The lock word moves to the new holder (and, with the
				 * pair prefetcher, a shared copy of its sector mate). */
				ln->version++;
				ln->owner = (int)w;
				ln->shared = false;
				ln->nsharers = 0;
				if (s->xp) {
					ln->own_wait = -1;
					ln->own_hold = li;
				}
				s->seen[(size_t)w * s->nline_inst + L->line] = ln->version;
				prefetch_mate(s, ln, w);
				if (ln->free_at < tw)
					ln->free_at = tw;
				/* The spinners left read the word the new holder
				 * locked: the queue head spinning on lock->val, or
				 * the next waiter, made queue head by the MCS
				 * hand-off (qspinlock.c: arch_mcs_spin_unlock_contended
				 * after set_locked). */
				if (L->kind == LOCK_MODEL_QUEUE)
					spinners_reread(s, L->line, w, tw);
				s->wait_ns += tw - s->cores[w].wait_start;
				smt_resumes(s, w, tw);
				s->cores[w].pc++;
				heap_push(s, tw, w);
			} else {
				L->holder = -1;
			}
			k->pc++;
		}
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
		unsigned n = scope_count(s->sp, p->locks[i].scope);
		struct sim_lock_stat *st = &r->lock[i];
		uint64_t acqs = 0;

		for (unsigned j = 0; j < n; j++) {
			struct lock_st *L = &s->locks[s->lock_base[i] + j];
			double held = L->held_ns;

			if (L->holder >= 0)
				held += measured_span(s, L->acq_t, s->t_end);
			queue_changes(s, L, s->t_end);
			acqs += L->acqs;
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

/* A walk-scoped line's twin: the template of the same name whose scope
 * its walk scope shares instances with (-1: none, or not a walk line). */
static int walk_twin(const struct sim_prog *p, unsigned i)
{
	enum sim_scope sc = p->lines[i].scope, base = walk_base(sc);

	if (base == sc)
		return -1;
	for (unsigned k = 0; k < p->nlines; k++)
		if (p->lines[k].scope == base && !strcmp(p->lines[k].name, p->lines[i].name))
			return (int)k;
	return -1;
}

/* The same for a lock: the lock whose word is on its word's line's twin. */
static int walk_twin_lock(const struct sim_prog *p, unsigned i)
{
	int twin = walk_twin(p, (unsigned)p->locks[i].line);

	if (twin < 0)
		return -1;
	for (unsigned k = 0; k < p->nlocks; k++)
		if (p->locks[k].line == twin)
			return (int)k;
	return -1;
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
	if (!sp->ncores || !sp->nodes || !sp->containers || sp->nodes > sp->ncores) {
		*err = "cores, nodes and containers must be >= 1 and nodes <= cores";
		return -1;
	}
	if (sp->phys_cores && sp->phys_cores < sp->ncores &&
	    (sp->ncores > 2 * sp->phys_cores || sp->phys_cores % sp->nodes)) {
		*err = "SMT: at most two threads per physical core, and physical cores "
		       "a multiple of the nodes";
		return -1;
	}
	if (c->smt_slowdown < 0 || !isfinite(c->smt_slowdown)) {
		*err = "smt_slowdown must be a finite factor >= 0";
		return -1;
	}
	if (!p->nops || sp->iters_per_core == 0) {
		*err = "empty program or zero iterations";
		return -1;
	}
	if (sp->reclaimers && (!p->actor_start || !(sp->reclaimer_share >= 0) ||
			       sp->reclaimer_share > 1)) {
		*err = "reclaimers need a program with an actor part and a share in 0..1";
		return -1;
	}
	s.n = sp->ncores + sp->reclaimers;
	s.cores = xcalloc(s.n, sizeof(*s.cores));
	for (unsigned i = 0; i < s.n; i++) {
		struct core_st *k = &s.cores[i];

		k->memcg = i % sp->containers;
		k->rng = mix64(sp->seed + i) | 1;
		k->waiting = k->holding = -1;
		k->pc_end = p->actor_start ? p->actor_start : p->nops;
		if (i < sp->ncores) {
			smt_place(&s, i); /* siblings share a node: phys is a multiple of the nodes */
			continue;
		}
		/* a reclaimer: a CPU of its own (no sibling), on node j */
		k->actor = true;
		k->pc = k->pc0 = p->actor_start;
		k->pc_end = p->nops;
		k->node = (i - sp->ncores) % sp->nodes;
		k->phys = i;
		k->sibling = -1;
	}
	s.line_base = xcalloc(p->nlines + 1, sizeof(unsigned));
	int *line_alias = xcalloc(p->nlines + 1, sizeof(int));
	for (unsigned i = 0; i < p->nlines; i++) {
		line_alias[i] = walk_twin(p, i);
		if (line_alias[i] >= 0) {
			s.line_base[i] = s.line_base[line_alias[i]];
			continue;
		}
		s.line_base[i] = (unsigned)s.nline_inst;
		s.nline_inst += scope_count(sp, p->lines[i].scope);
	}
	s.lines = xcalloc(s.nline_inst, sizeof(*s.lines));
	for (unsigned i = 0; i < p->nlines; i++) {
		unsigned n = scope_count(sp, p->lines[i].scope);

		if (line_alias[i] >= 0)
			continue; /* the twin's instances */
		for (unsigned j = 0; j < n; j++) {
			struct line_st *ln = &s.lines[s.line_base[i] + j];
			ln->owner = -1;
			ln->lock = -1;
			ln->tmpl = i;
			ln->own_wait = ln->own_hold = ln->share_wait = ln->share_hold = -1;
			/* Mates share the scope, so instance j pairs with j. */
			ln->mate = p->lines[i].mate < 0 ? -1
				 : (int)(s.line_base[p->lines[i].mate] + j);
		}
	}
	s.seen = xcalloc((size_t)s.n * s.nline_inst, sizeof(uint32_t));
	s.lock_base = xcalloc(p->nlocks + 1, sizeof(unsigned));
	int *lock_alias = xcalloc(p->nlocks + 1, sizeof(int));
	for (unsigned i = 0; i < p->nlocks; i++) {
		lock_alias[i] = walk_twin_lock(p, i);
		if (lock_alias[i] >= 0) {
			s.lock_base[i] = s.lock_base[lock_alias[i]];
			continue;
		}
		s.lock_base[i] = (unsigned)nlock_inst;
		nlock_inst += scope_count(sp, p->locks[i].scope);
	}
	s.locks = xcalloc(nlock_inst + 1, sizeof(*s.locks));
	for (unsigned i = 0; i < p->nlocks; i++) {
		unsigned n = scope_count(sp, p->locks[i].scope);

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
	s.heap = xcalloc(s.n + 1, sizeof(*s.heap));
	s.every_cnt = xcalloc((size_t)s.n * p->nops, sizeof(uint32_t));
	s.target = (uint64_t)sp->ncores * sp->iters_per_core;
	s.warm = (uint64_t)(sp->warm_frac * (double)s.target);
	if (s.warm < 1)
		s.warm = 1;
	if (s.warm >= s.target)
		s.warm = s.target - 1;

	for (unsigned i = 0; i < s.n; i++)
		heap_push(&s, 0.0, i);
	while (!s.stop && s.nheap) {
		struct event e = heap_pop(&s);
		s.events++;
		step(&s, e.core, e.t);
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
	free(s.every_cnt);
	free(s.lines);
	free(s.line_base);
	free(s.cores);
	free(s.heap);
	return rc;
}
