/*
 * page_alloc.h - what the model's set-up (memcg.c) takes from its page
 * allocator (page_alloc.c) beyond memcg.h's model_page_* calls.
 */
#ifndef MEMSCALE_MODELS_PAGE_ALLOC_H
#define MEMSCALE_MODELS_PAGE_ALLOC_H

#include "models/memcg.h"

/* pcp->high_max: zone_highsize() at v6.7's high fraction 8, at most
 * MODEL_PCP_MAX; high_min for the fixed rules (model_setup sizes the
 * zones' slack by it). */
unsigned model_pcp_high_max(const struct model *m);

#endif
