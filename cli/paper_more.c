/*
 * paper_more.c - the paper's study tables and macros, for `memscale
 * paper-tables --table NAME --out FILE INPUT...`: each number computed
 * here from the results' CSVs (columns found by header name), so that
 * paper/gen.sh only \input's what this writes.  Every string from the
 * data reaches TeX through core/escape.c's esc_tex().
 *
 *   counters       the counter study (RESULTS/counters/results.csv): per
 *                  counter and fold threshold at the most workers, mean
 *                  add throughput, largest read error observed, bound
 *   kernel_vs_model the same workloads in both backends
 *                  (RESULTS/kernel_vs_model/results.csv), \KvmOpposite,
 *                  \KvmBoth and the charges per operation
 *   discrepancies  every significant measured change far from every
 *                  published value of its pair (the seed tables'
 *                  ab_SEED_p.tsv, plots/ab.awk's rows)
 *   desched        \DeschedRows... from the seeds' results.csv
 *   load           \LoadNote from "LOAD<TAB>PUS" lines (a sidecar's load
 *                  average and CPU count each; paper_meta.c's macros
 *                  read them from the sidecars themselves)
 */
#include <stdlib.h>
#include <string.h>

#include "cli/paper_tables.h"
#include "core/csv.h"
#include "core/escape.h"
#include "core/file.h"
#include "core/util.h"

static struct csv_table *more_csv(const char *path)
{
	const char *why = NULL;
	size_t line = 0;
	struct csv_table *t = csv_read_file(path, &why, &line);

	if (!t && line)
		die(EXIT_USAGE, "paper-tables: '%s' line %zu: %s", path, line, why ? why : "unreadable");
	if (!t)
		die(EXIT_USAGE, "paper-tables: '%s' %s", path, why ? why : "cannot be read");
	return t;
}

/* the whole of a text input (a regular file; empty is fine) */
static char *more_text(const char *path, const char *want)
{
	const char *why = NULL;
	FILE *f = input_fopen(path, &why);
	char *text;
	size_t len;

	if (!f)
		die(EXIT_USAGE, "paper-tables: '%s' %s (want %s)", path, why ? why : "cannot be read", want);
	text = file_read_bounded(f, FILE_READ_MAX, &len, &why);
	fclose(f);
	if (!text)
		die(EXIT_USAGE, "paper-tables: '%s' %s (want %s)", path, why ? why : "cannot be read", want);
	return text;
}

static double more_num(const char *s)
{
	return s ? strtod(s, NULL) : 0;
}

static void more_tex(FILE *f, const char *s)
{
	char *e = esc_tex(s);

	fputs(e ? e : "?", f);
	free(e);
}

/* a plain decimal number as it is, else "?" */
static const char *more_texnum(const char *v)
{
	const char *p = v;

	if (*p == '-')
		p++;
	if (!strchr("0123456789", *p) || !*p)
		return "?";
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		if (!(p[1] >= '0' && p[1] <= '9'))
			return "?";
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return "?";
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p ? "?" : v;
}

static void more_si(FILE *f, double v)
{
	if (v >= 1e9)
		fprintf(f, "%.3g\\,G", v / 1e9);
	else if (v >= 1e6)
		fprintf(f, "%.3g\\,M", v / 1e6);
	else if (v >= 1e3)
		fprintf(f, "%.3g\\,k", v / 1e3);
	else
		fprintf(f, "%.3g", v);
}

static int more_col(const struct csv_table *t, const char *path, const char *name)
{
	int c = csv_col(t, name);

	if (c < 0)
		die(EXIT_USAGE, "paper-tables: '%s' has no column '%s'", path, name);
	return c;
}

/* the index of s in the first *n of v, added when absent */
static size_t more_index(const char **v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(v[i], s))
			return i;
	v[*n] = s;
	return (*n)++;
}

/* --- the counter study ---------------------------------------------------- */

struct ctr_cell {
	unsigned cnt;
	double ops, err;
	const char *bound;
};

