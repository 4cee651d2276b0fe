/*
 * lru_gen.h - the multi-gen LRU (MGLRU, CONFIG_LRU_GEN) enabled at run
 * time, knob `lru_gen=on|off`: the add, delete and eviction paths of the
 * memcg model when MGLRU owns the folios (models/lru_gen.c).
 */
#ifndef MEMSCALE_MODELS_LRU_GEN_H
#define MEMSCALE_MODELS_LRU_GEN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/knob.h"

/* MIN_NR_GENS of include/linux/mmzone.h: models/memcg_types.h (the
 * model's set-up initialises max_seq with it). */

struct model;
struct model_params;
struct model_worker;
struct mpage;

extern const struct knob knob_lru_gen;

/* lru_gen=on needs a layout with lruvec.lrugen (CONFIG_LRU_GEN, v6.1+):
 * 0, or -1 with the reason in why. */
int model_lru_gen_check(const struct model_params *p, char *why, size_t len);
/* folio_add_lru(): a folio added inside a fault is made active. */
void model_lru_gen_on_add(struct model_worker *mw, struct mpage *pg);
/* lru_gen_add_folio() / lru_gen_del_folio(): false when the classic
 * lists take the folio (MGLRU off, or no lrugen). */
bool model_lru_gen_add(struct model_worker *mw, char *pn, struct mpage *pg);
bool model_lru_gen_del(struct model_worker *mw, char *pn, struct mpage *pg, bool reclaiming);
/* Eviction from mw's lruvec (evict_folios -> isolate_folios ->
 * scan_folios): up to nr folios of the type of `file` from the oldest
 * generation; uncharged and freed.  Returns the folios freed. */
unsigned model_lru_gen_reclaim(struct model_worker *mw, bool file, unsigned nr);

#endif
