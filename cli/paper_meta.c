/*
 * paper_meta.c - the paper's text about its data, for `memscale
 * paper-tables --table NAME` (macros, provenance, figures, seeds): what
 * the results' JSON sidecars say (read with jansson, core/json.c: the
 * machine, compiler, commit, command and load of each sweep), the
 * figure environments plots/plot.sh's figures.tsv lists, each with its
 * provenance caption, and the seed sections of the experiment files.
 * paper/gen.sh only runs this and \input's what it writes.  Every string
 * from the data reaches TeX through core/escape.c's esc_tex().
 *
 *   macros       \MachineDesc, \ResultRows, \ResultsDir, \BuildCommit,
 *                \BuildCompiler, \DataWarning, \LoadNote, \DataSet
 *   provenance   every results source of the figures and its command
 *   figures SPEC the figures of a seed (seed NAME), of the lock study
 *                (locks), the counter study (counters) or the model vs
 *                kernel comparison (kernel_vs_model)
 *   seeds        a section per seed (memscale list experiments), and a
 *                "not measured" seed_NAME.tex beside --out for a seed
 *                without one
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/model.h"
#include "cli/paper_tables.h"
#include "core/escape.h"
#include "core/file.h"
#include "core/json.h"
#include "core/util.h"
#include "harness/expfile.h"

/* a growable list of heap strings */
struct strs {
	char **v;
	size_t n;
};

static void strs_add(struct strs *l, char *s)
{
	char **v = realloc(l->v, (l->n + 1) * sizeof(*v));

	if (!v)
		die(1, "paper-tables: out of memory");
	l->v = v;
	l->v[l->n++] = s;
}

static void strs_free(struct strs *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int strs_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* --- TeX ---------------------------------------------------------------- */

static void tex(FILE *f, const char *s)
{
	char *e = esc_tex(s ? s : "");

	fputs(e, f);
	free(e);
}

/* a command line or path for \texttt: escaped, breakable after each
 * '/', ',', '=' and '_' */
static void tex_cmd(FILE *f, const char *s)
{
	char *e = esc_tex(s ? s : "");

	for (const char *p = e; *p; p++) {
		fputc(*p, f);
		if (*p == '/' || *p == ',' || *p == '=' || (*p == '_' && p > e && p[-1] == '\\'))
			fputs("\\allowbreak{}", f);
	}
	free(e);
}

/* plain text escaped, each `code` in typewriter */
static void tex_code(FILE *f, const char *s)
{
	char *e = esc_tex(s ? s : ""), *p = e, *a, *b;

	while ((a = strchr(p, '`')) && (b = strchr(a + 1, '`'))) {
		fwrite(p, 1, (size_t)(a - p), f);
		fputs("\\texttt{", f);
		fwrite(a + 1, 1, (size_t)(b - a - 1), f);
		fputc('}', f);
		p = b + 1;
	}
	fputs(p, f);
	free(e);
}

/* A command line with every absolute path that starts a word cut to its
 * last component (the --out of a sweep run into a scratch directory):
 * no machine paths in the paper.  Heap string. */
static char *nopaths(const char *s)
{
	char *r = xstrdup(s), *w = r;

	for (const char *p = s; *p;) {
		const char *e = p + strcspn(p, " "), *cut = NULL;

		if (*p == '/')
			for (const char *q = p + 1; q + 1 < e; q++)
				if (*q == '/' && q[1] != '/')
					cut = q + 1;
		if (cut)
			p = cut;
		while (p < e)
			*w++ = *p++;
		while (*p == ' ')
			*w++ = *p++;
	}
	*w = 0;
	return r;
}

/* --- what the data say ---------------------------------------------------- */

struct meta {
	const struct paper_meta_opts *o;
	struct strs sc;     /* every sidecar under RESULTS, in name order */
	const char *first;  /* the first that describes a machine, or NULL */
	char *mach;         /* its machine, or NULL */
	char *rshow;        /* RESULTS as a reader can use it */
	struct strs fig[4]; /* figures.tsv: name, title, source, series */
};

static struct meta *walk_meta; /* nftw has no closure */

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	const struct paper_meta_opts *o = walk_meta->o;
	size_t nf = o->fig ? strlen(o->fig) : 0;

	(void)st;
	if (type == FTW_F && !fnmatch("*.json", path + ftw->base, 0) && !strstr(path, "/points/") &&
	    !(nf && !strncmp(path, o->fig, nf) && path[nf] == '/'))
		strs_add(&walk_meta->sc, xstrdup(path));
	return 0;
}