static void counters_head(FILE *f, long mw, const char *pat, const char **tn, size_t ntn)
{
	fputs("\\begin{table}[tbp]\\centering\\small\n", f);
	fprintf(f, "\\caption{Counter schemes at %ld workers", mw);
	if (*pat) {
		fputs(", update pattern ", f);
		more_tex(f, pat);
	}
	fputs(", per fold threshold: mean add throughput over the runs, and the largest read error a "
	      "concurrent reader observed in any run / the scheme's bound ($-1$: none; exact schemes "
	      "have no approximate read).}\n\\label{tab:counters}\n\\begin{tabular}{@{}l", f);
	for (size_t j = 0; j < ntn; j++)
		fputs("rr", f);
	fputs("@{}}\\toprule\nCounter", f);
	for (size_t j = 0; j < ntn; j++)
		fprintf(f, " & \\multicolumn{2}{c}{threshold %s}", more_texnum(tn[j]));
	fputs(" \\\\\n", f);
	for (size_t j = 0; j < ntn; j++)
		fputs(" & adds/s & error/bound", f);
	fputs(" \\\\ \\midrule\n", f);
}

static void paper_counters(FILE *f, const char *path)
{
	struct csv_table *t = more_csv(path);
	int cw = more_col(t, path, "workload"), cn = more_col(t, path, "workers"),
	    cc = more_col(t, path, "counter"), ct = more_col(t, path, "threshold"),
	    co = more_col(t, path, "ops_per_sec"), ce = more_col(t, path, "max_error_observed"),
	    cb = more_col(t, path, "error_bound"), cp = csv_col(t, "pattern");
	const char **cs = xcalloc(t->nrows + 1, sizeof(*cs)), **ts = xcalloc(t->nrows + 1, sizeof(*ts)),
		   **pats = xcalloc(t->nrows + 1, sizeof(*pats));
	struct ctr_cell *cell = xcalloc((t->nrows + 1) * (t->nrows + 1), sizeof(*cell));
	size_t ncs = 0, nts = 0, npat = 0, stride = t->nrows + 1;
	double mw = 0;
	char *pat = xstrdup("");

	for (size_t i = 0; i < t->nrows; i++) {
		char **r = t->rows[i];

		if (strcmp(r[cw], "counter"))
			continue;
		if (more_num(r[cn]) > mw)
			mw = more_num(r[cn]);
		if (cp >= 0 && *r[cp] && more_index(pats, &npat, r[cp]) == npat - 1 &&
		    pats[npat - 1] == r[cp]) {
			char *old = pat;

			pat = xasprintf("%s%s%s", old, *old ? ", " : "", r[cp]);
			free(old);
		}
	}
	for (size_t i = 0; i < t->nrows; i++) {
		char **r = t->rows[i];
		struct ctr_cell *c;

		if (strcmp(r[cw], "counter") || more_num(r[cn]) != mw)
			continue;
		c = &cell[more_index(cs, &ncs, r[cc]) * stride + more_index(ts, &nts, r[ct])];
		if (!c->cnt || more_num(r[ce]) > c->err)
			c->err = more_num(r[ce]);
		c->cnt++;
		c->ops += more_num(r[co]);
		c->bound = r[cb];
	}
	if (ncs) {
		size_t *to = xcalloc(nts, sizeof(*to));

		/* thresholds in numeric order (stable, as the insertion sort was) */
		for (size_t j = 0; j < nts; j++)
			to[j] = j;
		for (size_t i = 1; i < nts; i++)
			for (size_t j = i; j > 0 && more_num(ts[to[j - 1]]) > more_num(ts[to[j]]); j--) {
				size_t x = to[j];

				to[j] = to[j - 1];
				to[j - 1] = x;
			}
		{
			const char **tn = xcalloc(nts, sizeof(*tn));

			for (size_t j = 0; j < nts; j++)
				tn[j] = ts[to[j]];
			counters_head(f, (long)mw, pat, tn, nts);
			free(tn);
		}
		for (size_t i = 0; i < ncs; i++) {
			more_tex(f, cs[i]);
			for (size_t j = 0; j < nts; j++) {
				const struct ctr_cell *c = &cell[i * stride + to[j]];

				if (!c->cnt) {
					fputs(" & -- & --", f);
					continue;
				}
				fputs(" & ", f);
				more_si(f, c->ops / c->cnt);
				fprintf(f, " & %lld/%s", (long long)c->err, more_texnum(c->bound));
			}
			fputs(" \\\\\n", f);
		}
		fputs("\\bottomrule\\end{tabular}\\end{table}\n\n", f);
		free(to);
	}
	free(cs), free(ts), free(pats), free(cell), free(pat);
	csv_free(t);
}

