/*
 * sweep.c - matrix expansion, run order and result collection for
 * `memscale sweep` (see sweep.h).
 *
 * The run order follows the A/B discipline mmtests and LKP results rely
 * on: all variants of one configuration run back to back (A B A B ...),
 * so slow drift of the machine (thermal, background load) hits every
 * variant alike, and the configurations themselves run in a shuffled
 * order drawn from a recorded seed, so drift cannot line up with an axis.
 */
#include "harness/sweep.h"
#include "core/json.h"
#include "core/meta.h"
#include "core/util.h"
#include "harness/run_opts.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* splitmix64: a small, well-mixed generator; the seed fully defines it. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Resolves the worker list item by item ("1,2", "1-4", "50%", "25%,100%"). */
static size_t resolve_workers(const char *spec, long **out)
{
	char *copy = xstrdup(spec), *save = copy, *tok;
	size_t n = 0;

	*out = NULL;
	while ((tok = strsep(&save, ","))) {
		long *v;
		size_t k = parse_workers(tok, &v);
		*out = realloc(*out, (n + k) * sizeof(long));
		if (!*out)
			die(1, "out of memory");
		/* Keep the first of repeated counts ("1,50%" on 2 CPUs). */
		for (size_t i = 0; i < k; i++) {
			size_t j = 0;
			while (j < n && (*out)[j] != v[i])
				j++;
			if (j == n)
				(*out)[n++] = v[i];
		}
		free(v);
	}
	free(copy);
	return n;
}

void sweep_expand(struct sweep *s, struct experiment *e, uint64_t seed)
{
	struct experiment *x = e;
	size_t naxes = x->naxes, combos = 1, k = 0, nblocks, nv = x->nvariants;
	size_t *blocks;
	uint64_t st = seed;

	memset(s, 0, sizeof(*s));
	s->e = e;
	s->seed = seed;
	s->nworkers = resolve_workers(x->workers, &s->workers);
	/* Sizes from input: the product is checked (exp_npoints saturates),
	 * and so is every factor below it, before anything is allocated. */
	s->npoints = exp_npoints(x, s->nworkers);
	if (s->npoints > SWEEP_MAX_POINTS) {
		char n[48];
		if (s->npoints == SIZE_MAX)
			snprintf(n, sizeof(n), "more than %zu", (size_t)SIZE_MAX - 1);
		else
			snprintf(n, sizeof(n), "%zu", s->npoints);
		die(EXIT_USAGE, "%s: the matrix has %s points (%zu workloads x %zu "
		    "worker counts x %u reps x %zu variants x the axes); at most %d "
		    "are allowed", x->path, n, x->nworkloads, s->nworkers, x->reps,
		    nv, SWEEP_MAX_POINTS);
	}
	for (size_t a = 0; a < naxes; a++)
		combos *= x->axes[a].nvalues; /* <= npoints: cannot overflow */
	s->points = xcalloc(s->npoints ? s->npoints : 1, sizeof(*s->points));
	/* Matrix order: workload, axis combination, workers, rep, variant
	 * (innermost, so each block of nv consecutive points is one A/B set). */
	for (size_t w = 0; w < x->nworkloads; w++)
		for (size_t c = 0; c < combos; c++)
			for (size_t t = 0; t < s->nworkers; t++)
				for (unsigned r = 0; r < x->reps; r++)
					for (size_t v = 0; v < nv; v++) {
						struct sweep_point *p = &s->points[k];
						size_t rest = c;
						p->id = k++;
						p->workload = w;
						p->variant = v;
						p->workers = s->workers[t];
						p->rep = r;
						p->axis = xcalloc(naxes ? naxes : 1, sizeof(size_t));
						for (size_t a = naxes; a-- > 0;) {
							p->axis[a] = rest % x->axes[a].nvalues;
							rest /= x->axes[a].nvalues;
						}
					}
	/* Shuffle whole blocks (Fisher-Yates), keep variants in file order
	 * inside a block, with the base first. */
	nblocks = nv ? s->npoints / nv : 0;
	blocks = xcalloc(nblocks ? nblocks : 1, sizeof(size_t));
	for (size_t b = 0; b < nblocks; b++)
		blocks[b] = b;
	for (size_t b = nblocks; b > 1; b--) {
		size_t j = (size_t)(splitmix64(&st) % b), tmp = blocks[b - 1];
		blocks[b - 1] = blocks[j];
		blocks[j] = tmp;
	}
	s->order = xcalloc(s->npoints ? s->npoints : 1, sizeof(size_t));
	k = 0;
	for (size_t b = 0; b < nblocks; b++) {
		s->order[k++] = blocks[b] * nv + e->base;
		for (size_t v = 0; v < nv; v++)
			if (v != e->base)
				s->order[k++] = blocks[b] * nv + v;
	}
	free(blocks);
}

void sweep_free(struct sweep *s)
{
	for (size_t i = 0; i < s->npoints; i++)
		free(s->points[i].axis);
	free(s->points);
	free(s->order);
	free(s->workers);
	memset(s, 0, sizeof(*s));
}

void sweep_point_id(const struct sweep_point *p, char *buf, size_t len)
{
	snprintf(buf, len, "p%04zu", p->id);
}

