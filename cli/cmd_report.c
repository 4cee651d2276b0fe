/*
 * cmd_report.c - `memscale report DIR`: one static HTML page,
 * DIR/report.html, for a results directory: per sweep directory its
 * provenance (command, commit, machine from the JSON sidecars), its A/B
 * table as `memscale compare --experiment SUB -f csv` computes it (this
 * binary, run without a shell), the warnings compare printed and those
 * in DIR/warnings.txt, and the figures plots/plot.sh rendered beside it
 * (OUT/plots/, or DIR/figures/ as make demo draws them; captions from
 * their figures.tsv) as <img>, each a link to its full-size figure.
 * Figures older than the results (or none) are drawn first by `memscale
 * plot DIR --out OUT/plots` (this binary, no shell): the path `plot` and
 * `make plots` take.  The A/B table gives the absolute means with their
 * unit (ops/s for ops_per_sec) and the change the model predicts for the
 * published machines where a predictions.csv under DIR has the pair (the
 * ledger of `model validate -f csv`, or `paper-tables --predictions`' CSV; a
 * prediction of the reverse pair turned over: 100 / (1 + p/100) - 100).
 *
 * Every value from the results is HTML-escaped (html_text); the page
 * has no script and no external resource.  A change whose interval spans
 * zero (or, where compare gives no interval, whose Welch p >= 0.05) is
 * written "no significant change", never as a signed headline.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/csv.h"
#include "core/json.h"
#include "exp/published.h"

static int report_main(int argc, char **argv);

const struct subcommand report_cmd = {
	.name = "report",
	.summary = "write DIR/report.html: tables, figures, provenance, warnings",
	.usage = "report DIR [--out OUTDIR]\n"
		 "\n"
		 "DIR is a results directory: a sweep directory, or one holding a\n"
		 "directory per experiment (results/, results/demo).  Writes\n"
		 "OUTDIR/report.html (default OUTDIR: DIR): per sweep its command,\n"
		 "commit and machine, the A/B table of `compare --experiment`\n"
		 "(base and patch means with their unit, the change with its\n"
		 "interval, the change predicted for the published machines where\n"
		 "a predictions.csv under DIR has one, the published change), the\n"
		 "warnings, and the PNG figures, each linked to its full size.\n"
		 "Figures missing or older than the results are drawn first\n"
		 "(`memscale plot DIR --out OUTDIR/plots`; needs gnuplot).\n"
		 "  -o, --out OUTDIR   where report.html and plots/ go (created)\n"
		 "Static: no scripts, nothing fetched.\n",
	.main = report_main,
};
REGISTER(subcommand, report_cmd);

/* Writes s with & < > " ' as entities. */
static void html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* control characters other than tab/newline: dropped */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
				break;
			fputc(*s, f);
		}
	}
}

