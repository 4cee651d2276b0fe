/*
 * lru_gen.c - the multi-gen LRU enabled at run time (knob lru_gen=on,
 * which needs CONFIG_LRU_GEN), after include/linux/mm_inline.h and
 * mm/vmscan.c as of v6.8 (lru_gen_add_folio()'s placement after Yu Zhao's
 * "mm/mglru: fix underprotected page cache", 2023-12, the v6.8 rule):
 *
 *  - lru_gen_init_lruvec(): max_seq = MIN_NR_GENS + 1, min_seq[] = 0,
 *    every folios[gen][type][zone] list empty, enabled = lru_gen_enabled()
 *    (in models/memcg.c's lruvec set-up, as lruvec_init() calls it);
 *  - folio_add_lru(): a folio added inside a fault (lru_gen_in_fault())
 *    is made active first;
 *  - lruvec_add_folio() -> lru_gen_add_folio(): reads lrugen->enabled
 *    (in every CONFIG_LRU_GEN build, so also here with lru_gen=off), then
 *    picks the generation from max_seq (active: youngest; anon not in
 *    swap cache: max_seq - 1) or min_seq[type] (file: the oldest, or the
 *    second oldest when there are more than MIN_NR_GENS + 1), stores it
 *    in the folio's flags, clears PG_active, lru_gen_update_size() (the
 *    WRITE_ONCE of nr_pages[gen][type][zone] and __update_lru_size(): the
 *    lruvec stat of the inactive or active list lru_gen_is_active()
 *    names, from max_seq) and list_add on folios[gen][type][zone];
 *  - lruvec_del_folio() -> lru_gen_del_folio(): the same size update
 *    with the old generation, list_del;
 *  - never mem_cgroup_update_lru_size() (lru_zone_size) nor lists[]:
 *    __update_lru_size() is the part of update_lru_size() without it;
 *  - folio_mark_accessed() -> folio_inc_refs(): the folio's flags only,
 *    no LRU move (models/lru.c model_activate returns);
 *  - eviction (evict_folios -> isolate_folios -> scan_folios): under the
 *    LRU lock, folios off the tail of the oldest generation's list of
 *    one type; when that generation is empty and more than MIN_NR_GENS
 *    remain, min_seq[type] moves on (try_to_inc_min_seq).
 * Not modelled: aging (inc_max_seq, the page-table walk of
 * lru_gen_mm_state), tiers and the refault PID controller, sort_folio()'s
 * promotions, the memcg LRU (lru_gen_memcg): the model's workloads never
 * run out of generations (their folios are freed or evicted from the
 * oldest one), so max_seq stays at its initial value.
 */
#include "models/lru_gen.h"

#include <stdio.h>
#include <string.h>

#include "models/internal.h"
#include "models/memcg.h"

/* The folio's generation + 1 in its flags (0: not on an MGLRU list),
 * as LRU_GEN_MASK holds it in folio->flags. */
#define PG_GEN_SHIFT 8
#define PG_GEN_MASK (7u << PG_GEN_SHIFT)

static const struct knob_value lru_gen_values[] = {
	{ "off", "classic two-list LRU (lists[], lru_zone_size); the default of every kernel profile" },
	{ "on", "multi-gen LRU enabled at run time (/sys/kernel/mm/lru_gen/enabled): "
		"lrugen.folios[gen][type][zone] and nr_pages[][][] (needs CONFIG_LRU_GEN)" },
	{ NULL, NULL },
};
const struct knob knob_lru_gen = {
	.name = "lru_gen", .owner = "model", .type = KNOB_ENUM, .def = "off",
	.values = lru_gen_values,
	.help = "MGLRU enabled at run time (on needs a kconfig with LRU_GEN, e.g. ubuntu-6.8)",
};
REGISTER(knob, knob_lru_gen);

