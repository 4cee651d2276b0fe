/*
 * kitems.h - the kernel's item indices of the stat items and events the
 * memcg model updates, one table per kernel version: the position of
 * each item in enum node_stat_item (include/linux/mmzone.h; the memcg's
 * state[] and the lruvec's state[] share it) and in the memcg's event
 * array (enum vm_event_item of include/linux/vm_event_item.h before
 * v6.1, the compact memcg_vm_event_stat[] of mm/memcontrol.c after).
 * The index decides which 64 B line of an array of longs an item lives
 * on (8 per line), so the model, the access sets of `layout --audit` and
 * the simulator all read it from here (models/kitems.c cites the source
 * of every table).
 */
#ifndef MEMSCALE_MODELS_KITEMS_H
#define MEMSCALE_MODELS_KITEMS_H

#include "models/layout.h"
#include "models/memcg_types.h"

struct kitems {
	const char *version;                 /* kernel version of the table */
	const char *source;                  /* files and version read */
	unsigned char stat[NR_STAT_ITEMS];   /* enum node_stat_item */
	unsigned char event[NR_EVENTS];      /* index in the memcg's events[] */
};

/* Every table, oldest first, NULL-terminated by version. */
extern const struct kitems kitems_tables[];
/* The table of the kernel version a layout stands for (the layout knob
 * is the per-kernel knob naming the version: v5.3, v5.10/v5.11, v6.9 and
 * later; BTF and pahole layouts are of a running, recent kernel). */
const struct kitems *kitems_for_layout(enum pn_layout_id id);
static inline const struct kitems *kitems_for(const struct model_params *p)
{
	return kitems_for_layout(p->layout);
}

#endif