static bool is_reg(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* Runs this binary with argv (no shell); stdout into *out, stderr into
 * *err (heap strings).  Returns the exit status, -1 when it could not run. */
static int run_self(char *const argv[], char **out, char **err)
{
	FILE *fo = tmpfile(), *fe = tmpfile();
	pid_t pid;
	int st = -1;
	size_t n;
	long len;

	*out = *err = NULL;
	if (!fo || !fe)
		goto done;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto done;
	if (pid == 0) {
		dup2(fileno(fo), STDOUT_FILENO);
		dup2(fileno(fe), STDERR_FILENO);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		st = -1;
	else
		st = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
done:
	for (int k = 0; k < 2; k++) {
		FILE *f = k ? fe : fo;
		char **dst = k ? err : out;

		if (!f) {
			*dst = xasprintf("%s", "");
			continue;
		}
		len = (fseek(f, 0, SEEK_END) == 0) ? ftell(f) : 0;
		if (len < 0)
			len = 0;
		rewind(f);
		*dst = xcalloc((size_t)len + 1, 1);
		n = fread(*dst, 1, (size_t)len, f);
		(*dst)[n] = '\0';
		fclose(f);
	}
	return st;
}

static const char *table_cell(const struct csv_table *t, size_t r, const char *col)
{
	int c = csv_col(t, col);
	return c < 0 ? NULL : t->rows[r][c];
}

static bool parse_num(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return false;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v);
}

/* The change as the page prints it: see the header comment. */
static void change_text(FILE *f, const struct csv_table *t, size_t r)
{
	double c, lo = NAN, hi = NAN, p = NAN;
	bool has_ci = parse_num(table_cell(t, r, "ci_lo_pct"), &lo) && parse_num(table_cell(t, r, "ci_hi_pct"), &hi);
	bool sig;

	if (!parse_num(table_cell(t, r, "change_pct"), &c)) {
		fputs("not measured", f);
		return;
	}
	if (has_ci)
		sig = lo > 0 || hi < 0;
	else if (parse_num(table_cell(t, r, "welch_p"), &p) || parse_num(table_cell(t, r, "p"), &p))
		sig = p < 0.05;
	else
		sig = table_cell(t, r, "significant") && !strcmp(table_cell(t, r, "significant"), "yes");
	if (sig && has_ci)
		fprintf(f, "%+.1f %% (95 %%: %+.1f..%+.1f %%)", c, lo, hi);
	else if (sig)
		fprintf(f, "%+.1f %% (p = %.2g; interval n/a)", c, p);
	else if (has_ci)
		fprintf(f, "no significant change (interval %+.1f..%+.1f %%)", lo, hi);
	else
		fprintf(f, "no significant change (%+.1f %%, interval n/a)", c);
}

/* The first of several key paths present in a sidecar. */
static char *side_get(struct json_doc *const docs[], size_t nd, const char *key)
{
	for (size_t i = 0; i < nd; i++) {
		char *v;

		if (!docs[i])
			continue;
		if ((v = json_doc_get(docs[i], key, NULL)) ||
		    (v = json_doc_get(docs[i], "machine", key, NULL)) ||
		    (v = json_doc_get(docs[i], "build", key, NULL)))
			return v;
	}
	return NULL;
}

static void provenance(FILE *f, const char *sub)
{
	static const char *const keys[][2] = {
		{ "command", "command" }, { "time", "time" },
		{ "git_commit", "commit" }, { "compiler", "compiler" },
		{ "hostname", "host" }, { "cpu_model", "CPU" }, { "pus", "CPUs" },
		{ "kernel", "kernel" },
	};
	char *p1 = xasprintf("%s/sweep.json", sub), *p2 = xasprintf("%s/results.json", sub);
	char err[256];
	struct json_doc *docs[2] = {
		is_reg(p1) ? json_read_file(p1, err, sizeof(err)) : NULL,
		is_reg(p2) ? json_read_file(p2, err, sizeof(err)) : NULL,
	};

	fputs("<table class=\"prov\">\n", f);
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		char *v = side_get(docs, 2, keys[k][0]);

		fprintf(f, "<tr><th>%s</th><td>", keys[k][1]);
		html_text(f, v ? v : "not recorded");
		fputs("</td></tr>\n", f);
		free(v);
	}
	fputs("</table>\n", f);
	for (int i = 0; i < 2; i++)
		if (docs[i])
			json_doc_free(docs[i]);
	free(p1);
	free(p2);
}

static void warnings_list(FILE *f, const char *text, const char *label)
{
	const char *s = text;
	bool any = false;

	while (s && *s) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char *line = strndup(s, n);

		if (n) {
			if (!any)
				fprintf(f, "<ul class=\"warn\">\n");
			any = true;
			fputs("<li>", f);
			html_text(f, label);
			html_text(f, line);
			fputs("</li>\n", f);
		}
		free(line);
		s = e ? e + 1 : NULL;
	}
	if (any)
		fputs("</ul>\n", f);
}

/* An absolute mean with its unit: ops/s for ops_per_sec, ns for a
 * *_ns column, else the column's name. */
static void mean_text(FILE *f, const char *v, const char *column)
{
	double x;
	const char *unit = !column || !*column || !strcmp(column, "ops_per_sec") ? "ops/s" :
			   strlen(column) > 3 && !strcmp(column + strlen(column) - 3, "_ns") ? "ns" :
			   column;

	if (!parse_num(v, &x)) {
		fputs("n/a", f);
		return;
	}
	fprintf(f, fabs(x) >= 100 ? "%.0f " : "%.3g ", x);
	html_text(f, unit);
}

/* The predictions.csv files under the results (DIR and each sweep). */
struct preds {
	struct csv_table **t;
	size_t n;
};

