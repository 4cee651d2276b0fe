/*
 * history.h - the knob values of the memcg history profiles
 * (models/kernels/c<commit>.c and c<commit>_parent.c), each written once with
 * the commit and file it was read from; a profile lists the ones its kernel
 * had.
 */
#ifndef MEMSCALE_MODELS_KERNELS_HISTORY_H
#define MEMSCALE_MODELS_KERNELS_HISTORY_H

#define H_CHARGE_BATCH_32 \
	{ "charge_batch", "32", \
	  "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13; 64U only from 1813e51eece0)" }
#define H_CHARGE_BATCH_64_A \
	{ "charge_batch", "64", \
	  "1813e51eece0: MEMCG_CHARGE_BATCH 64U" }
#define H_CHARGE_BATCH_64_B \
	{ "charge_batch", "64", \
	  "MEMCG_CHARGE_BATCH 64U" }
#define H_FLUSH_MS_0 \
	{ "flush_ms", "0", \
	  "no periodic flush before aa48e47e3906 (v5.15)" }
#define H_FLUSH_MS_2000_A \
	{ "flush_ms", "2000", \
	  "aa48e47e3906: flush_memcg_stats_dwork re-queued every 2UL*HZ" }
#define H_FLUSH_MS_2000_B \
	{ "flush_ms", "2000", \
	  "FLUSH_TIME (2UL*HZ)" }
#define H_LAYOUT_V5_11_A \
	{ "layout", "v5.11", \
	  "2d146aa3aa84 leaves struct mem_cgroup_per_node as in v5.11 (lruvec_stat_local, batched lruvec_stat_cpu, lruvec_stat[] atomics): its diff touches memcg_vmstats(_percpu) and struct mem_cgroup only" }
#define H_LAYOUT_V5_11_B \
	{ "layout", "v5.11", \
	  "6168d0da2b47 (v5.11): v5.10 per-node layout with lruvec->lru_lock after lists[]; unchanged up to 2d146aa3aa84" }
#define H_LAYOUT_V6_9 \
	{ "layout", "v6.9", \
	  "lruvec_stats_percpu pointer + struct lruvec_stats EMBEDDED (in the context of the diff of aa48e47e3906; lruvec stats moved to rstat just before it); nearest declared layout v6.9: v5.15 has 2 arrays (state, state_pending), v6.9 3 (with state_local)" }
#define H_LAYOUT_V5_10 \
	{ "layout", "v5.10", \
	  "include/linux/memcontrol.h @ v5.10.13: lruvec first, lruvec_stat_local/_cpu pointers, lruvec_stat[] atomics embedded, memcg last" }
#define H_LAYOUT_V6_10 \
	{ "layout", "v6.10", \
	  "70a64b7919cb (series before ff48c71c26aa): lruvec_stats behind a pointer; ff48c71c26aa does not change mem_cgroup_per_node" }
#define H_LRU_BATCH_15 \
	{ "lru_batch", "15", \
	  "PAGEVEC_SIZE 15 until 9cecde80aae0 (v6.9-rc2)" }
#define H_LRU_BATCH_31 \
	{ "lru_batch", "31", \
	  "PAGEVEC_SIZE 31 (9cecde80aae0, v6.9-rc2)" }
#define H_LRU_LOCK_LRUVEC_A \
	{ "lru_lock", "lruvec", \
	  "lruvec->lru_lock since 6168d0da2b47 (v5.11)" }
#define H_LRU_LOCK_PGDAT \
	{ "lru_lock", "pgdat", \
	  "pgdat->lru_lock until 6168d0da2b47 (v5.11)" }
#define H_LRU_LOCK_LRUVEC_B \
	{ "lru_lock", "lruvec", \
	  "lruvec->lru_lock" }
#define H_PC_LAYOUT_802F1D522D5F \
	{ "pc_layout", "802f1d522d5f", \
	  "802f1d522d5f (v5.12 merge window): parent moved to the end of struct page_counter" }
#define H_PC_LAYOUT_408587BAEE39 \
	{ "pc_layout", "408587baee39", \
	  "408587baee39 (v6.1, the patch before 1813e51eece0 in its series): usage alone on its line" }
#define H_PC_LAYOUT_V5 \
	{ "pc_layout", "v5", \
	  "include/linux/page_counter.h before 802f1d522d5f (its diff, 85bd413..6795913): parent after max, on usage's line" }
#define H_STATS_RSTAT_GLOBAL_NOGUARD_A \
	{ "stats", "rstat_global_noguard", \
	  "NEAREST, not the kernel: 2d146aa3aa84 mm/memcontrol.c moves the memcg part to rstat (per-CPU add + cgroup_rstat_updated(), no flush counter) and keeps the lruvec part batched into per-node atomics; the model lacks this hybrid" }
