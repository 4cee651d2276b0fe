/*
 * layout_struct.c - C declarations mirroring struct page_counter and
 * struct mem_cgroup at the commits that change them, and the offsetof()
 * tables the compiler derives from them (models/layout_struct.h).
 *
 * x86_64: LP64, spinlock_t 4 B (qspinlock, no lock debugging), mutex 32 B,
 * work_struct 32 B, ____cacheline_internodealigned_in_smp = 64 B
 * (INTERNODE_CACHE_SHIFT = L1_CACHE_SHIFT without CONFIG_X86_VSMP).
 *
 * Sources (what was read; the search tool's stored copies):
 *   page_counter before 802f1d522d5f and at it: the diff of 802f1d522d5f
 *     "mm: page_counter: re-layout structure to reduce false sharing"
 *     (include/linux/page_counter.h, index 85bd413..6795913: `parent`
 *     moves from after `max` to the end); the file after it as stored for
 *     torvalds/linux (blob of commit 0d3001e2690a, v5.14-era).
 *   page_counter of a 6.14+ tree (Kingxukai/linux, blob of 9b44fff655e2,
 *     CONFIG_CGROUP_DMEM era): the member list of the BTF of the 6.18
 *     kernel this project runs on (tests/kernel_history.t compares them).
 *   page_counter at 408587baee39 (v6.1): the field order and paddings as
 *     /work/shared/reference/kernel.md quotes T@408587baee39 (PC_PADDING
 *     after usage and before min; the struct internode-aligned); the file
 *     itself was not read at that commit.
 *   mem_cgroup at 4df910620beb: include/linux/memcontrol.h of v5.10.13
 *     (Rtoax/linux-5.10.13), which carries both bd0b230fe145 (v5.10-rc1)
 *     and 4df910620beb (v5.10-rc6); at bd0b230fe145: the same with the
 *     diff of 4df910620beb reverted (index e391e3c..a2d50b0: the group
 *     moving_account .. vmstats_percpu and _pad2_ move from right after
 *     _pad1_ to after the CONFIG_MEMCG_KMEM block); at bd0b230fe145^: the
 *     same with the diff of bd0b230fe145 reverted (index
 *     d0b036123c6a..6ef4a552e09d: swap and memsw separate page_counters
 *     instead of a union).  ASSUMED: no other commit between v5.10-rc1 and
 *     v5.10.13 changes the declared part of struct mem_cgroup.
 *   Embedded types at v5.10.13: struct cgroup_subsys_state and struct
 *     cgroup_file (include/linux/cgroup-defs.h), struct vmpressure
 *     (include/linux/vmpressure.h), struct mem_cgroup_id, enum
 *     memcg_stat_item (3 items after the node items), enum
 *     memcg_memory_event (8) (include/linux/memcontrol.h), enum
 *     vm_event_item (include/linux/vm_event_item.h: 96 items counted for
 *     ZONE_DMA, ZONE_DMA32, no HIGHMEM, NUMA, NUMA_BALANCING, MIGRATION,
 *     COMPACTION, HUGETLB_PAGE, TRANSPARENT_HUGEPAGE with PUD, MEMORY_BALLOON
 *     with BALLOON_COMPACTION, SWAP; no DEBUG_TLBFLUSH/VMACACHE).
 *     ASSUMED, not read at the version: struct percpu_ref of two words
 *     (percpu_count_ptr, data), i.e. 2b0d3d3e4fcf "percpu_ref: reduce
 *     memory footprint of percpu_ref in fast path" (block tree, v5.10
 *     merge window) is in: certain for 4df910620beb and its parent
 *     (v5.10-rc6), NOT checked for bd0b230fe145 and its parent (same merge
 *     window, mm tree).  With the old 56-byte percpu_ref every member after
 *     css.refcnt moves by +40 B: bd0b230fe145 keeps _pad1_ at 1152, but
 *     bd0b230fe145^ gets it at 1280, where the pointer line and vmstats[]
 *     share a 128 B pair too.  NR_VM_NODE_STAT_ITEMS
 *     38 for v5.10 (as models/layout_decls.inc, from Ubuntu 5.11 BTF).
 *     The array lengths only move members behind vmstats[]; _pad2_
 *     realigns what follows to a 64 B line.
 *   mem_cgroup at v6.7 and v6.8: see the block before struct
 *     mem_cgroup_v6_7 below (a stored v6.2..v6.7 memcontrol.h; the diff of
 *     501a06fe8e4c for v6.8).
 *   mem_cgroup is declared up to objcg_list / vmstats_percpu, the last
 *     members the charge and stat paths read; the tail (cgroup writeback,
 *     event list, deferred split, nodeinfo[]) is not declared, so no
 *     sizeof(struct mem_cgroup) is claimed.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/knob.h"
#include "core/registry.h"
#include "core/util.h"
#include "models/layout_struct.h"

/* ---- basic kernel types ---- */
typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
typedef struct { atomic_t refs; } refcount_t;
typedef unsigned long long u64;
typedef unsigned int u32;
struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct rcu_head { struct rcu_head *next; void (*func)(struct rcu_head *); };
typedef struct { atomic_t val; } spinlock_t;          /* qspinlock */
struct optimistic_spin_queue { atomic_t tail; };
struct mutex {
	atomic_long_t owner;
	spinlock_t wait_lock;
	struct optimistic_spin_queue osq;
	struct list_head wait_list;
};
struct work_struct {
	atomic_long_t data;
	struct list_head entry;
	void (*func)(struct work_struct *);
};
struct workqueue_struct;
struct rcu_work {
	struct work_struct work;
	struct rcu_head rcu;
	struct workqueue_struct *wq;
};
struct timer_list {
	struct hlist_node entry;
	unsigned long expires;
	void (*function)(struct timer_list *);
	u32 flags;
};
struct percpu_ref_data;
struct percpu_ref {
	unsigned long percpu_count_ptr;
	struct percpu_ref_data *data;
};
/* ____cacheline_internodealigned_in_smp padding (MEMCG_PADDING, PC_PADDING) */
struct cacheline_padding { char x[0]; } __attribute__((aligned(64)));

