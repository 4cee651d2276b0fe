/*
 * sweepdir.c - a sweep directory on disk (sweepdir.h): the point files
 * under points/, settings.txt, matrix.txt, experiment.ini and sweep.json,
 * the checks that a resumed, fleet or collected sweep is the one that
 * made the directory, and the seed it recorded.  Every file is written
 * whole or not at all (temp file and rename), so a sweep killed in any
 * way keeps everything it finished.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/meta.h"
#include "core/outlock.h"
#include "harness/sweepdir.h"

char *sweepdir_point_path(const char *dir, const struct sweep_point *p)
{
	char id[32];

	sweep_point_id(p, id, sizeof(id));
	return xasprintf("%s/points/%s.csv", dir, id);
}

/* A point is done when its file holds its one complete row; anything
 * else there (0 bytes, a header alone) is run again. */
bool sweepdir_point_done(const struct sweep *s, const char *dir,
			 const struct sweep_point *p)
{
	char *path = sweepdir_point_path(dir, p), why[160];
	bool done;

	done = sweep_point_file_ok(s, p, path, why, sizeof(why));
	free(path);
	return done;
}

bool sweepdir_point_exists(const char *dir, const struct sweep_point *p)
{
	char *path = sweepdir_point_path(dir, p);
	bool there = access(path, F_OK) == 0;

	free(path);
	return there;
}

/* Writes the point's row, prefixed with point/variant/experiment, whole
 * or not at all (atomic_write_file).  A point that cannot be written (a
 * full disk) stops the sweep: measuring on would only lose more. */
void sweepdir_write_point(const char *dir, const struct sweep *s,
			  const struct sweep_point *p, const struct harness_opts *o,
			  const struct result *res)
{
	char *buf = NULL, *nl, id[32], *text = NULL;
	size_t len = 0, tlen = 0;
	FILE *m = open_memstream(&buf, &len), *f;
	char *final = sweepdir_point_path(dir, p);

	harness_write_csv(m, o, res);
	if (fclose(m) || !(nl = strchr(buf, '\n')))
		die(1, "out of memory");
	sweep_point_id(p, id, sizeof(id));
	f = open_memstream(&text, &tlen);
	csv_field(f, "point", 0);
	csv_field(f, "variant", 0);
	csv_field(f, "experiment", 0);
	fwrite(buf, 1, (size_t)(nl + 1 - buf), f);
	csv_field(f, id, 0);
	csv_field(f, s->e->variants[p->variant].name, 0);
	csv_field(f, s->e->name, 0);
	fputs(nl + 1, f);
	if (fclose(f))
		die(1, "out of memory");
	if (atomic_write_file(final, text, tlen))
		die_errno(1, "sweep: cannot write point %s to '%s' (the sweep stops "
			  "here; every finished point is kept: make room, then "
			  "--resume)", id, final);
	free(text);
	free(buf);
	free(final);
}

/* NAME.tmp.PID[.RANDOM] files of writers that are gone (a sweep killed
 * while it wrote a point): removed, so a killed sweep leaves nothing
 * half-made; those of live fleet jobs sharing the directory stay. */
static void remove_stale_temps(const char *pdir)
{
	DIR *d = opendir(pdir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		const char *t = strstr(de->d_name, ".tmp.");
		char num[16] = "";
		long pid;

		if (t)
			snprintf(num, sizeof(num), "%.*s", (int)strcspn(t + 5, "."), t + 5);
		if (!t || !parse_long(num, 1, 0x7fffffff, &pid) ||
		    (kill((pid_t)pid, 0) == 0 || errno == EPERM)) {
			continue;
		}
		{
			char *path = xasprintf("%s/%s", pdir, de->d_name);
			unlink(path);
			free(path);
		}
	}
	if (d)
		closedir(d);
}

static void mkdir_p(const char *path)
{
	char *copy = xstrdup(path);

	for (char *c = copy + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			mkdir(copy, 0777);
			*c = '/';
		}
	if (mkdir(copy, 0777) && errno != EEXIST)
		die_errno(EXIT_USAGE, "cannot create directory '%s'", copy);
	free(copy);
}

