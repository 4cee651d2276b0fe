/*
 * stats.h - the memcg stats design as a plug-in: how a stat update reaches
 * shared memory, what triggers a flush and what it covers, and how the
 * update walks the ancestors.  One design is one file in models/stats/
 * with a `const struct stats_design` and REGISTER(stats_design, NAME);
 * the `stats` knob's values, `memscale list stats`, the knobs a path
 * reads (models/knobs.c), the calibration probes of the walks
 * (harness/calib_probe.c) and the tests all come from the registry.
 *
 * The machinery every rstat design shares (the per-CPU add, the per-CPU
 * updated tree of cgroup_rstat_updated(), the flush) is models/memcg.c;
 * a design gives only what differs: its trigger (`updated`,
 * `should_flush`), the flush's scope, and, for a design that is not rstat
 * at all (v5.10's atomics), its own update and final-fold paths.
 */
#ifndef MEMSCALE_MODELS_STATS_STATS_H
#define MEMSCALE_MODELS_STATS_STATS_H

#include "core/registry.h"
#include "models/memcg_types.h"

/* What a reader-side flush (and the periodic flusher) covers. */
enum stats_flush_scope {
	STATS_FLUSH_NONE,    /* no flush: readers see shared atomics (v5.10) */
	STATS_FLUSH_TREE,    /* the whole tree (global threshold designs) */
	STATS_FLUSH_SUBTREE, /* the reader memcg's subtree (7d7ef0a4686a) */
};

struct stats_design {
	const char *name;        /* the `stats` knob's value */
	const char *commit;      /* the kernel commit it follows (12 hex) */
	const char *description; /* one line: what it is */
	/* In words, for `memscale list stats` and the docs: */
	const char *update;      /* the update path */
	const char *trigger;     /* the flush trigger */
	const char *walk;        /* the ancestor walk of an update */
	enum stats_flush_scope scope;
	/* The calibration probe measuring one level of its ancestor walk
	 * (harness/calib_probe.c runs it, predict reads it by this name);
	 * NULL: the walk has no probe of its own. */
	const char *probe;
	/* The model knobs its paths read, NULL-terminated: a knob any design
	 * lists is refused when set for a design that does not list it
	 * (model_knobs_check_read()).  A design listing "stats_batch" folds
	 * with it; the periodic flusher reads "flush_ms". */
	const char *const *reads;
	/* Its readers see atomics inside struct mem_cgroup (v5.x vmstats[]
	 * and vmevents[]): on an mc_layout that declares them the totals
	 * live there (mcg_stat_total()). */
	bool totals_in_memcg;

	/* __mod_memcg_lruvec_state()'s memcg part and __count_memcg_events()
	 * (after the node part and the exact shadow counts).  NULL: the
	 * rstat path of models/memcg.c (per-CPU add, cgroup_rstat_updated(),
	 * then `updated`). */
	void (*mod_state)(struct model_worker *mw, struct mcg *memcg, unsigned nid,
			  enum stat_item idx, long val);
	void (*count_event)(struct model_worker *mw, struct mcg *memcg,
			    enum event_item ev, long n);
	/* rstat: memcg_rstat_updated()'s trigger part; val = |update| > 0.
	 * NULL: nothing counted on update. */
	void (*updated)(struct model_worker *mw, struct mcg *memcg, long val);
	/* The reader's mem_cgroup_flush_stats() test; NULL: never. */
	bool (*should_flush)(const struct model *m, const struct mcg *memcg);
	/* The periodic flusher asks should_flush first (11192d9c124d's
	 * dwork called mem_cgroup_flush_stats()); false: it always flushes. */
	bool periodic_checks_trigger;
	/* End of run (workers stopped): bring every shared total up to date.
	 * NULL: a flush of the whole tree folding every slot. */
	void (*final_flush)(struct model *m);
};

REGISTRY_BOUNDS(stats_design);
/* Every design, sorted by name (models/knobs.c); by exact name or NULL. */
size_t stats_design_all(const struct stats_design ***out);
const struct stats_design *stats_design_find(const char *name);
/* Whether design d reads model knob `name` (its `reads` list). */
bool stats_design_reads(const struct stats_design *d, const char *name);

/* ---- shared by the rstat designs ---- */
/* The default mod_state, rstat's update, is stats_rstat_mod_state() of
 * models/memcg.c (models/memcg.h): a design that counts on top of it
 * includes that header. */
/* mem_cgroup_flush_stats() with no threshold (aa48e47e3906 ..
 * 11192d9c124d^): every reader flushes, unless one is at it (trylock). */
bool stats_always_flush(const struct model *m, const struct mcg *memcg);
/* models/stats/rstat.c: */
/* The global threshold of 2d146aa3aa84..873f64b791a2: this CPU's
 * stats_updates, past MEMCG_CHARGE_BATCH an atomic_add(x / BATCH) into
 * m->stats_flush_threshold; `guard` (873f64b791a2) reads it first and
 * leaves it alone once a flush is due. */
void stats_global_updated(struct model_worker *mw, long val, bool guard);
bool stats_global_should_flush(const struct model *m, const struct mcg *memcg);
/* One level of 8d59d2214c23's per-memcg threshold: add to this CPU's
 * counter of the memcg; past MEMCG_CHARGE_BATCH move it into the memcg's
 * shared atomic unless that already says "flush".  True past the batch. */
bool stats_memcg_level_updated(struct model *m, unsigned *counter,
			       struct mcg_vmstats *vmstats, long val);
bool stats_memcg_should_flush(const struct model *m, const struct mcg *memcg);

static inline long stats_labs(long v) { return v < 0 ? -v : v; }

#endif