/* ---- include/linux/cgroup-defs.h (v5.10) ---- */
struct cgroup;
struct cgroup_subsys;
struct kernfs_node;
struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct cgroup_subsys *ss;
	struct percpu_ref refcnt;
	struct list_head sibling;
	struct list_head children;
	struct list_head rstat_css_node;
	int id;
	unsigned int flags;
	u64 serial_nr;
	atomic_t online_cnt;
	struct work_struct destroy_work;
	struct rcu_work destroy_rwork;
	struct cgroup_subsys_state *parent;
};
struct cgroup_file {
	struct kernfs_node *kn;
	unsigned long notified_at;
	struct timer_list notify_timer;
};
/* ---- include/linux/vmpressure.h (v5.10) ---- */
struct vmpressure {
	unsigned long scanned;
	unsigned long reclaimed;
	unsigned long tree_scanned;
	unsigned long tree_reclaimed;
	spinlock_t sr_lock;
	struct list_head events;
	struct mutex events_lock;
	struct work_struct work;
};

/* ---- include/linux/page_counter.h ---- */
/* the members every version has, in the kernel's order within each run */
#define PC_PROTECTION                                                         \
	unsigned long emin;             /* effective memory.min tracking */   \
	atomic_long_t min_usage;                                              \
	atomic_long_t children_min_usage;                                     \
	unsigned long elow;             /* effective memory.low tracking */   \
	atomic_long_t low_usage;                                              \
	atomic_long_t children_low_usage;
#define PC_LIMITS                                                             \
	unsigned long min;                                                    \
	unsigned long low;                                                    \
	unsigned long high;                                                   \
	unsigned long max;
/* before 802f1d522d5f (v5.x up to v5.11) */
struct page_counter_v5 {
	atomic_long_t usage;
	PC_LIMITS
	struct page_counter_v5 *parent;
	PC_PROTECTION
	unsigned long watermark;
	unsigned long failcnt;
};
/* 802f1d522d5f: 'parent' placed far from 'usage' */
struct page_counter_802f {
	atomic_long_t usage;
	PC_LIMITS
	PC_PROTECTION
	unsigned long watermark;
	unsigned long failcnt;
	struct page_counter_802f *parent;
};
/* 408587baee39 (v6.1): usage alone, then the rarely written fields, then
 * the read-mostly limits and parent */
struct page_counter_v6_1 {
	atomic_long_t usage;
	struct cacheline_padding _pad1_;
	PC_PROTECTION
	unsigned long watermark;
	unsigned long failcnt;
	struct cacheline_padding _pad2_;
	PC_LIMITS
	struct page_counter_v6_1 *parent;
} __attribute__((aligned(64)));