#define H_STATS_V5_10_ATOMIC \
	{ "stats", "v5.10_atomic", \
	  "mm/memcontrol.c before 2d146aa3aa84 (v5.13): per-CPU batch folded into the atomics of the memcg and every ancestor" }
#define H_STATS_RSTAT_QUEUE_WORK \
	{ "stats", "rstat_queue_work", \
	  "aa48e47e3906 mm/memcontrol.c __mod_memcg_lruvec_state(): every MEMCG_CHARGE_BATCH lruvec updates per CPU (per-CPU stats_flush_threshold) queue_work() of a whole-tree flush; mm/vmscan.c shrink_node() flushes unconditionally (diff of aa48e47e3906, memcontrol.c ..0a05ce5cd045)" }
#define H_STATS_RSTAT_FLUSH_ALWAYS \
	{ "stats", "rstat_flush_always", \
	  "1f828223b799 removes the queue_work() and its per-CPU counter from __mod_memcg_lruvec_state() and flushes in workingset_refault(); no update-side counter, readers flush unconditionally (diff of 1f828223b799, memcontrol.c b762215d73eb..6da5020a8656)" }
#define H_STATS_RSTAT_GLOBAL_COUNT \
	{ "stats", "rstat_global_count", \
	  "11192d9c124d memcg_rstat_updated(): per-CPU stats_updates, every MEMCG_CHARGE_BATCH calls atomic_inc(&stats_flush_threshold), flush if > num_online_cpus(); counts calls, not |val|" }
#define H_STATS_RSTAT_GLOBAL_NOGUARD_E \
	{ "stats", "rstat_global_noguard", \
	  "5b3be698a872: value-weighted stats_updates (abs(val)), atomic_add(x / MEMCG_CHARGE_BATCH) to the global threshold, no guard" }
#define H_STATS_RSTAT_GLOBAL \
	{ "stats", "rstat_global", \
	  "873f64b791a2: atomic_add only while atomic_read(&stats_flush_threshold) <= num_online_cpus()" }
#define H_STATS_RSTAT_PERMEMCG_CACHED \
	{ "stats", "rstat_permemcg_cached", \
	  "mm/memcontrol.c v6.10 cycle: per-memcg threshold (8d59d2214c23) with cached statc->parent (9cee7e8ef3e3)" }
#define H_STATS_BATCH_32_A \
	{ "stats_batch", "32", \
	  "unused on the rstat path" }
#define H_STATS_BATCH_32_B \
	{ "stats_batch", "32", \
	  "MEMCG_CHARGE_BATCH 32U (include/linux/memcontrol.h @ v5.10.13), the fold threshold" }

/* the knobs of 11192d9c124d, shared by 2 profiles */
/* The page allocator's per-CPU lists (mm/page_alloc.c). */
#define H_PCP_BATCH_63 \
	{ "pcp_batch", "63", \
	  "zone_batchsize() (mm/page_alloc.c @ v5.10 .. v6.9): 63 for a zone >= 1 GiB" }
#define H_PCP_HIGH_6X \
	{ "pcp_high", "6x_batch", \
	  "pageset_set_batch() (mm/page_alloc.c @ v5.10, v5.11): high = 6 * batch, until 74f44822097c (v5.14)" }
#define H_PCP_SCALE_OFF \
	{ "pcp_scale", "off", \
	  "rmqueue_bulk / free_pcppages_bulk of pcp->batch pages (mm/page_alloc.c @ v5.10, v5.11)" }
#define H_PCP_HIGH_AUTO \
	{ "pcp_high", "auto", \
	  "mm/page_alloc.c since v6.7 (51a755c56dc0): pcp->high between zone_highsize() high_min and high_max" }
#define H_PCP_SCALE_OFF_V5_14 \
	{ "pcp_scale", "off", \
	  "v5.14 .. v6.6: pcp->batch per refill; the drain's free_factor scaling of 3b12e7e97938 (v5.14) is not modelled" }
#define H_PCP_HIGH_WMARK_V5_14 \
	{ "pcp_high", "wmark", \
	  "zone_highsize() since 74f44822097c (v5.14): low watermark over the node's CPUs, >= 4 * batch" }
#define H_PCP_SCALE_V6_7 \
	{ "pcp_scale", "v6.7", \
	  "nr_pcp_alloc() / nr_pcp_free() (mm/page_alloc.c since v6.7): alloc_factor, free_count" }