/* --- model vs kernel ------------------------------------------------------ */

struct kvm_wl {
	const char *name;
	double maxw, ch, sum1, sumn;
	unsigned chn, n1, nn;
};

static struct kvm_wl *kvm_find(struct kvm_wl *w, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i].name, name))
			return &w[i];
	return NULL;
}

/* one row of a backend; the direction of its scaling as printed, or 2 */
static int kvm_row(FILE *f, const char *b, const char *name, const char *w, const struct kvm_wl *k)
{
	double o1, on, s;

	fprintf(f, "%s & ", b);
	more_tex(f, name);
	if (!k) {
		fputs(" & \\multicolumn{5}{l}{not measured: these results have no \\texttt{", f);
		more_tex(f, w);
		fputs("} rows} \\\\\n", f);
		return 2;
	}
	if (!k->n1) {
		fputs(" & \\multicolumn{5}{l}{not measured at 1 worker} \\\\\n", f);
		return 2;
	}
	o1 = k->sum1 / k->n1;
	on = k->sumn / k->nn;
	fputs(" & ", f);
	more_si(f, o1);
	fputs(" & ", f);
	more_si(f, on);
	fprintf(f, " & %ld & %.2f$\\times$ & %.1f \\\\\n", (long)k->maxw, on / o1, 1e9 / o1);
	{
		char buf[64];

		snprintf(buf, sizeof(buf), "%.2f", on / o1);
		s = strtod(buf, NULL);
	}
	return s > 1 ? 1 : s < 1 ? -1 : 0;
}

static void kvm_load(const struct csv_table *t, const char *path, struct kvm_wl *w, size_t *nw)
{
	int cw = more_col(t, path, "workload"), cn = more_col(t, path, "workers"),
	    co = more_col(t, path, "ops_per_sec"), ch = csv_col(t, "charges_per_op");

	for (size_t i = 0; i < t->nrows; i++) {
		char **r = t->rows[i];
		struct kvm_wl *k = kvm_find(w, *nw, r[cw]);

		if (!k) {
			k = &w[(*nw)++];
			k->name = r[cw];
		}
		if (more_num(r[cn]) > k->maxw)
			k->maxw = more_num(r[cn]);
		if (ch >= 0 && *r[ch]) {
			k->ch += more_num(r[ch]);
			k->chn++;
		}
	}
	for (size_t i = 0; i < t->nrows; i++) {
		char **r = t->rows[i];
		struct kvm_wl *k = kvm_find(w, *nw, r[cw]);
		double n = more_num(r[cn]);

		if (n == 1) {
			k->sum1 += more_num(r[co]);
			k->n1++;
		}
		if (n == k->maxw) {
			k->sumn += more_num(r[co]);
			k->nn++;
		}
	}
}