/* a 6.14+ tree (CONFIG_CGROUP_DMEM era): failcnt beside usage, the
 * cg2 local_watermark, protection_support and track_failcnt flags */
struct page_counter_v6_18 {
	atomic_long_t usage;
	unsigned long failcnt;
	struct cacheline_padding _pad1_;
	PC_PROTECTION
	unsigned long watermark;
	unsigned long local_watermark;
	struct cacheline_padding _pad2_;
	bool protection_support;
	bool track_failcnt;
	PC_LIMITS
	struct page_counter_v6_18 *parent;
} __attribute__((aligned(64)));

/* ---- include/linux/memcontrol.h (v5.10 cycle) ---- */
#define NR_VM_NODE_STAT_ITEMS_V5_10 38   /* assumed, see above */
#define MEMCG_NR_STAT_V5_10 (NR_VM_NODE_STAT_ITEMS_V5_10 + 3)
#define NR_VM_EVENT_ITEMS_V5_10 96
#define MEMCG_NR_MEMORY_EVENTS_V5_10 8
struct mem_cgroup_id { int id; refcount_t ref; };
struct mem_cgroup_threshold_ary;
struct mem_cgroup_thresholds {
	struct mem_cgroup_threshold_ary *primary;
	struct mem_cgroup_threshold_ary *spare;
};
enum memcg_kmem_state { KMEM_NONE, KMEM_ALLOCATED, KMEM_ONLINE };
struct obj_cgroup;
struct task_struct;
struct memcg_vmstats_percpu;

#define MEMCG_V5_10_HEAD                                                      \
	struct cgroup_subsys_state css;                                       \
	struct mem_cgroup_id id;                                              \
	struct page_counter_v5 memory;
#define MEMCG_V5_10_MID                                                       \
	struct page_counter_v5 kmem;                                          \
	struct page_counter_v5 tcpmem;                                        \
	struct work_struct high_work;                                         \
	unsigned long soft_limit;                                             \
	struct vmpressure vmpressure;                                         \
	bool use_hierarchy;                                                   \
	bool oom_group;                                                       \
	bool oom_lock;                                                        \
	int under_oom;                                                        \
	int swappiness;                                                       \
	int oom_kill_disable;                                                 \
	struct cgroup_file events_file;                                       \
	struct cgroup_file events_local_file;                                 \
	struct cgroup_file swap_events_file;                                  \
	struct mutex thresholds_lock;                                         \
	struct mem_cgroup_thresholds thresholds;                              \
	struct mem_cgroup_thresholds memsw_thresholds;                        \
	struct list_head oom_notify;                                          \
	unsigned long move_charge_at_immigrate;                               \
	spinlock_t move_lock;                                                 \
	unsigned long move_lock_flags;                                        \
	struct cacheline_padding _pad1_;
#define MEMCG_V5_10_STATS                                                     \
	atomic_long_t vmstats[MEMCG_NR_STAT_V5_10];                           \
	atomic_long_t vmevents[NR_VM_EVENT_ITEMS_V5_10];                      \
	atomic_long_t memory_events[MEMCG_NR_MEMORY_EVENTS_V5_10];            \
	atomic_long_t memory_events_local[MEMCG_NR_MEMORY_EVENTS_V5_10];      \
	unsigned long socket_pressure;                                        \
	bool tcpmem_active;                                                   \
	int tcpmem_pressure;                                                  \
	int kmemcg_id;                                                        \
	enum memcg_kmem_state kmem_state;                                     \
	struct obj_cgroup *objcg;                                             \
	struct list_head objcg_list;
#define MEMCG_V5_10_PCPU                                                      \
	atomic_t moving_account;                                              \
	struct task_struct *move_lock_task;                                   \
	struct memcg_vmstats_percpu *vmstats_local;                           \
	struct memcg_vmstats_percpu *vmstats_percpu;