char *sweep_point_desc(const struct sweep *s, const struct sweep_point *p)
{
	const struct experiment *e = s->e;
	char *buf, id[32];
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	sweep_point_id(p, id, sizeof(id));
	fprintf(f, "%s workload=%s variant=%s", id, e->workloads[p->workload],
		e->variants[p->variant].name);
	for (size_t a = 0; a < e->naxes; a++)
		fprintf(f, " %s=%s", e->axes[a].key, e->axes[a].values[p->axis[a]]);
	fprintf(f, " workers=%ld rep=%u", p->workers, p->rep);
	fclose(f);
	return buf;
}

double sweep_point_estimate(const struct experiment *e)
{
	double seconds = atof(e->seconds), warmup = atof(e->warmup),
	       sample_ms = atof(e->sample_ms);

	/* Measured samples are whole intervals; ~50 ms to set up and join. */
	return warmup * sample_ms / 1000.0 + seconds + 0.05;
}

/* ---- results ---- */

static int union_col(char ***names, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*names)[i], name))
			return (int)i;
	*names = realloc(*names, (*n + 1) * sizeof(char *));
	if (!*names)
		die(1, "out of memory");
	(*names)[*n] = (char *)name;
	return (int)(*n)++;
}

int csv_union_write(const char *path, const struct union_input *in, size_t n)
{
	char **names = NULL, *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	size_t ncols = 0;
	int **map = xcalloc(n ? n : 1, sizeof(int *));
	FILE *f;

	for (size_t i = 0; i < n; i++) {
		map[i] = xcalloc(in[i].nextra + in[i].t->ncols, sizeof(int));
		for (size_t c = 0; c < in[i].nextra; c++)
			map[i][c] = union_col(&names, &ncols, in[i].extra_names[c]);
		for (size_t c = 0; c < in[i].t->ncols; c++)
			map[i][in[i].nextra + c] = union_col(&names, &ncols,
							     in[i].t->header[c]);
	}
	f = fopen(tmp, "w");
	if (!f) {
		warnx_("cannot write '%s': %s", path, strerror(errno));
		for (size_t i = 0; i < n; i++)
			free(map[i]);
		free(map);
		free(names);
		free(tmp);
		return -1;
	}
	for (size_t c = 0; c < ncols; c++)
		csv_field(f, names[c], c + 1 == ncols);
	for (size_t i = 0; i < n; i++) {
		const struct csv_table *t = in[i].t;
		const char **row = xcalloc(ncols ? ncols : 1, sizeof(char *));
		for (size_t r = 0; r < t->nrows; r++) {
			for (size_t c = 0; c < ncols; c++)
				row[c] = "";
			for (size_t c = 0; c < in[i].nextra; c++)
				row[map[i][c]] = in[i].extra_values[c];
			for (size_t c = 0; c < t->ncols; c++)
				row[map[i][in[i].nextra + c]] = t->rows[r][c];
			for (size_t c = 0; c < ncols; c++)
				csv_field(f, row[c], c + 1 == ncols);
		}
		free(row);
		free(map[i]);
	}
	free(map);
	free(names);
	if (fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, path)) {
		warnx_("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

long sweep_collect(const char *dir)
{
	char *pdir = xasprintf("%s/points", dir), *out, *side;
	DIR *d = opendir(pdir);
	struct dirent *de;
	char **files = NULL;
	size_t n = 0;
	struct csv_table **tables;
	struct union_input *in;
	long rc;
	FILE *f;
	struct json j;

	if (!d) {
		warnx_("cannot read '%s': %s", pdir, strerror(errno));
		free(pdir);
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		/* Finished points only: temp files of a killed run are not. */
		if (l > 4 && !strcmp(de->d_name + l - 4, ".csv")) {
			files = realloc(files, (n + 1) * sizeof(char *));
			if (!files)
				die(1, "out of memory");
			files[n++] = xasprintf("%s/%s", pdir, de->d_name);
		}
	}
	closedir(d);
	if (n) /* qsort(NULL, 0) is undefined */
		qsort(files, n, sizeof(char *), cmp_str);
	tables = xcalloc(n ? n : 1, sizeof(*tables));
	in = xcalloc(n ? n : 1, sizeof(*in));
	rc = (long)n;
	for (size_t i = 0; i < n; i++) {
		const char *err;
		size_t line;
		tables[i] = csv_read_file(files[i], &err, &line);
		if (!tables[i]) {
			warnx_("%s:%zu: %s", files[i], line, err);
			rc = -1;
			break;
		}
		in[i].t = tables[i];
	}
	out = xasprintf("%s/results.csv", dir);
	if (rc >= 0 && csv_union_write(out, in, n))
		rc = -1;
	/* Sidecar for merge: the machine that collected the points. */
	side = xasprintf("%s/results.json", dir);
	if (rc >= 0 && (f = fopen(side, "w"))) {
		json_begin(&j, f);
		json_str(&j, "tool", "memscale");
		json_str(&j, "time", meta_now_iso());
		json_str(&j, "results", out);
		json_int(&j, "points", rc);
		meta_env_end();
		meta_json(&j);
		json_end(&j);
		fclose(f);
	}
	for (size_t i = 0; i < n; i++) {
		csv_free(tables[i]);
		free(files[i]);
	}
	free(tables);
	free(in);
	free(files);
	free(pdir);
	free(out);
	free(side);
	return rc;
}
