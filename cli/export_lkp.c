/*
 * export_lkp.c - `memscale export lkp DIR SOURCE...`: results as an LKP
 * result root, which lkp-tests' own compare reads (checked against
 * intel/lkp-tests bbbc29c495d9, 2026: sbin/compare, lib/result.rb,
 * lib/stats.rb, programs/<suite>/parse):
 *
 *   DIR/TESTCASE/PARAMS/HOST/memscale/unknown/unknown/RUN/R/stats.json
 *   DIR/TESTCASE/PARAMS/HOST/memscale/unknown/unknown/RUN/matrix.json
 *
 * i.e. ResultPath's default scheme, testcase/path_params/tbox_group/
 * rootfs/kconfig/compiler/commit/run, with RESULT_ROOT_DIR = DIR (LKP's
 * is /lkp/result).  One job per run x workload x mode x worker count; R
 * is the repetition (LKP's run number), stats.json its stats, matrix.json
 * every stat's samples over R with stats_source (create-stats-matrix).
 * The commit axis holds the run (variant and other axes, as mmtests' RUN):
 * memscale's variants stand for the kernels compared, and LKP's local-run
 * mode (LKP_LOCAL_RUN=1) takes a commit that is not a SHA-1.  The kernel
 * config and compiler are not known: "unknown".
 *
 * TESTCASE, PARAMS ("MODE-NR_TASK-TEST", "-model" added for the model
 * backend) and the stats, named as LKP's parsers name them:
 *   will-it-scale  (page_fault1..3, fallocate1..2, malloc1, tlb_flush2)
 *                  will-it-scale.per_process_ops / per_thread_ops (ops/s
 *                  per task, the KPI), will-it-scale.N.processes /
 *                  N.threads and will-it-scale.workload (total ops/s)
 *   aim9           (aim9_page_test, aim9_brk_test) aim9.TEST.ops_per_sec
 *   vm-scalability (lru_shm, lru_file_readtwice; test lru-shm,
 *                  lru-file-readtwice) memscale.ops_per_sec: LKP's
 *                  vm-scalability.throughput is KB/s, which memscale does
 *                  not measure
 * Other workloads are left out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/export.h"
#include "core/json.h"
#include "workloads/wlspec.h"

/* LKP's test suite and test of a workload, from its spec (workloads/
 * wlspec.h); NULL when LKP has none. */
static const char *lkp_testcase(const char *w, const char **test)
{
	const struct wl_spec *s = wl_spec_find(w);

	*test = s ? s->test : NULL;
	return s ? wl_suite_name(s->suite) : NULL;
}

bool export_lkp_has(const char *workload)
{
	const char *test;

	return lkp_testcase(workload, &test) != NULL;
}

/* The job's stats of row x, in LKP's names: n of them into key/val. */
static size_t lkp_stats(const struct xrow *x, char *key[3], double val[3])
{
	const char *test, *suite = lkp_testcase(x->workload, &test);
	bool thr = !strcmp(x->model, "threads");

	if (!strcmp(suite, "will-it-scale")) {
		key[0] = xasprintf("will-it-scale.%ld.%s", x->workers, x->model);
		val[0] = x->ops;
		key[1] = xasprintf("will-it-scale.per_%s_ops", thr ? "thread" : "process");
		val[1] = x->per_worker;
		key[2] = xstrdup("will-it-scale.workload");
		val[2] = x->ops;
		return 3;
	}
	if (!strcmp(suite, "aim9"))
		key[0] = xasprintf("aim9.%s.ops_per_sec", test);
	else
		key[0] = xstrdup("memscale.ops_per_sec");
	val[0] = x->ops;
	return 1;
}

/* The job directory (LKP's _result_root) of row x. */
static char *lkp_job_dir(const char *dir, const struct xrow *x)
{
	const char *test, *suite = lkp_testcase(x->workload, &test);
	bool kernel = !strncmp(x->workload, "kernel:", 7);

	return xasprintf("%s/%s/%s-%ld-%s%s/%s/memscale/unknown/unknown/%s", dir, suite,
			 !strcmp(x->model, "threads") ? "thread" : "process", x->workers,
			 test, kernel ? "" : "-model", x->host, x->run);
}

/* mkdir -p of the components of path below dir (dir itself too). */
static void mkdir_below(const char *dir, const char *path)
{
	char *p = xstrdup(path);

	export_mkdir(dir);
	for (char *s = p + strlen(dir) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			export_mkdir(p);
			*s = '/';
		}
	export_mkdir(p);
	free(p);
}

static void json_to(struct json *j, char **buf, size_t *len, FILE **f)
{
	*f = open_memstream(buf, len);
	if (!*f)
		die(1, "out of memory");
	json_begin(j, *f); /* the top-level object */
}