/* bd0b230fe145^: swap and memsw separate */
struct mem_cgroup_v5_9 {
	MEMCG_V5_10_HEAD
	struct page_counter_v5 swap;
	struct page_counter_v5 memsw;
	MEMCG_V5_10_MID
	MEMCG_V5_10_PCPU
	struct cacheline_padding _pad2_;
	MEMCG_V5_10_STATS
};
/* bd0b230fe145: swap and memsw share storage */
struct mem_cgroup_bd0b {
	MEMCG_V5_10_HEAD
	union {
		struct page_counter_v5 swap;
		struct page_counter_v5 memsw;
	};
	MEMCG_V5_10_MID
	MEMCG_V5_10_PCPU
	struct cacheline_padding _pad2_;
	MEMCG_V5_10_STATS
};
/* 4df910620beb: the per-CPU pointers after the stats, behind _pad2_ */
struct mem_cgroup_4df9 {
	MEMCG_V5_10_HEAD
	union {
		struct page_counter_v5 swap;
		struct page_counter_v5 memsw;
	};
	MEMCG_V5_10_MID
	MEMCG_V5_10_STATS
	struct cacheline_padding _pad2_;
	MEMCG_V5_10_PCPU
};

/* ---- include/linux/memcontrol.h (v6.7, v6.8) ---- */
/*
 * v6.7: a stored copy of include/linux/memcontrol.h (search-tool id
 * 44268685) of the v6.2..v6.7 range: CACHELINE_PADDING (v6.2), struct
 * mem_cgroup with `struct memcg_vmstats *vmstats` after _pad1_ and the
 * per-CPU pointer after _pad2_, no zswap_writeback (501a06fe8e4c,
 * v6.8-rc1), parent_mem_cgroup() = mem_cgroup_from_css(memcg->css.parent).
 * v6.8: the same with 501a06fe8e4c's `bool zswap_writeback` after
 * zswap_max (its diff, include/linux/memcontrol.h index
 * 43b77363ab8e..5de775e6cdd9, @@ -219,6 +219,12 @@ struct mem_cgroup).
 * CONFIG_MEMCG_KMEM=y and CONFIG_ZSWAP=y (x86_64-rhel-8.3 style); the
 * page_counter is 408587baee39's (____cacheline_internodealigned_in_smp:
 * memory starts on a 64 B line, usage alone on it).  ASSUMED, not read at
 * those versions: struct cgroup_subsys_state as v5.10.13 (the member list
 * of the stored copies of cgroup-defs.h with rstat_css_node and parent
 * last; nr_descendants came after v6.9), MEMCG_NR_MEMORY_EVENTS 9 (adds
 * MEMCG_OOM_GROUP_KILL, v5.13) -- it only moves members between _pad1_
 * and _pad2_ -- and that 8d59d2214c23 and 9cee7e8ef3e3 (both in v6.8)
 * and v6.9 have the v6.8 struct (their diffs change struct
 * memcg_vmstats_percpu in mm/memcontrol.c, not struct mem_cgroup).
 */
#define MEMCG_NR_MEMORY_EVENTS_V6 9
struct memcg_vmstats;
#define MEMCG_V6_HEAD                                                         \
	struct cgroup_subsys_state css;                                       \
	struct mem_cgroup_id id;                                              \
	struct page_counter_v6_1 memory;                                      \
	union {                                                               \
		struct page_counter_v6_1 swap;                                \
		struct page_counter_v6_1 memsw;                               \
	};                                                                    \
	struct page_counter_v6_1 kmem;                                        \
	struct page_counter_v6_1 tcpmem;                                      \
	struct work_struct high_work;                                         \
	unsigned long zswap_max;
#define MEMCG_V6_MID                                                          \
	unsigned long soft_limit;                                             \
	struct vmpressure vmpressure;                                         \
	bool oom_group;                                                       \
	bool oom_lock;                                                        \
	int under_oom;                                                        \
	int swappiness;                                                       \
	int oom_kill_disable;                                                 \
	struct cgroup_file events_file;                                       \
	struct cgroup_file events_local_file;                                 \
	struct cgroup_file swap_events_file;                                  \
	struct mutex thresholds_lock;                                         \
	struct mem_cgroup_thresholds thresholds;                              \
	struct mem_cgroup_thresholds memsw_thresholds;                        \
	struct list_head oom_notify;                                          \
	unsigned long move_charge_at_immigrate;                               \
	spinlock_t move_lock;                                                 \
	unsigned long move_lock_flags;                                        \
	struct cacheline_padding _pad1_;                                      \
	struct memcg_vmstats *vmstats;                                        \
	atomic_long_t memory_events[MEMCG_NR_MEMORY_EVENTS_V6];               \
	atomic_long_t memory_events_local[MEMCG_NR_MEMORY_EVENTS_V6];         \
	unsigned long socket_pressure;                                        \
	bool tcpmem_active;                                                   \
	int tcpmem_pressure;                                                  \
	int kmemcg_id;                                                        \
	struct obj_cgroup *objcg;                                             \
	struct list_head objcg_list;                                          \
	struct cacheline_padding _pad2_;                                      \
	atomic_t moving_account;                                              \
	struct task_struct *move_lock_task;                                   \
	struct memcg_vmstats_percpu *vmstats_percpu;
