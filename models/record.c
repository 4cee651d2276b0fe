/*
 * record.c - the access recorder (models/record.h): places each address
 * the model's hot paths report in the object it belongs to (a memcg at
 * its level above the worker's leaf, its vmstats, its per-node block and
 * lruvec stats, a node, the model's global flush fields) and counts the
 * access by 64 B line, kind and lock.
 */
#include "models/record.h"
#include "models/memcg_types.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const rec_kind_names[REC_NKIND] = { "read", "write", "atomic" };

REGISTRY_BOUNDS(model_recorder);

const struct model_recorder *model_recorder(void)
{
	REGISTRY_FOREACH(model_recorder, const struct model_recorder *, r)
		return r;
	return NULL;
}

/*
 * The recordings kept: a table any thread may look up.  A recording is
 * made outside the table's lock, into a spare (the memory of a recording
 * the table let go), several at once on several threads (the recorder
 * keeps its per-recording state on the thread: mwl_params_override);
 * one being made is listed in `making`, and a thread that wants the same
 * one waits for it.  Done, it takes the slot used least recently (found
 * or filled), whose recording becomes a spare, to be written by a later
 * one: so the last MODEL_REC_CACHED recordings asked for stay, whether
 * made now or found from before (predict.c's pool relies on it).
 */
struct rec_key {
	char wl[64];
	struct model_params p;
	uint64_t warmup, ops;
};
static struct {
	struct rec_key k;
	struct model_rec *r;
	uint64_t used;         /* cache_clock when last found or filled */
} cache[MODEL_REC_CACHED];
static uint64_t cache_clock;
static uint64_t cache_nmade;   /* recordings the recorder ran here */
static struct rec_key making[MODEL_REC_CACHED];
static bool making_on[MODEL_REC_CACHED];
static struct model_rec *spares[2 * MODEL_REC_CACHED]; /* at most: kept + made at once */
static unsigned nspares;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cache_made = PTHREAD_COND_INITIALIZER; /* one finished */

static bool key_is(const struct rec_key *k, const char *workload, const struct model_params *p,
		   uint64_t warmup, uint64_t ops)
{
	return !strcmp(k->wl, workload) && k->ops == ops && k->warmup == warmup &&
	       model_params_equal(&k->p, p);
}

/* Under cache_lock: the kept recording (now the most recently used),
 * or NULL. */
static struct model_rec *cache_find(const char *workload, const struct model_params *p,
				    uint64_t warmup, uint64_t ops)
{
	for (unsigned i = 0; i < ARRAY_SIZE(cache); i++)
		if (cache[i].r && key_is(&cache[i].k, workload, p, warmup, ops)) {
			cache[i].used = ++cache_clock;
			return cache[i].r;
		}
	return NULL;
}

/* Under cache_lock: the slot to fill, an empty one or the least
 * recently used. */
static unsigned cache_victim(void)
{
	unsigned v = 0;

	for (unsigned i = 0; i < ARRAY_SIZE(cache); i++) {
		if (!cache[i].r)
			return i;
		if (cache[i].used < cache[v].used)
			v = i;
	}
	return v;
}

/* Under cache_lock: the `making` slot of that recording, or -1. */
static int making_find(const char *workload, const struct model_params *p, uint64_t warmup,
		       uint64_t ops)
{
	for (unsigned i = 0; i < ARRAY_SIZE(making); i++)
		if (making_on[i] && key_is(&making[i], workload, p, warmup, ops))
			return (int)i;
	return -1;
}

/* Under cache_lock: a free `making` slot, or -1. */
static int making_free(void)
{
	for (unsigned i = 0; i < ARRAY_SIZE(making); i++)
		if (!making_on[i])
			return (int)i;
	return -1;
}

