/*
 * access.c - the access sets of the model workloads on a
 * mem_cgroup_per_node block (models/access.h), recorded from the model:
 * the recorder (models/record.h) runs the workload on one worker under
 * the parameters and keeps every distinct access to the worker's block
 * by field, offset in the field, kind and whether an LRU lock was held;
 * here each becomes an element of layout l at the same field.  The
 * paths that make them: model_mod_lruvec_state() (reads lruvec.pgdat,
 * pn->memcg, pn->lruvec_stats_percpu; v5.x: atomic_long_add of
 * lruvec_stat[idx] past stats_batch), update_lru_size() (the plain `+=`
 * of lru_zone_size[ZONE_NORMAL][lru]), lruvec_add_page()/del_page() (the
 * list head), lru_lock() (the lock word, an atomic outside the lock);
 * with lru_gen=on (models/lru_gen.c) lru_gen_add_folio()/del_folio()
 * instead: lrugen.enabled, max_seq and min_seq[] read, the generation's
 * folios[gen][type][zone] head and nr_pages[gen][type][zone] written, and
 * neither lists[] nor lru_zone_size.
 */
#include "models/access.h"
#include "models/kitems.h"
#include "models/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const lru_names[NR_LRU] = {
	"INACTIVE_ANON", "ACTIVE_ANON", "INACTIVE_FILE", "ACTIVE_FILE", "UNEVICTABLE",
};

const struct access_shape *access_shapes_all(void)
{
	static struct access_shape *all;
	const struct model_recorder *r;
	size_t n = 0;

	if (all)
		return all;
	r = model_recorder();
	while (r && r->workload_at(n))
		n++;
	all = xcalloc(n + 1, sizeof(*all));
	for (size_t i = 0; i < n; i++)
		all[i] = (struct access_shape){ r->workload_at(i), "recorded (models/record.h)" };
	return all;
}

const struct access_shape *access_shape_find(const char *workload)
{
	for (const struct access_shape *s = access_shapes; s->workload; s++)
		if (!strcmp(s->workload, workload))
			return s;
	return NULL;
}

struct acc {
	const struct pn_layout *l;
	struct pn_elem *out;
	size_t n, max;
};

