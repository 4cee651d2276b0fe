/*
 * check.c - the model's end-of-run invariants, the hooks that break them
 * on purpose (tests prove each check can fail), and totals.
 *
 *   pages:  pages charged == pages on the LRU lists + pages in batches +
 *           pages uncharged; every list's length == its lru_zone_size
 *           (lru_gen=on: every generation list's == its nr_pages).
 *   usage:  page_counter usage of every memcg == pages resident in its
 *           subtree (on lists or in batches) + pages held in stocks for
 *           memcgs of the subtree; watermark >= usage.
 *   node:   the nodes' vm_stat plus every CPU's diff == the exact counts.
 *   stats:  after a final flush, every memcg's flushed state and events
 *           == the exact (never batched) counts of its subtree, and every
 *           lruvec's NR_LRU_BASE+lru == the lengths of the lists of that
 *           node in the subtree.
 */
#include "models/memcg.h"
#include "models/internal.h"
#include "models/kitems.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void model_quiesce(struct model *m)
{
	for (unsigned w = 0; w < m->nworkers; w++) {
		model_lru_add_drain(m->workers[w]);
		model_release_drain(m->workers[w]);
	}
}

/*
 * Length of one LRU list, walked with a bound: every node must be a page
 * of the model's page array (or the head), and the walk stops after
 * npages steps, so a list corrupted into a cycle or a wild pointer is
 * reported as bad, never followed for ever or dereferenced.
 */
static bool is_model_page(const struct model *m, const struct list_head *p)
{
	uintptr_t a = (uintptr_t)p - offsetof(struct mpage, lru);
	uintptr_t lo = (uintptr_t)m->pages, hi = lo + (uintptr_t)m->npages * sizeof(*m->pages);

	return a >= lo && a < hi && (a - lo) % sizeof(*m->pages) == 0;
}

static long list_len(const struct model *m, struct list_head *h,
		     const struct mcg *memcg, bool *bad)
{
	long n = 0;

	for (struct list_head *p = h->next; p != h; p = p->next) {
		const struct mpage *pg;

		if (!is_model_page(m, p) || n >= (long)m->npages) {
			*bad = true;
			break;
		}
		pg = page_of(p);
		if (pg->memcg != memcg || !(pg->flags & PG_LRU))
			*bad = true;
		n++;
	}
	return n;
}

static long batch_pages(const struct model *m, const struct mcg *memcg)
{
	long n = 0;

	for (unsigned w = 0; w < m->nworkers; w++) {
		const struct model_worker *mw = m->workers[w];
		const struct fbatch *b[] = { &mw->lru_add, &mw->release };
		for (unsigned k = 0; k < ARRAY_SIZE(b); k++)
			for (unsigned i = 0; i < b[k]->nr; i++)
				n += !memcg || b[k]->pages[i]->memcg == memcg;
	}
	return n;
}

#define FAIL(...) do { snprintf(msg, msglen, __VA_ARGS__); return 1; } while (0)

/* usage: each memcg's page_counter holds its subtree's pages and the
 * stocks cached for it; the watermark is never below it. */
static int check_usage(struct model *m, const long *resident, char *msg, size_t msglen)
{
	for (unsigned i = 0; i < m->nmemcg; i++) {
		struct mcg *memcg = &m->memcgs[i];
		long want = 0, usage = __atomic_load_n(pc_usage(m, mcg_memory(m, memcg)), __ATOMIC_RELAXED);

		for (unsigned d = 0; d < m->nmemcg; d++)
			if (memcg_in_subtree(m, &m->memcgs[d], memcg))
				want += resident[d];
		for (unsigned w = 0; w < m->nworkers; w++) {
			const struct model_worker *mw = m->workers[w];
			if (mw->stock_cached && memcg_in_subtree(m, mw->stock_cached, memcg))
				want += mw->stock_nr;
		}
		if (usage != want)
			FAIL("usage: memcg %u page_counter usage %ld != %ld (subtree pages + stock)",
			     i, usage, want);
		if (*pc_watermark(m, mcg_memory(m, memcg)) < usage)
			FAIL("usage: memcg %u watermark %ld < usage %ld", i,
			     *pc_watermark(m, mcg_memory(m, memcg)), usage);
	}
	return 0;
}

