/*
 * counter - counter microbenchmark over the counter registry: the
 * accuracy / scalability trade-off of memcg-style statistics (MEMCG_
 * CHARGE_BATCH 32 vs 64 vs Feng Tang's 512, percpu_counter, vmstat,
 * sloppy counters).  Per operation a worker either reads the counter
 * (read_ratio percent of operations, spread evenly) or adds to it:
 *   pattern=inc     +delta every time (a statistic that only grows)
 *   pattern=incdec  +delta, -delta, ... (charge/uncharge pairs)
 *   pattern=random  a random size in 1..delta with a random sign
 *
 * Accuracy: every add is published in the worker's counter_truth slot
 * (its running sums of positive and negative deltas), and a reader
 * thread (knob reader=1, not a worker, so not in the worker count)
 * brackets read() between two passes over those sums to get an interval
 * that certainly holds the true value at the read; the distance from the
 * read to the interval is an error that certainly happened (method in
 * counters/counter.h).  Publishing costs every scheme the same two stores
 * to the worker's own line per add.  The reader sleeps READER_SLEEP_US
 * (50 us, plus timer slack) between samples so that, with as many
 * workers as CPUs (2 on the development machine), it takes a few percent
 * of one CPU instead of starving a worker; its own results sit on lines
 * no worker reads.  It runs in the parent process and reads the shared
 * arena, so it works in process mode too.  It also times bursts of read() and read_exact()
 * while the workers write (read_ns, exact_read_ns: cost under write
 * traffic); without the reader those are timed after the run, quiescent.
 *
 * Invariants checked by finish(): after every worker stopped,
 * read_exact() equals the sum of the published deltas, |read() -
 * read_exact()| is within error_bound(), and no sample observed an
 * error above error_bound().
 */
#include "harness/workload.h"
#include "counters/counter.h"
#include "trace/lock_stat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READER_SLEEP_US 50
/* Reads timed after the run when there is no reader. */
#define QUIESCENT_READS 100000

static const struct knob knob_read_ratio = {
	.name = "read_ratio", .owner = "counter workload", .type = KNOB_INT,
	.def = "0", .min = 0, .max = 100,
	.help = "percent of worker operations that read() the counter",
};
static const struct knob knob_delta = {
	.name = "delta", .owner = "counter workload", .type = KNOB_INT,
	.def = "1", .min = 1, .max = 1L << 20,
	.help = "size of each add (pages); pattern=random draws 1..delta",
};
static const struct knob_value pattern_values[] = {
	{ "inc", "+delta on every add (an event count)" },
	{ "incdec", "+delta, -delta pairs (charge / uncharge)" },
	{ "random", "random size 1..delta, random sign" },
	{ NULL },
};
static const struct knob knob_pattern = {
	.name = "pattern", .owner = "counter workload", .type = KNOB_ENUM,
	.def = "inc", .values = pattern_values,
	.help = "sequence of deltas each worker adds",
};
static const struct knob knob_reader = {
	.name = "reader", .owner = "counter workload", .type = KNOB_INT,
	.def = "1", .min = 0, .max = 1,
	.help = "1: a concurrent reader thread (not a worker) records the "
		"largest observed read() error; 0: none",
};
REGISTER(knob, knob_read_ratio);
REGISTER(knob, knob_delta);
REGISTER(knob, knob_pattern);
REGISTER(knob, knob_reader);

enum pattern { PAT_INC, PAT_INCDEC, PAT_RANDOM };

struct counter_shared {
	void *c;
	struct counter_truth *truth;
	struct counter_reader *reader; /* own lines: the reader writes it */
	unsigned read_ratio;
	long delta;
	enum pattern pattern;
	bool use_reader;
};

struct counter_worker {
	void *ctx;                       /* the counter's slot */
	struct counter_truth_slot *truth;
	uint64_t rng;
	unsigned read_acc;               /* spreads reads evenly */
	long last;                       /* incdec: the previous delta */
	uint64_t adds, reads;
};

static int counter_setup(struct run *r)
{
	const struct counter_ops *ops = r->counter;
	struct counter_shared *sh;
	struct counter_params p;
	long dneg;
	int err;

	if (!ops) {
		fprintf(stderr, "memscale: counter: no counter scheme (see "
			"'memscale list counters')\n");
		return EXIT_USAGE;
	}
	sh = arena_alloc_padded(r->arena, sizeof(*sh));
	sh->read_ratio = (unsigned)knob_int(r->knobs, &knob_read_ratio);
	sh->delta = knob_int(r->knobs, &knob_delta);
	sh->pattern = (enum pattern)knob_enum(r->knobs, &knob_pattern);
	sh->use_reader = knob_int(r->knobs, &knob_reader) == 1;
	counter_params_from_knobs(&p, ops, r->knobs, r->nworkers, r->lock);
	sh->c = counter_new(ops, r->arena, &p);
	dneg = sh->pattern == PAT_INC ? 0 : sh->delta;
	sh->truth = counter_truth_new(r->arena, r->nworkers, sh->delta, dneg);
	for (unsigned i = 0; i < r->nworkers; i++) {
		struct counter_worker *cw = arena_alloc_padded(r->arena, sizeof(*cw));
		cw->ctx = counter_ctx_new_stats(ops, r->arena, sh->c, i,
						r->workers[i].lock_stats);
		cw->truth = &sh->truth->slot[i];
		cw->rng = 0x2545f4914f6cdd1dull * (i + 1) + 1;
		r->workers[i].priv = cw;
	}
	sh->reader = arena_alloc_padded(r->arena, sizeof(*sh->reader));
	r->shared = sh;
	if (sh->use_reader &&
	    (err = counter_reader_start(sh->reader, ops, sh->c, sh->truth,
					READER_SLEEP_US)))
		die(1, "counter: cannot start the reader thread (error %d)", err);
	return 0;
}