int model_lru_gen_check(const struct model_params *p, char *why, size_t len)
{
	struct pn_layout l;
	char kc[160];

	if (!p->lru_gen)
		return 0;
	if (model_resolve_layout(&l, p, 4, why, len))
		return -1;
	if (l.present[PN_LRUGEN_FOLIOS])
		return 0;
	if (p->layout == LAYOUT_BTF || p->layout == LAYOUT_PAHOLE)
		snprintf(why, len, "the layout read from %s has no lruvec.lrugen members "
			 "(a kernel without CONFIG_LRU_GEN, or a reader that does not "
			 "place them)", p->layout_file);
	else if (!l.present[PN_LRUGEN])
		snprintf(why, len, "%s", kconfig_has(p->kconfig, KC_LRU_GEN)
			 ? "layout has no lruvec.lrugen: MGLRU came with v6.1"
			 : "needs a configuration with CONFIG_LRU_GEN (e.g. "
			   "kconfig=ubuntu-6.8); this one has LRU_GEN=n");
	else
		snprintf(why, len, "internal error: lrugen without its members under %s",
			 kconfig_str(p->kconfig, kc, sizeof(kc)));
	return -1;
}

void model_lru_gen_on_add(struct model_worker *mw, struct mpage *pg)
{
	if (mw->m->p.lru_gen && mw->lru_gen_in_fault)
		__atomic_fetch_or(&pg->flags, PG_ACTIVE, __ATOMIC_RELAXED);
}

static unsigned long read_seq(const struct model *m, char *pn, unsigned i)
{
	unsigned long *s = pn_lrugen_seq(m, pn) + i;

	MODEL_REC(m, s, REC_READ);
	return *s;
}

static bool gen_is_active(const struct model *m, char *pn, unsigned gen)
{
	unsigned long max_seq = read_seq(m, pn, 0);

	return gen == max_seq % PN_MAX_NR_GENS || gen == (max_seq - 1) % PN_MAX_NR_GENS;
}

/* lru_gen_update_size() for an addition (old < 0) or a deletion (new < 0). */
static void update_size(struct model_worker *mw, char *pn, struct mpage *pg,
			unsigned type, int old_gen, int new_gen)
{
	const struct model *m = mw->m;
	int gen = old_gen >= 0 ? old_gen : new_gen;
	long *nr = (long *)(pn + pn_gen_size_off(&m->lay, (unsigned)gen, type, m->lay.zone_normal));
	long delta = old_gen >= 0 ? -1 : 1;
	enum lru_list lru = (enum lru_list)(type * LRU_INACTIVE_FILE);

	MODEL_REC(m, nr, REC_WRITE); /* WRITE_ONCE(nr_pages[gen][type][zone], ... + delta) */
	__atomic_store_n(nr, __atomic_load_n(nr, __ATOMIC_RELAXED) + delta, __ATOMIC_RELAXED);
	if (gen_is_active(m, pn, (unsigned)gen))
		lru = (enum lru_list)(lru + 1);
	/* __update_lru_size(): the lruvec stat, no lru_zone_size */
	model_mod_lruvec_state(mw, pg->memcg, pg->nid, (enum stat_item)(NR_LRU_BASE + lru), delta);
}

bool model_lru_gen_add(struct model_worker *mw, char *pn, struct mpage *pg)
{
	const struct model *m = mw->m;
	bool *enabled;
	unsigned f, type, gen;
	unsigned long seq;
	struct list_head *head;

	if (!m->lay.present[PN_LRUGEN_FOLIOS])
		return false;
	enabled = (bool *)PN_AT(m, pn, PN_LRUGEN_ENABLED);
	MODEL_REC(m, enabled, REC_READ);
	if (!*enabled)
		return false;
	f = __atomic_load_n(&pg->flags, __ATOMIC_RELAXED);
	type = f & PG_SWAPBACKED ? 0 : 1; /* folio_is_file_lru() */
	if (f & PG_ACTIVE) {
		seq = read_seq(m, pn, 0);
	} else if (type == 0) {
		seq = read_seq(m, pn, 0) - 1; /* anon, never in the swap cache here */
	} else {
		unsigned long min_seq = read_seq(m, pn, 1 + type);
		seq = min_seq + MIN_NR_GENS >= read_seq(m, pn, 0) ? min_seq : min_seq + 1;
	}
	gen = (unsigned)(seq % PN_MAX_NR_GENS);
	/* set_mask_bits(&folio->flags, LRU_GEN_MASK | BIT(PG_active), gen + 1) */
	__atomic_store_n(&pg->flags, (f & ~(PG_GEN_MASK | PG_ACTIVE)) | ((gen + 1) << PG_GEN_SHIFT),
			 __ATOMIC_RELAXED);
	update_size(mw, pn, pg, type, -1, (int)gen);
	head = (struct list_head *)(pn + pn_gen_list_off(&m->lay, gen, type, m->lay.zone_normal));
	/* list_add writes head->next; head->prev only when the list was empty */
	MODEL_REC(m, &head->next, REC_WRITE);
	if (head->next == head)
		MODEL_REC(m, &head->prev, REC_WRITE);
	MODEL_REC_LOCAL(m, RL_LIST);
	list_add(&pg->lru, head);
	return true;
}

