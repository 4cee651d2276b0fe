/*
 * paper_allrows.c - the paper's table of every published row, for
 * `memscale paper-tables --published FILE --ab DIR`: each row of the
 * published numbers (`memscale published --runs`' CSV, columns by header
 * name) with the change measured here for its pair (the seed tables' A/B
 * rows, DIR/ab_SEED_p.tsv: compare's change, 95 % interval and verdict)
 * and the primary ledger's prediction, band, target and regime class.
 * A ledger row is matched by seed, workload, pair and published value, the
 * n-th occurrence to the n-th.  Every string reaches TeX through
 * esc_tex() (paper_tex_brk, here for both files); every number is
 * printed only when it parses as one.
 */
#include <glob.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cli/paper_tables.h"
#include "core/csv.h"
#include "core/escape.h"
#include "core/file.h"
#include "core/util.h"

/* s escaped for TeX, each "\_" breakable after it (narrow columns). */
char *paper_tex_brk(const char *s)
{
	char *e = esc_tex(s ? s : ""), *o = xmalloc(strlen(e) * 16 + 1), *q = o;

	for (const char *p = e; *p; p++) {
		*q++ = *p;
		if (p[0] == '\\' && p[1] == '_') {
			*q++ = '_';
			p++;
			q += sprintf(q, "\\allowbreak{}");
		}
	}
	*q = 0;
	free(e);
	return o;
}

static regex_t num_re;

static bool isnum(const char *v)
{
	return v && !regexec(&num_re, v, 0, NULL, 0);
}

static char *pct_s(const char *v)
{
	return isnum(v) ? xasprintf("%+.1f\\,\\%%", strtod(v, NULL)) : xstrdup("--");
}

static char *pubpct_s(const char *v)
{
	const char *d = strstr(v, "..");
	char *a, *r;

	if (!d)
		return pct_s(v);
	a = xstrdup(v);
	a[d - v] = 0;
	r = isnum(a) && isnum(d + 2) ? xasprintf("%+.1f..%+.1f\\,\\%%", strtod(a, NULL),
						 strtod(d + 2, NULL)) : xstrdup("--");
	free(a);
	return r;
}

static char *si_s(const char *s)
{
	double v = strtod(s, NULL);

	if (!isnum(s))
		return xstrdup("--");
	return v >= 1e9 ? xasprintf("%.3g\\,G", v / 1e9) : v >= 1e6 ? xasprintf("%.3g\\,M", v / 1e6)
		: v >= 1e3 ? xasprintf("%.3g\\,k", v / 1e3) : xasprintf("%.3g", v);
}

/* s += t (t freed) */
static void cat(char **s, char *t)
{
	char *n = xasprintf("%s%s", *s, t);

	free(*s);
	free(t);
	*s = n;
}

/* One measured cell per pair: key "seed\nworkload\nbase\npatch". */
struct meas {
	char **key, **cell;
	size_t n;
	unsigned cells, sig;
};

static char *meas_find(const struct meas *m, const char *k)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->key[i], k))
			return m->cell[i];
	return NULL;
}

/* A "measured" row of an A/B table (plots/ab.awk's columns, 1-based:
 * 2 workload, 3 base, 4 patch, 5 workers, 10 change, 13 axis, 15/16
 * interval, 17 significant, 18 compare's change). */
static void meas_add(struct meas *m, const char *seed, char **f, size_t nf)
{
	char *k, *cell, *iv, **slot;
	const char *chg;
	bool sig;

	if (nf < 18 || strcmp(f[0], "measured") || !isnum(f[9]))
		return;
	chg = isnum(f[17]) ? f[17] : f[9];
	iv = isnum(f[14]) && isnum(f[15]) ? xasprintf("[%+.1f..%+.1f\\,\\%%]", strtod(f[14], NULL),
						    strtod(f[15], NULL)) : xstrdup("");
	sig = !strcmp(f[16], "yes");
	if (sig) {
		cell = pct_s(chg);
		cat(&cell, xasprintf(" %s", iv));
	} else {
		cell = xasprintf("n.s., interval %s", *iv ? iv : "unbounded");
	}
	free(iv);
	if (isnum(f[4])) {
		long w = (long)strtod(f[4], NULL);

		cat(&cell, xasprintf(" at %ld worker%s", w, strtod(f[4], NULL) == 1 ? "" : "s"));
	}
	if (*f[12]) {
		char *b = paper_tex_brk(f[12]);

		cat(&cell, xasprintf(", %s", b));
		free(b);
	}
	k = xasprintf("%s\n%s\n%s\n%s", seed, f[1], f[2], f[3]);
	m->cells++;
	m->sig += sig;
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->key[i], k)) {
			cat(&m->cell[i], xasprintf("\\newline %s", cell));
			free(cell);
			free(k);
			return;
		}
	m->key = realloc(m->key, (m->n + 1) * sizeof(char *));
	m->cell = realloc(m->cell, (m->n + 1) * sizeof(char *));
	if (!m->key || !m->cell)
		die(1, "paper-tables: out of memory");
	slot = &m->cell[m->n];
	m->key[m->n++] = k;
	*slot = cell;
}

