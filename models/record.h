/*
 * record.h - the access recorder: the memcg model's own execution, one
 * worker, logged as the simulator needs it.  Every hot path of
 * models/memcg.c and models/lru.c reports each access to a line another
 * CPU could hold (by address: the recorder names the object and the
 * 64 B line, and the scope the simulator gives it), its kind (read,
 * plain write, atomic read-modify-write), whether it runs inside a lock
 * (which one: an LRU lock, zone->lock, an mm lock), each lock hold, and
 * the per-CPU work it does (per-CPU adds, list operations, ancestor-walk
 * levels, pages and struct page lines under zone->lock), in all and
 * under each lock (local_in).  The lock word's
 * own traffic is not an access here: the simulator's lock op is.
 *
 * predict/sim_memcg.c builds a workload's simulator program from such a
 * recording, so the model's execution, and nothing written beside it, is
 * the program.  Measured runs execute no hook (see MODEL_REC_BUILD below).
 *
 * The recording of a workload is made by the workload layer (a
 * `model_recorder` registered by workloads/model/model_workload.c), found
 * here through the registry, so predict/ never names a workload.
 */
#ifndef MEMSCALE_MODELS_RECORD_H
#define MEMSCALE_MODELS_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/knob.h"
#include "core/registry.h"

struct model;
struct model_params;

enum rec_kind { REC_READ, REC_WRITE, REC_RMW, REC_NKIND };
/* Mirrored, value for value, by predict/sim.h's enum sim_scope (the
 * simulator knows no model); predict/sim_memcg.c asserts it. */
enum rec_scope { RS_GLOBAL, RS_NODE, RS_MEMCG, RS_MEMCG_NODE, RS_CORE_,
		 /* a container's object reached by global reclaim's memcg
		  * walk (rec->walk): the walk's memcg, not the worker's */
		 RS_MEMCG_WALK, RS_MEMCG_NODE_WALK };
/* Per-CPU work, priced by the simulator's cost table. */
enum rec_local {
	RL_PERCPU,        /* a per-CPU add or batch slot (this CPU's lines) */
	RL_LIST,          /* one list_add or list_del on the LRU */
	RL_WALK_PERMEMCG, /* one level of 8d59d2214c23's parent_mem_cgroup() walk
			   * (its RL_WALK_PERMEMCG_READS loads of shared memcg
			   * lines are recorded as accesses besides) */
	RL_WALK_CACHED,   /* one level of 9cee7e8ef3e3's statc->parent walk */
	RL_BUDDY_PAGE,    /* one page between a pcp list and the buddy lists
			   * under zone->lock (a round of rmqueue_bulk or
			   * free_pcppages_bulk) */
	RL_PAGE_LINE,     /* a struct page line touched under zone->lock that
			   * another CPU may have written last (a page taken
			   * from the buddy lists) */
	RL_PAGE_HOT,      /* one this CPU touched just before taking the lock
			   * (a drained page, unlinked from the pcp list
			   * first; its buddy, prefetched then) */
	RL_PAGE_FAR,      /* a struct page line of any page of a full node
			   * read under zone->lock (buddy_merge_likely()'s
			   * order-1 buddy while reclaim frees the pages:
			   * models/page_alloc.c) */
	RL_FOLIO_ATOMIC,  /* a locked read-modify-write of a folio's own
			   * struct page line (flags bit op, refcount) made
			   * under an LRU lock (models/lru.c says which) */
	RL_LIST_ISOLATE,  /* of the RL_LIST operations, one that reclaim's
			   * isolation made (isolate_lru_folios: counted in
			   * RL_LIST as well; the kernel batches its stat
			   * updates, predict/kpath.h prices it apart) */
	RL_RECLAIM_FOLIO, /* a folio reclaim freed: its work outside the LRU
			   * and zone locks (shrink_folio_list and the rest
			   * of the reclaim call, per folio; predict/kpath.h
			   * reclaim) */
	RL_FLUSH_REQ,     /* a flush of the stats asked for by a worker: the
			   * update path's (aa48e47e3906's queue_work every
			   * MEMCG_CHARGE_BATCH lruvec updates) or a reader's
			   * past its design's trigger (reclaim).  No work of
			   * its own here: the simulator prices the flusher
			   * from their rate (predict/sim_memcg.c flusher) */
	RL_NR
};
extern const char *const rec_kind_names[REC_NKIND];
/* The shared-line reads each RL_WALK_PERMEMCG level records with
 * MODEL_REC (memcg->vmstats_percpu and css.parent: models/stats/
 * rstat_permemcg.c), which the simulator takes out of the level's probe
 * figure (predict/sim_memcg.c). */