static void paper_kvm(FILE *f, const char *path)
{
	struct csv_table *t = more_csv(path);
	struct kvm_wl *w = xcalloc(t->nrows + 1, sizeof(*w));
	const char **names = xcalloc(t->nrows + 1, sizeof(*names));
	size_t nw = 0, nn = 0;
	unsigned both = 0, opp = 0;

	kvm_load(t, path, w, &nw);
	fputs("\\begin{table}[tbp]\\centering\\small\n"
	      "\\caption{The same workloads in the userspace model and as real syscalls in real memory "
	      "cgroups (kernel backend), on this machine: mean ops/s over the repetitions.}\n"
	      "\\label{tab:kernel_vs_model}\n\\begin{tabular}{@{}llrrrrr@{}}\\toprule\n"
	      "Backend & Workload & ops/s, 1 worker & ops/s, $N$ workers & $N$ & scaling & ns/op, "
	      "1 worker \\\\ \\midrule\n", f);
	for (size_t i = 0; i < nw; i++)
		more_index(names, &nn, strncmp(w[i].name, "kernel:", 7) ? w[i].name : w[i].name + 7);
	for (size_t j = 0; j < nn; j++) {
		char *kw = xasprintf("kernel:%s", names[j]);
		int dm = kvm_row(f, "model", names[j], names[j], kvm_find(w, nw, names[j]));
		int dk = kvm_row(f, "kernel", names[j], kw, kvm_find(w, nw, kw));

		if (dm != 2 && dk != 2) {
			both++;
			opp += dm * dk < 0;
		}
		free(kw);
	}
	fputs("\\bottomrule\\end{tabular}\\end{table}\n", f);
	fprintf(f, "\\newcommand{\\KvmOpposite}{%u}\\newcommand{\\KvmBoth}{%u}\n", opp, both);
	for (size_t i = 0; i < nw; i++) {
		if (!w[i].chn)
			continue;
		more_tex(f, w[i].name);
		fprintf(f, " charged %.3f pages per operation.\n", w[i].ch / w[i].chn);
	}
	fputs("\n", f);
	free(w), free(names);
	csv_free(t);
}

/* --- where measured and published disagree -------------------------------- */

struct disc_row {
	char *w, *b, *p, *n, *pub;
	double c;
	bool measured;
};

/* the tab-separated fields of line into f (at least 20, "" past the end) */
static void disc_split(char *line, char **f)
{
	size_t nf = 0;

	for (char *p = line; nf < 32 && p;) {
		f[nf++] = p;
		p = strchr(p, '\t');
		if (p)
			*p++ = 0;
	}
	while (nf < 20)
		f[nf++] = "";
}

/* the rows of the A/B tables that count: the significant measured
 * changes and the published values, in the order of the files */
static size_t disc_load(char **files, int nfiles, struct disc_row **out)
{
	struct disc_row *r = NULL;
	size_t n = 0;

	for (int i = 0; i < nfiles; i++) {
		char *text, *save = NULL;

		text = more_text(files[i], "an A/B table, plots/ab.awk's");
		for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *f[32];
			bool pub;

			disc_split(line, f);
			pub = !strcmp(f[0], "published") && *f[8];
			if (!pub && !(!strcmp(f[0], "measured") && strcmp(f[9], "NA") && !strcmp(f[16], "yes")))
				continue;
			r = realloc(r, (n + 1) * sizeof(*r));
			if (!r)
				die(1, "paper-tables: out of memory");
			r[n] = (struct disc_row){ xstrdup(f[1]), xstrdup(f[2]), xstrdup(f[3]), xstrdup(f[4]),
						  pub ? xstrdup(f[8]) : NULL, 0, !pub };
			r[n].c = strtod(strcmp(f[17], "NA") && *f[17] ? f[17] : f[9], NULL);
			n++;
		}
		free(text);
	}
	*out = r;
	return n;
}

static bool disc_same(const struct disc_row *a, const struct disc_row *b)
{
	return !strcmp(a->w, b->w) && !strcmp(a->b, b->b) && !strcmp(a->p, b->p);
}