/* node stats (vm_node_stat + every CPU's diff) == all memcgs' exact */
static int check_node_stats(struct model *m, char *msg, size_t msglen)
{
	for (unsigned k = 0; k < NR_STAT_ITEMS; k++) {
		long got = 0, want = 0;
		for (unsigned n = 0; n < m->p.nodes; n++) {
			got += m->nodes[n].vm_stat[k];
			for (unsigned w = 0; w < m->nworkers; w++)
				got += m->workers[w]->node_diff[n][k];
		}
		for (unsigned d = 0; d < m->nmemcg; d++)
			for (unsigned w = 0; w < m->nworkers; w++)
				want += m->workers[w]->exact_state[d][k];
		if (got != want)
			FAIL("stats: node %s %ld != exact %ld", stat_item_names[k], got, want);
	}
	return 0;
}

int model_check(struct model *m, char *msg, size_t msglen)
{
	long resident[m->nmemcg], lens[m->nmemcg][MODEL_MAX_NODES][NR_LRU];
	long charged = 0, uncharged = 0, on_lists = 0;

	msg[0] = '\0';
	/* pages */
	for (unsigned i = 0; i < m->nmemcg; i++) {
		struct mcg *memcg = &m->memcgs[i];
		resident[i] = batch_pages(m, memcg);
		for (unsigned n = 0; n < m->p.nodes; n++) {
			char *pn = memcg->nodeinfo[n];
			for (unsigned l = 0; l < NR_LRU; l++) {
				bool bad = false;
				long len = list_len(m, pn_list(m, pn, l), memcg, &bad);
				if (bad)
					FAIL("memcg %u node %u list %s is corrupt: a page of another memcg, without PG_lru, outside the page array, or a cycle",
					     i, n, stat_item_names[l]);
				if (len != *pn_zone_size(m, pn, l))
					FAIL("memcg %u node %u: %s list has %ld pages but lru_zone_size says %ld",
					     i, n, stat_item_names[l], len, *pn_zone_size(m, pn, l));
				lens[i][n][l] = len;
				resident[i] += len;
				on_lists += len;
			}
			/* MGLRU (models/lru_gen.c): each generation list's length
			 * == its nr_pages; generations max_seq and max_seq - 1
			 * count as the active list of their type */
			if (m->p.lru_gen) {
				unsigned long max_seq = *(unsigned long *)PN_AT(m, pn, PN_LRUGEN_SEQ);
				for (unsigned g = 0; g < PN_MAX_NR_GENS; g++)
					for (unsigned t = 0; t < 2; t++) {
						unsigned z = m->lay.zone_normal;
						bool bad = false, act = g == max_seq % PN_MAX_NR_GENS ||
									g == (max_seq - 1) % PN_MAX_NR_GENS;
						long len = list_len(m, (struct list_head *)(pn +
								   pn_gen_list_off(&m->lay, g, t, z)), memcg, &bad);
						long nr = *(long *)(pn + pn_gen_size_off(&m->lay, g, t, z));
						if (bad || len != nr)
							FAIL("memcg %u node %u: MGLRU folios[%u][%u] has %ld pages%s but nr_pages says %ld",
							     i, n, g, t, len, bad ? " (corrupt)" : "", nr);
						lens[i][n][t * 2 + act] += len;
						resident[i] += len;
						on_lists += len;
					}
			}
		}
		for (unsigned w = 0; w < m->nworkers; w++) {
			charged += m->workers[w]->charged[i];
			uncharged += m->workers[w]->uncharged[i];
		}
	}
	if (charged != on_lists + batch_pages(m, NULL) + uncharged)
		FAIL("pages: %ld charged != %ld on LRUs + %ld in batches + %ld uncharged",
		     charged, on_lists, batch_pages(m, NULL), uncharged);

	if (check_usage(m, resident, msg, msglen) || check_node_stats(m, msg, msglen))
		return 1;

	/* stats */
	model_final_flush(m);
	for (unsigned i = 0; i < m->nmemcg; i++) {
		struct mcg *memcg = &m->memcgs[i];
		for (unsigned k = 0; k < NR_STAT_ITEMS + NR_EVENTS; k++) {
			long want = 0, got;
			for (unsigned d = 0; d < m->nmemcg; d++) {
				if (!memcg_in_subtree(m, &m->memcgs[d], memcg))
					continue;
				for (unsigned w = 0; w < m->nworkers; w++)
					want += k < NR_STAT_ITEMS
						? m->workers[w]->exact_state[d][k]
						: m->workers[w]->exact_events[d][k - NR_STAT_ITEMS];
			}
			got = k < NR_STAT_ITEMS ? *mcg_stat_total(m, memcg, KS(m, k))
						: *mcg_event_total(m, memcg, KE(m, k - NR_STAT_ITEMS));
			if (got != want)
				FAIL("stats: memcg %u %s flushed %ld != exact %ld", i,
				     k < NR_STAT_ITEMS ? stat_item_names[k]
						       : event_item_names[k - NR_STAT_ITEMS],
				     got, want);
		}
		for (unsigned n = 0; n < m->p.nodes; n++)
			for (unsigned l = 0; l < NR_LRU; l++) {
				long want = 0, got = pn_lruvec_stats(m, memcg->nodeinfo[n])[KS(m, NR_LRU_BASE + l)];
				for (unsigned d = 0; d < m->nmemcg; d++)
					if (memcg_in_subtree(m, &m->memcgs[d], memcg))
						want += lens[d][n][l];
				/* pages still in lru_add batches are not counted yet */
				if (got != want)
					FAIL("stats: memcg %u node %u lruvec %s %ld != %ld pages on lists",
					     i, n, stat_item_names[l], got, want);
			}
	}
	return 0;
}

