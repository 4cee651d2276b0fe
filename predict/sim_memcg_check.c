/*
 * sim_memcg_check.c - `memscale model program WORKLOAD --check`: the
 * program sim_memcg.c builds from a recording, against the model's own
 * execution (a second, separate recording), count for count: every
 * shared-line access per operation by line, kind and the lock held, and
 * every lock hold.  What the simulator runs is then what the model did.
 */
#include "predict/sim_memcg_check.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "models/record.h"
#include "predict/sim_memcg.h"

struct count_key {
	char line[40], lock[48];
	int kind; /* REC_*, or REC_NKIND for a lock hold */
	double model, prog;
};

static struct count_key *count_key_find(struct count_key *k, size_t *n, size_t max,
				const char *line, const char *lock, int kind)
{
	for (size_t i = 0; i < *n; i++)
		if (k[i].kind == kind && !strcmp(k[i].line, line) && !strcmp(k[i].lock, lock))
			return &k[i];
	if (*n == max)
		die(1, "internal error: sim check: too many distinct accesses");
	memset(&k[*n], 0, sizeof(k[0]));
	snprintf(k[*n].line, sizeof(k[0].line), "%s", line);
	snprintf(k[*n].lock, sizeof(k[0].lock), "%s", lock);
	k[*n].kind = kind;
	return &k[(*n)++];
}

/* A recording made here, with its reclaim part and page-run tables. */
static void free_recording(struct model_rec *r)
{
	if (r->actor)
		free(r->actor->pg_run);
	free(r->actor);
	free(r->pg_run);
	free(r);
}

int memcg_sim_check(const char *workload, const struct memcg_sim_cfg *cfg, FILE *out)
{
	static const struct memcg_costs zero;
	struct sim_prog prog;
	struct model_rec *r = xcalloc(1, sizeof(*r));
	size_t max = 4 * REC_MAX_LINES * REC_NKIND, n = 0;
	struct count_key *k = xcalloc(max, sizeof(*k));
	unsigned ls = 64, bad = 0; /* programs name 64 B lines (mates pair them) */
	const char *held = "";
	double *w;

	if (memcg_sim_build(&prog, workload, cfg, &zero) ||
	    memcg_sim_record(workload, &cfg->p, r)) {
		free_recording(r);
		free(k);
		return -1;
	}
	/* the model's execution: a second, separate recording (its reclaim
	 * calls apart in r->actor: the workers' part of the program at f = 0
	 * does them all) */
	for (const struct model_rec *part = r; part; part = part == r ? r->actor : NULL)
	for (unsigned l = 0; l < part->nlines; l++) {
		char name[40];
		memcg_sim_line_name(part, l, ls, name, sizeof(name));
		for (unsigned kd = 0; kd < REC_NKIND; kd++)
			for (unsigned lk = 0; lk <= part->nlocks; lk++) {
				char lock[48] = "";
				if (!part->n[l][kd][lk])
					continue;
				if (lk) {
					char ln[40];
					memcg_sim_line_name(part, part->lock_line[lk - 1], ls, ln, sizeof(ln));
					snprintf(lock, sizeof(lock), "lock %s", ln);
				}
				count_key_find(k, &n, max, name, lock, (int)kd)->model +=
					(double)part->n[l][kd][lk] / (double)r->ops;
			}
	}
	for (const struct model_rec *part = r; part; part = part == r ? r->actor : NULL)
	for (unsigned lk = 0; lk < part->nlocks; lk++) {
		char ln[40], lock[48];
		memcg_sim_line_name(part, part->lock_line[lk], ls, ln, sizeof(ln));
		snprintf(lock, sizeof(lock), "lock %s", ln);
		count_key_find(k, &n, max, "-", lock, REC_NKIND)->model +=
			(double)part->holds[lk] / (double)r->ops;
	}
	/* the program: every access weighted by its runs per iteration */
	w = sim_prog_weights(&prog);
	for (size_t i = 0; i < (prog.actor_start ? prog.actor_start : prog.nops); i++) {
		const struct sim_op *op = &prog.ops[i];
		int kd = op->kind == SOP_READ ? REC_READ : op->kind == SOP_WRITE ? REC_WRITE
			 : op->kind == SOP_RMW ? REC_RMW : -1;

		if (op->kind == SOP_LOCK) {
			held = prog.locks[op->target].name;
			count_key_find(k, &n, max, "-", held, REC_NKIND)->prog += w[i];
		} else if (op->kind == SOP_UNLOCK) {
			held = "";
		} else if (kd >= 0) {
			count_key_find(k, &n, max, prog.lines[op->target].name, held, kd)->prog +=
				w[i];
		}
	}
	for (size_t i = 0; i < n; i++) {
		double d = k[i].model - k[i].prog, tol = 1e-9 * (k[i].model > 1 ? k[i].model : 1);
		bool same = d <= tol && -d <= tol;

		bad += !same;
		if (out)
			fprintf(out, "%s %-24s %-6s %-28s model %10.6f  program %10.6f /op\n",
				same ? "  " : "!=", k[i].line,
				k[i].kind == REC_NKIND ? "hold" : rec_kind_names[k[i].kind],
				*k[i].lock ? k[i].lock : "(no lock)", k[i].model, k[i].prog);
	}
	if (r->actor)
		r->unknown += r->actor->unknown;
	if (r->unknown) {
		bad++;
		if (out)
			fprintf(out, "!= %u accesses to memory the recorder could not place\n",
				r->unknown);
	}
	free(w);
	sim_prog_free(&prog);
	free_recording(r);
	free(k);
	return (int)bad;
}