static void paper_discrepancies(FILE *f, char **files, int nfiles)
{
	struct disc_row *r;
	size_t n = disc_load(files, nfiles, &r), said = 0;

	for (size_t i = 0; i < n; i++) {
		char *all = NULL;
		bool far = true;

		if (!r[i].measured)
			continue;
		for (size_t j = 0; j < n; j++) {
			double v, d;
			char *old = all;

			if (r[j].measured || !disc_same(&r[i], &r[j]))
				continue;
			all = xasprintf("%s%s%s", old ? old : "", old ? " " : "", r[j].pub);
			free(old);
			v = strtod(r[j].pub, NULL);
			d = r[i].c - v;
			if (d < 0)
				d = -d;
			if (d <= 20 || d <= 0.5 * (v < 0 ? -v : v))
				far = false;
		}
		if (all && far) {
			fputs("\\item ", f);
			more_tex(f, r[i].w);
			fputs(", ", f);
			more_tex(f, r[i].p);
			fputs(" vs ", f);
			more_tex(f, r[i].b);
			fprintf(f, ": measured %+.1f\\,\\%% at %ld workers, published ", r[i].c,
				strtol(r[i].n, NULL, 10));
			more_tex(f, all);
			fputs("\\,\\%.\n", f);
			said++;
		}
		free(all);
	}
	if (!said)
		fputs("\\item none: every significant measured change is within 20\\,pp or half of a "
		      "published value of its pair.\n", f);
	for (size_t i = 0; i < n; i++)
		free(r[i].w), free(r[i].b), free(r[i].p), free(r[i].n), free(r[i].pub);
	free(r);
}

/* --- descheduled workers in the seed sweeps --------------------------------- */

/* a row with a desched_flag: workers, the flag, its longest wait */
struct desched_row {
	double w, f, a;
};

static size_t desched_load(const char *path, struct desched_row **rows, size_t n, double *mw)
{
	struct csv_table *t = more_csv(path);
	int cf = csv_col(t, "desched_flag"), cn = csv_col(t, "workers");

	for (size_t i = 0; cf >= 0 && i < t->nrows; i++) {
		char **r = t->rows[i];
		struct desched_row x = { cn >= 0 ? more_num(r[cn]) : 0, more_num(r[cf]), 0 };
		size_t nc = t->ncols;

		if (!*r[cf])
			continue;
		for (size_t c = 0; c < nc; c++) {
			const char *h = t->header[c], *v = r[c];
			size_t hl = strlen(h);

			/* the longest average lock wait of the row, any class */
			if (hl < 12 || strcmp(h + hl - 12, "_wait_avg_ns") || !*v ||
			    strspn(v, "0123456789.eE+-") != strlen(v))
				continue;
			if (more_num(v) > x.a)
				x.a = more_num(v);
		}
		if (x.w > *mw)
			*mw = x.w;
		*rows = realloc(*rows, (n + 1) * sizeof(**rows));
		if (!*rows)
			die(1, "paper-tables: out of memory");
		(*rows)[n++] = x;
	}
	csv_free(t);
	return n;
}

static void paper_desched(FILE *f, char **files, int nfiles)
{
	struct desched_row *rows = NULL;
	size_t n = 0;
	double mw = 0, fm = 0, um = 0;
	unsigned d = 0, t = 0;

	for (int i = 0; i < nfiles; i++)
		n = desched_load(files[i], &rows, n, &mw);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].w != mw)
			continue;
		t++;
		if (rows[i].f > 0) {
			d++;
			if (rows[i].a > fm)
				fm = rows[i].a;
		} else if (rows[i].a > um) {
			um = rows[i].a;
		}
	}
	fprintf(f, "\\newcommand{\\DeschedRows}{%u of %u}\n\\newcommand{\\DeschedWorkers}{%ld}\n", d, t,
		(long)mw);
	/* the largest average wait of a flagged and of an unflagged row */
	fprintf(f, "\\newcommand{\\DeschedFlaggedMaxMs}{%.1f}\n\\newcommand{\\DeschedUnflaggedMaxUs}{%.1f}\n",
		fm / 1e6, um / 1e3);
	free(rows);
}

/* --- the load the data were measured under ----------------------------------- */

/* a load average as gen.sh may print it: digits with at most one '.',
 * not first */
static bool load_ok(const char *l)
{
	const char *d = strchr(l, '.');

	return *l && *l != '.' && strspn(l, "0123456789.") == strlen(l) && (!d || !strchr(d + 1, '.'));
}

/* lines "LOAD<TAB>PUS", one per sidecar (its 1-minute load average at the
 * start, its machine's CPU count): the range, the CPUs of the first */
