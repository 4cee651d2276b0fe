/*
 * access.c - the access sets of the model's hot paths (models/access.h).
 * Each declaration names the model function whose accesses it states;
 * when that function changes what it touches, its declaration here
 * changes with it.
 *
 *   model_mod_lruvec_state()  (__mod_lruvec_state, memcg.c)
 *       reads lruvec.pgdat (mem_cgroup_lruvec), pn->memcg (lruvec_memcg),
 *       pn->lruvec_stats_percpu (the per-CPU add); with stats=v5.10_atomic
 *       and the per-node atomics inside the block (v5.x lruvec_stat[]),
 *       atomic_long_add of lruvec_stat[idx] when the per-CPU delta
 *       passes stats_batch (outside the lock for unlocked callers)
 *   model_update_lru_size()   (update_lru_size, lru.c)
 *       the above for NR_LRU_BASE + lru, and the plain `+=` of
 *       lru_zone_size[ZONE_NORMAL][lru], under the LRU lock
 *   lruvec_add_page() / lruvec_del_page()  (lru.c)
 *       list_add / list_del on lists[lru]: the head is written (list_add
 *       always, list_del when the page is first or last), under the lock
 *   relock() -> lru_lock()    (lru.c)
 *       the lock word: an atomic read-modify-write by every acquirer,
 *       outside the lock (only with lru_lock=lruvec: pgdat's lock is not
 *       in the block)
 */
#include "models/access.h"
#include "models/kitems.h"

#include <stdio.h>
#include <string.h>

static const char *const lru_names[NR_LRU] = {
	"INACTIVE_ANON", "ACTIVE_ANON", "INACTIVE_FILE", "ACTIVE_FILE", "UNEVICTABLE",
};

const struct access_shape access_shapes[] = {
	/* mwl_fault_anon + mwl_unmap_anon */
	{ "page_fault1", "mwl_fault_anon/mwl_unmap_anon", { NR_ANON_MAPPED }, 1, true, LRU_INACTIVE_ANON },
	{ "page_fault2", "mwl_fault_anon/mwl_unmap_anon", { NR_ANON_MAPPED }, 1, true, LRU_INACTIVE_ANON },
	{ "malloc1", "mwl_fault_anon/mwl_unmap_anon", { NR_ANON_MAPPED }, 1, true, LRU_INACTIVE_ANON },
	{ "tlb_flush2", "mwl_fault_anon/mwl_unmap_anon", { NR_ANON_MAPPED }, 1, true, LRU_INACTIVE_ANON },
	/* mwl_shmem_add + mwl_shmem_truncate (shmem folios are swap-backed) */
	{ "fallocate1", "mwl_shmem_add/mwl_shmem_truncate", { NR_FILE_PAGES, NR_SHMEM }, 2, true, LRU_INACTIVE_ANON },
	{ "fallocate2", "mwl_shmem_add/mwl_shmem_truncate", { NR_FILE_PAGES, NR_SHMEM }, 2, true, LRU_INACTIVE_ANON },
	{ "lru_shm", "wl_lru_shm.c lru_shm_op", { NR_FILE_PAGES, NR_SHMEM, NR_FILE_MAPPED }, 3, true, LRU_INACTIVE_ANON },
	/* page_fault3: the file's pages stay in the page cache: no LRU traffic */
	{ "page_fault3", "wl_page_fault3.c", { NR_FILE_MAPPED }, 1, false, 0 },
	{ NULL, NULL, { 0 }, 0, false, 0 },
};

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

static void add(struct acc *a, const char *name, size_t off, size_t size,
		bool write, bool locked, const char *path)
{
	struct pn_elem *e;

	for (size_t i = 0; i < a->n; i++) /* one entry per distinct access */
		if (a->out[i].off == off && a->out[i].write == write &&
		    a->out[i].locked == locked)
			return;
	if (a->n == a->max)
		return;
	e = &a->out[a->n++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->off = off;
	e->size = size;
	e->write = write;
	e->locked = locked;
	e->path = path;
}

static void field(struct acc *a, enum pn_field f, bool write, bool locked,
		  const char *path)
{
	if (a->l->present[f])
		add(a, pn_field_name(a->l, f), a->l->off[f], a->l->size[f] < 8 ? a->l->size[f] : 8,
		    write, locked, path);
}

/* model_mod_lruvec_state() */
static void mod_lruvec_state(struct acc *a, const struct model_params *p,
			     enum stat_item idx, bool locked)
{
	const char *path = "model_mod_lruvec_state";

	field(a, PN_PGDAT, false, locked, path);
	field(a, PN_MEMCG, false, locked, path);
	field(a, PN_STATS_PERCPU, false, locked, path);
	if (p->stats == STATS_V510_ATOMIC && a->l->stats_embedded &&
	    a->l->id < LAYOUT_V69) {
		char name[64];
		snprintf(name, sizeof(name), "lruvec_stat[%s]", stat_item_names[idx]);
		/* atomic_long_add: a write whoever holds the lock */
		add(a, name, a->l->off[PN_LRUVEC_STATS] + kitems_for(p)->stat[idx] * sizeof(long),
		    sizeof(long), true, false, path);
	}
}

/* lruvec_add_page() / lruvec_del_page() -> model_update_lru_size() */
static void lru_move(struct acc *a, const struct model_params *p, enum lru_list lru)
{
	char name[64];

	snprintf(name, sizeof(name), "lruvec.lists[%s]", lru_names[lru]);
	add(a, name, pn_list_off(a->l, lru), 16, true, true, "lruvec_add_page/lruvec_del_page");
	snprintf(name, sizeof(name), "lru_zone_size[%u][%s]", a->l->zone_normal, lru_names[lru]);
	add(a, name, pn_zone_size_off(a->l, a->l->zone_normal, lru), sizeof(long), true,
	    true, "model_update_lru_size");
	mod_lruvec_state(a, p, (enum stat_item)(NR_LRU_BASE + lru), true);
	if (p->lru_lock == LRU_LOCK_LRUVEC && a->l->present[PN_LRU_LOCK])
		add(a, "lruvec.lru_lock", a->l->off[PN_LRU_LOCK], a->l->size[PN_LRU_LOCK],
		    true, false, "relock/lru_lock");
}

size_t pn_access_set(const struct pn_layout *l, const struct model_params *p,
		     const struct access_shape *ws, struct pn_elem *out, size_t max)
{
	struct acc a = { l, out, 0, max };

	for (unsigned i = 0; i < ws->nunlocked; i++)
		mod_lruvec_state(&a, p, ws->unlocked[i], false);
	if (ws->lru)
		lru_move(&a, p, ws->lru_list);
	return a.n;
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
				out[k++] = (struct pn_conflict){ units[u], r0 > w0 ? r0 : w0,
								 e[r], e[w] };
			}
		}
	return k;
}
