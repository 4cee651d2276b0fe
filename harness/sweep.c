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
#include <math.h>
#include <string.h>
#include <unistd.h>

/* splitmix64: a small, well-mixed generator; the seed fully defines it. */
uint64_t splitmix64(uint64_t *state)
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

/* ---- settings ---- */

static void kv_lines(FILE *f, const char *prefix, const struct exp_kv *kv,
		     size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s = %s\n", prefix, kv[i].key, kv[i].value);
}

char *sweep_settings_text(const struct sweep *s)
{
	const struct experiment *e = s->e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fprintf(f, "experiment = %s\nworkloads =", e->name);
	for (size_t i = 0; i < e->nworkloads; i++)
		fprintf(f, "%s%s", i ? "," : " ", e->workloads[i]);
	fprintf(f, "\nworkers =");
	for (size_t i = 0; i < s->nworkers; i++)
		fprintf(f, "%s%ld", i ? "," : " ", s->workers[i]);
	fprintf(f, "\nmode = %s\nseconds = %s\nwarmup = %s\nsample_ms = %s\n"
		"reps = %u\nlock = %s\ncounter = %s\ntrace = %s\nbase = %s\n",
		e->mode, e->seconds, e->warmup, e->sample_ms, e->reps,
		e->lock ? e->lock : "(default)", e->counter ? e->counter : "(default)",
		e->trace ? "yes" : "no", e->variants[e->base].name);
	kv_lines(f, "fixed.", e->fixed, e->nfixed);
	for (size_t v = 0; v < e->nvariants; v++) {
		char *pre = xasprintf("variant.%s.", e->variants[v].name);
		fprintf(f, "variant %s\n", e->variants[v].name);
		kv_lines(f, pre, e->variants[v].set, e->variants[v].nset);
		free(pre);
	}
	for (size_t a = 0; a < e->naxes; a++) {
		fprintf(f, "axis.%s =", e->axes[a].key);
		for (size_t i = 0; i < e->axes[a].nvalues; i++)
			fprintf(f, "%s%s", i ? "," : " ", e->axes[a].values[i]);
		fputc('\n', f);
	}
	if (fclose(f))
		die(1, "out of memory");
	return buf;
}

uint64_t sweep_settings_hash(const char *text)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */

	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		h = (h ^ *c) * 0x100000001b3ull;
	return h;
}

/* The line at *p (without its newline), advancing *p past it. */
static char *settings_next_line(const char **p)
{
	const char *nl = strchr(*p, '\n');
	size_t n = nl ? (size_t)(nl - *p) : strlen(*p);
	char *l = xmalloc(n + 1);

	memcpy(l, *p, n);
	l[n] = '\0';
	*p += n + (nl ? 1 : 0);
	return l;
}

char *sweep_settings_diff(const char *there, const char *now)
{
	const char *a = there, *b = now;

	while (*a || *b) {
		char *la = settings_next_line(&a), *lb = settings_next_line(&b), *out = NULL;

		if (strcmp(la, lb)) {
			if (!*la)
				out = xasprintf("'%s' now, absent there", lb);
			else if (!*lb)
				out = xasprintf("'%s' there, absent now", la);
			else
				out = xasprintf("'%s' there, '%s' now", la, lb);
		}
		free(la);
		free(lb);
		if (out)
			return out;
	}
	return NULL;
}

/* Two cells that say the same: equal text, or equal whole numbers
 * ("0.05" and "5e-2"). */
static bool same_cell(const char *a, const char *b)
{
	double x, y;

	return !strcmp(a, b) || (parse_double(a, -HUGE_VAL, HUGE_VAL, &x) &&
				 parse_double(b, -HUGE_VAL, HUGE_VAL, &y) && x == y);
}

/* The row's column `name` against what the matrix says (want NULL: no
 * claim); `need`: the column must be there.  false with why set. */
static bool cell_is(const struct csv_table *t, const char *name, const char *want,
		    bool need, char *why, size_t len)
{
	int c = csv_col(t, name);

	if (c < 0) {
		if (need)
			snprintf(why, len, "no column '%s'", name);
		return !need;
	}
	if (!want || same_cell(t->rows[0][c], want))
		return true;
	snprintf(why, len, "%s '%.60s', the matrix's '%.60s'", name, t->rows[0][c], want);
	return false;
}