static void preds_load(struct preds *pr, const char *dir, char **subs, size_t nsub)
{
	pr->t = xcalloc(nsub + 1, sizeof(*pr->t));
	pr->n = 0;
	for (size_t i = 0; i <= nsub; i++) {
		const char *d = i < nsub ? subs[i] : dir, *why = NULL;
		char *p = xasprintf("%s/predictions.csv", d);
		size_t line = 0;
		struct csv_table *t = NULL;

		/* DIR itself may be one of the sweeps: read each file once */
		if (is_reg(p) && !(i == nsub && nsub && !strcmp(subs[0], dir)))
			t = csv_read_file(p, &why, &line);
		if (t)
			pr->t[pr->n++] = t;
		else if (why)
			fprintf(stderr, "report: predictions '%s' not read (line %zu: %s)\n", p, line, why);
		free(p);
	}
}

static void preds_free(struct preds *pr)
{
	for (size_t i = 0; i < pr->n; i++)
		csv_free(pr->t[i]);
	free(pr->t);
}

static const char *cell2(const struct csv_table *t, size_t r, const char *a, const char *b)
{
	const char *v = table_cell(t, r, a);
	return v ? v : b ? table_cell(t, r, b) : NULL;
}

/* The predicted changes of one compare row: every prediction of the
 * experiment's (workload, base value, patch value), "+X % at N CPUs
 * (band LO..HI %)" joined by "; "; a prediction of the reverse pair is
 * turned over (and its band's ends swapped).  "n/a" when none. */
static void predicted_text(FILE *f, const struct preds *pr, const char *seed,
			   const char *workload, const char *bv, const char *pv)
{
	bool any = false;

	for (size_t k = 0; k < pr->n; k++) {
		const struct csv_table *t = pr->t[k];

		for (size_t r = 0; workload && bv && pv && r < t->nrows; r++) {
			const char *s = table_cell(t, r, "seed"), *w = table_cell(t, r, "workload");
			const char *b = cell2(t, r, "base", "base_variant");
			const char *q = cell2(t, r, "patch", "patch_variant");
			const char *cpus = table_cell(t, r, "cpus");
			double c, lo = NAN, hi = NAN;
			bool band;
			int dir;

			if (!w || !b || !q || strcmp(w, workload) || (s && seed && strcmp(s, seed)))
				continue;
			dir = !strcmp(b, bv) && !strcmp(q, pv) ? 1 :
			      !strcmp(b, pv) && !strcmp(q, bv) ? -1 : 0;
			if (!dir || !parse_num(cell2(t, r, "predicted_pct", "change_pct"), &c))
				continue;
			band = parse_num(table_cell(t, r, "band_lo_pct"), &lo) &&
			       parse_num(table_cell(t, r, "band_hi_pct"), &hi);
			if (dir < 0) {
				double l2 = published_reverse_pct(hi);

				c = published_reverse_pct(c);
				hi = published_reverse_pct(lo);
				lo = l2;
				band = band && !isnan(lo) && !isnan(hi);
				if (isnan(c))
					continue;
			}
			fprintf(f, "%s%+.1f %%", any ? "; " : "", c);
			if (cpus && *cpus) {
				fputs(" at ", f);
				html_text(f, cpus);
				fputs(" CPUs", f);
			}
			if (band)
				fprintf(f, " (band %+.1f..%+.1f %%)", lo, hi);
			if (dir < 0)
				fputs(" (the reverse pair&rsquo;s, turned over)", f);
			any = true;
		}
	}
	if (!any)
		fputs("n/a", f);
}