static void meas_load(struct meas *m, const char *abdir)
{
	char *pat = xasprintf("%s/ab_*_p.tsv", abdir);
	glob_t g;

	if (!glob(pat, 0, NULL, &g)) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *base = strrchr(g.gl_pathv[i], '/') + 1;
			char *seed = xstrdup(base + 3);
			char *text = read_text_file(g.gl_pathv[i]), *save = NULL, *line;

			seed[strlen(seed) - strlen("_p.tsv")] = 0;

			for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
			     line = strtok_r(NULL, "\n", &save)) {
				char *f[32], *p = line;
				size_t nf = 0;

				while (nf < 32 && p) {
					f[nf++] = p;
					p = strchr(p, '\t');
					if (p)
						*p++ = 0;
				}
				/* awk's fields past the last are empty */
				while (nf < 20)
					f[nf++] = "";
				meas_add(m, seed, f, nf);
			}
			free(text);
			free(seed);
		}
		globfree(&g);
	}
	free(pat);
}

/* The prediction cell of published row r (its k-th occurrence of key). */
static char *pred_cell(const struct paper_ledger *l, const char *seed, const char *w,
		       const char *b, const char *p, const char *pub, unsigned nth)
{
	for (size_t i = 0; l && i < l->n; i++) {
		const struct paper_row *r = &l->r[i];
		char *c, *t, *reg, *semi;

		if (strcmp(r->seed, seed) || strcmp(r->workload, w) || strcmp(r->base, b) ||
		    strcmp(r->patch, p) || strcmp(r->pub, pub) || --nth)
			continue;
		if (!isnum(r->pred_s))
			return NULL;
		c = pct_s(r->pred_s);
		if (isnum(r->band_lo_s) && isnum(r->band_hi_s))
			cat(&c, xasprintf(" [%+.1f..%+.1f]", strtod(r->band_lo_s, NULL),
					  strtod(r->band_hi_s, NULL)));
		t = paper_tex_brk(r->target);
		cat(&c, xasprintf("\\newline %s", t));
		free(t);
		if (isnum(r->cpus))
			cat(&c, xasprintf(", %ld CPUs", (long)strtod(r->cpus, NULL)));
		reg = xstrdup(r->regime ? r->regime : "");
		semi = strchr(reg, ';');
		if (semi)
			*semi = 0;
		if (*reg && strcmp(reg, "unknown")) {
			t = paper_tex_brk(reg);
			cat(&c, xasprintf("; %s", t));
			free(t);
		}
		free(reg);
		return c;
	}
	return NULL;
}

static const char allrows_head[] =
	"\\toprule Seed & Workload & Variants & Published & Measured here & "
	"Predicted [band] \\\\ \\midrule";

