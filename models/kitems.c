/*
 * kitems.c - the item index tables (models/kitems.h), read from kernel
 * source.  node_stat_item counts from NR_LRU_BASE = 0 (five LRU items);
 * events are indices of the memcg's events[] array, x86_64 zones
 * (ZONE_DMA, ZONE_DMA32, ZONE_NORMAL, ZONE_MOVABLE; no HIGHMEM) where
 * the zone-expanded vm_event_item is the index.
 */
#include "models/kitems.h"

const struct kitems kitems_tables[] = {
	/*
	 * v5.3, include/linux/mmzone.h (the v4.20..v5.8 enum, read as
	 * stored: NR_SLAB_RECLAIMABLE, NR_SLAB_UNRECLAIMABLE,
	 * NR_ISOLATED_ANON/FILE, WORKINGSET_NODES, _REFAULT, _ACTIVATE,
	 * _RESTORE, _NODERECLAIM after the LRU items): NR_ANON_MAPPED 14,
	 * NR_FILE_MAPPED 15, NR_FILE_PAGES 16, NR_SHMEM 20 (after
	 * NR_FILE_DIRTY, NR_WRITEBACK, NR_WRITEBACK_TEMP).  Events:
	 * memcg_vmstats_percpu.events[NR_VM_EVENT_ITEMS] indexed by enum
	 * vm_event_item: PGPGIN 0, PGPGOUT 1, PSWPIN, PSWPOUT,
	 * FOR_ALL_ZONES(PGALLOC, ALLOCSTALL, PGSCAN_SKIP) 4..15, PGFREE 16,
	 * PGACTIVATE 17, PGDEACTIVATE 18, PGLAZYFREE 19, PGFAULT 20.
	 */
	{ "v5.3", "include/linux/mmzone.h (v4.20..v5.8 enum), include/linux/vm_event_item.h",
	  { 0, 1, 2, 3, 4, 14, 15, 16, 20 }, { 20, 0, 1, 17, 18 } },
	/*
	 * v5.10, include/linux/mmzone.h and include/linux/vm_event_item.h
	 * read at v5.10.13: WORKINGSET_REFAULT/ACTIVATE/RESTORE split into
	 * _ANON/_FILE (v5.9, the anon workingset series) and the slab items
	 * became NR_SLAB_{,UN}RECLAIMABLE_B: NR_ANON_MAPPED 17,
	 * NR_FILE_MAPPED 18, NR_FILE_PAGES 19, NR_SHMEM 23.  Events as v5.3
	 * (PGREUSE came after PGFAULT).  Also v5.11 (6168d0da2b47).
	 */
	{ "v5.10", "include/linux/mmzone.h, include/linux/vm_event_item.h @ v5.10.13",
	  { 0, 1, 2, 3, 4, 17, 18, 19, 23 }, { 20, 0, 1, 17, 18 } },
	/*
	 * v6.8 (8d59d2214c23's series; v6.7..v6.10 layouts):
	 * node_stat_item as v5.10 up to NR_SHMEM; events are indices of
	 * memcg_vm_event_stat[] (mm/memcontrol.c, as moved in the
	 * 8d59d2214c23 series): PGPGIN 0, PGPGOUT 1, PGSCAN_KSWAPD,
	 * PGSCAN_DIRECT, PGSCAN_KHUGEPAGED, PGSTEAL_KSWAPD, PGSTEAL_DIRECT,
	 * PGSTEAL_KHUGEPAGED, PGFAULT 8, PGMAJFAULT 9, PGREFILL 10,
	 * PGACTIVATE 11, PGDEACTIVATE 12 (v6.7 has the same array: the
	 * series only moved it).
	 */
	{ "v6.8", "include/linux/mmzone.h, mm/memcontrol.c memcg_vm_event_stat[] @ 8d59d2214c23 series",
	  { 0, 1, 2, 3, 4, 17, 18, 19, 23 }, { 8, 0, 1, 11, 12 } },
	/*
	 * v6.11+: memcg and lruvec state[] are indexed through
	 * memcg_stats_index() into the compact memcg_node_stat_items[]
	 * (NR_INACTIVE_ANON..NR_UNEVICTABLE, NR_SLAB_{,UN}RECLAIMABLE_B,
	 * WORKINGSET_REFAULT_ANON..WORKINGSET_NODERECLAIM, NR_ANON_MAPPED 14,
	 * NR_FILE_MAPPED 15, NR_FILE_PAGES 16, NR_FILE_DIRTY, NR_WRITEBACK,
	 * NR_SHMEM 19) and events through memcg_events_index() into
	 * memcg_vm_event_stat[] with CONFIG_MEMCG_V1=y: PGPGIN 0, PGPGOUT 1,
	 * PSWPIN, PSWPOUT, PGSCAN_{KSWAPD,DIRECT,KHUGEPAGED},
	 * PGSTEAL_{KSWAPD,DIRECT,KHUGEPAGED}, PGFAULT 10, PGMAJFAULT 11,
	 * PGREFILL 12, PGACTIVATE 13, PGDEACTIVATE 14.  Read from a stored
	 * mm/memcontrol.c with memcontrol-v1.h and SWPIN_ZERO (v6.12 or
	 * later); used for the v6.11 layout too, not checked at v6.11.
	 */
	{ "v6.12", "mm/memcontrol.c memcg_node_stat_items[], memcg_vm_event_stat[] (v6.12 or later)",
	  { 0, 1, 2, 3, 4, 14, 15, 16, 19 }, { 10, 0, 1, 13, 14 } },
	{ NULL, NULL, { 0 }, { 0 } },
};

const struct kitems *kitems_for_layout(enum pn_layout_id id)
{
	switch (id) {
	case LAYOUT_V5_3:
		return &kitems_tables[0];
	case LAYOUT_V5_10:
	case LAYOUT_V5_11:
		return &kitems_tables[1];
	case LAYOUT_FIXED_PADDED:
	case LAYOUT_BTF:
	case LAYOUT_PAHOLE:
		return &kitems_tables[3];
	default:
		return &kitems_tables[2];
	}
}