static void ab_table(FILE *f, const char *sub, const struct preds *pr)
{
	char *argv[] = { "memscale", "compare", "--experiment", (char *)sub,
			 "-f", "csv", NULL };
	char *out, *err;
	int st = run_self(argv, &out, &err);
	const char *why = NULL;
	size_t line = 0;
	/* the text without its terminating NUL (csv_read refuses a NUL) */
	FILE *m = *out ? fmemopen(out, strlen(out), "r") : NULL;
	struct csv_table *t = (st == 0 && m && *out) ? csv_read(m, &why, &line) : NULL;

	if (m)
		fclose(m);
	if (!t) {
		const char *nl = strchr(err, '\n');
		char *first = strndup(err, nl ? (size_t)(nl - err) : strlen(err));

		fputs("<p>No A/B table: ", f);
		html_text(f, *first ? first : why ? why : "compare printed nothing");
		fputs("</p>\n", f);
		free(first);
	} else {
		static const char *const cols[] = { "label", "workload", "workers", "base", "patch",
						    "n_base", "base_n", "n_patch", "patch_n" };
		fputs("<table class=\"ab\">\n<tr>", f);
		for (size_t k = 0; k < ARRAY_SIZE(cols); k++)
			if (csv_col(t, cols[k]) >= 0)
				fprintf(f, "<th>%s</th>", cols[k]);
		fputs("<th>base mean</th><th>patch mean</th><th>change (patch vs base)</th>"
		      "<th>predicted (published machines)</th><th>published</th></tr>\n", f);
		for (size_t r = 0; r < t->nrows; r++) {
			const char *pub = table_cell(t, r, "published");
			const char *col = table_cell(t, r, "column");

			fputs("<tr>", f);
			for (size_t k = 0; k < ARRAY_SIZE(cols); k++) {
				const char *v = table_cell(t, r, cols[k]);
				if (csv_col(t, cols[k]) < 0)
					continue;
				fputs("<td>", f);
				html_text(f, v);
				fputs("</td>", f);
			}
			fputs("<td>", f);
			mean_text(f, table_cell(t, r, "base_mean"), col);
			fputs("</td><td>", f);
			mean_text(f, table_cell(t, r, "patch_mean"), col);
			fputs("</td><td>", f);
			change_text(f, t, r);
			fputs("</td><td>", f);
			predicted_text(f, pr, table_cell(t, r, "experiment"), table_cell(t, r, "workload"),
				       table_cell(t, r, "base_value"), table_cell(t, r, "patch_value"));
			fputs("</td><td>", f);
			html_text(f, pub && *pub ? pub : "not published");
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
		csv_free(t);
	}
	warnings_list(f, t ? err : NULL, "compare: ");
	free(out);
	free(err);
}

/* Subdirectories of dir holding results.csv, sorted; dir itself first
 * when it holds one. */
static size_t sweep_dirs(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, cap = 8;
	char **v = xcalloc(cap, sizeof(*v)), *p = xasprintf("%s/results.csv", dir);

	if (is_reg(p))
		v[n++] = xasprintf("%s", dir);
	free(p);
	while (d && (e = readdir(d))) {
		char *sub, *rc;

		if (e->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", dir, e->d_name);
		rc = xasprintf("%s/results.csv", sub);
		if (path_is_dir(sub) && is_reg(rc)) {
			if (n + 1 >= cap)
				v = realloc(v, (cap *= 2) * sizeof(*v));
			if (!v)
				die(1, "out of memory");
			v[n++] = sub;
		} else {
			free(sub);
		}
		free(rc);
	}
	if (d)
		closedir(d);
	if (n > 1 && strcmp(v[0], dir))
		qsort(v, n, sizeof(*v), cmp_strp);
	else if (n > 2)
		qsort(v + 1, n - 1, sizeof(*v), cmp_strp);
	*out = v;
	return n;
}

/* The newest modification time of the results a page is made of. */
static time_t newest_input(const char *dir, char **subs, size_t n)
{
	time_t t = 0;
	struct stat st;

	for (size_t i = 0; i <= n; i++) {
		static const char *const names[] = { "results.csv", "predictions.csv", "experiment.ini" };

		for (size_t k = 0; k < ARRAY_SIZE(names); k++) {
			char *p = xasprintf("%s/%s", i < n ? subs[i] : dir, names[k]);

			if (!stat(p, &st) && st.st_mtime > t)
				t = st.st_mtime;
			free(p);
		}
	}
	return t;
}

/* Where the page's figures are, relative to OUT: an up-to-date figures
 * directory (figures.tsv no older than the results) among OUT/plots and,
 * when the page goes into DIR, DIR/figures (make demo's); else the figures
 * are drawn into OUT/plots by `memscale plot` (run as this binary, no
 * shell).  Returns the directory's name, or NULL with *why set (heap)
 * when none could be drawn. */
static const char *figure_dir(const char *dir, const char *out, char **subs, size_t n,
			      char **why, char **msgs)
{
	static const char *const cands[] = { "plots", "figures" };
	time_t newest = newest_input(dir, subs, n);
	struct stat st;
	char *pdir, *argv[6], *o, *e;
	int rc;

	*why = *msgs = NULL;
	for (size_t k = 0; k < ARRAY_SIZE(cands); k++) {
		char *tsv = xasprintf("%s/%s/figures.tsv", out, cands[k]);
		/* an empty one (no figure, gnuplot failed) is drawn again */
		bool fresh = !stat(tsv, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
			     st.st_mtime >= newest;

		free(tsv);
		if (fresh)
			return cands[k];
		if (strcmp(dir, out))
			break; /* DIR/figures is not beside a page elsewhere */
	}
	pdir = xasprintf("%s/plots", out);
	argv[0] = "memscale";
	argv[1] = "plot";
	argv[2] = (char *)dir;
	argv[3] = "--out";
	argv[4] = pdir;
	argv[5] = NULL;
	/* PNG only unless the caller asks for more: the page shows PNGs */
	setenv("FORMATS", "png", 0);
	rc = run_self(argv, &o, &e);
	if (rc != 0) {
		const char *nl = strchr(e, '\n');

		if (*e && *e != '\n')
			*why = xasprintf("memscale plot: %.*s", (int)(nl ? nl - e : (long)strlen(e)), e);
		else
			*why = xasprintf("memscale plot failed (exit %d)", rc);
	}
	free(o);
	*msgs = e; /* plot's messages: why a figure was skipped */
	free(pdir);
	return rc == 0 ? cands[0] : NULL;
}

/* The figures of OUT/FDIR/figures.tsv whose PNG exists, as thumbnails,
 * each a link to its full-size PNG (and to its PDF where there is one). */
static void figures(FILE *f, const char *out, const char *fdir, const char *msgs)
{
	char *tsv = xasprintf("%s/%s/figures.tsv", out, fdir);
	char *text = is_reg(tsv) ? read_text_file(tsv) : NULL, *save = NULL;
	size_t shown = 0;

	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *fld[4] = { l, NULL, NULL, NULL }, *png, *pdf;

		for (int i = 1; i < 4 && fld[i - 1]; i++) {
			char *tab = strchr(fld[i - 1], '\t');
			if (tab) {
				*tab = '\0';
				fld[i] = tab + 1;
			}
		}
		png = xasprintf("%s/%s/%s.png", out, fdir, fld[0]);
		pdf = xasprintf("%s/%s/%s.pdf", out, fdir, fld[0]);
		if (is_reg(png) && !strchr(fld[0], '/') && strcmp(fld[0], "..")) {
			fputs("<figure><a href=\"", f);
			html_text(f, fdir);
			fputc('/', f);
			html_text(f, fld[0]);
			fputs(".png\"><img src=\"", f);
			html_text(f, fdir);
			fputc('/', f);
			html_text(f, fld[0]);
			fputs(".png\" alt=\"", f);
			html_text(f, fld[1] ? fld[1] : fld[0]);
			fputs("\"></a><figcaption>", f);
			html_text(f, fld[1] ? fld[1] : fld[0]);
			if (fld[3] && *fld[3]) {
				fputs(" (", f);
				html_text(f, fld[3]);
				fputc(')', f);
			}
			fputs(" <a href=\"", f);
			html_text(f, fdir);
			fputc('/', f);
			html_text(f, fld[0]);
			fputs(".png\">full size</a>", f);
			if (is_reg(pdf)) {
				fputs(", <a href=\"", f);
				html_text(f, fdir);
				fputc('/', f);
				html_text(f, fld[0]);
				fputs(".pdf\">PDF</a>", f);
			}
			fputs("</figcaption></figure>\n", f);
			shown++;
		}
		free(png);
		free(pdf);
	}
	if (!shown) {
		fputs("<p>No figure: these results hold nothing plots/plot.sh draws, "
		      "or it failed", f);
		if (msgs && *msgs) {
			fputs("; what <code>memscale plot</code> said:</p>\n<pre>", f);
			html_text(f, msgs);
			fputs("</pre>\n", f);
		} else {
			fputs(" (run <code>memscale plot</code> to see why).</p>\n", f);
		}
	}
	free(text);
	free(tsv);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s && s[1] ? s + 1 : p;
}

static int report_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *dir, *out = NULL, *fdir;
	char **subs, *path, *tmp, *warn, *fwhy, *fmsgs;
	size_t n;
	FILE *f;
	struct stat st;
	struct preds pr;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cli_usage(&report_cmd, stdout);
			return 0;
		case 'o':
			if (!*optarg)
				die(EXIT_USAGE, "report: empty --out directory");
			out = optarg;
			break;
		case ':':
			die(EXIT_USAGE, "report: --out needs a directory (report DIR --out OUTDIR)");
		default:
			cli_bad_getopt(&report_cmd, argv, ":o:h");
		}
	}
	if (optind >= argc)
		die(EXIT_USAGE, "report: say which results directory (memscale report DIR [--out OUTDIR])");
	if (optind + 1 < argc)
		die(EXIT_USAGE, "report: unexpected argument '%s' (one results directory; "
		    "the page's directory is --out OUTDIR)", argv[optind + 1]);
	dir = argv[optind];
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "report: '%s' is not a results directory", dir);
	n = sweep_dirs(dir, &subs);
	if (!n)
		die(EXIT_USAGE, "report: no results.csv in '%s' or its subdirectories", dir);
	if (!out)
		out = dir;
	else if (mkdir(out, 0755) && errno != EEXIST)
		die_errno(EXIT_USAGE, "report: cannot create --out directory '%s'", out);
	if (stat(out, &st) || !S_ISDIR(st.st_mode))
		die(EXIT_USAGE, "report: --out '%s' is not a directory", out);
	fdir = figure_dir(dir, out, subs, n, &fwhy, &fmsgs);
	preds_load(&pr, dir, subs, n);

	path = xasprintf("%s/report.html", out);
	tmp = xasprintf("%s/.report.html.%ld", out, (long)getpid());
	f = file_create_new(tmp);
	if (!f)
		die_errno(1, "report: cannot create '%s'", tmp);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>memscale report: ", f);
	html_text(f, dir);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em}\n"
	      "table{border-collapse:collapse;margin:.5em 0}\n"
	      "td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}\n"
	      ".warn li{color:#8a4b00}\nfigure{display:inline-block;margin:.5em;max-width:46%}\n"
	      "figure img{max-width:100%}\nfigcaption{font-size:90%}\n"
	      "</style>\n</head>\n<body>\n<h1>memscale report: ", f);
	html_text(f, dir);
	fputs("</h1>\n<p>Changes are patch vs base of the mean; a change whose 95 % interval "
	      "includes zero reads &ldquo;no significant change&rdquo;.  Published values "
	      "come from the experiment files&rsquo; [published] sections.</p>\n", f);
	warn = xasprintf("%s/warnings.txt", dir);
	if (is_reg(warn)) {
		char *w = read_text_file(warn);
		fputs("<h2>Warnings</h2>\n", f);
		warnings_list(f, w, "");
		free(w);
	}
	free(warn);
	for (size_t i = 0; i < n; i++) {
		fputs("<h2>", f);
		html_text(f, base_name(subs[i]));
		fputs("</h2>\n", f);
		provenance(f, subs[i]);
		ab_table(f, subs[i], &pr);
	}
	fputs("<h2>Figures</h2>\n", f);
	if (fdir) {
		fputs("<p>Each figure links to its full size.</p>\n", f);
		figures(f, out, fdir, fmsgs);
	} else {
		fputs("<p>No figures: ", f);
		html_text(f, fwhy);
		fputs("</p>\n", f);
		fprintf(stderr, "report: no figures: %s\n", fwhy);
	}
	fputs("</body>\n</html>\n", f);
	if (ferror(f) | fflush(f) | fsync(fileno(f)) | fclose(f) || rename(tmp, path)) {
		int e = errno;
		unlink(tmp);
		errno = e;
		die_errno(1, "report: cannot write '%s'", path);
	}
	printf("report: %s (%zu result director%s)\n", path, n, n == 1 ? "y" : "ies");
	for (size_t i = 0; i < n; i++)
		free(subs[i]);
	free(subs);
	free(fwhy);
	free(fmsgs);
	preds_free(&pr);
	free(path);
	free(tmp);
	return 0;
}