/* KEY of the first object that has HAVING in the JSON file, its first
 * line; NULL when absent or empty */
static char *json_key(const char *path, const char *having, const char *key, int idx)
{
	char err[256];
	struct json_doc *d = json_read_sidecar(path, err, sizeof(err));
	char *v = d ? json_doc_find(d, having, key, idx) : NULL;

	json_doc_free(d);
	if (v)
		v[strcspn(v, "\n")] = 0;
	if (v && !*v) {
		free(v);
		v = NULL;
	}
	return v;
}

/* KEY of the first of the files that has it */
static char *json_first(const struct strs *files, const char *key)
{
	char *v = NULL;

	for (size_t i = 0; i < files->n && !v; i++)
		v = json_key(files->v[i], key, key, -1);
	return v;
}

/* KEY of the machine description (the object holding cpu_model) of the
 * first file that has one: a sweep's knobs have a "kernel" too (a kernel
 * profile), the machine's is the running kernel */
static char *machine_key(const struct strs *files, const char *key)
{
	char *v = NULL;

	for (size_t i = 0; i < files->n && !v; i++)
		v = json_key(files->v[i], "cpu_model", key, -1);
	return v ? v : xstrdup("");
}

/* "CPU model, N CPUs (cores, NUMA nodes), kernel" */
static char *machine_of(const struct strs *files)
{
	char *m = machine_key(files, "cpu_model"), *pus, *cores, *nodes, *kernel, *r;

	if (!*m) {
		free(m);
		return xstrdup("machine not recorded");
	}
	pus = machine_key(files, "pus");
	cores = machine_key(files, "cores");
	nodes = machine_key(files, "numa_nodes");
	kernel = machine_key(files, "kernel");
	r = xasprintf("%s, %s CPUs (%s cores, %s NUMA node(s)), %s", m, pus, cores, nodes, kernel);
	free(m), free(pus), free(cores), free(nodes), free(kernel);
	return r;
}

/* a path as a reader can use it: relative to the repository when under
 * it, else its last component */
static char *shortpath(const char *p, const char *root)
{
	size_t n = root ? strlen(root) : 0;

	if (n && !strncmp(p, root, n) && p[n] == '/')
		return xstrdup(p + n + 1);
	if (*p == '/')
		return xstrdup(strrchr(p, '/') + 1);
	return xstrdup(p);
}

static void figures_load(struct meta *m)
{
	char *path = xasprintf("%s/figures.tsv", m->o->fig ? m->o->fig : ".");
	char *text = read_text_file(path), *save = NULL;

	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		for (int k = 0; k < 4; k++) {
			size_t n = strcspn(l, "\t");
			char *c = xstrdup(l);

			c[n] = 0;
			strs_add(&m->fig[k], c);
			l += n + (l[n] == '\t');
		}
	free(text);
	free(path);
}

static void meta_load(struct meta *m, const struct paper_meta_opts *o)
{
	memset(m, 0, sizeof(*m));
	m->o = o;
	walk_meta = m;
	if (o->results)
		nftw(o->results, walk_one, 16, FTW_PHYS);
	qsort(m->sc.v, m->sc.n, sizeof(char *), strs_cmp);
	for (size_t i = 0; i < m->sc.n && !m->first; i++) {
		char *t = read_text_file(m->sc.v[i]);

		if (t && strstr(t, "\"cpu_model\""))
			m->first = m->sc.v[i];
		free(t);
	}
	if (m->first) {
		struct strs one = { (char **)&m->first, 1 };

		m->mach = machine_of(&one);
	}
	m->rshow = shortpath(o->results ? o->results : "", o->root);
	figures_load(m);
}

static void meta_free(struct meta *m)
{
	strs_free(&m->sc);
	free(m->mach);
	free(m->rshow);
	for (int k = 0; k < 4; k++)
		strs_free(&m->fig[k]);
}

/* The sidecars describing a results source (a sweep directory or a CSV),
 * most specific first: sweep.json has the command, results.json (the
 * harness sidecar) the machine; a plain CSV has FILE.json. */
