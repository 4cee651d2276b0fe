/*
 * sim_prog.c - the simulator's programs (sim.h): templates of lines and
 * locks with their scopes, the op list with its EVERY blocks, and the
 * program's printed form.  The run itself is in sim.c.
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

/* Every op's runs per iteration: the product of num/period over the
 * SOP_EVERY blocks around it.  One pass, the open blocks on a stack:
 * blocks nest, since sim_every_end() closes the innermost one first. */
double *sim_prog_weights(const struct sim_prog *p)
{
	double *w = xcalloc(p->nops + 1, sizeof(*w));
	size_t *end = xcalloc(p->nops + 1, sizeof(*end));
	double *prod = xcalloc(p->nops + 1, sizeof(*prod));
	size_t d = 0;

	for (size_t i = 0; i < p->nops; i++) {
		const struct sim_op *op = &p->ops[i];

		while (d > 0 && end[d - 1] < i)
			d--;
		w[i] = d ? prod[d - 1] : 1;
		if (op->kind == SOP_EVERY) {
			end[d] = i + op->skip;
			prod[d] = w[i] * (op->num ? op->num : 1) / (double)op->period;
			d++;
		}
	}
	free(end);
	free(prod);
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
	double sum = 0, *w = sim_prog_weights(p);

	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i].kind == SOP_LOCAL || p->ops[i].kind == SOP_LOCAL_EXP)
			sum += w[i] * p->ops[i].ns;
	free(w);
	return sum;
}

double sim_prog_shared_ops(const struct sim_prog *p)
{
	size_t end = p->actor_start ? p->actor_start : p->nops;
	double sum = 0, *w = sim_prog_weights(p);

	for (size_t i = 0; i < end; i++)
		if (p->ops[i].kind >= SOP_READ && p->ops[i].kind <= SOP_UNLOCK)
			sum += w[i];
	free(w);
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

/* A walk-scoped line's twin: the template of the same name whose scope
 * its walk scope shares instances with (-1: none, or not a walk line). */
int sim_line_twin(const struct sim_prog *p, unsigned i)
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
int sim_lock_twin(const struct sim_prog *p, unsigned i)
{
	int twin = sim_line_twin(p, (unsigned)p->locks[i].line);

	if (twin < 0)
		return -1;
	for (unsigned k = 0; k < p->nlocks; k++)
		if (p->locks[k].line == twin)
			return (int)k;
	return -1;
}

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

unsigned sim_scope_count(const struct sim_params *sp, enum sim_scope s)
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

const char *sim_params_check(const struct sim_prog *p, const struct sim_costs *c,
			     const struct sim_params *sp)
{
	if (sp->ncores >= 1u << 24 || sp->reclaimers >= (1u << 24) - sp->ncores)
		return "too many cores (the event queue holds fewer than 2^24)";
	if (!sp->ncores || !sp->nodes || !sp->containers || sp->nodes > sp->ncores)
		return "cores, nodes and containers must be >= 1 and nodes <= cores";
	if (sp->phys_cores && sp->phys_cores < sp->ncores &&
	    (sp->ncores > 2 * sp->phys_cores || sp->phys_cores % sp->nodes))
		return "SMT: at most two threads per physical core, and physical cores "
		       "a multiple of the nodes";
	if (c->smt_slowdown < 0 || !isfinite(c->smt_slowdown))
		return "smt_slowdown must be a finite factor >= 0";
	if (!p->nops || sp->iters_per_core == 0)
		return "empty program or zero iterations";
	if (sp->reclaimers && (!p->actor_start || !(sp->reclaimer_share >= 0) ||
			       sp->reclaimer_share > 1))
		return "reclaimers need a program with an actor part and a share in 0..1";
	if (!(c->l2_keep_bytes >= 0) || !isfinite(c->l2_keep_bytes) ||
	    !(p->iter_bytes >= 0) || !isfinite(p->iter_bytes))
		return "l2_keep_bytes and iter_bytes must be finite and >= 0";
	return NULL;
}