static void acc_add(struct acc *a, const char *name, size_t off, size_t size,
		bool write, bool locked, bool lock_word, const char *path)
{
	struct pn_elem *e;

	for (size_t i = 0; i < a->n; i++) /* one entry per distinct access */
		if (a->out[i].off == off && a->out[i].write == write &&
		    a->out[i].locked == locked && a->out[i].lock_word == lock_word)
			return;
	if (a->n == a->max)
		return;
	e = &a->out[a->n++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->off = off;
	e->size = size;
	e->write = write;
	e->locked = locked;
	e->lock_word = lock_word;
	e->path = path;
}

/* The stat item at index idx of the kernel version's table. */
static const char *item_name(const struct model_params *p, size_t idx)
{
	const struct kitems *k = kitems_for(p);

	for (unsigned i = 0; i < NR_STAT_ITEMS; i++)
		if (k->stat[i] == idx)
			return stat_item_names[i];
	return "?";
}

void pn_access_prefetch(const struct model_params *p, const char *const *wls, size_t nw,
			unsigned jobs)
{
	const char *wl[MODEL_REC_CACHED];
	struct model_params ps[MODEL_REC_CACHED];
	size_t n = 0;

	for (const struct access_shape *ws = access_shapes; ws->workload; ws++) {
		bool listed = !nw;

		for (size_t i = 0; i < nw && !listed; i++)
			listed = !strcmp(wls[i], ws->workload);
		/* past what the cache keeps, pn_access_set makes them */
		if (!listed || n == MODEL_REC_CACHED)
			continue;
		wl[n] = ws->workload;
		ps[n++] = *p;
	}
	model_rec_prefetch(wl, ps, n, MODEL_REC_WARMUP, MODEL_REC_OPS, jobs);
}

size_t pn_access_set(const struct pn_layout *l, const struct model_params *p,
		     const struct access_shape *ws, struct pn_elem *out, size_t max)
{
	struct acc a = { l, out, 0, max };
	/* the simulator's window: the same recording */
	const struct model_rec *r = ws ? model_rec_cached(ws->workload, p, MODEL_REC_WARMUP,
							  MODEL_REC_OPS) : NULL;

	if (!r)
		return 0;
	for (unsigned i = 0; i < r->nelems; i++) {
		const struct rec_elem *e = &r->elems[i];
		enum pn_field f = (enum pn_field)e->field;
		bool write = e->kind != REC_READ;
		size_t off, size = l->size[f] < 8 ? l->size[f] : 8;
		char name[64];

		if (!l->present[f])
			continue;
		off = l->off[f] + e->delta;
		switch (f) {
		case PN_LISTS: /* a head's next (+0) or prev (+8) pointer */
			snprintf(name, sizeof(name), "lruvec.lists[%s].%s",
				 lru_names[e->delta / 16 % NR_LRU],
				 e->delta % 16 < 8 ? "next" : "prev");
			off = pn_list_off(l, (unsigned)(e->delta / 16)) + e->delta % 16 / 8 * 8;
			size = 8;
			break;
		case PN_LRU_ZONE_SIZE:
			snprintf(name, sizeof(name), "lru_zone_size[%zu][%s]",
				 e->delta / sizeof(long) / NR_LRU,
				 lru_names[e->delta / sizeof(long) % NR_LRU]);
			off = l->off[f] + e->delta / sizeof(long) * sizeof(long);
			size = sizeof(long);
			break;
		case PN_LRUVEC_STATS:
			snprintf(name, sizeof(name), "lruvec_stat[%s]",
				 item_name(p, e->delta / sizeof(long)));
			off = l->off[f] + e->delta / sizeof(long) * sizeof(long);
			size = sizeof(long);
			break;
		case PN_LRUGEN_FOLIOS: /* MGLRU: a generation list head's next/prev */
		case PN_LRUGEN_NR_PAGES: { /* MGLRU: a generation's size */
			size_t stride = f == PN_LRUGEN_FOLIOS ? 16 : sizeof(long);
			size_t idx = e->delta / stride, z = l->max_nr_zones;

			snprintf(name, sizeof(name), "lruvec.lrugen.%s[%u][%s][%u]%s",
				 f == PN_LRUGEN_FOLIOS ? "folios" : "nr_pages",
				 (unsigned)(idx / (2 * z) % 8), idx / z % 2 ? "FILE" : "ANON",
				 (unsigned)(idx % z % 8),
				 f != PN_LRUGEN_FOLIOS ? "" : e->delta % 16 < 8 ? ".next" : ".prev");
			off = l->off[f] + e->delta / 8 * 8;
			size = 8;
			break;
		}
		case PN_LRUGEN_SEQ:
			snprintf(name, sizeof(name), "lruvec.lrugen.%s", e->delta < 8 ? "max_seq"
				 : e->delta < 16 ? "min_seq[ANON]" : "min_seq[FILE]");
			off = l->off[f] + e->delta / 8 * 8;
			size = 8;
			break;
		case PN_LRU_LOCK:
			snprintf(name, sizeof(name), "lruvec.lru_lock");
			size = l->size[f];
			break;
		default:
			snprintf(name, sizeof(name), "%s", pn_field_name(l, f));
			break;
		}
		acc_add(&a, name, off, size, write, e->locked, f == PN_LRU_LOCK, "recorded");
	}
	return a.n;
}

static bool overlaps(const struct pn_elem *a, const struct pn_elem *b, unsigned unit)
{
	return a->off / unit <= (b->off + b->size - 1) / unit &&
	       b->off / unit <= (a->off + a->size - 1) / unit;
}

/* The holder's accesses a waiter steals: on the lock word's 64 B line
 * anything, in its 128 B sector's other line only writes. */
static size_t lock_sector(const struct pn_elem *e, size_t n, struct pn_conflict *out,
			  size_t k, size_t max)
{
	for (size_t w = 0; w < n; w++) {
		if (!e[w].lock_word)
			continue;
		for (size_t h = 0; h < n && k < max; h++) {
			if (!e[h].locked || e[h].lock_word)
				continue;
			if (overlaps(&e[h], &e[w], 64))
				out[k++] = (struct pn_conflict){ PN_LOCK_SECTOR, 64,
								 e[w].off / 64, e[h], e[w] };
			else if (e[h].write && overlaps(&e[h], &e[w], 128))
				out[k++] = (struct pn_conflict){ PN_LOCK_SECTOR, 128,
								 e[w].off / 128, e[h], e[w] };
		}
	}
	return k;
}

size_t pn_audit(const struct pn_elem *e, size_t n, struct pn_conflict *out,
		size_t max)
{
	static const unsigned units[] = { 64, 128 };
	size_t k = 0;

	for (size_t u = 0; u < 2; u++)
		for (size_t r = 0; r < n; r++) {
			if (e[r].write || e[r].locked)
				continue;
			for (size_t w = 0; w < n; w++) {
				size_t r0, r1, w0, w1;

				if (!e[w].write)
					continue;
				r0 = e[r].off / units[u];
				r1 = (e[r].off + e[r].size - 1) / units[u];
				w0 = e[w].off / units[u];
				w1 = (e[w].off + e[w].size - 1) / units[u];
				if (r0 > w1 || w0 > r1 || k == max)
					continue;
				out[k++] = (struct pn_conflict){ PN_READ_WRITE, units[u],
								 r0 > w0 ? r0 : w0, e[r], e[w] };
			}
		}
	return lock_sector(e, n, out, k, max);
}