const struct model_rec *model_rec_cached(const char *workload, const struct model_params *p,
					 uint64_t warmup, uint64_t ops)
{
	const struct model_recorder *rc = model_recorder();
	struct model_rec *r, *spare;
	int m;
	bool ok;

	pthread_mutex_lock(&cache_lock);
	/* kept, or being made by another thread, or no room to make it:
	 * wait for a recording to finish */
	while (!(r = cache_find(workload, p, warmup, ops)) &&
	       (making_find(workload, p, warmup, ops) >= 0 || making_free() < 0))
		pthread_cond_wait(&cache_made, &cache_lock);
	if (r || !rc || !rc->known(workload)) {
		pthread_mutex_unlock(&cache_lock);
		return r;
	}
	m = making_free();
	making_on[m] = true;
	snprintf(making[m].wl, sizeof(making[m].wl), "%s", workload);
	making[m].p = *p;
	making[m].warmup = warmup;
	making[m].ops = ops;
	spare = nspares ? spares[--nspares] : NULL;
	pthread_mutex_unlock(&cache_lock);

	if (!spare)
		spare = xcalloc(1, sizeof(*spare));
	ok = !rc->record(workload, p, warmup, ops, spare);

	pthread_mutex_lock(&cache_lock);
	making_on[m] = false;
	cache_nmade++;
	if (ok) {
		unsigned i = cache_victim();

		if (cache[i].r)
			spares[nspares++] = cache[i].r;
		cache[i].r = spare;
		cache[i].k = making[m];
		cache[i].used = ++cache_clock;
		r = spare;
	} else {
		spares[nspares++] = spare;
	}
	pthread_cond_broadcast(&cache_made);
	pthread_mutex_unlock(&cache_lock);
	return r;
}

uint64_t model_rec_made(void)
{
	uint64_t n;

	pthread_mutex_lock(&cache_lock);
	n = cache_nmade;
	pthread_mutex_unlock(&cache_lock);
	return n;
}

struct prefetch {
	const char *const *wl;
	const struct model_params *p;
	size_t n;
	uint64_t warmup, ops;
	size_t next; /* atomic: the next pair to record */
};

static void *prefetch_worker(void *arg)
{
	struct prefetch *f = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&f->next, 1, __ATOMIC_RELAXED)) < f->n)
		model_rec_cached(f->wl[i], &f->p[i], f->warmup, f->ops);
	return NULL;
}

void model_rec_prefetch(const char *const *wl, const struct model_params *p, size_t n,
			uint64_t warmup, uint64_t ops, unsigned jobs)
{
	struct prefetch f = { .wl = wl, .p = p, .n = n, .warmup = warmup, .ops = ops };
	pthread_t tid[MODEL_REC_CACHED];
	unsigned nt = 0;

	if (!n)
		return;
	/* the first on this thread: what the recorder sets up once per
	 * process (registries, profiles) is set up before the others run */
	f.next = 1;
	model_rec_cached(wl[0], &p[0], warmup, ops);
	if (jobs > ARRAY_SIZE(tid))
		jobs = ARRAY_SIZE(tid);
	while (nt + 1 < jobs && nt + 1 < n && !pthread_create(&tid[nt], NULL, prefetch_worker, &f))
		nt++;
	prefetch_worker(&f);
	for (unsigned i = 0; i < nt; i++)
		pthread_join(tid[i], NULL);
}

bool model_params_equal(const struct model_params *a, const struct model_params *b)
{
	return a->layout == b->layout && a->kconfig.bits == b->kconfig.bits &&
	       !strcmp(a->layout_file, b->layout_file) && a->stats == b->stats &&
	       a->lru_lock == b->lru_lock && a->page_work == b->page_work &&
	       a->stats_batch == b->stats_batch && a->charge_batch == b->charge_batch &&
	       a->lru_batch == b->lru_batch && a->containers == b->containers &&
	       a->pcp_batch == b->pcp_batch && a->pcp_high == b->pcp_high &&
	       a->pcp_scale == b->pcp_scale &&
	       a->depth == b->depth && a->nodes == b->nodes && a->flush_ms == b->flush_ms &&
	       a->lru_gen == b->lru_gen && a->pc_layout == b->pc_layout &&
	       a->mc_layout == b->mc_layout &&
	       a->mm_shared == b->mm_shared && a->bench_window == b->bench_window;
}