static void sidecars_for(const struct meta *m, const char *src, struct strs *out)
{
	const char *r = m->o->results ? m->o->results : "";
	const char *names[] = { "/sweep.json", "/results.json", ".json" };
	char *base = xstrdup(r), *b;
	size_t n = strlen(base);

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = xasprintf("%s/%s%s", r, src, names[i]);

		if (regular_file(p))
			strs_add(out, p);
		else
			free(p);
	}
	while (n > 1 && base[n - 1] == '/')
		base[--n] = 0;
	b = strrchr(base, '/');
	if (!strcmp(src, b && b[1] ? b + 1 : base))
		for (size_t i = 0; i < 2; i++) {
			char *p = xasprintf(i ? "%s/results.json" : "%s/sweep.json", r);

			if (regular_file(p))
				strs_add(out, p);
			else
				free(p);
		}
	free(base);
	if (regular_file(r)) {
		n = strlen(r);
		if (n >= 4 && !strcmp(r + n - 4, ".csv"))
			n -= 4;
		strs_add(out, xasprintf("%.*s.json", (int)n, r));
	}
}

/* --- figures ---------------------------------------------------------------- */

/* A figure environment with a provenance caption; nothing without the
 * figure (no data, no figure: the tables say what was not measured). */
static void figure(FILE *f, const struct meta *m, const char *name)
{
	size_t i;
	struct strs sc = { 0 };
	const char *src, *w = "0.55";
	char *pdf, *title, *cmd, *np, *mach;
	bool wide = has_prefix(name, "ab_") || has_prefix(name, "locks_") ||
		    has_prefix(name, "contention_") || has_prefix(name, "counter_");

	for (i = 0; i < m->fig[0].n && strcmp(m->fig[0].v[i], name); i++)
		;
	pdf = xasprintf("%s/%s.pdf", m->o->fig ? m->o->fig : ".", name);
	if (i == m->fig[0].n || !regular_file(pdf) || strspn(name, "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != strlen(name)) {
		free(pdf);
		return;
	}
	free(pdf);
	src = m->fig[2].v[i];
	title = xasprintf("%s%s%s", m->fig[1].v[i], !strcmp(m->fig[3].v[i], "not measured") ?
			  " (published values only; not measured here)" : "",
			  has_prefix(name, "throughput_") || (wide && !has_prefix(name, "ab_")) ?
			  "; points: mean over the runs, bars: +/-1 sample sd" : "");
	sidecars_for(m, src, &sc);
	cmd = json_first(&sc, "command");
	np = nopaths(cmd ? cmd : "not recorded");
	mach = machine_of(&sc);
	if (wide)
		w = "0.75";
	fprintf(f, "\\begin{figure}[tbp]\n\\centering\n\\includegraphics[width=%s\\linewidth]{%s/%s.pdf}\n",
		w, m->o->figrel ? m->o->figrel : ".", name);
	fputs("\\caption{", f);
	tex(f, title);
	fputc('.', f);
	if (!m->mach || strcmp(mach, m->mach)) {
		fputs(" Machine: ", f);
		tex(f, mach);
		fputc('.', f);
	}
	fputs(" Command: \\texttt{", f);
	tex_cmd(f, np);
	fputs("}.", f);
	pdf = xasprintf("%s/%s/NOTE.md", m->o->results ? m->o->results : ".", src);
	if (regular_file(pdf)) {
		char *n = xasprintf("%s/%s/NOTE.md", m->rshow, src);

		fputs(" Data caveats: \\texttt{", f);
		tex_cmd(f, n);
		fputs("}.", f);
		free(n);
	}
	fprintf(f, "}\n\\label{fig:%s}\n\\end{figure}\n\n", name);
	free(pdf), free(title), free(cmd), free(np), free(mach);
	strs_free(&sc);
}

/* every figure whose name starts with prefix (and whose source is src,
 * when not NULL), at most max */
static void figures_like(FILE *f, const struct meta *m, const char *prefix, const char *src, size_t max)
{
	for (size_t i = 0, k = 0; i < m->fig[0].n && k < max; i++)
		if (has_prefix(m->fig[0].v[i], prefix) && (!src || !strcmp(m->fig[2].v[i], src))) {
			figure(f, m, m->fig[0].v[i]);
			k++;
		}
}

static bool any_like(const struct meta *m, const char *prefix)
{
	for (size_t i = 0; i < m->fig[0].n; i++)
		if (has_prefix(m->fig[0].v[i], prefix))
			return true;
	return false;
}

static void meta_figures(FILE *f, const struct meta *m, char **args, int nargs)
{
	const char *what = nargs ? args[0] : "";

	if (!strcmp(what, "seed") && nargs == 2) {
		char *n = xasprintf("ab_%s", args[1]);

		figure(f, m, n);
		free(n);
		n = xasprintf("extrapolation_%s", args[1]);
		figure(f, m, n);
		free(n);
		figures_like(f, m, "throughput_", args[1], 2);
		figures_like(f, m, "contention_", args[1], 1);
	} else if (!strcmp(what, "locks") && nargs == 1) {
		if (!any_like(m, "locks_"))
			fputs("Lock study: not measured.\n\n", f);
		figures_like(f, m, "locks_", NULL, (size_t)-1);
	} else if (!strcmp(what, "counters") && nargs == 1) {
		char *cr = xasprintf("%s/counters/results.csv", m->o->results ? m->o->results : ".");
		struct stat st;

		if (!any_like(m, "counter_tradeoff_") && (stat(cr, &st) || !st.st_size))
			fputs("Counter study: not measured.\n\n", f);
		free(cr);
		figures_like(f, m, "counter_tradeoff_", NULL, (size_t)-1);
	} else if (!strcmp(what, "kernel_vs_model") && nargs == 1) {
		figures_like(f, m, "throughput_", "kernel_vs_model", 2);
	} else {
		die(EXIT_USAGE, "paper-tables: --table figures wants seed NAME, locks, counters or "
		    "kernel_vs_model, not '%s'", nargs ? args[0] : "");
	}
}

/* --- provenance: every results source and the command that wrote it ------- */

static void meta_provenance(FILE *f, const struct meta *m)
{
	unsigned n = 0;

	fputs("{\\raggedright\\begin{itemize}\n", f);
	for (size_t i = 0; i < m->fig[2].n; i++) {
		const char *src = m->fig[2].v[i];
		struct strs sc = { 0 };
		char *c, *mach;
		size_t j;

		for (j = 0; j < i && strcmp(m->fig[2].v[j], src); j++)
			;
		if (j < i || !*src)
			continue;
		sidecars_for(m, src, &sc);
		if (!sc.n)
			continue;
		n++;
		c = json_first(&sc, "command");
		mach = machine_of(&sc);
		fputs("\\item \\texttt{", f);
		tex(f, src);
		fputs("}: ", f);
		if (c) {
			char *np = nopaths(c);

			fputs("\\texttt{", f);
			tex_cmd(f, np);
			fputc('}', f);
			free(np);
		} else {
			fputs("command not recorded", f);
		}
		fputs("; ", f);
		tex(f, mach);
		fputs(".\n", f);
		free(c), free(mach);
		strs_free(&sc);
	}
	if (!n)
		fputs("\\item not measured (no results with JSON sidecars)\n", f);
	fputs("\\end{itemize}\\par}\n", f);
}

/* --- which data, which code --------------------------------------------------- */

/* `git -C root ARGS...` (no shell; stderr dropped): its exit status, -1
 * when it could not run; its output into *out when out is not NULL */
static int git(const char *root, char **out, const char *const *args)
{
	const char *argv[16] = { "git", "-C", root };
	int p[2], st, n = 3;
	pid_t pid;
	char *buf = NULL;
	size_t len = 0;
	FILE *r;

	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	if (out)
		*out = NULL;
	fflush(NULL);
	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]), close(p[1]);
		return -1;
	}
	if (!pid) {
		int null = file_kernel_fd("/dev/null", O_RDWR);

		dup2(p[1], 1);
		dup2(null, 0);
		dup2(null, 2);
		close(p[0]), close(p[1]);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	r = fdopen(p[0], "r");
	if (r) {
		buf = file_read_bounded(r, FILE_READ_MAX, &len, &(const char *){ NULL });
		fclose(r);
	} else {
		close(p[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	if (out)
		*out = buf ? buf : xstrdup("");
	else
		free(buf);
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* a commit a sidecar names, fit to give git: hex digits only */
static bool plain_commit(const char *c)
{
	return *c && strspn(c, "0123456789abcdef") == strlen(c);
}

static const char *const code_paths[] = { "--", "*.c", "*.h", "Makefile", "experiments", NULL };

/* the data's commits to this one (now): the same, the same code (C
 * sources, Makefile and experiment files unchanged since), or older code,
 * with the files that differ named (up to three) */
static void data_vs_code(FILE *f, const char *root, const char *now, const struct strs *cs)
{
	int same = 1;

	for (size_t i = 0; i < cs->n; i++) {
		char *base = xstrdup(cs->v[i]), *d = NULL, *ce;
		struct strs files = { 0 };
		size_t n = strlen(base);
		bool dirty = n >= 6 && !strcmp(base + n - 6, "-dirty"), ok;

		if (dirty)
			base[n - 6] = 0;
		if (has_prefix(now, base)) {
			free(base);
			continue;
		}
		ce = xasprintf("%s^{commit}", base);
		ok = !dirty && plain_commit(base) && !git(root, NULL, (const char *[]){ "cat-file", "-e", ce, NULL });
		free(ce);
		if (ok && !git(root, NULL, (const char *[]){ "diff", "--quiet", base, "HEAD", code_paths[0],
			       code_paths[1], code_paths[2], code_paths[3], code_paths[4], NULL })) {
			same = 2;
			free(base);
			continue;
		}
		if (ok)
			git(root, &d, (const char *[]){ "diff", "--name-only", base, "HEAD", code_paths[0],
				code_paths[1], code_paths[2], code_paths[3], code_paths[4], NULL });
		fputs("; the data are older than the code, so tables reflect the models as they were then", f);
		for (char *l = d, *e; l && *l; l = *e ? e + 1 : e) {
			e = l + strcspn(l, "\n");
			if (e > l)
				strs_add(&files, xasprintf("%.*s", (int)(e - l), l));
		}
		if (files.n) {
			fprintf(f, " (%zu file(s) of code differ since ", files.n);
			tex(f, base);
			fputs(": ", f);
			for (size_t k = 0; k < files.n && k < 3; k++) {
				fputs(k ? ", \\texttt{" : "\\texttt{", f);
				tex(f, files.v[k]);
				fputc('}', f);
			}
			fprintf(f, "%s)", files.n > 3 ? ", ..." : "");
		}
		strs_free(&files);
		free(d), free(base);
		return;
	}
	if (same == 2)
		fputs("; the C sources, Makefile and experiment files of the data's commit(s) are "
		      "those of this one", f);
}

static void meta_dataset(FILE *f, const struct meta *m)
{
	const char *root = m->o->root ? m->o->root : ".";
	struct strs cs = { 0 };
	char *now = NULL;

	for (size_t i = 0; i < m->sc.n; i++) {
		char *c = json_key(m->sc.v[i], "git_commit", "git_commit", -1);

		if (c)
			strs_add(&cs, c);
	}
	qsort(cs.v, cs.n, sizeof(char *), strs_cmp);
	for (size_t i = 1; i < cs.n; i++)
		if (!strcmp(cs.v[i], cs.v[i - 1])) {
			free(cs.v[i]);
			memmove(&cs.v[i], &cs.v[i + 1], (cs.n - i - 1) * sizeof(char *));
			cs.n--, i--;
		}
	if (git(root, &now, (const char *[]){ "rev-parse", "--short=12", "HEAD", NULL }) || !*now) {
		free(now);
		now = xstrdup("unknown");
	}
	now[strcspn(now, "\n")] = 0;
	fputs("\\newcommand{\\DataSet}{The reference data of this paper are \\texttt{", f);
	tex_cmd(f, m->rshow);
	fputc('}', f);
	if (m->o->results && strstr(m->o->results, "history/"))
		fputs(" (historical reference data, kept under \\texttt{results-reference/history/})", f);
	fputs(", measured with the code at commit(s) \\texttt{", f);
	for (size_t i = 0; i < cs.n; i++) {
		fputs(i ? ", " : "", f);
		tex(f, cs.v[i]);
	}
	fputs(cs.n ? "" : "not recorded", f);
	fputs("}; this paper was generated by the code at commit \\texttt{", f);
	tex(f, now);
	fputc('}', f);
	if (cs.n)
		data_vs_code(f, root, now, &cs);
	fputs(".}\n", f);
	free(now);
	strs_free(&cs);
}

/* --- macros: the machine and the data set ----------------------------------- */

static void meta_macros(FILE *f, const struct meta *m)
{
	char *p = xasprintf("%s/data/all.csv", m->o->fig ? m->o->fig : "."), *t = read_text_file(p);
	char *commit = m->first ? json_key(m->first, "git_commit", "git_commit", -1) : NULL;
	char *cc = m->first ? json_key(m->first, "compiler", "compiler", -1) : NULL;
	long rows = -1;
	bool fixture = false;
	struct strs load = { 0 };

	for (const char *c = t; c && *c; c++)
		rows += *c == '\n';
	free(t);
	free(p);
	fputs("\\newcommand{\\MachineDesc}{", f);
	tex(f, m->first ? m->mach : "not measured");
	fprintf(f, "}\n\\newcommand{\\ResultRows}{%ld}\n\\newcommand{\\ResultsDir}{", rows < 0 ? 0 : rows);
	tex(f, m->rshow);
	fputs("}\n\\newcommand{\\BuildCommit}{", f);
	tex(f, m->first ? commit : "not recorded");
	fputs("}\n\\newcommand{\\BuildCompiler}{", f);
	tex(f, m->first ? cc : "not recorded");
	fputs("}\n", f);
	/* each sweep's load average at its start, its machine's CPU count */
	for (size_t i = 0; i < m->sc.n; i++) {
		char *l = json_key(m->sc.v[i], "loadavg", "loadavg", 0);
		struct strs one = { &m->sc.v[i], 1 };
		char *pus = machine_key(&one, "pus");

		t = read_text_file(m->sc.v[i]);
		fixture |= t && strcasestr(t, "fixture");
		free(t);
		strs_add(&load, xasprintf("%s\t%s", l ? l : "", pus));
		free(l), free(pus);
	}
	fprintf(f, "\\newcommand{\\DataWarning}{%s}\n", fixture ? "\\textbf{These results are the "
		"synthetic TEST FIXTURE, not measurements.}" : "");
	paper_load_note(f, load.v, load.n);
	meta_dataset(f, m);
	free(commit), free(cc);
	strs_free(&load);
}

/* --- a section per seed ---------------------------------------------------- */

static void meta_seeds(FILE *f, const char *out)
{
	char *pat = xasprintf("%s/*.ini", model_experiment_dir()), *dir = xstrdup(out), *sl;
	unsigned n = 0;
	struct stat st;
	glob_t g;

	sl = strrchr(dir, '/');
	if (sl)
		*sl = 0;
	else
		strcpy(dir, ".");
	if (glob(pat, 0, NULL, &g))
		g.gl_pathc = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct experiment *e = exp_load(g.gl_pathv[i]);
		const char *title = e->title ? e->title : e->description ? e->description : e->name;
		char *seed;

		if (!e->npublished) {
			exp_free(e);
			continue;
		}
		/* the name goes into a file name and an \input: a plain name only */
		if (!*e->name || strspn(e->name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(e->name)) {
			warnx_("paper-tables: experiment name '%s' skipped (want [a-z0-9_])", e->name);
			exp_free(e);
			continue;
		}
		seed = xasprintf("%s/seed_%s.tex", dir, e->name);
		if (stat(seed, &st) || !st.st_size) {
			char *esc = esc_tex(e->name), *text = xasprintf("Seed %s: not measured.\n\n", esc);

			if (atomic_write_file(seed, text, strlen(text)))
				die_errno(1, "paper-tables: %s", seed);
			free(esc), free(text);
		}
		free(seed);
		fputs("\\subsection{", f);
		tex_code(f, title);
		fputs("}\n", f);
		tex_code(f, e->about ? e->about : "");
		fprintf(f, "\n\\input{generated/seed_%s.tex}\n\n", e->name);
		n++;
		exp_free(e);
	}
	globfree(&g);
	if (!n)
		fputs("Seed experiments: none listed (memscale list experiments).\n", f);
	free(pat), free(dir);
}

/* --- the command ------------------------------------------------------------- */

bool paper_meta_has(const char *table)
{
	return !strcmp(table, "macros") || !strcmp(table, "provenance") ||
	       !strcmp(table, "figures") || !strcmp(table, "seeds");
}

int paper_meta(const char *table, const char *out, const struct paper_meta_opts *o, char **args,
	       int nargs)
{
	struct meta m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!out)
		die(EXIT_USAGE, "paper-tables: --table %s wants --out FILE", table);
	if (strcmp(table, "figures") && nargs)
		die(EXIT_USAGE, "paper-tables: --table %s takes no INPUT ('%s')", table, args[0]);
	if (!strcmp(table, "seeds") && !strcmp(out, "-"))
		die(EXIT_USAGE, "paper-tables: --table seeds wants --out FILE (its directory gets "
		    "the seed_NAME.tex files)");
	f = open_memstream(&buf, &len);
	if (!f)
		die_errno(1, "paper-tables: open_memstream");
	meta_load(&m, o);
	if (!strcmp(table, "macros"))
		meta_macros(f, &m);
	else if (!strcmp(table, "provenance"))
		meta_provenance(f, &m);
	else if (!strcmp(table, "figures"))
		meta_figures(f, &m, args, nargs);
	else
		meta_seeds(f, out);
	meta_free(&m);
	if (fclose(f))
		die_errno(1, "paper-tables: %s", out);
	paper_write_out(out, buf, len);
	free(buf);
	return 0;
}