void sweepdir_write_file(const char *path, const char *text)
{
	if (atomic_write_file(path, text, strlen(text)))
		die_errno(1, "cannot write '%s'", path);
}

static char *matrix_text(const struct sweep *s)
{
	char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < s->npoints; i++) {
		char *d = sweep_point_desc(s, &s->points[i]);
		fprintf(f, "%s\n", d);
		free(d);
	}
	fclose(f);
	return buf;
}

static void json_settings(struct json *j, const char *key,
			  const struct exp_kv *kv, size_t n)
{
	json_obj_open(j, key);
	for (size_t i = 0; i < n; i++)
		json_str(j, kv[i].key, kv[i].value);
	json_obj_close(j);
}

static void write_sweep_json(const struct sweep *s, const char *dir, bool quick,
			     const char *cmdline)
{
	const struct experiment *e = s->e;
	char *path = xasprintf("%s/sweep.json", dir), *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	struct json j;

	json_begin(&j, f);
	json_str(&j, "tool", "memscale");
	json_str(&j, "time", meta_now_iso());
	json_str(&j, "command", cmdline);
	json_int(&j, "seed", (long long)s->seed);
	json_bool(&j, "quick", quick);
	json_int(&j, "npoints", (long long)s->npoints);
	{
		char *st = sweep_settings_text(s), hex[32];
		snprintf(hex, sizeof(hex), "%016llx",
			 (unsigned long long)sweep_settings_hash(st));
		json_str(&j, "settings_hash", hex);
		free(st);
	}
	json_obj_open(&j, "experiment");
	json_str(&j, "name", e->name);
	json_str(&j, "file", e->path);
	json_str(&j, "description", e->description ? e->description : "");
	json_str(&j, "reproduces", e->reproduces ? e->reproduces : "");
	json_str(&j, "base", e->variants[e->base].name);
	json_bool(&j, "trace", e->trace);
	json_str(&j, "mode", e->mode);
	json_str(&j, "workers", e->workers);
	json_str(&j, "seconds", e->seconds);
	json_str(&j, "warmup", e->warmup);
	json_str(&j, "sample_ms", e->sample_ms);
	json_int(&j, "reps", e->reps);
	json_str(&j, "lock", e->lock ? e->lock : "");
	json_str(&j, "counter", e->counter ? e->counter : "");
	json_arr_open(&j, "workloads");
	for (size_t i = 0; i < e->nworkloads; i++)
		json_str(&j, NULL, e->workloads[i]);
	json_arr_close(&j);
	json_settings(&j, "fixed", e->fixed, e->nfixed);
	json_obj_open(&j, "variants");
	for (size_t i = 0; i < e->nvariants; i++)
		json_settings(&j, e->variants[i].name, e->variants[i].set,
			      e->variants[i].nset);
	json_obj_close(&j);
	json_obj_open(&j, "axes");
	for (size_t a = 0; a < e->naxes; a++) {
		json_arr_open(&j, e->axes[a].key);
		for (size_t v = 0; v < e->axes[a].nvalues; v++)
			json_str(&j, NULL, e->axes[a].values[v]);
		json_arr_close(&j);
	}
	json_obj_close(&j);
	json_arr_open(&j, "published");
	for (size_t i = 0; i < e->npublished; i++) {
		const struct published_row *pub = &e->published[i];
		json_obj_open(&j, NULL);
		json_str(&j, "workload", pub->workload);
		json_str(&j, "base", pub->base);
		json_str(&j, "patch", pub->patch);
		json_str(&j, "change", pub->change);
		json_str(&j, "machine", pub->machine);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_arr_open(&j, "workers_resolved");
	for (size_t i = 0; i < s->nworkers; i++)
		json_int(&j, NULL, s->workers[i]);
	json_arr_close(&j);
	json_arr_open(&j, "points");
	for (size_t k = 0; k < s->npoints; k++) {
		const struct sweep_point *p = &s->points[s->order[k]];
		char id[32];
		sweep_point_id(p, id, sizeof(id));
		json_obj_open(&j, NULL);
		json_str(&j, "id", id);
		json_str(&j, "workload", e->workloads[p->workload]);
		json_str(&j, "variant", e->variants[p->variant].name);
		for (size_t a = 0; a < e->naxes; a++)
			json_str(&j, e->axes[a].key, e->axes[a].values[p->axis[a]]);
		json_int(&j, "workers", p->workers);
		json_int(&j, "rep", p->rep);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	meta_json(&j);
	json_end(&j);
	fclose(f);
	sweepdir_write_file(path, text);
	free(text);
	free(path);
}

/* The seed a previous run recorded in DIR/sweep.json, if any. */
bool sweepdir_recorded_seed(const char *dir, uint64_t *seed)
{
	char *path = xasprintf("%s/sweep.json", dir), err[512], *v = NULL, *end;
	struct json_doc *d = access(path, F_OK) ? NULL :
			     json_read_file(path, err, sizeof(err));
	bool ok = false;

	if (!d && !access(path, F_OK))
		warnx_("sweep: note: %s; its seed is not reused", err);
	if (d && (v = json_doc_get(d, "seed", NULL))) {
		errno = 0;
		*seed = strtoull(v, &end, 10);
		ok = !errno && end != v && !*end;
	}
	free(v);
	json_doc_free(d);
	free(path);
	return ok;
}

/*
 * --resume continues a sweep that exists: a directory without one (no
 * settings.txt and sweep.json) is refused instead of starting anew.  A
 * directory that records a seed is continued under that seed only: a
 * --seed that differs would run the rest in another order and record it
 * for points run under the first.
 */
void sweepdir_check_seed(const char *dir, bool resume, bool seed_given,
			 uint64_t seed)
{
	char *set = xasprintf("%s/settings.txt", dir);
	char *js = xasprintf("%s/sweep.json", dir);
	uint64_t had;

	if (resume && (access(set, F_OK) || access(js, F_OK)))
		die(EXIT_USAGE, "sweep: --resume: no sweep to resume in '%s' (%s "
		    "missing)", dir, access(dir, F_OK) ? "the directory is" :
		    access(set, F_OK) ? "settings.txt is" : "sweep.json is");
	if (resume && !sweepdir_recorded_seed(dir, &had))
		die(EXIT_USAGE, "sweep: --resume: '%s/sweep.json' records no readable "
		    "seed, so the order cannot be continued", dir);
	if (seed_given && !access(js, F_OK) && sweepdir_recorded_seed(dir, &had) &&
	    had != seed)
		die(EXIT_USAGE, "sweep: '%s' was run with --seed %llu, not --seed %llu; "
		    "give its seed (or none), or choose another --out", dir,
		    (unsigned long long)had, (unsigned long long)seed);
	free(set);
	free(js);
}

size_t sweepdir_count_done(const struct sweep *s, const char *dir)
{
	size_t n = 0;

	for (size_t i = 0; i < s->npoints; i++)
		n += sweepdir_point_done(s, dir, &s->points[i]);
	return n;
}

/*
 * DIR/settings.txt: every setting that changes results
 * (sweep_settings_text).  A directory that holds other settings is
 * refused with the first difference named, so a resumed, fleet or
 * collected sweep never mixes two settings in results.csv.  `write`: a
 * new directory gets the file.
 */
static void check_settings(const struct sweep *s, const char *dir, bool write,
			   const char *what)
{
	char *now = sweep_settings_text(s), *path, *have, *diff, *mpath;

	path = xasprintf("%s/settings.txt", dir);
	have = read_text_file(path);
	if (have && (diff = sweep_settings_diff(have, now)))
		die(EXIT_USAGE, "sweep: %s: '%s' was run with other settings (first "
		    "difference: %s); give the options it was run with, or choose "
		    "another --out", what, dir, diff);
	mpath = xasprintf("%s/matrix.txt", dir);
	if (!have && write && !access(mpath, F_OK))
		die(EXIT_USAGE, "sweep: %s: '%s' has no settings.txt (an older "
		    "memscale's sweep), so its settings cannot be checked; choose "
		    "another --out", what, dir);
	if (!have && write)
		sweepdir_write_file(path, now);
	free(mpath);
	free(have);
	free(path);
	free(now);
}

long sweepdir_collect(const struct sweep *s, const char *dir,
		      const char *exp_path, bool quick)
{
	/* Only the sweep that wrote DIR: another profile (--quick or not,
	 * other -O) would count its points against the wrong matrix ("8 of
	 * 132 points"). */
	char *m, *mp, *have;

	if (access(dir, F_OK) == 0)
		out_lock_dir(dir, false, "sweep --collect");
	check_settings(s, dir, false, "--collect");
	m = matrix_text(s);
	mp = xasprintf("%s/matrix.txt", dir);
	have = read_text_file(mp);
	if (!have)
		die(EXIT_USAGE, "sweep: --collect: no sweep in '%s' (no matrix.txt)",
		    dir);
	if (strcmp(have, m))
		die(EXIT_USAGE, "sweep: --collect: '%s' holds a different sweep (its "
		    "matrix.txt differs from %s%s with these options); give the "
		    "options it was run with", dir, exp_path, quick ? " --quick" : "");
	free(m);
	free(mp);
	free(have);
	return sweep_collect(s, dir);
}

/* points/ made, with the temp files of writers that are gone removed. */
static void make_points_dir(const char *dir)
{
	char *pdir = xasprintf("%s/points", dir);

	mkdir_p(pdir);
	remove_stale_temps(pdir);
	free(pdir);
}

/* experiment.ini and sweep.json: a fleet job (--point) writes them only
 * into a directory it made. */
static void write_description(const struct sweep *s, const struct sweepdir_opts *d)
{
	char *copy = read_text_file(d->exp_path), *cpath;

	cpath = xasprintf("%s/experiment.ini", d->dir);
	if (copy)
		sweepdir_write_file(cpath, copy);
	free(copy);
	free(cpath);
	write_sweep_json(s, d->dir, d->quick, d->cmdline);
}

void sweepdir_prepare(const struct sweep *s, const struct sweepdir_opts *d)
{
	const char *what = d->resume ? "--resume" : d->point ? "--point" : "sweep";
	char *matrix, *mpath, *old;
	bool locked = false;
	size_t done;

	/* The directory must hold these very settings and this very matrix,
	 * or nothing yet. */
	if (!access(d->dir, F_OK)) {
		/* One writer per directory first: a second writer is told who
		 * holds it, whatever its settings. */
		out_lock_dir(d->dir, d->point, "sweep");
		locked = true;
		check_settings(s, d->dir, false, what);
	}
	matrix = matrix_text(s);
	mpath = xasprintf("%s/matrix.txt", d->dir);
	old = read_text_file(mpath);
	if (old && strcmp(old, matrix))
		die(EXIT_USAGE, "sweep: '%s' holds a different sweep (its matrix.txt "
		    "differs from %s%s); choose another --out", d->dir,
		    d->exp_path, d->quick ? " --quick" : "");
	mkdir_p(d->dir);
	/* One writer per directory: a whole sweep or --emit-jobs excludes
	 * everybody; fleet jobs (--point) share it with each other. */
	if (!locked)
		out_lock_dir(d->dir, d->point, "sweep");
	make_points_dir(d->dir);
	done = sweepdir_count_done(s, d->dir);
	if (done && !d->resume && !d->point && !d->emit_jobs)
		die(EXIT_USAGE, "sweep: '%s' already holds %zu finished points; pass "
		    "--resume to continue, or choose another --out", d->dir, done);
	check_settings(s, d->dir, true, what);
	if (!old)
		sweepdir_write_file(mpath, matrix);
	if (!d->point || !old)
		write_description(s, d);
	free(old);
	free(mpath);
	free(matrix);
}