/* Knuth's MMIX LCG; the high bits are good enough for a sign and a size. */
static inline uint64_t lcg_next(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static inline long next_delta(const struct counter_shared *sh,
			      struct counter_worker *cw)
{
	uint64_t x;

	switch (sh->pattern) {
	case PAT_INCDEC:
		cw->last = cw->last > 0 ? -sh->delta : sh->delta;
		return cw->last;
	case PAT_RANDOM:
		x = lcg_next(&cw->rng);
		return (x & 1) ? (long)(x >> 1) % sh->delta + 1
			       : -((long)(x >> 1) % sh->delta + 1);
	case PAT_INC:
	default:
		return sh->delta;
	}
}

static void counter_run(struct worker *w)
{
	const struct counter_shared *sh = w->run->shared;
	const struct counter_ops *ops = w->run->counter;
	struct counter_worker *cw = w->priv;
	void *c = sh->c;

	WORKER_LOOP(w) {
		long d;

		if (sh->read_ratio) {
			cw->read_acc += sh->read_ratio;
			if (cw->read_acc >= 100) {
				cw->read_acc -= 100;
				keep((uint64_t)ops->read(c));
				cw->reads++;
				continue;
			}
		}
		d = next_delta(sh, cw);
		ops->add(c, cw->ctx, d);
		counter_truth_add(cw->truth, d);
		cw->adds++;
	}
}

static int counter_finish(struct run *r, struct result *res)
{
	struct counter_shared *sh = r->shared;
	const struct counter_ops *ops = r->counter;
	const struct counter_reader *rd = sh->reader;
	uint64_t adds = 0, folds;
	long truth, exact, approx, bound, final_err;
	double read_ns, exact_ns;
	int status = 0;

	counter_reader_stop(sh->reader);
	for (unsigned i = 0; i < r->nworkers; i++)
		adds += ((struct counter_worker *)r->workers[i].priv)->adds;
	truth = counter_truth_sum(sh->truth);
	exact = ops->read_exact(sh->c);
	approx = ops->read(sh->c);
	bound = ops->error_bound(sh->c);
	folds = counter_folds(ops, sh->c, adds);
	final_err = labs(approx - exact);
	if (rd->reads) {
		read_ns = (double)rd->read_ns / (double)rd->reads;
		exact_ns = (double)rd->exact_ns / (double)rd->exact_reads;
	} else {
		read_ns = counter_time_reads(ops, sh->c, false, QUIESCENT_READS);
		exact_ns = counter_time_reads(ops, sh->c, true,
					      QUIESCENT_READS / (r->nworkers + 1));
	}

	/* the threshold in effect (the knob column holds what was asked) */
	result_metric(res, "eff_threshold", (double)ops->threshold(sh->c));
	result_metric(res, "error_bound", (double)bound);
	result_metric(res, "max_error_observed", (double)rd->max_error);
	result_metric(res, "reader_samples", (double)rd->samples);
	result_metric(res, "max_bracket", (double)rd->max_width);
	result_metric(res, "final_error", (double)final_err);
	result_metric(res, "folds_per_mupdate",
		      adds ? (double)folds * 1e6 / (double)adds : 0);
	result_metric(res, "final_exact", (double)exact);
	result_metric(res, "final_true", (double)truth);
	result_metric(res, "read_ns", read_ns);
	result_metric(res, "exact_read_ns", exact_ns);

	if (exact != truth) {
		fprintf(stderr, "memscale: counter: '%s' exact read %ld after the "
			"run, but the workers added %ld\n", ops->name, exact, truth);
		status = 1;
	}
	if (bound != COUNTER_NO_BOUND && rd->max_error > bound) {
		fprintf(stderr, "memscale: counter: '%s' read() was off by %ld "
			"during the run, above its bound %ld\n", ops->name,
			rd->max_error, bound);
		status = 1;
	}
	if (bound != COUNTER_NO_BOUND && final_err > bound) {
		fprintf(stderr, "memscale: counter: '%s' read() is off by %ld "
			"after the run, above its bound %ld\n", ops->name,
			final_err, bound);
		status = 1;
	}
	return status;
}

static void counter_teardown(struct run *r)
{
	struct counter_shared *sh = r->shared;

	if (!sh)
		return;
	counter_reader_stop(sh->reader); /* when finish() did not run */
	if (r->counter->destroy)
		r->counter->destroy(sh->c);
}

const struct workload counter_workload = {
	.name = "counter",
	.description = "counter microbenchmark: adds (inc|incdec|random) and "
		       "reads; accuracy checked by a concurrent reader",
	.flags = WL_F_USES_COUNTER | WL_F_USES_LOCK | WL_F_LOCK_VIA_COUNTER,
	.lock_classes = 1u << LC_COUNTER_FOLD,
	.setup = counter_setup,
	.run = counter_run,
	.finish = counter_finish,
	.teardown = counter_teardown,
	.table_metrics = (const char *const[]){ "max_error_observed", "error_bound", NULL },
};
REGISTER(workload, counter_workload);