/* Each setting of a list that is a column of the row holds its value. */
static bool cells_are(const struct csv_table *t, const struct exp_kv *kv, size_t n,
		      char *why, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (!cell_is(t, kv[i].key, kv[i].value, false, why, len))
			return false;
	return true;
}

/* The row is point p of this matrix: its identifying columns (point,
 * experiment, workload, variant, workers, rep, mode, seconds, warmup,
 * sample_ms) and every setting of [fixed], its variant, its axis values
 * and the lock and counter that are columns of it hold the matrix's. */
static bool row_is_point(const struct sweep *s, const struct sweep_point *p,
			 const struct csv_table *t, char *why, size_t len)
{
	const struct experiment *e = s->e;
	const struct exp_variant *v = &e->variants[p->variant];
	char id[32], workers[32], rep[32];

	sweep_point_id(p, id, sizeof(id));
	snprintf(workers, sizeof(workers), "%ld", p->workers);
	snprintf(rep, sizeof(rep), "%u", p->rep);
	if (!cell_is(t, "point", id, true, why, len) ||
	    !cell_is(t, "experiment", e->name, true, why, len) ||
	    !cell_is(t, "workload", e->workloads[p->workload], true, why, len) ||
	    !cell_is(t, "variant", v->name, true, why, len) ||
	    !cell_is(t, "workers", workers, true, why, len) ||
	    !cell_is(t, "rep", rep, true, why, len) ||
	    !cell_is(t, "mode", e->mode, true, why, len) ||
	    !cell_is(t, "seconds", e->seconds, true, why, len) ||
	    !cell_is(t, "warmup", e->warmup, true, why, len) ||
	    !cell_is(t, "sample_ms", e->sample_ms, true, why, len))
		return false;
	/* lock and counter: a cell left empty is a workload that uses none */
	if (e->lock && csv_col(t, "lock") >= 0 && *t->rows[0][csv_col(t, "lock")] &&
	    !cell_is(t, "lock", e->lock, false, why, len))
		return false;
	if (e->counter && csv_col(t, "counter") >= 0 && *t->rows[0][csv_col(t, "counter")] &&
	    !cell_is(t, "counter", e->counter, false, why, len))
		return false;
	/* [fixed], less what the variant sets (the variant's value wins:
	 * stats_batch's patch sets kernel over the fixed one) */
	for (size_t i = 0; i < e->nfixed; i++) {
		bool over = false;

		for (size_t k = 0; k < v->nset && !over; k++)
			over = !strcmp(v->set[k].key, e->fixed[i].key);
		if (!over && !cell_is(t, e->fixed[i].key, e->fixed[i].value, false, why, len))
			return false;
	}
	if (!cells_are(t, v->set, v->nset, why, len))
		return false;
	for (size_t a = 0; a < e->naxes; a++) {
		const char *key = e->axes[a].key;
		int c = csv_col(t, key);

		if ((!strcmp(key, "lock") || !strcmp(key, "counter")) && c >= 0 &&
		    !*t->rows[0][c])
			continue;
		if (!cell_is(t, key, e->axes[a].values[p->axis[a]], false, why, len))
			return false;
	}
	return true;
}