#define H_MITIGATIONS_V4_15 \
	{ "mitigations", "v4.15", \
	  "before v5.19: PTI (pti=auto, since v4.15) and retpolines; IBRS on kernel entry only from the retbleed series (v5.19)" }
#define H_MITIGATIONS_V5_19 \
	{ "mitigations", "v5.19", \
	  "v5.19 or later: spectre_v2=auto selects IBRS on kernel entry for retbleed-affected Intel CPUs without eIBRS (arch/x86/kernel/cpu/bugs.c spectre_v2_select_mitigation)" }

#define H_KNOBS_11192D9C124D \
	H_LAYOUT_V6_9, \
	H_STATS_RSTAT_GLOBAL_COUNT, \
	H_STATS_BATCH_32_A, \
	H_CHARGE_BATCH_32, \
	H_LRU_BATCH_15, \
	H_LRU_LOCK_LRUVEC_A, \
	H_FLUSH_MS_2000_A, \
	H_PC_LAYOUT_802F1D522D5F, \
	H_PCP_BATCH_63, \
	H_PCP_HIGH_WMARK_V5_14, \
	H_PCP_SCALE_OFF_V5_14, \
	H_MITIGATIONS_V4_15

/* the knobs of 11192d9c124d^, shared by 2 profiles */
#define H_KNOBS_11192D9C124D_PARENT \
	H_LAYOUT_V6_9, \
	H_STATS_RSTAT_FLUSH_ALWAYS, \
	H_STATS_BATCH_32_A, \
	H_CHARGE_BATCH_32, \
	H_LRU_BATCH_15, \
	H_LRU_LOCK_LRUVEC_A, \
	H_FLUSH_MS_2000_A, \
	H_PC_LAYOUT_802F1D522D5F, \
	H_PCP_BATCH_63, \
	H_PCP_HIGH_WMARK_V5_14, \
	H_PCP_SCALE_OFF_V5_14, \
	H_MITIGATIONS_V4_15

/* the knobs of 1f828223b799^, shared by 2 profiles */
#define H_KNOBS_1F828223B799_PARENT \
	H_LAYOUT_V6_9, \
	H_STATS_RSTAT_QUEUE_WORK, \
	H_STATS_BATCH_32_A, \
	H_CHARGE_BATCH_32, \
	H_LRU_BATCH_15, \
	H_LRU_LOCK_LRUVEC_A, \
	H_FLUSH_MS_2000_A, \
	H_PC_LAYOUT_802F1D522D5F, \
	H_PCP_BATCH_63, \
	H_PCP_HIGH_WMARK_V5_14, \
	H_PCP_SCALE_OFF_V5_14, \
	H_MITIGATIONS_V4_15

/* the knobs of 2d146aa3aa84^, shared by 2 profiles */
#define H_KNOBS_2D146AA3AA84_PARENT \
	H_LAYOUT_V5_11_B, \
	H_STATS_V5_10_ATOMIC, \
	H_STATS_BATCH_32_B, \
	H_CHARGE_BATCH_32, \
	H_LRU_BATCH_15, \
	H_LRU_LOCK_LRUVEC_A, \
	H_FLUSH_MS_0, \
	H_PC_LAYOUT_802F1D522D5F, \
	H_PCP_BATCH_63, \
	H_PCP_HIGH_6X, \
	H_PCP_SCALE_OFF, \
	H_MITIGATIONS_V4_15

/* the knobs of 4df910620beb, shared by 4 profiles */
#define H_KNOBS_4DF910620BEB \
	H_LAYOUT_V5_10, \
	H_STATS_V5_10_ATOMIC, \
	H_STATS_BATCH_32_B, \
	H_CHARGE_BATCH_32, \
	H_LRU_BATCH_15, \
	H_LRU_LOCK_PGDAT, \
	H_FLUSH_MS_0, \
	H_PC_LAYOUT_V5, \
	H_PCP_BATCH_63, \
	H_PCP_HIGH_6X, \
	H_PCP_SCALE_OFF, \
	H_MITIGATIONS_V4_15

/* the knobs of ff48c71c26aa, shared by 2 profiles */
#define H_KNOBS_FF48C71C26AA \
	H_LAYOUT_V6_10, \
	H_STATS_RSTAT_PERMEMCG_CACHED, \
	H_STATS_BATCH_32_A, \
	H_CHARGE_BATCH_64_B, \
	H_LRU_BATCH_31, \
	H_LRU_LOCK_LRUVEC_B, \
	H_FLUSH_MS_2000_B, \
	H_PCP_BATCH_63, \
	H_PCP_HIGH_AUTO, \
	H_PCP_SCALE_V6_7, \
	H_MITIGATIONS_V5_19

#endif