struct mem_cgroup_v6_7 {
	MEMCG_V6_HEAD
	MEMCG_V6_MID
};
struct mem_cgroup_v6_8 {
	MEMCG_V6_HEAD
	bool zswap_writeback;
	MEMCG_V6_MID
};

/* ---- offsetof() tables ---- */
#define MSZ(T, m) sizeof(((struct T *)0)->m)
#define M(T, m) { #m, offsetof(struct T, m), MSZ(T, m) }
#define MN(T, f) { "memory." #f, offsetof(struct T, memory.f), MSZ(T, memory.f) }
#define MS(T, f) { "swap." #f, offsetof(struct T, swap.f), MSZ(T, swap.f) }
#define PC_LIST(X, T)                                                         \
	X(T, usage), X(T, min), X(T, low), X(T, high), X(T, max),             \
	X(T, parent), X(T, emin), X(T, min_usage), X(T, children_min_usage),  \
	X(T, elow), X(T, low_usage), X(T, children_low_usage),                \
	X(T, watermark), X(T, failcnt)

static const struct kstruct_member pc_v5[] = { PC_LIST(M, page_counter_v5) };
static const struct kstruct_member pc_802f[] = { PC_LIST(M, page_counter_802f) };
static const struct kstruct_member pc_v6_18[] = {
	PC_LIST(M, page_counter_v6_18), M(page_counter_v6_18, _pad1_),
	M(page_counter_v6_18, _pad2_), M(page_counter_v6_18, local_watermark),
	M(page_counter_v6_18, protection_support), M(page_counter_v6_18, track_failcnt),
};
static const struct kstruct_member pc_v6_1[] = {
	PC_LIST(M, page_counter_v6_1), M(page_counter_v6_1, _pad1_),
	M(page_counter_v6_1, _pad2_),
};

#define CSS_MEMBERS(T)                                                        \
	M(T, css.cgroup), M(T, css.ss), M(T, css.refcnt), M(T, css.sibling),  \
	M(T, css.children), M(T, css.rstat_css_node), M(T, css.id),           \
	M(T, css.flags), M(T, css.serial_nr), M(T, css.online_cnt),           \
	M(T, css.destroy_work), M(T, css.destroy_rwork), M(T, css.parent)
#define MEMCG_V5_10_MEMBERS(T)                                                \
	CSS_MEMBERS(T), M(T, id), M(T, memory), PC_LIST(MN, T),       \
	M(T, swap), MS(T, usage), MS(T, high), M(T, memsw), M(T, kmem),       \
	M(T, tcpmem), M(T, high_work),                                        \
	M(T, soft_limit), M(T, vmpressure), M(T, use_hierarchy),              \
	M(T, oom_group), M(T, oom_lock), M(T, under_oom), M(T, swappiness),   \
	M(T, oom_kill_disable), M(T, events_file), M(T, events_local_file),   \
	M(T, swap_events_file), M(T, thresholds_lock), M(T, thresholds),      \
	M(T, memsw_thresholds), M(T, oom_notify),                             \
	M(T, move_charge_at_immigrate), M(T, move_lock),                      \
	M(T, move_lock_flags), M(T, _pad1_), M(T, moving_account),            \
	M(T, move_lock_task), M(T, vmstats_local), M(T, vmstats_percpu),      \
	M(T, _pad2_), M(T, vmstats), M(T, vmevents), M(T, memory_events),     \
	M(T, memory_events_local), M(T, socket_pressure),                     \
	M(T, tcpmem_active), M(T, tcpmem_pressure), M(T, kmemcg_id),          \
	M(T, kmem_state), M(T, objcg), M(T, objcg_list)

static const struct kstruct_member mc_v5_9[] = { MEMCG_V5_10_MEMBERS(mem_cgroup_v5_9) };
static const struct kstruct_member mc_bd0b[] = { MEMCG_V5_10_MEMBERS(mem_cgroup_bd0b) };
static const struct kstruct_member mc_4df9[] = { MEMCG_V5_10_MEMBERS(mem_cgroup_4df9) };