void model_rec_reset(struct model_rec *r)
{
	if (r->actor)
		model_rec_reset(r->actor);
	memset(r->holds, 0, sizeof(r->holds));
	memset(r->n, 0, sizeof(r->n));
	memset(r->warm, 0, sizeof(r->warm));
	memset(r->local, 0, sizeof(r->local));
	memset(r->local_in, 0, sizeof(r->local_in));
	r->ops = 0;
	r->unknown = 0;
	r->npcpu = 0;
	r->nelems = 0;
	memset(r->elem_seen, 0, sizeof(r->elem_seen));
}

/* Zeroes r, keeping its page-run table (zeroed). */
static void rec_zero(struct model_rec *r)
{
	uint64_t *run = r->pg_run;
	size_t nrun = r->pg_nrun;

	memset(r, 0, sizeof(*r));
	r->held = -1;
	if (run)
		memset(run, 0, nrun * sizeof(*run));
	r->pg_run = run;
	r->pg_nrun = nrun;
}

void model_rec_clear(struct model_rec *r)
{
	struct model_rec *a = r->actor;

	rec_zero(r);
	r->actor = a;
	if (a)
		rec_zero(a);
}

static bool in(const void *a, const void *base, size_t len, size_t *off)
{
	const char *p = a, *b = base;

	if (!b || p < b || p >= b + len)
		return false;
	*off = (size_t)(p - b);
	return true;
}

/* Levels above the worker's leaf: 0 the leaf (one per container), the
 * ancestors shared by every container. */
static unsigned level_of(const struct model *m, const struct mcg *memcg)
{
	const struct mcg *leaf = m->workers[0]->memcg;

	return leaf->level >= memcg->level ? leaf->level - memcg->level : 0;
}

/* Object and offset of addr; false for memory of this CPU alone (its
 * per-CPU chunk, its pages, its worker state) or unknown memory. */
static bool place(const struct model *m, const void *addr, char *obj, size_t len,
		  size_t *off, enum rec_scope *scope, bool *known)
{
	*known = true;
	for (unsigned i = 0; i < m->nmemcg; i++) {
		const struct mcg *mc = &m->memcgs[i];
		unsigned L = level_of(m, mc);

		if (in(addr, mc, sizeof(*mc), off)) {
			snprintf(obj, len, "memcg[L%u]", L);
			*scope = L ? RS_GLOBAL : RS_MEMCG;
			return true;
		}
		if (in(addr, mcg_vmstats(m, mc), sizeof(struct mcg_vmstats), off)) {
			snprintf(obj, len, "vmstats[L%u]", L);
			*scope = L ? RS_GLOBAL : RS_MEMCG;
			return true;
		}
		for (unsigned n = 0; n < m->p.nodes; n++) {
			char *pn = mc->nodeinfo[n];
			if (in(addr, pn, m->lay.sizeof_pn, off)) {
				snprintf(obj, len, "pn[L%u]", L);
				*scope = L ? RS_NODE : RS_MEMCG_NODE;
				return true;
			}
			if (!m->lay.stats_embedded &&
			    in(addr, pn_lruvec_stats(m, pn), K_LRUVEC_STATS_SIZE, off)) {
				snprintf(obj, len, "lruvec_stats[L%u]", L);
				*scope = L ? RS_NODE : RS_MEMCG_NODE;
				return true;
			}
		}
	}
	if (in(addr, m->zones, m->p.nodes * sizeof(*m->zones), off)) {
		*off %= sizeof(*m->zones);
		snprintf(obj, len, "zone"); /* ZONE_NORMAL of the node */
		*scope = RS_NODE;
		return true;
	}
	if (in(addr, m->nodes, m->p.nodes * sizeof(*m->nodes), off)) {
		*off %= sizeof(*m->nodes);
		snprintf(obj, len, "pgdat");
		*scope = RS_NODE;
		return true;
	}
	if (m->mm && in(addr, m->mm, sizeof(*m->mm), off)) {
		snprintf(obj, len, "mm"); /* one per process: per container */
		*scope = RS_MEMCG;
		return true;
	}
	if (in(addr, m, sizeof(*m), off)) {
		snprintf(obj, len, "memscale_model");
		*scope = RS_GLOBAL;
		return true;
	}
	if (in(addr, m->pcpu_chunk0, m->pcpu_size, off) ||
	    in(addr, m->pages, (size_t)m->npages * sizeof(*m->pages), off))
		return false; /* this CPU's per-CPU data, its own pages */
	*known = false;
	return false;
}

