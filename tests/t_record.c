/*
 * t_record.c - the recorder's cache made on several threads at once
 * (models/record.c, model_rec_cached and model_rec_prefetch): recordings
 * made two at a time are the ones made one at a time, count for count;
 * two threads that want the same recording get one, made once; a
 * prefetched recording is what a later lookup finds; the cache lets go
 * of the recording used least recently.
 */
#include <pthread.h>
#include <string.h>

#include "core/util.h"
#include "models/memcg.h"
#include "models/record.h"
#include "tap.h"

/* What a recording says, for the comparison: every count, not the
 * recorder's own address caches (a run's addresses are its own). */
static bool same_counts(const struct model_rec *a, const struct model_rec *b)
{
	if (a->nlines != b->nlines || a->nlocks != b->nlocks || a->ops != b->ops ||
	    a->nelems != b->nelems || a->faults != b->faults || a->syscalls != b->syscalls)
		return false;
	for (unsigned i = 0; i < a->nlines; i++)
		if (strcmp(a->lines[i].obj, b->lines[i].obj) || a->lines[i].off != b->lines[i].off ||
		    a->lines[i].scope != b->lines[i].scope)
			return false;
	return !memcmp(a->n, b->n, sizeof(a->n)) && !memcmp(a->holds, b->holds, sizeof(a->holds)) &&
	       !memcmp(a->local, b->local, sizeof(a->local)) &&
	       !memcmp(a->local_in, b->local_in, sizeof(a->local_in)) &&
	       !memcmp(a->warm, b->warm, sizeof(a->warm)) &&
	       !memcmp(a->lock_line, b->lock_line, sizeof(a->lock_line)) &&
	       !memcmp(a->elems, b->elems, a->nelems * sizeof(a->elems[0]));
}

struct want {
	const char *wl;
	const struct model_params *p;
	const struct model_rec *got;
};

static void *want_one(void *arg)
{
	struct want *w = arg;

	w->got = model_rec_cached(w->wl, w->p, MODEL_REC_WARMUP, MODEL_REC_OPS);
	return NULL;
}

int main(void)
{
	const struct model_recorder *rc = model_recorder();
	static const char *const wl[] = { "page_fault2", "fallocate1" };
	struct model_params p[2];
	const struct model_rec *kept[2];

	ok(rc != NULL, "a recorder is registered");
	if (!rc)
		return done_testing();
	model_params_default(&p[0]);
	p[1] = p[0];
	model_rec_prefetch(wl, p, 2, MODEL_REC_WARMUP, MODEL_REC_OPS, 2);
	for (int i = 0; i < 2; i++) {
		struct model_rec *alone = xcalloc(1, sizeof(*alone));
		int st;

		kept[i] = model_rec_cached(wl[i], &p[i], MODEL_REC_WARMUP, MODEL_REC_OPS);
		ok(kept[i] && kept[i]->ops > 0, "%s: the prefetched recording is kept", wl[i]);
		st = rc->record(wl[i], &p[i], MODEL_REC_WARMUP, MODEL_REC_OPS, alone);
		ok(!st && alone->nlines > 0 && kept[i] && same_counts(kept[i], alone),
		   "%s: made beside another on a second thread, it counts what one made alone does "
		   "(%u lines, %llu ops)", wl[i], alone->nlines, (unsigned long long)alone->ops);
		free(alone->actor);
		free(alone->pg_run);
		free(alone);
	}
	{
		/* one not kept yet, wanted by two threads at once */
		struct model_params q = p[0];
		struct want w[2] = { { "page_fault1", &q, NULL }, { "page_fault1", &q, NULL } };
		pthread_t t;
		uint64_t made = model_rec_made();

		q.containers = 2;
		ok(!pthread_create(&t, NULL, want_one, &w[0]), "a second thread started");
		want_one(&w[1]);
		pthread_join(t, NULL);
		ok(w[0].got && w[0].got == w[1].got && model_rec_made() == made + 1,
		   "two threads wanting the same recording at once get the same one, made once");
	}
	{
		uint64_t made = model_rec_made();

		ok(model_rec_cached(wl[0], &p[0], MODEL_REC_WARMUP, MODEL_REC_OPS) == kept[0] &&
		   model_rec_made() == made, "a kept recording is found again, not made again");
	}
	{
		/* MODEL_REC_CACHED more, the first asked for again before the
		 * last: the one not asked for since is let go, not the first
		 * (a pool may still be simulating on a recording it found) */
		struct model_params q[MODEL_REC_CACHED + 1];
		uint64_t made;

		for (unsigned i = 0; i <= MODEL_REC_CACHED; i++) {
			q[i] = p[0];
			q[i].stats_batch = 1000 + i; /* a key of its own */
		}
		for (unsigned i = 0; i < MODEL_REC_CACHED; i++)
			model_rec_cached("page_fault3", &q[i], MODEL_REC_WARMUP, MODEL_REC_OPS);
		model_rec_cached("page_fault3", &q[0], MODEL_REC_WARMUP, MODEL_REC_OPS);
		model_rec_cached("page_fault3", &q[MODEL_REC_CACHED], MODEL_REC_WARMUP,
				 MODEL_REC_OPS);
		made = model_rec_made();
		model_rec_cached("page_fault3", &q[0], MODEL_REC_WARMUP, MODEL_REC_OPS);
		ok(model_rec_made() == made,
		   "a recording found again is kept over later ones (least recently used goes)");
		model_rec_cached("page_fault3", &q[1], MODEL_REC_WARMUP, MODEL_REC_OPS);
		ok(model_rec_made() == made + 1,
		   "the one not asked for since was let go, and is made again");
	}
	return done_testing();
}