/* Closes the document; *buf is the memstream's, complete after fclose. */
static void json_done(struct json *j, char **buf, FILE *f, const char *path)
{
	if (json_end(j) || fclose(f))
		die(1, "export lkp: cannot format '%s'", path);
	export_write(path, *buf);
	free(*buf);
}

/* Are rows a and b the same job (run, workload, mode, workers)? */
static bool same_job(const struct xrow *a, const struct xrow *b)
{
	return !strcmp(a->run, b->run) && !strcmp(a->workload, b->workload) &&
	       !strcmp(a->model, b->model) && !strcmp(a->host, b->host) &&
	       a->workers == b->workers;
}

/* One job: stats.json per repetition, then matrix.json. */
static void write_job(const struct xset *s, const char *dir, size_t first)
{
	const struct xrow *x = &s->rows[first];
	char *jd = lkp_job_dir(dir, x), *key[3], *path, *buf;
	size_t nk, nr = 0, len;
	const struct xrow **reps = xcalloc(s->n, sizeof(*reps));
	struct json j;
	FILE *f;
	double val[3];

	mkdir_below(dir, jd);
	for (size_t i = first; i < s->n; i++)
		if (same_job(x, &s->rows[i]))
			reps[nr++] = &s->rows[i];
	for (size_t r = 0; r < nr; r++) {
		char *rd = xasprintf("%s/%ld", jd, reps[r]->rep);

		if (mkdir(rd, 0755))
			die_errno(EXIT_USAGE, "export lkp: cannot create job directory '%s' (it "
				  "must not exist)", rd);
		path = xasprintf("%s/stats.json", rd);
		nk = lkp_stats(reps[r], key, val);
		json_to(&j, &buf, &len, &f);
		for (size_t k = 0; k < nk; k++) {
			json_num(&j, key[k], val[k]);
			free(key[k]);
		}
		json_done(&j, &buf, f, path);
		free(path);
		free(rd);
	}
	/* matrix.json: the stats' samples in the order of R */
	path = xasprintf("%s/matrix.json", jd);
	json_to(&j, &buf, &len, &f);
	nk = lkp_stats(x, key, val);
	for (size_t k = 0; k < nk; k++) {
		json_arr_open(&j, key[k]);
		for (long rep = 0, left = (long)nr; left > 0; rep++)
			for (size_t r = 0; r < nr; r++) {
				char *k2[3];
				double v2[3];
				size_t n2;

				if (reps[r]->rep != rep)
					continue;
				n2 = lkp_stats(reps[r], k2, v2);
				json_num(&j, NULL, v2[k]);
				for (size_t m = 0; m < n2; m++)
					free(k2[m]);
				left--;
			}
		json_arr_close(&j);
		free(key[k]);
	}
	json_arr_open(&j, "stats_source");
	for (long rep = 0, left = (long)nr; left > 0; rep++)
		for (size_t r = 0; r < nr; r++)
			if (reps[r]->rep == rep) {
				char *src = xasprintf("%s/%ld/stats.json", jd, rep);
				json_str(&j, NULL, src);
				free(src);
				left--;
			}
	json_arr_close(&j);
	json_done(&j, &buf, f, path);
	free(path);
	free(reps);
	free(jd);
}

size_t export_lkp(const struct xset *s, const char *dir, size_t *skipped)
{
	size_t jobs = 0;
	const char *test;

	for (size_t i = 0; i < s->n; i++)
		if (!lkp_testcase(s->rows[i].workload, &test))
			(*skipped)++;
	if (*skipped == s->n)
		die(EXIT_USAGE, "export lkp: no results of a workload LKP runs in the "
		    "sources (will-it-scale: page_fault*, fallocate*, malloc1, tlb_flush2; "
		    "aim9_*; vm-scalability: lru_*)");
	/* before writing anything: one row per job and repetition */
	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < i; j++)
			if (same_job(&s->rows[i], &s->rows[j]) && s->rows[i].rep == s->rows[j].rep &&
			    export_lkp_has(s->rows[i].workload))
				die(EXIT_USAGE, "export lkp: run %s has two rows of %s %s at %ld "
				    "workers in repetition %ld (LKP keeps one result per run "
				    "number)", s->rows[i].run, s->rows[i].workload,
				    s->rows[i].model, s->rows[i].workers, s->rows[i].rep);
	for (size_t i = 0; i < s->n; i++) {
		bool seen = false;

		if (!lkp_testcase(s->rows[i].workload, &test))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = same_job(&s->rows[i], &s->rows[j]);
		if (seen)
			continue;
		write_job(s, dir, i);
		jobs++;
	}
	return jobs;
}