int model_rec_line_of(struct model_rec *r, const char *obj, size_t off, enum rec_scope scope)
{
	for (unsigned l = 0; l < r->nlines; l++)
		if (r->lines[l].off == off && r->lines[l].scope == scope &&
		    !strcmp(r->lines[l].obj, obj))
			return (int)l;
	if (r->nlines == REC_MAX_LINES)
		return -1;
	snprintf(r->lines[r->nlines].obj, sizeof(r->lines[r->nlines].obj), "%s", obj);
	r->lines[r->nlines].off = off;
	r->lines[r->nlines].scope = scope;
	return (int)r->nlines++;
}

int model_rec_lock_of(struct model_rec *r, unsigned l)
{
	for (unsigned i = 0; i < r->nlocks; i++)
		if (r->lock_line[i] == l)
			return (int)i;
	if (r->nlocks == REC_MAX_LOCKS)
		return -1;
	r->lock_line[r->nlocks] = l;
	return (int)r->nlocks++;
}

static int line_index(const struct model *m, const void *addr)
{
	struct model_rec *r = m->rec;
	uintptr_t a = (uintptr_t)addr >> 6;
	unsigned h = (unsigned)(a ^ (a >> 8)) & 255;
	char obj[32];
	size_t off;
	enum rec_scope scope;
	bool known;
	int l;

	uintptr_t key = a + 1 + ((uintptr_t)r->walk << 62); /* a < 2^58 */

	if (r->cache_addr[h] == key)
		return r->cache_line[h];
	if (!place(m, addr, obj, sizeof(obj), &off, &scope, &known)) {
		if (!known) {
			r->unknown++;
			return -1;
		}
		l = -1;
		goto out;
	}
	if (r->walk && scope == RS_MEMCG)
		scope = RS_MEMCG_WALK;
	else if (r->walk && scope == RS_MEMCG_NODE)
		scope = RS_MEMCG_NODE_WALK;
	off -= off % 64;
	l = model_rec_line_of(r, obj, off, scope);
	if (l < 0) {
		r->unknown++;
		return -1;
	}
out:
	/* Objects start on 64 B boundaries (arena, cacheline_aligned), so
	 * one 64 B address range is one line of one object. */
	r->cache_addr[h] = key;
	r->cache_line[h] = l;
	return l;
}

/* An access to the worker's own block: one element per (field, offset,
 * kind, lock or not). */
static void elem(const struct model *m, const void *addr, enum rec_kind k, bool locked)
{
	struct model_rec *r = m->rec;
	size_t off;
	uint8_t bit = (uint8_t)(1u << (2 * k + locked));
	bool indexed;

	if (!in(addr, m->workers[0]->memcg->nodeinfo[0], m->lay.sizeof_pn, &off))
		return;
	/* the field is a function of the offset: an offset seen with this
	 * kind and lock state is in elems already */
	indexed = off < sizeof(r->elem_seen);
	if (indexed && (r->elem_seen[off] & bit))
		return;
	for (int f = 0; f < PN_NR_FIELDS; f++) {
		size_t sz = m->lay.size[f] ? m->lay.size[f] : 1;

		if (!m->lay.present[f] || off < m->lay.off[f] || off >= m->lay.off[f] + sz)
			continue;
		for (unsigned i = 0; i < r->nelems && !indexed; i++)
			if (r->elems[i].field == f && r->elems[i].delta == off - m->lay.off[f] &&
			    r->elems[i].kind == k && r->elems[i].locked == locked)
				return;
		if (r->nelems < ARRAY_SIZE(r->elems)) {
			r->elems[r->nelems++] = (struct rec_elem){ f, off - m->lay.off[f], k,
								   locked };
			if (indexed)
				r->elem_seen[off] |= bit;
		}
		return;
	}
}