bool model_corrupt(struct model *m, enum model_corruption c)
{
	struct mcg *leaf = m->leaves[0];

	switch (c) {
	case CORRUPT_LRU_LIST:
		for (unsigned i = 0; i < m->nmemcg; i++)
			for (unsigned l = 0; l < NR_LRU; l++) {
				struct list_head *h = pn_list(m, m->memcgs[i].nodeinfo[0], l);
				if (!list_empty(h)) {
					list_del(h->next);
					return true;
				}
			}
		return false;
	case CORRUPT_LRU_CYCLE:
	case CORRUPT_LRU_WILD:
		for (unsigned i = 0; i < m->nmemcg; i++)
			for (unsigned l = 0; l < NR_LRU; l++) {
				struct list_head *h = pn_list(m, m->memcgs[i].nodeinfo[0], l);
				if (!list_empty(h)) {
					/* the first page points back at itself, or nowhere */
					h->next->next = c == CORRUPT_LRU_CYCLE ? h->next
						: (struct list_head *)(uintptr_t)0x10;
					return true;
				}
			}
		return false;
	case CORRUPT_USAGE:
		__atomic_add_fetch(pc_usage(m, mcg_memory(m, leaf)), 1, __ATOMIC_RELAXED);
		return true;
	case CORRUPT_STATS:
		/* an update the exact count never saw, in a per-CPU slot the
		 * final flush will fold */
		pcpu_add(&mcg_statc(m, leaf, 0)->state[KS(m, NR_ANON_MAPPED)], 1);
		return true;
	default:
		return false;
	}
}

void model_sum_ops(const struct model *m, struct model_ops *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned w = 0; w < m->nworkers; w++) {
		const struct model_ops *o = &m->workers[w]->ops;
		out->charges += o->charges;
		out->pc_charges += o->pc_charges;
		out->uncharges += o->uncharges;
		out->pages_uncharged += o->pages_uncharged;
		out->lru_add += o->lru_add;
		out->lru_del += o->lru_del;
		out->lru_move += o->lru_move;
		out->stat_updates += o->stat_updates;
		out->events += o->events;
		out->flushes += o->flushes;
		out->reclaimed += o->reclaimed;
		for (unsigned k = 0; k < NR_STAT_ITEMS + NR_EVENTS; k++)
			out->folds_memcg[k] += o->folds_memcg[k];
		for (unsigned k = 0; k < NR_STAT_ITEMS; k++)
			out->folds_lruvec[k] += o->folds_lruvec[k];
		out->rstat_batches += o->rstat_batches;
	}
}

void model_sum_lock_stats(const struct model *m, struct lock_stat out[LC_NR])
{
	memset(out, 0, LC_NR * sizeof(*out));
	for (unsigned w = 0; w < m->nworkers; w++)
		for (unsigned c = 0; c < LC_NR; c++) {
			const struct lock_stat *s = &m->workers[w]->lock_stats[c];
			out[c].acquired += s->acquired;
			out[c].contended += s->contended;
			out[c].wait_ns += s->wait_ns;
			if (s->wait_max_ns > out[c].wait_max_ns)
				out[c].wait_max_ns = s->wait_max_ns;
		}
}

long model_memcg_stat(const struct model *m, const struct mcg *memcg,
		      enum stat_item idx)
{
	return *mcg_stat_total(m, memcg, KS(m, idx));
}

long model_memcg_event(const struct model *m, const struct mcg *memcg,
		       enum event_item ev)
{
	return *mcg_event_total(m, memcg, KE(m, ev));
}