#define RL_WALK_PERMEMCG_READS 2

#define REC_MAX_LINES 96
#define REC_MAX_LOCKS 8
#define REC_MAX_PCPU 64
_Static_assert(REC_MAX_LOCKS + 1 <= 16, "pcpu_where: a bit per lock and one outside");

struct rec_line {
	char obj[32];        /* object: "memcg[L1]", "pn[L0]", "pgdat", ... */
	size_t off;          /* byte offset of the 64 B line in the object */
	enum rec_scope scope;
};

struct model_rec {
	unsigned nlines, nlocks;
	struct rec_line lines[REC_MAX_LINES];
	unsigned lock_line[REC_MAX_LOCKS]; /* the line of each lock's word */
	int held;                          /* lock held now, -1: none */
	bool paused;                       /* inside a flush: not recorded */
	bool walk;                         /* inside global reclaim's memcg walk
					    * (models/lru.c model_reclaim): a
					    * container's objects get the walk's
					    * scopes */
	uint64_t ops;                      /* benchmark operations recorded */
	uint64_t holds[REC_MAX_LOCKS];
	/* accesses per line, kind and place: [0] outside, [1 + lock] inside */
	uint64_t n[REC_MAX_LINES][REC_NKIND][REC_MAX_LOCKS + 1];
	/* the part of n[][REC_READ][] that follows the worker's own write or
	 * atomic of the same line in the same stretch (one operation, no
	 * lock taken or released since): reads the simulator issues after
	 * the writes (a hit unless another CPU took the line meanwhile), the
	 * others before them */
	uint64_t warm[REC_MAX_LINES][REC_MAX_LOCKS + 1];
	/* the stretch: advanced at each operation (model_rec_op), lock and
	 * unlock; the stretch of each line's last write */
	uint64_t stretch, wrote_in[REC_MAX_LINES];
	uint64_t local[RL_NR];
	/* the part of local[] done while holding each lock */
	uint64_t local_in[REC_MAX_LOCKS][RL_NR];
	unsigned pcp_high, pcp_batch;      /* the page allocator's, at the recording */
	/* Global reclaim (models/page_alloc.h, model_page_free_reclaimed): what
	 * the model did inside model_reclaim(), recorded apart, its ops the
	 * reclaim calls in the window (one 32-page isolation each): the part
	 * a reclaimer that is not the worker (kswapd) can take over
	 * (predict/sim_memcg.c).  NULL: no global reclaim.  Kept by attach. */
	struct model_rec *actor;
	/* the kernel's entries per operation (struct mwl_kentry) */
	double faults, syscalls, copies, clears, private_atomics;
	/* The distinct 64 B lines of this CPU's per-CPU stats state that its
	 * updates wrote and a flush reads or writes back (model_rec_pcpu):
	 * statc->state[] and events[] slots, the lruvec's per-CPU state[]
	 * slots, the per-memcg stats_updates counters, the rstat_cpu links
	 * and cgroup_rstat_cpu_lock.  Each flush moves them to the flusher
	 * and the owner's next write back (predict/sim_memcg.c flusher). */
	unsigned npcpu;
	uintptr_t pcpu_line[REC_MAX_PCPU];
	/* where each was written: bit 0 outside every lock, bit 1 + l under
	 * lock l (a line written only under an LRU lock is taken back inside
	 * that lock's section after a flush) */
	uint16_t pcpu_where[REC_MAX_PCPU];
	unsigned unknown;                  /* accesses the recorder could not place */
	/* The LRU list's folio neighbours (model_rec_nbr): per page of the
	 * model (index in m->pages) the stretch + 1 of the section that put
	 * it on its list (0: none seen), allocated at the first use and kept
	 * by clear (zeroed then) */
	uint64_t *pg_run;
	size_t pg_nrun;
	/* element level, for the audit (models/access.h): every distinct
	 * access to the worker's own mem_cgroup_per_node block (node 0),
	 * by field and offset in it; the lock word as an atomic outside */
	unsigned nelems;
	struct rec_elem {
		int field;           /* enum pn_field */
		size_t delta;        /* offset in the field */
		enum rec_kind kind;
		bool locked;         /* under an LRU lock */
	} elems[64];
	/* elems' index by offset in the block: bit 2 * kind + locked of
	 * elem_seen[off] says elems holds that access (blocks past its size
	 * are searched) */
	uint8_t elem_seen[8192];
	/* line of a 64 B address (direct-mapped; +1, 0: empty) */
	uintptr_t cache_addr[256];
	int cache_line[256];
};