/* One access of kind k to recorded line l, where the recorder is now. */
static void count(struct model_rec *r, int l, enum rec_kind k)
{
	r->n[l][k][r->held + 1]++;
	if (k != REC_READ)
		r->wrote_in[l] = r->stretch + 1; /* +1: 0 is never written */
	else if (r->wrote_in[l] == r->stretch + 1)
		r->warm[l][r->held + 1]++;
}

void model_rec_access(const struct model *m, const void *addr, enum rec_kind k)
{
	struct model_rec *r = m->rec;
	int l;

	if (r->paused)
		return;
	elem(m, addr, k, r->held >= 0);
	l = line_index(m, addr);
	if (l >= 0)
		count(r, l, k);
}

/* The slot of page pg in r's page-run table (grown to the model's
 * pages), or NULL for memory that is not one of the model's pages. */
static uint64_t *page_run(const struct model *m, struct model_rec *r, const void *pg)
{
	size_t off;

	if (!pg || !in(pg, m->pages, (size_t)m->npages * sizeof(*m->pages), &off))
		return NULL;
	if (r->pg_nrun < m->npages) {
		free(r->pg_run);
		r->pg_nrun = m->npages;
		r->pg_run = xcalloc(r->pg_nrun, sizeof(*r->pg_run));
	}
	return &r->pg_run[off / sizeof(*m->pages)];
}

void model_rec_nbr(const struct model *m, const void *pn, const void *pg, const void *nbr,
		   enum rec_nbr which)
{
	struct model_rec *r = m->rec;
	uint64_t *own, *other, run;
	char obj[29], name[32]; /* "pn[Ln]" fits; "folio[Ln]" is 3 longer */
	size_t off;
	enum rec_scope scope;
	bool known;
	int l;

	if (r->paused)
		return;
	own = page_run(m, r, pg);
	if (!own)
		return;
	run = *own;
	if (which == NBR_ADD)
		run = *own = r->stretch + 1; /* pg joins this section's run */
	other = page_run(m, r, nbr);
	if (!other || (*other && *other == run))
		return; /* the head (recorded apart), or pg's own run: hot */
	if (!place(m, pn, obj, sizeof(obj), &off, &scope, &known) || strncmp(obj, "pn", 2))
		return;
	if (r->walk && scope == RS_MEMCG_NODE)
		scope = RS_MEMCG_NODE_WALK;
	snprintf(name, sizeof(name), "folio%s", obj + 2); /* folio[Ln] */
	l = model_rec_line_of(r, name, 128 * (size_t)which, scope);
	if (l < 0) {
		r->unknown++;
		return;
	}
	count(r, l, REC_WRITE);
}

void model_rec_lock(const struct model *m, const void *lock)
{
	struct model_rec *r = m->rec;
	int l, i;

	if (!r || r->paused)
		return;
	elem(m, lock, REC_RMW, false); /* every acquirer writes the word */
	l = line_index(m, lock);
	if (l < 0)
		return;
	i = model_rec_lock_of(r, (unsigned)l);
	if (i < 0) {
		r->unknown++;
		return;
	}
	r->held = i;
	r->holds[i]++;
	r->stretch++;
}

void model_rec_unlock(const struct model *m)
{
	if (m->rec && !m->rec->paused) {
		m->rec->held = -1;
		m->rec->stretch++;
	}
}

void model_rec_pcpu(const struct model *m, const void *addr)
{
	struct model_rec *r = m->rec;
	uintptr_t line = (uintptr_t)addr / 64;
	uint16_t where = (uint16_t)(r->held >= 0 ? 2u << r->held : 1u);
	unsigned i;

	if (r->paused)
		return;
	for (i = 0; i < r->npcpu && r->pcpu_line[i] != line; i++)
		;
	if (i == REC_MAX_PCPU) {
		r->unknown++;
		return;
	}
	if (i == r->npcpu) {
		r->pcpu_line[r->npcpu++] = line;
		r->pcpu_where[i] = 0;
	}
	r->pcpu_where[i] |= where;
}

void model_rec_local(const struct model *m, enum rec_local l)
{
	struct model_rec *r = m->rec;

	if (r->paused)
		return;
	r->local[l]++;
	if (r->held >= 0)
		r->local_in[r->held][l]++;
}