void paper_load_note(FILE *f, char *const *lines, size_t n)
{
	char *lo = NULL, *hi = NULL, *pus = NULL;

	for (size_t i = 0; i < n; i++) {
		char *line = xstrdup(lines[i]), *p = strchr(line, '\t');

		if (p)
			*p++ = 0;
		if (load_ok(line)) {
			if (!lo || strtod(line, NULL) < strtod(lo, NULL))
				free(lo), lo = xstrdup(line);
			if (!hi || strtod(line, NULL) > strtod(hi, NULL))
				free(hi), hi = xstrdup(line);
			if (!pus && p && *p && strspn(p, "0123456789") == strlen(p))
				pus = xstrdup(p);
		}
		free(line);
	}
	if (!lo) {
		fputs("\\newcommand{\\LoadNote}{}\n", f);
		return;
	}
	fprintf(f, "\\newcommand{\\LoadNote}{The sidecars of these results record a load average of "
		"%s to %s at the start of their runs on %s CPUs%s.}\n", lo, hi, pus ? pus : "?",
		pus && strtod(pus, NULL) > 0 && strtod(hi, NULL) > strtod(pus, NULL) / 2
		? ": the machine was busy with other work, which widens every interval here" : "");
	free(lo), free(hi), free(pus);
}

/* the same from files of such lines */
static void paper_load(FILE *f, char **files, int nfiles)
{
	char **lines = NULL;
	size_t n = 0;

	for (int i = 0; i < nfiles; i++) {
		char *text = more_text(files[i], "LOAD<TAB>PUS lines"), *save = NULL;

		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			lines = realloc(lines, (n + 1) * sizeof(*lines));
			if (!lines)
				die(1, "paper-tables: out of memory");
			lines[n++] = xstrdup(l);
		}
		free(text);
	}
	paper_load_note(f, lines, n);
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* buf into out, whole or not at all; "-": standard output */
void paper_write_out(const char *out, const char *buf, size_t len)
{
	struct out_file o;

	if (!strcmp(out, "-")) {
		if (fwrite(buf, 1, len, stdout) != len || fflush(stdout))
			die_errno(1, "paper-tables: standard output");
		return;
	}
	if (out_file_begin(&o, out, 0644))
		die_errno(1, "paper-tables: %s", out);
	if (fwrite(buf, 1, len, o.f) != len || ferror(o.f)) {
		out_file_abort(&o);
		die(1, "paper-tables: %s: write failed", out);
	}
	if (out_file_commit(&o))
		die_errno(1, "paper-tables: %s", out);
}

int paper_more(const char *table, const char *out, char **files, int nfiles)
{
	bool one = !strcmp(table, "counters") || !strcmp(table, "kernel_vs_model");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (strcmp(table, "discrepancies") && strcmp(table, "desched") && strcmp(table, "load") && !one)
		die(EXIT_USAGE, "paper-tables: bad --table '%s' (want counters, kernel_vs_model, "
		    "discrepancies, desched or load)", table);
	if (!out)
		die(EXIT_USAGE, "paper-tables: --table %s wants --out FILE", table);
	if (one && nfiles != 1)
		die(EXIT_USAGE, "paper-tables: --table %s wants one results.csv", table);
	/* the whole text first: bad input leaves no file behind */
	m = open_memstream(&buf, &len);
	if (!m)
		die_errno(1, "paper-tables: open_memstream");
	if (!strcmp(table, "counters"))
		paper_counters(m, files[0]);
	else if (!strcmp(table, "kernel_vs_model"))
		paper_kvm(m, files[0]);
	else if (!strcmp(table, "discrepancies"))
		paper_discrepancies(m, files, nfiles);
	else if (!strcmp(table, "desched"))
		paper_desched(m, files, nfiles);
	else
		paper_load(m, files, nfiles);
	if (fclose(m))
		die_errno(1, "paper-tables: %s", out);
	paper_write_out(out, buf, len);
	free(buf);
	return 0;
}