/* Zeroes r and its actor's recorder, keeping the actor attached. */
void model_rec_clear(struct model_rec *r);
/* Starts counting (after a warm-up): clears every count. */
void model_rec_reset(struct model_rec *r);

/* r's index of the line (obj, off, scope) and of the lock whose word is
 * on line l, each added when new; -1 when r has no room for it.  The
 * recorder's hooks use them, and so does a merge of two recordings
 * (predict/sim_memcg.c). */
int model_rec_line_of(struct model_rec *r, const char *obj, size_t off, enum rec_scope scope);
int model_rec_lock_of(struct model_rec *r, unsigned l);

/* A new benchmark operation begins (the recording's driver calls it;
 * model_reclaim for the reclaim calls recorded apart). */
static inline void model_rec_op(struct model_rec *r)
{
	r->stretch++;
}

/*
 * Stops recording (the work that follows is no part of the recorded
 * program) and says whether it was stopped already; model_rec_resume
 * restores that, so pauses nest (a flush inside a paused stretch).
 */
static inline bool model_rec_pause(struct model_rec *r)
{
	bool was = r && r->paused;

	if (r)
		r->paused = true;
	return was;
}

static inline void model_rec_resume(struct model_rec *r, bool was)
{
	if (r)
		r->paused = was;
}

/* The hooks (out of line: the slow path). */
__attribute__((cold)) void model_rec_access(const struct model *m, const void *addr,
					 enum rec_kind k);
__attribute__((cold)) void model_rec_lock(const struct model *m, const void *lock);
__attribute__((cold)) void model_rec_unlock(const struct model *m);
__attribute__((cold)) void model_rec_local(const struct model *m, enum rec_local l);
/* A write of this CPU's per-CPU stats state at addr (struct model_rec
 * npcpu): its 64 B line joins the set, once. */
__attribute__((cold)) void model_rec_pcpu(const struct model *m, const void *addr);
/*
 * A list_add or list_del on the LRU list of the lruvec in block `pn`
 * writes a neighbour folio's struct page (lru.prev or lru.next):
 * `which` NBR_ADD for list_add's old first folio, NBR_DEL_PREV and
 * NBR_DEL_NEXT for list_del's two.  `pg` is the folio added or deleted
 * (NBR_ADD: marks it as put on the list by this section), `nbr` the
 * neighbour (NULL: the list head, recorded apart).  A neighbour put on
 * the list by another section than pg's (a run of folios one lock hold
 * added: on a lruvec several CPUs feed, another CPU's run) is a line
 * another CPU may have written last: recorded as a write of the line
 * "folio[Ln]" + 128 * which of the lruvec's scope, so the simulator
 * charges a transfer when the section before was another core's.  A
 * neighbour of pg's own run is this CPU's hot line (not recorded).
 */
enum rec_nbr { NBR_ADD, NBR_DEL_PREV, NBR_DEL_NEXT };
__attribute__((cold)) void model_rec_nbr(const struct model *m, const void *pn,
					 const void *pg, const void *nbr, enum rec_nbr which);

/*
 * Two builds of the dual-built files (models/memcg.c, models/lru.c, the
 * Makefile's MODEL_REC_SRCS): the recording copy, compiled with
 * MODEL_REC_BUILD and every global symbol renamed NAME_rec, runs the
 * hooks; the normal copy, compiled with MODEL_REC_HANDOFF, has none, and
 * each of its entry points hands the call to the recording copy when a
 * recorder is attached (MODEL_REC_ENTRY, one branch per model call
 * instead of one per access).  A measured run never executes their hooks.
 * Every other hooked file (a stats design under models/stats/, reached
 * through its function pointers from both copies; models/lru_gen.c) is
 * built once and keeps the run-time check per access: that is the
 * default, so a new plug-in is recorded without any build rule.
 */
#if defined(MODEL_REC_HANDOFF) && !defined(MODEL_REC_BUILD)
#define MODEL_REC(m, addr, kind) ((void)0)
#define MODEL_REC_LOCAL(m, what) ((void)0)
#define MODEL_REC_PCPU(m, addr) ((void)0)
#define MODEL_REC_ON(m) 0
#define MODEL_REC_NBR(m, pn, pg, nbr, which) ((void)0)
/* First statement of an entry point of a dual-built file: with a recorder
 * attached, the recording copy (fn##_rec, the same source) runs the call. */