bool sweep_point_file_ok(const struct sweep *s, const struct sweep_point *p,
			 const char *path, char *why, size_t len)
{
	const char *err;
	size_t line;
	struct csv_table *t = csv_read_file_flags(path, FILE_NOFOLLOW, &err, &line);
	bool ok;
	char *text;
	size_t n;

	snprintf(why, len, "no complete row");
	if (!t)
		return false;
	ok = t->nrows == 1 && t->ncols > 0 && !strcmp(t->header[0], "point");
	/* ... and the row is complete: the file ends with its newline. */
	text = ok ? read_text_file(path) : NULL;
	ok = text && (n = strlen(text)) > 0 && text[n - 1] == '\n';
	free(text);
	ok = ok && row_is_point(s, p, t, why, len);
	csv_free(t);
	return ok;
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
	char **names = NULL, *text = NULL;
	size_t ncols = 0, len = 0;
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
	f = open_memstream(&text, &len);
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
	if (fclose(f))
		die(1, "out of memory");
	if (atomic_write_file(path, text, len)) {
		warnx_("cannot write '%s': %s", path, strerror(errno));
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

/* The point a points/ file name stands for ("p0012.csv"), in *out: a
 * point of the matrix or an extra repetition of one that --ci added
 * (ids from npoints on, in harness/adaptive.c's order: per extra rep, per
 * group, per variant); false for any other name, only the names
 * sweep_point_id() writes. */
static bool point_of_file(const struct sweep *s, const char *name,
			  struct sweep_point *out)
{
	size_t l = strlen(name), k = 0, nv = s->e->nvariants, reps = s->e->reps;
	size_t ngroups = nv && reps ? s->npoints / (nv * reps) : 0;
	char id[32];

	if (l < 6 || l > 24 || name[0] != 'p' || strcmp(name + l - 4, ".csv"))
		return false;
	for (size_t i = 1; i < l - 4; i++) {
		if (name[i] < '0' || name[i] > '9')
			return false;
		k = k * 10 + (size_t)(name[i] - '0');
	}
	if (k < s->npoints) {
		*out = s->points[k];
	} else if (ngroups) {
		size_t x = k - s->npoints, v = x % nv, g = x / nv % ngroups,
		       r = reps + x / nv / ngroups;
		if (r > 1000000)
			return false;
		*out = s->points[g * reps * nv + v];
		out->rep = (unsigned)r;
		out->id = k;
	} else {
		return false;
	}
	sweep_point_id(out, id, sizeof(id));
	return strlen(id) == l - 4 && !strncmp(id, name, l - 4);
}

long sweep_collect(const struct sweep *s, const char *dir)
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
		struct sweep_point p;
		char *path, why[160];

		/* Finished points of this matrix (and its --ci extra
		 * repetitions) only: temp files of a killed run are not, nor a
		 * file no point is named, nor
		 * a point file without its one complete row (left by a full disk
		 * or an older memscale; the sweep runs such a point again), nor
		 * one whose row is of other settings. */
		if (l <= 4 || strcmp(de->d_name + l - 4, ".csv"))
			continue;
		path = xasprintf("%s/%s", pdir, de->d_name);
		if (!point_of_file(s, de->d_name, &p)) {
			warnx_("sweep: note: %s is no point of this sweep's matrix; "
			       "left out", path);
			free(path);
			continue;
		}
		if (!sweep_point_file_ok(s, &p, path, why, sizeof(why))) {
			warnx_("sweep: note: %s is not a finished point of this matrix "
			       "(%s); left out", path, why);
			free(path);
			continue;
		}
		files = realloc(files, (n + 1) * sizeof(char *));
		if (!files)
			die(1, "out of memory");
		files[n++] = path;
	}
	closedir(d);
	if (n) /* qsort(NULL, 0) is undefined */
		qsort(files, n, sizeof(char *), cmp_strp);
	tables = xcalloc(n ? n : 1, sizeof(*tables));
	in = xcalloc(n ? n : 1, sizeof(*in));
	rc = (long)n;
	for (size_t i = 0; i < n; i++) {
		const char *err;
		size_t line;
		tables[i] = csv_read_file_flags(files[i], FILE_NOFOLLOW, &err, &line);
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
	if (rc >= 0) {
		char *text = NULL;
		size_t len = 0;

		f = open_memstream(&text, &len);
		json_begin(&j, f);
		json_str(&j, "tool", "memscale");
		json_str(&j, "time", meta_now_iso());
		json_str(&j, "results", out);
		json_int(&j, "points", rc);
		meta_env_end();
		meta_json(&j);
		if (json_end(&j) || fclose(f))
			die(1, "out of memory");
		if (atomic_write_file(side, text, len)) {
			warnx_("cannot write '%s': %s", side, strerror(errno));
			rc = -1;
		}
		free(text);
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