#define MEMCG_V6_MEMBERS(T)                                                   \
	CSS_MEMBERS(T), M(T, id), M(T, memory), PC_LIST(MN, T),               \
	M(T, swap), MS(T, usage), MS(T, high), M(T, memsw), M(T, kmem),       \
	M(T, tcpmem), M(T, high_work), M(T, zswap_max), M(T, soft_limit),     \
	M(T, vmpressure), M(T, oom_group), M(T, oom_lock), M(T, under_oom),   \
	M(T, swappiness), M(T, oom_kill_disable), M(T, events_file),          \
	M(T, events_local_file), M(T, swap_events_file),                      \
	M(T, thresholds_lock), M(T, thresholds), M(T, memsw_thresholds),      \
	M(T, oom_notify), M(T, move_charge_at_immigrate), M(T, move_lock),    \
	M(T, move_lock_flags), M(T, _pad1_), M(T, vmstats),                   \
	M(T, memory_events), M(T, memory_events_local),                       \
	M(T, socket_pressure), M(T, tcpmem_active), M(T, tcpmem_pressure),    \
	M(T, kmemcg_id), M(T, objcg), M(T, objcg_list), M(T, _pad2_),         \
	M(T, moving_account), M(T, move_lock_task), M(T, vmstats_percpu)