bool model_lru_gen_del(struct model_worker *mw, char *pn, struct mpage *pg, bool reclaiming)
{
	const struct model *m = mw->m;
	unsigned f = __atomic_load_n(&pg->flags, __ATOMIC_RELAXED);
	int gen = (int)((f & PG_GEN_MASK) >> PG_GEN_SHIFT) - 1;
	unsigned type = f & PG_SWAPBACKED ? 0 : 1;
	struct list_head *head;
	unsigned nf;

	if (gen < 0)
		return false;
	head = (struct list_head *)(pn + pn_gen_list_off(&m->lay, (unsigned)gen, type,
							  m->lay.zone_normal));
	/* for folio_migrate_flags(): an active generation leaves PG_active */
	nf = f & ~PG_GEN_MASK;
	if (!reclaiming && gen_is_active(m, pn, (unsigned)gen))
		nf |= PG_ACTIVE;
	__atomic_store_n(&pg->flags, nf, __ATOMIC_RELAXED);
	update_size(mw, pn, pg, type, gen, -1);
	/* list_del writes head->next when the folio is first, head->prev
	 * when it is last */
	if (pg->lru.prev == head)
		MODEL_REC(m, &head->next, REC_WRITE);
	if (pg->lru.next == head)
		MODEL_REC(m, &head->prev, REC_WRITE);
	MODEL_REC_LOCAL(m, RL_LIST);
	list_del(&pg->lru);
	return true;
}

unsigned model_lru_gen_reclaim(struct model_worker *mw, bool file, unsigned nr)
{
	struct model *m = mw->m;
	struct mcg *memcg = mw->memcg;
	char *pn = memcg->nodeinfo[mw->nid];
	struct lru_lock_ref lk = lru_lock_of(m, memcg, mw->nid);
	struct mpage *iso[SWAP_CLUSTER_MAX];
	unsigned type = file ? 1 : 0, n = 0;

	if (nr > SWAP_CLUSTER_MAX)
		nr = SWAP_CLUSTER_MAX;
	model_flush_if_needed(mw, memcg);
	lru_lock(mw, lk);
	for (;;) {
		unsigned long min_seq = read_seq(m, pn, 1 + type);
		unsigned gen = (unsigned)(min_seq % PN_MAX_NR_GENS);
		struct list_head *head = (struct list_head *)
			(pn + pn_gen_list_off(&m->lay, gen, type, m->lay.zone_normal));

		for (struct list_head *pos = head->prev; pos != head && n < nr;) {
			struct mpage *pg = page_of(pos);
			pos = pos->prev;
			if (!(__atomic_fetch_and(&pg->flags, ~PG_LRU, __ATOMIC_ACQ_REL) & PG_LRU))
				continue;
			model_lru_gen_del(mw, pn, pg, true);
			mw->ops.lru_del++;
			iso[n++] = pg;
		}
		/* try_to_inc_min_seq(): an empty oldest generation is retired
		 * while more than MIN_NR_GENS remain */
		if (n || head->next != head || read_seq(m, pn, 0) - min_seq <= MIN_NR_GENS)
			break;
		MODEL_REC(m, pn_lrugen_seq(m, pn) + 1 + type, REC_WRITE);
		pn_lrugen_seq(m, pn)[1 + type] = min_seq + 1;
	}
	lru_unlock(mw, lk);
	model_reclaim_free(mw, iso, n);
	return n;
}