#define MODEL_REC_ENTRY(m, fn, ...)                                           \
	do {                                                                  \
		extern __typeof__(fn) fn##_rec;                               \
		if (__builtin_expect((m)->rec != NULL, 0))                    \
			return fn##_rec(__VA_ARGS__);                         \
	} while (0)
#define MODEL_REC_ENTRY_VOID(m, fn, ...)                                      \
	do {                                                                  \
		extern __typeof__(fn) fn##_rec;                               \
		if (__builtin_expect((m)->rec != NULL, 0)) {                  \
			fn##_rec(__VA_ARGS__);                                \
			return;                                               \
		}                                                             \
	} while (0)
#else
#define MODEL_REC(m, addr, kind)                                              \
	do {                                                                  \
		if (__builtin_expect((m)->rec != NULL, 0))                    \
			model_rec_access((m), (addr), (kind));                \
	} while (0)
#define MODEL_REC_LOCAL(m, what)                                              \
	do {                                                                  \
		if (__builtin_expect((m)->rec != NULL, 0))                    \
			model_rec_local((m), (what));                         \
	} while (0)
#define MODEL_REC_PCPU(m, addr)                                               \
	do {                                                                  \
		if (__builtin_expect((m)->rec != NULL, 0))                    \
			model_rec_pcpu((m), (addr));                          \
	} while (0)
#define MODEL_REC_ON(m) __builtin_expect((m)->rec != NULL, 0)
#define MODEL_REC_NBR(m, pn, pg, nbr, which)                                  \
	do {                                                                  \
		if (__builtin_expect((m)->rec != NULL, 0))                    \
			model_rec_nbr((m), (pn), (pg), (nbr), (which));       \
	} while (0)
#define MODEL_REC_ENTRY(m, fn, ...) ((void)0)
#define MODEL_REC_ENTRY_VOID(m, fn, ...) ((void)0)
#endif

/* The window recordings use: after a warm-up, two full will-it-scale
 * regions (MWL_WIS_PAGES, workloads/model/model_workload.h), so every
 * region ending (munmap, truncate) falls into it as often as it does in
 * steady state. */
#define MODEL_REC_WARMUP 40000
#define MODEL_REC_OPS 65536

/* Same model parameters, field by field (a cache key of recordings). */
bool model_params_equal(const struct model_params *a, const struct model_params *b);

/* The CPU count a recording is made at: the thresholds it sets are those
 * of the 52..224-CPU machines the predictions are for (the vmstat
 * threshold saturates at 125 from 6 CPUs on at 64 GB). */
#define MODEL_REC_CPUS 224

/* A maker of recordings (the workload layer registers one). */
struct model_recorder {
	const char *name;
	/* Is `workload` a model workload it can record? */
	bool (*known)(const char *workload);
	/* Runs `warmup` then `ops` operations of `workload` on one worker
	 * under the model parameters p, recording the second part into *r
	 * (an operation of E > 1.5 kernel entries - faults and syscalls -
	 * counts as E: ops / E + 16 of them; r->ops says how many ran).
	 * 0, or the exit status after a message. */
	int (*record)(const char *workload, const struct model_params *p,
		      uint64_t warmup, uint64_t ops, struct model_rec *r);
	/* Names of the workloads it knows, one at a time (NULL at the end). */
	const char *(*workload_at)(size_t i);
};
/* The registered recorder (there is one), or NULL. */
const struct model_recorder *model_recorder(void);
/* A recording of workload under p (warm-up and window as given), made
 * once and kept (by workload and parameters, the MODEL_REC_CACHED asked
 * for last, found or made: a further one replaces the one used least
 * recently, and its memory is a later one's);
 * NULL for a workload the recorder does not know or a failed run.  Any
 * thread may call it; different recordings are made at once, a second
 * request for one being made waits for it. */
#define MODEL_REC_CACHED 16 /* more than the workloads with an access shape
			     * (11): `memscale layout` reads each of a layout's
			     * recordings twice and makes it once */
const struct model_rec *model_rec_cached(const char *workload, const struct model_params *p,
					 uint64_t warmup, uint64_t ops);
/* How many recordings model_rec_cached has made (run the recorder for)
 * in this process, failed ones included. */
uint64_t model_rec_made(void);
/* Makes the recordings of the n pairs (wl[i], p[i]) that are not kept,
 * up to `jobs` at once (threads; at most MODEL_REC_CACHED), so that
 * model_rec_cached finds them: n at most MODEL_REC_CACHED, or the first
 * are let go again. */
void model_rec_prefetch(const char *const *wl, const struct model_params *p, size_t n,
			uint64_t warmup, uint64_t ops, unsigned jobs);

#endif