static const struct kstruct_member mc_v6_7[] = { MEMCG_V6_MEMBERS(mem_cgroup_v6_7) };
static const struct kstruct_member mc_v6_8[] = {
	MEMCG_V6_MEMBERS(mem_cgroup_v6_8), M(mem_cgroup_v6_8, zswap_writeback),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define PC_SRC_802F "diff of 802f1d522d5f (include/linux/page_counter.h 85bd413..6795913)"
#define MC_SRC "include/linux/memcontrol.h of v5.10.13 (Rtoax/linux-5.10.13)"

static const struct kstruct_decl decl_pc_v5 = {
	"page_counter@v5", KSTRUCT_PAGE_COUNTER, "v5",
	"before 802f1d522d5f: " PC_SRC_802F " (the removed lines)",
	pc_v5, N(pc_v5), sizeof(struct page_counter_v5), true,
};
static const struct kstruct_decl decl_pc_802f = {
	"page_counter@802f1d522d5f", KSTRUCT_PAGE_COUNTER, "802f1d522d5f",
	PC_SRC_802F "; torvalds/linux include/linux/page_counter.h (blob at 0d3001e2690a)",
	pc_802f, N(pc_802f), sizeof(struct page_counter_802f), true,
};
static const struct kstruct_decl decl_pc_v6_1 = {
	"page_counter@408587baee39", KSTRUCT_PAGE_COUNTER, "408587baee39",
	"408587baee39 (v6.1) as /work/shared/reference/kernel.md quotes it (file not read at the commit)",
	pc_v6_1, N(pc_v6_1), sizeof(struct page_counter_v6_1), true,
};
static const struct kstruct_decl decl_pc_v6_18 = {
	"page_counter@v6.18", KSTRUCT_PAGE_COUNTER, "v6.18",
	"include/linux/page_counter.h as stored for Kingxukai/linux (blob of 9b44fff655e2, "
	"a CONFIG_CGROUP_DMEM-era tree, 6.14+); checked against the BTF of a 6.18 kernel",
	pc_v6_18, N(pc_v6_18), sizeof(struct page_counter_v6_18), true,
};
static const struct kstruct_decl decl_mc_v5_9 = {
	"mem_cgroup@bd0b230fe145^", KSTRUCT_MEM_CGROUP, "bd0b230fe145^",
	MC_SRC " with the diffs of 4df910620beb and bd0b230fe145 reverted",
	mc_v5_9, N(mc_v5_9), offsetof(struct mem_cgroup_v5_9, objcg_list) +
		MSZ(mem_cgroup_v5_9, objcg_list), false,
};
static const struct kstruct_decl decl_mc_bd0b = {
	"mem_cgroup@bd0b230fe145", KSTRUCT_MEM_CGROUP, "bd0b230fe145",
	MC_SRC " with the diff of 4df910620beb reverted",
	mc_bd0b, N(mc_bd0b), offsetof(struct mem_cgroup_bd0b, objcg_list) +
		MSZ(mem_cgroup_bd0b, objcg_list), false,
};
static const struct kstruct_decl decl_mc_4df9 = {
	"mem_cgroup@4df910620beb", KSTRUCT_MEM_CGROUP, "4df910620beb",
	MC_SRC " (carries 4df910620beb)",
	mc_4df9, N(mc_4df9), offsetof(struct mem_cgroup_4df9, vmstats_percpu) +
		MSZ(mem_cgroup_4df9, vmstats_percpu), false,
};
static const struct kstruct_decl decl_mc_v6_7 = {
	"mem_cgroup@v6.7", KSTRUCT_MEM_CGROUP, "v6.7",
	"include/linux/memcontrol.h of the v6.2..v6.7 range (stored copy, search-tool id 44268685)",
	mc_v6_7, N(mc_v6_7), offsetof(struct mem_cgroup_v6_7, vmstats_percpu) +
		MSZ(mem_cgroup_v6_7, vmstats_percpu), false,
};
static const struct kstruct_decl decl_mc_v6_8 = {
	"mem_cgroup@v6.8", KSTRUCT_MEM_CGROUP, "v6.8",
	"v6.7's with bool zswap_writeback (501a06fe8e4c, v6.8-rc1: its diff of include/linux/memcontrol.h)",
	mc_v6_8, N(mc_v6_8), offsetof(struct mem_cgroup_v6_8, vmstats_percpu) +
		MSZ(mem_cgroup_v6_8, vmstats_percpu), false,
};
REGISTER(kstruct_decl, decl_pc_v5);
REGISTER(kstruct_decl, decl_pc_802f);
REGISTER(kstruct_decl, decl_pc_v6_1);
REGISTER(kstruct_decl, decl_pc_v6_18);
REGISTER(kstruct_decl, decl_mc_v5_9);
REGISTER(kstruct_decl, decl_mc_bd0b);
REGISTER(kstruct_decl, decl_mc_4df9);
REGISTER(kstruct_decl, decl_mc_v6_7);
REGISTER(kstruct_decl, decl_mc_v6_8);

/* ---- lookups ---- */
REGISTRY_BOUNDS(kstruct_decl);
DEFINE_REGISTRY_LOOKUP(kstruct_decl, struct kstruct_decl, kstruct_decl_all, kstruct_decl_by_name)

const char *const kstruct_names[KSTRUCT_NR] = {
	[KSTRUCT_MEM_CGROUP] = "mem_cgroup",
	[KSTRUCT_PAGE_COUNTER] = "page_counter",
};

enum kstruct_kind kstruct_kind_parse(const char *name)
{
	for (int k = 0; k < KSTRUCT_NR; k++)
		if (!strcmp(name, kstruct_names[k]))
			return (enum kstruct_kind)k;
	return KSTRUCT_NR;
}

const struct kstruct_decl *kstruct_decl_find(enum kstruct_kind k, const char *version)
{
	const struct kstruct_decl **v;
	size_t n = kstruct_decl_all(&v);

	for (size_t i = 0; i < n; i++)
		if (v[i]->kind == k && !strcmp(v[i]->version, version))
			return v[i];
	return NULL;
}

const struct kstruct_member *kstruct_member(const struct kstruct_decl *d, const char *name)
{
	for (size_t i = 0; i < d->nmembers; i++)
		if (!strcmp(d->members[i].name, name))
			return &d->members[i];
	return NULL;
}

/* ---- the model's page_counter (knob pc_layout) ---- */
static const struct knob_value pc_layout_values[] = {
	{ "v5", "before 802f1d522d5f (v5.x up to v5.11): parent and max on usage's 64 B line" },
	{ "802f1d522d5f", "802f1d522d5f (v5.12-rc1): parent at the end, off usage's line" },
	{ "408587baee39", "408587baee39 (v6.1): usage alone on its line, watermark/failcnt next, limits and parent after PC_PADDING" },
	{ "v6.18", "a 6.14+ tree and the 6.18 BTF: failcnt beside usage, local_watermark, flags before the limits" },
	{ NULL, NULL },
};
const struct knob knob_pc_layout = {
	.name = "pc_layout", .owner = "model", .type = KNOB_ENUM, .def = "408587baee39",
	.values = pc_layout_values,
	.help = "field layout of struct page_counter the charge path reads and writes (offsets derived by the compiler)",
};
REGISTER(knob, knob_pc_layout);

static size_t member_off(const struct kstruct_decl *d, const char *name)
{
	const struct kstruct_member *mb = kstruct_member(d, name);

	if (!mb)
		die(1, "internal error: %s declares no member %s", d->name, name);
	return mb->off;
}

void pc_offsets_of(struct pc_offsets *o, const char *version)
{
	const struct kstruct_decl *d = kstruct_decl_find(KSTRUCT_PAGE_COUNTER, version);

	if (!d || d->size > PC_MAX_BYTES)
		die(1, "internal error: no usable page_counter layout '%s'", version);
	*o = (struct pc_offsets){ .version = d->version, .usage = member_off(d, "usage"),
				  .max = member_off(d, "max"), .parent = member_off(d, "parent"),
				  .watermark = member_off(d, "watermark"),
				  .failcnt = member_off(d, "failcnt"), .size = d->size,
				  .min = member_off(d, "min"), .low = member_off(d, "low"),
				  .high = member_off(d, "high"),
				  .min_usage = member_off(d, "min_usage"),
				  .low_usage = member_off(d, "low_usage") };
}

/* ---- the model's struct mem_cgroup (knob mc_layout) ---- */
static const struct knob_value mc_layout_values[] = {
	{ "isolated", "no kernel's: css.parent, memory, swap, vmstats and vmstats_percpu each on lines of their own" },
	{ "bd0b230fe145^", "v5.10-rc1 before bd0b230fe145: swap and memsw separate (css.parent and memory.usage on one line)" },
	{ "bd0b230fe145", "bd0b230fe145 (v5.10-rc1): swap and memsw a union" },
	{ "4df910620beb", "4df910620beb (v5.10-rc6, v5.10): the per-CPU pointers behind _pad2_" },
	{ "v6.7", "v6.2..v6.7: page_counters internode-aligned, vmstats after _pad1_, vmstats_percpu after _pad2_" },
	{ "v6.8", "v6.8: v6.7's with zswap_writeback" },
	{ NULL, NULL },
};
const struct knob knob_mc_layout = {
	.name = "mc_layout", .owner = "model", .type = KNOB_ENUM, .def = "isolated",
	.values = mc_layout_values,
	.help = "field layout of struct mem_cgroup the charge and stats paths read (offsets derived by the compiler)",
};
REGISTER(knob, knob_mc_layout);

void mc_offsets_of(struct mc_offsets *o, const char *version)
{
	const struct kstruct_decl *d;

	if (!strcmp(version, "isolated")) {
		/* the lines struct mcg gave them before: css.parent at 128,
		 * memory (192 B) at 192, then swap, vmstats, vmstats_percpu */
		*o = (struct mc_offsets){ .version = "isolated", .css_parent = 128, .memory = 192,
					  .swap = 192 + PC_MAX_BYTES, .vmstats = 192 + 2 * PC_MAX_BYTES,
					  .vmstats_percpu = 256 + 2 * PC_MAX_BYTES,
					  .size = 320 + 2 * PC_MAX_BYTES };
		return;
	}
	d = kstruct_decl_find(KSTRUCT_MEM_CGROUP, version);
	if (!d || d->size > MCG_KBYTES)
		die(1, "internal error: no usable mem_cgroup layout '%s'", version);
	*o = (struct mc_offsets){ .version = d->version, .css_parent = member_off(d, "css.parent"),
				  .memory = member_off(d, "memory"), .swap = member_off(d, "swap"),
				  .vmstats = member_off(d, "vmstats"),
				  .vmstats_percpu = member_off(d, "vmstats_percpu"), .size = d->size,
				  /* v5.x parent_mem_cgroup(): memory.parent */
				  .parent_via_counter = !strncmp(d->name, "mem_cgroup@v6", 13) ? false : true };
	/* v5.x declares the arrays themselves (MEMCG_V5_10_STATS) */
	{
		const struct kstruct_member *st = kstruct_member(d, "vmstats"),
					    *ev = kstruct_member(d, "vmevents");

		if (ev) {
			o->stats_inline = true;
			o->vmevents = ev->off;
			o->nr_vmstats = st->size / sizeof(long);
			o->nr_vmevents = ev->size / sizeof(long);
		}
	}
}

const char *kernel_struct_version(const struct knob_profile *p, enum kstruct_kind k)
{
	const char *knob = k == KSTRUCT_PAGE_COUNTER ? knob_pc_layout.name : knob_mc_layout.name;

	for (const struct knob_preset *s = p->sets; s->knob; s++)
		if (!strcmp(s->knob, knob))
			return s->value;
	return NULL;
}