int paper_allrows(FILE *tex, FILE *mac, const char *published, const char *abdir,
		  const struct paper_ledger *l)
{
	const char *why;
	size_t line, nrow = 0, nmeas = 0, npred = 0;
	struct csv_table *t;
	struct meas m = { 0 };
	char **row, *last = xstrdup("\x01"), *src;
	int cs, cw, cb, cp, cc, cm, cbo, cpo;

	if (regcomp(&num_re, "^[-+]?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$", REG_EXTENDED | REG_NOSUB))
		die(1, "paper-tables: regcomp");
	t = csv_read_file(published, &why, &line);
	if (!t)
		die(EXIT_USAGE, "paper-tables: --published %s: %s (line %zu)", published, why, line);
	cs = csv_col(t, "seed");
	cw = csv_col(t, "workload");
	cb = csv_col(t, "base_variant");
	cp = csv_col(t, "patch_variant");
	cc = csv_col(t, "change_pct");
	cm = csv_col(t, "machine");
	cbo = csv_col(t, "base");
	cpo = csv_col(t, "patch");
	if (cs < 0 || cw < 0 || cb < 0 || cp < 0 || cc < 0 || cm < 0 || cbo < 0 || cpo < 0)
		die(EXIT_USAGE, "paper-tables: --published %s: want the columns of memscale "
		    "published", published);
	meas_load(&m, abdir);
	row = xcalloc(t->nrows + 1, sizeof(char *));
	for (size_t i = 0; i < t->nrows; i++) {
		char **f = t->rows[i], *k, *pub, *pr, *sd, *w, *pa, *ba, *mc;
		unsigned nth = 1;

		/* the n-th row of this seed, pair and published value */
		for (size_t j = 0; j < i; j++)
			nth += !strcmp(t->rows[j][cs], f[cs]) && !strcmp(t->rows[j][cw], f[cw]) &&
			       !strcmp(t->rows[j][cb], f[cb]) && !strcmp(t->rows[j][cp], f[cp]) &&
			       !strcmp(t->rows[j][cc], f[cc]);
		pub = pubpct_s(f[cc]);
		mc = paper_tex_brk(f[cm]);
		cat(&pub, xasprintf(" (%s)", mc));
		free(mc);
		if (isnum(f[cbo]) && isnum(f[cpo]) && strtod(f[cbo], NULL) > 0) {
			char *a = si_s(f[cbo]), *b = si_s(f[cpo]);

			cat(&pub, xasprintf("\\newline %s $\\rightarrow$ %s/s", a, b));
			free(a);
			free(b);
		}
		pr = pred_cell(l, f[cs], f[cw], f[cb], f[cp], f[cc], nth);
		npred += pr != NULL;
		sd = strcmp(f[cs], last) ? paper_tex_brk(f[cs]) : xstrdup("");
		free(last);
		last = xstrdup(f[cs]);
		k = xasprintf("%s\n%s\n%s\n%s", f[cs], f[cw], f[cb], f[cp]);
		w = paper_tex_brk(f[cw]);
		pa = paper_tex_brk(f[cp]);
		ba = paper_tex_brk(f[cb]);
		row[nrow++] = xasprintf("%s & %s & %s vs %s & %s & %s & %s \\\\", sd, w, pa, ba, pub,
					meas_find(&m, k) ? meas_find(&m, k) : "not measured",
					pr ? pr : "no prediction");
		nmeas += meas_find(&m, k) != NULL;
		free(k), free(w), free(pa), free(ba), free(pub), free(pr), free(sd);
	}
	/* counts for the abstract: rows, rows with a measured pair, measured
	 * cells and how many of those are significant */
	fprintf(mac, "\\newcommand{\\AllRows}{%zu}\n\\newcommand{\\AllRowsMeasured}{%zu}\n"
		"\\newcommand{\\AllRowsPredicted}{%zu}\n", nrow, nmeas, npred);
	fprintf(mac, "\\newcommand{\\MeasuredCells}{%u}\n\\newcommand{\\MeasuredSignificant}{%u}\n",
		m.cells, m.sig);
	fputs("{\\footnotesize\\setlength{\\tabcolsep}{3pt}\\begin{longtable}{@{}"
	      ">{\\raggedright\\arraybackslash}p{0.10\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.10\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.12\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.20\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.20\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.21\\linewidth}@{}}\n", tex);
	src = paper_tex_brk(l ? l->name : "none");
	fprintf(tex, "\\caption{Every published row (%zu): the published change on its machine "
		"and, where published, the absolute throughputs base $\\rightarrow$ patch; the "
		"change measured here for the pair (change of the mean and its 95\\,\\%% interval, "
		"``n.s.\\@'' where the interval holds zero); the change predicted for the row's "
		"machine (\\texttt{%s}) with its sensitivity band and its regime class.}"
		"\\label{tab:allrows}\\\\\n", nrow, src);
	free(src);
	fprintf(tex, "%s\\endfirsthead\n%s\\endhead\n", allrows_head, allrows_head);
	for (size_t i = 0; i < nrow; i++) {
		fprintf(tex, "%s\n", row[i]);
		free(row[i]);
	}
	if (!nrow)
		fputs("\\multicolumn{6}{l}{no published rows} \\\\\n", tex);
	fputs("\\bottomrule\\end{longtable}}\n", tex);
	for (size_t i = 0; i < m.n; i++)
		free(m.key[i]), free(m.cell[i]);
	free(m.key);
	free(m.cell);
	free(row);
	free(last);
	csv_free(t);
	regfree(&num_re);
	return 0;
}
