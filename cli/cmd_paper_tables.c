/*
 * cmd_paper_tables.c - `memscale paper-tables RESULTS --out DIR`: the
 * paper's tables and macros on the validation ledger, written from the
 * ledger CSVs of RESULTS (`model validate -f csv`: ledger.csv or
 * ledger-NAME.csv, one per calibration) and scored by predict/ledger.c's
 * ledger_verdict(), the one scoring of a row; paper/gen.sh only \input's
 * what this writes.  Every string from the data reaches TeX through
 * core/escape.c's esc_tex(); every number is printed from a parsed value.
 *
 * DIR/ledger.tex       the summary row per calibration, the primary
 *                      ledger's own summary, the rows it misses
 * DIR/ledger_macros.tex \LedgerMeanErr, \LedgerSigns, \LedgerTarget (after
 *                      \AllRows... with --published)
 * DIR/allrows.tex      every published row (--published FILE: paper_allrows.c)
 *
 * `paper-tables --predictions OUT [--runs RESULTS] FILE...`: the
 * prediction CSVs FILE (`model validate -f csv` ledgers, or
 * seed,workload,base_variant,patch_variant,cpus,change_pct) as one CSV
 * for plots/plot.sh, columns found by header name, each pair named as the
 * sweeps recorded under RESULTS name it (`memscale published --runs`).
 */
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/paper_tables.h"
#include "core/csv.h"
#include "core/file.h"
#include "core/util.h"
#include "harness/expfile.h"
#include "exp/published.h"
#include "predict/ledger.h"

static int paper_tables_main(int argc, char **argv);

const struct subcommand paper_tables_cmd = {
	.name = "paper-tables",
	.summary = "write the paper's ledger tables and macros (for paper/gen.sh)",
	.usage = "paper-tables RESULTS --out DIR [--ledger NAME] [--published FILE [--ab DIR]]\n"
		 "       paper-tables RESULTS --primary [--ledger NAME]\n"
		 "       paper-tables --predictions OUT [--runs RESULTS] FILE...\n"
		 "       paper-tables --seed SEED --ab AB.tsv --out FILE [--pred CSV] [--cal TEXT]\n"
		 "       paper-tables --table NAME --out FILE INPUT...\n"
		 "       paper-tables --table macros|provenance|figures|seeds --out FILE\n"
		 "                    [--results R] [--fig FIG] [--figrel REL] [--root DIR] [SPEC]\n"
		 "\n"
		 "Reads RESULTS/ledger.csv and RESULTS/ledger-NAME.csv (model validate\n"
		 "-f csv) and writes DIR/ledger.tex and DIR/ledger_macros.tex.  The\n"
		 "primary ledger (its misses, the macros, the predictions of the\n"
		 "all-rows table) is ledger-NAME.csv with --ledger NAME, else\n"
		 "ledger.csv, else ledger-shared.csv, else the first.  A row is\n"
		 "missed when its sign is wrong or its error exceeds 8 pp\n"
		 "(docs/validation.md); rows are scored as the ledger scores them.\n"
		 "--published FILE (memscale published's CSV) adds DIR/allrows.tex,\n"
		 "every published row with the change measured for its pair (the\n"
		 "seed tables' DIR/ab_SEED_p.tsv, or --ab DIR's) and its prediction,\n"
		 "and its counts (\\AllRows...) ahead of the ledger macros.  --primary\n"
		 "prints the primary ledger's path (nothing when RESULTS has none).\n"
		 "\n"
		 "--predictions OUT: the prediction CSVs FILE (model validate -f csv,\n"
		 "or seed,workload,base_variant,patch_variant,cpus,change_pct) merged\n"
		 "into OUT: seed,workload,base_variant,patch_variant,cpus,change_pct,\n"
		 "band_lo_pct,band_hi_pct; with --runs RESULTS each pair in the terms\n"
		 "of the sweep recorded there (as memscale published --runs).  A FILE\n"
		 "without a needed column is skipped with a line naming it.\n"
		 "\n"
		 "--seed SEED: the seed's table into FILE: each pair of AB.tsv (the A/B\n"
		 "table plots/ab.awk writes) with the prediction at the most CPUs that\n"
		 "CSV (--predictions' form) has for it; TEXT names the calibration.\n"
		 "\n"
		 "--table NAME (cli/paper_more.c): counters or kernel_vs_model (INPUT: that\n"
		 "study's results.csv), discrepancies (INPUT: the seeds' AB.tsv tables),\n"
		 "desched (INPUT: the seeds' results.csv; \\Desched... macros), load\n"
		 "(INPUT: LOAD<TAB>PUS lines, the sidecars' load averages; \\LoadNote).\n"
		 "FILE - is standard output.\n"
		 "\n"
		 "--table macros, provenance, figures, seeds (cli/paper_meta.c): what the\n"
		 "JSON sidecars under R say (machine, compiler, commit, command, load),\n"
		 "against the repository DIR's git (default .): macros \\MachineDesc ...\n"
		 "\\DataSet; provenance, each results source of FIG/figures.tsv and its\n"
		 "command; figures SPEC, the figure environments (FIG/NAME.pdf, named\n"
		 "REL/NAME.pdf) of a seed (SPEC: seed NAME), of locks, counters or\n"
		 "kernel_vs_model, each with its provenance caption; seeds, a section per\n"
		 "memscale list experiments line (experiments/ here, or\n"
		 "$MEMSCALE_EXPERIMENTS), and a 'not measured'\n"
		 "seed_NAME.tex beside FILE for a seed without one.\n",
	.main = paper_tables_main,
};
REGISTER(subcommand, paper_tables_cmd);

static bool num(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtod(s, &end);
	return !*end && !errno && isfinite(*v);
}

static void put_tex(FILE *f, const char *s)
{
	char *e = paper_tex_brk(s);

	fputs(e, f);
	free(e);
}

static const char *cell(const struct csv_table *t, char **row, const char *col)
{
	int c = csv_col(t, col);

	return c < 0 ? NULL : row[c];
}

/* The verdict the CSV carries (error_pp, sign_ok, determined), else the
 * one ledger_verdict() gives from its columns (a ledger written before
 * those columns). */
static void row_verdict(const struct csv_table *t, char **row, struct paper_row *p)
{
	const char *e = cell(t, row, "error_pp"), *s = cell(t, row, "sign_ok"),
		   *d = cell(t, row, "determined");
	double lo = p->pub_ok ? p->lo : NAN, hi = p->pub_ok ? p->hi : NAN;

	ledger_verdict(lo, hi, p->pub_ok ? p->pct : NAN, p->band_lo, p->regime, &p->v);
	if (!e || !s || !d || !p->pub_ok)
		return;
	p->v.predicted = num(e, &p->v.err);
	p->v.sign = !strcmp(s, "yes") ? 1 : !strcmp(s, "no") ? 0 : -1;
	p->v.determined = !strcmp(d, "yes");
}

static void ledger_load(struct paper_ledger *l)
{
	const char *why;
	size_t line;
	static const char *const need[] = { "seed", "workload", "base", "patch", "target",
					    "cpus", "published_pct", "predicted_pct" };

	l->t = csv_read_file(l->path, &why, &line);
	if (!l->t)
		die(EXIT_USAGE, "paper-tables: %s: %s (line %zu)", l->path, why, line);
	for (size_t i = 0; i < ARRAY_SIZE(need); i++)
		if (csv_col(l->t, need[i]) < 0)
			die(EXIT_USAGE, "paper-tables: %s: no column '%s' (want model validate "
			    "-f csv)", l->path, need[i]);
	l->r = xcalloc(l->t->nrows + 1, sizeof(*l->r));
	for (size_t i = 0; i < l->t->nrows; i++) {
		char **row = l->t->rows[i], *dots;
		struct paper_row *p = &l->r[l->n++];
		const char *pub = cell(l->t, row, "published_pct");
		double mid, am, ap;

		p->seed = cell(l->t, row, "seed");
		p->workload = cell(l->t, row, "workload");
		p->base = cell(l->t, row, "base");
		p->patch = cell(l->t, row, "patch");
		p->target = cell(l->t, row, "target");
		p->cpus = cell(l->t, row, "cpus");
		p->pub = pub;
		p->pred_s = cell(l->t, row, "predicted_pct");
		p->regime = cell(l->t, row, "regime");
		p->band_lo_s = cell(l->t, row, "band_lo_pct");
		p->band_hi_s = cell(l->t, row, "band_hi_pct");
		if (!num(cell(l->t, row, "band_lo_pct"), &p->band_lo) ||
		    !num(cell(l->t, row, "band_hi_pct"), &p->band_hi))
			p->band_lo = p->band_hi = NAN;
		if (!num(p->pred_s, &p->pct))
			p->pct = NAN;
		/* published "+13.7..+26.2": a range */
		dots = strstr(pub, "..");
		if (dots) {
			char *a = xstrdup(pub);

			a[dots - pub] = 0;
			p->pub_ok = num(a, &p->lo) && num(dots + 2, &p->hi);
			free(a);
		} else {
			p->pub_ok = num(pub, &p->lo);
			p->hi = p->lo;
		}
		if (p->pub_ok && p->lo > p->hi) {
			double x = p->lo;

			p->lo = p->hi;
			p->hi = x;
		}
		row_verdict(l->t, row, p);
		ledger_tally_add(&l->all, &p->v);
		if (!p->v.predicted || !p->pub_ok)
			continue;
		if (p->v.sign == 0 || fabs(p->v.err) > 8)
			l->missed++;
		/* rows whose published change is 2 % or more, and of those the
		 * ones predicted at less than half of it */
		mid = (p->lo + p->hi) / 2;
		am = fabs(mid);
		ap = fabs(p->pct);
		if (am >= 2) {
			l->big++;
			l->small += ap < 0.5 * am;
		}
	}
}

/* The ledger's summary of all rows, in TeX (ledger.c's tally_print). */
static void tally_tex(FILE *f, const struct ledger_tally *t)
{
	fprintf(f, "%u rows, %u predicted", t->rows, t->predicted);
	if (t->predicted)
		fprintf(f, ", mean $|$error$|$ %.1f pp, signs %u/%u",
			t->abs_sum / t->predicted, t->sign_ok, t->signed_rows);
	if (t->banded)
		fprintf(f, "; determined %u of %u", t->det, t->banded);
	if (t->banded && t->det)
		fprintf(f, ": mean $|$error$|$ %.1f pp, signs %u/%u", t->det_abs_sum / t->det,
			t->det_sign_ok, t->det_signed);
}

static double mean_err(const struct ledger_tally *t)
{
	return t->predicted ? t->abs_sum / t->predicted : 0;
}

static void pct(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%+.1f\\,\\%%", v);
	else
		fputs("--", f);
}

/* One missed row of the primary ledger. */
static void miss_row(FILE *f, const struct paper_row *p)
{
	double mid = (p->lo + p->hi) / 2, cpus;
	bool why = false;
	char *r = xstrdup(p->regime ? p->regime : ""), *semi = strchr(r, ';');

	if (semi)
		*semi = 0;
	put_tex(f, p->seed);
	fputs(" & ", f);
	put_tex(f, p->workload);
	fputs(" & ", f);
	put_tex(f, p->base);
	fputs(" $\\rightarrow$ ", f);
	put_tex(f, p->patch);
	fputs(" & ", f);
	put_tex(f, p->target);
	if (num(p->cpus, &cpus))
		fprintf(f, ", %s & ", p->cpus);
	else
		fputs(",  & ", f);
	put_tex(f, p->pub);
	fputs("\\,\\% & ", f);
	pct(f, p->pct);
	if (isfinite(p->band_lo))
		fprintf(f, "\\newline [%+.1f..%+.1f]", p->band_lo, p->band_hi);
	fputs(" & ", f);
	if (p->v.sign == 0) {
		fputs("sign", f);
		why = true;
	}
	if (fabs(p->v.err) > 8) {
		fprintf(f, "%serror %.1f\\,pp", why ? ", " : "", fabs(p->v.err));
		why = true;
	}
	if (isfinite(p->band_lo) && !(mid >= p->band_lo && mid <= p->band_hi))
		fputs(", outside band", f);
	if (*r && strcmp(r, "unknown")) {
		fputs("; ", f);
		put_tex(f, r);
	}
	fputs(" \\\\\n", f);
	free(r);
}

static const char misses_head[] =
	"\\toprule Seed & Workload & Variants & Target, CPUs & Published & "
	"Predicted [band] & Missed by; regime \\\\ \\midrule";

static void misses_table(FILE *f, const struct paper_ledger *l)
{
	fputs("{\\footnotesize\\setlength{\\tabcolsep}{3pt}\\begin{longtable}{@{}"
	      ">{\\raggedright\\arraybackslash}p{0.12\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.12\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.17\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.13\\linewidth}r"
	      ">{\\raggedright\\arraybackslash}p{0.14\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.15\\linewidth}@{}}\n", f);
	fputs("\\caption{Published rows the model misses (predicted for the machine each ran "
	      "on; \\texttt{", f);
	put_tex(f, l->name);
	fputs("}).}\\label{tab:misses}\\\\\n", f);
	/* the caption and its label in the first head only */
	fprintf(f, "%s\\endfirsthead\n%s\\endhead\n", misses_head, misses_head);
	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].v.predicted && l->r[i].pub_ok &&
		    (l->r[i].v.sign == 0 || fabs(l->r[i].v.err) > 8))
			miss_row(f, &l->r[i]);
	fputs("\\bottomrule\\end{longtable}}\n", f);
}

static void ledger_text(FILE *f, const struct paper_ledger *l)
{
	const struct ledger_tally *t = &l->all;
	unsigned m = l->missed;

	fputs("The validation ledger (\\texttt{", f);
	put_tex(f, l->name);
	fputs("}) says of itself: \\emph{", f);
	tally_tex(f, t);
	fprintf(f, "}; \\emph{every row predicted, mean $|$error$|$ $<$= 8 pp, at most 2 wrong "
		"signs of the signed rows: %s}.  ", ledger_target23_met(t) ? "MET" : "NOT MET");
	fprintf(f, "The target (every sign right, mean $|$error$|$ $\\le 8$\\,pp) is "
		"\\textbf{%s}.  ", ledger_target19_met(t) ? "met" : "not met");
	fprintf(f, "The model misses %u row%s%s\n\n", m, m == 1 ? "" : "s",
		m ? " (the predicted change with its sensitivity band, and the regime of the "
		    "patch side):" : ".");
	if (m)
		misses_table(f, l);
	fprintf(f, "\\newcommand{\\LedgerVerdict}{%s}\n",
		ledger_target19_met(t) ? "meets" : "does not meet");
	fprintf(f, "\\newcommand{\\LedgerSmaller}{%u of the %u}\n", l->small, l->big);
	fputs("\\newcommand{\\LedgerSummary}{", f);
	tally_tex(f, t);
	fprintf(f, "; %u row%s missed}\n", m, m == 1 ? "" : "s");
}

static void ledgers_table(FILE *f, const struct paper_ledger *ls, size_t n)
{
	fputs("The ledger was computed once per calibration (\\texttt{ledger-NAME.csv}, with "
	      "the calibration its name says: \\texttt{calib-NAME.txt} where there is one, the "
	      "README of the results directory says which otherwise); each scored as below:\n\n"
	      "\\begin{table}[tbp]\\centering\\small\n"
	      "\\caption{The validation ledger per calibration: rows predicted, mean $|$error$|$ "
	      "(zero inside a published range), signs right of the signed rows, rows missed, and "
	      "the target (every sign right, mean $|$error$|$ $\\le 8$\\,pp).}\\label{tab:ledgers}\n"
	      "\\begin{tabular}{@{}lrrrrl@{}}\\toprule\n"
	      "Ledger & predicted & mean $|$error$|$ & signs & missed & target \\\\ \\midrule\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct ledger_tally *t = &ls[i].all;

		put_tex(f, ls[i].name);
		fprintf(f, " & %u of %u & %.1f\\,pp & %u of %u & %u & %s \\\\\n", t->predicted,
			t->rows, mean_err(t), t->sign_ok, t->signed_rows, ls[i].missed,
			ledger_target19_met(t) ? "met" : "not met");
	}
	fputs("\\bottomrule\\end{tabular}\\end{table}\n\n", f);
}

static void write_ledger_tex(FILE *f, const struct paper_ledger *ls, size_t n, const struct paper_ledger *p)
{
	if (!p) {
		fputs("Validation ledger: not in these results (\\texttt{memscale model validate -f "
		      "csv > RESULTS/ledger.csv}).\n"
		      "\\newcommand{\\LedgerVerdict}{cannot be said to meet}\n"
		      "\\newcommand{\\LedgerSummary}{no ledger in these results}\n"
		      "\\newcommand{\\LedgerSmaller}{(no ledger)}\n", f);
		return;
	}
	if (n > 1)
		ledgers_table(f, ls, n);
	ledger_text(f, p);
}

static void write_macros(FILE *f, const struct paper_ledger *p)
{
	if (!p || !p->all.predicted) {
		fputs("\\newcommand{\\LedgerMeanErr}{--}\n\\newcommand{\\LedgerSigns}{--}\n", f);
	} else {
		fprintf(f, "\\newcommand{\\LedgerMeanErr}{%.1f}\n", mean_err(&p->all));
		fprintf(f, "\\newcommand{\\LedgerSigns}{%u of %u}\n", p->all.sign_ok,
			p->all.signed_rows);
	}
	fprintf(f, "\\newcommand{\\LedgerTarget}{%s}\n",
		!p ? "cannot be said to meet" : ledger_target19_met(&p->all) ? "meets"
		: "does not meet");
}

typedef void writer(FILE *f, const struct paper_ledger *ls, size_t n, const struct paper_ledger *p);

static void write_file(const char *dir, const char *name, writer *w, const struct paper_ledger *ls,
		       size_t n, const struct paper_ledger *p)
{
	char *path = dir ? xasprintf("%s/%s", dir, name) : xstrdup(name);
	struct out_file o;

	if (out_file_begin(&o, path, 0644))
		die_errno(1, "paper-tables: %s", path);
	w(o.f, ls, n, p);
	if (ferror(o.f)) {
		out_file_abort(&o);
		die(1, "paper-tables: %s: write failed", path);
	}
	if (out_file_commit(&o))
		die_errno(1, "paper-tables: %s", path);
	free(path);
}

static void w_ledger(FILE *f, const struct paper_ledger *ls, size_t n, const struct paper_ledger *p)
{
	write_ledger_tex(f, ls, n, p);
}

/* --published FILE, --ab DIR: the all-rows table (paper_allrows.c);
 * --seed, --pred, --cal: one seed's table (paper_seed.c) */
static const char *opt_published, *opt_ab, *opt_seed, *opt_pred, *opt_cal;

static void w_seed(FILE *f, const struct paper_ledger *ls, size_t n, const struct paper_ledger *p)
{
	paper_seed_table(f, opt_seed, opt_ab, opt_pred, opt_cal);
}

static void w_macros(FILE *f, const struct paper_ledger *ls, size_t n, const struct paper_ledger *p)
{
	if (opt_published) {
		char *buf = NULL;
		size_t len = 0;
		FILE *null = open_memstream(&buf, &len); /* a discarded table */

		if (!null)
			die_errno(1, "paper-tables: open_memstream");
		/* its counts only (the table itself: w_allrows) */
		paper_allrows(null, f, opt_published, opt_ab, p);
		fclose(null);
		free(buf);
	}
	write_macros(f, p);
}

static void w_allrows(FILE *f, const struct paper_ledger *ls, size_t n, const struct paper_ledger *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *null = open_memstream(&buf, &len); /* discarded counts */

	if (!null)
		die_errno(1, "paper-tables: open_memstream");
	paper_allrows(f, null, opt_published, opt_ab, p);
	fclose(null);
	free(buf);
}

/* RESULTS/ledger.csv, then RESULTS/ledger-*.csv in name order: the
 * non-empty regular files among them. */
static size_t find_ledgers(const char *results, struct paper_ledger **out)
{
	char *one = xasprintf("%s/ledger.csv", results), *pat = xasprintf("%s/ledger-*.csv", results);
	struct paper_ledger *ls = xcalloc(1, sizeof(*ls));
	size_t n = 0;
	glob_t g = { 0 };
	struct stat st;

	if (!stat(one, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		ls[n++].path = xstrdup(one);
	if (!glob(pat, 0, NULL, &g))
		for (size_t i = 0; i < g.gl_pathc; i++) {
			if (stat(g.gl_pathv[i], &st) || !S_ISREG(st.st_mode) || !st.st_size)
				continue;
			ls = realloc(ls, (n + 1) * sizeof(*ls));
			if (!ls)
				die(1, "paper-tables: out of memory");
			memset(&ls[n], 0, sizeof(*ls));
			ls[n++].path = xstrdup(g.gl_pathv[i]);
		}
	globfree(&g);
	free(one);
	free(pat);
	for (size_t i = 0; i < n; i++) {
		const char *b = strrchr(ls[i].path, '/');

		ls[i].name = xstrdup(b ? b + 1 : ls[i].path);
		ledger_load(&ls[i]);
	}
	*out = ls;
	return n;
}

static const struct paper_ledger *primary(const struct paper_ledger *ls, size_t n, const char *want)
{
	char *w = want ? xasprintf("ledger-%s.csv", want) : NULL;
	const char *names[] = { w, "ledger.csv", "ledger-shared.csv" };
	const struct paper_ledger *p = NULL;

	for (size_t k = 0; k < ARRAY_SIZE(names) && !p; k++)
		for (size_t i = 0; names[k] && i < n && !p; i++)
			if (!strcmp(ls[i].name, names[k]))
				p = &ls[i];
	free(w);
	return p ? p : n ? &ls[0] : NULL;
}

/* The pairs of the experiment files (experiments/NAME.ini, as `memscale
 * published` reads them) as the sweeps under runs recorded them:
 * cur[i] is "seed,workload,base,patch" now, rec[i] the recorded base and
 * patch. */
struct rename {
	char **cur, **rb, **rp;
	size_t n;
};

static void renames_load(struct rename *m, const char *runs)
{
	glob_t g;

	if (!runs || glob("experiments/*.ini", 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct experiment *e = exp_load(g.gl_pathv[i]), *run = NULL;
		struct published_row *now, *rows;
		size_t n = published_rows(e, &now), n2 = published_rows(e, &rows);
		char *rec = xasprintf("%s/%s/experiment.ini", runs, e->name);

		if (access(rec, R_OK)) {
			free(rec);
			rec = xasprintf("%s/experiment.ini", runs);
		}
		if (access(rec, R_OK) == 0) {
			run = exp_load(rec);
			if (!strcmp(run->name, e->name))
				published_for_run(rows, n2, e, run);
		}
		free(rec);
		m->cur = realloc(m->cur, (m->n + n + 1) * sizeof(char *));
		m->rb = realloc(m->rb, (m->n + n + 1) * sizeof(char *));
		m->rp = realloc(m->rp, (m->n + n + 1) * sizeof(char *));
		if (!m->cur || !m->rb || !m->rp)
			die(1, "paper-tables: out of memory");
		for (size_t k = 0; k < n && k < n2; k++, m->n++) {
			m->cur[m->n] = xasprintf("%s\n%s\n%s\n%s", now[k].seed, now[k].workload,
						 now[k].base_value, now[k].patch_value);
			m->rb[m->n] = xstrdup(rows[k].base_value);
			m->rp[m->n] = xstrdup(rows[k].patch_value);
		}
		published_free(now, n);
		published_free(rows, n2);
		exp_free(run);
		exp_free(e);
	}
	globfree(&g);
}

static void renames_free(struct rename *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->cur[i]);
		free(m->rb[i]);
		free(m->rp[i]);
	}
	free(m->cur);
	free(m->rb);
	free(m->rp);
}

static int col_either(const struct csv_table *t, const char *a, const char *b)
{
	int c = csv_col(t, a);

	return c >= 0 ? c : csv_col(t, b);
}

static void merge_one(FILE *f, const char *path, const struct rename *m)
{
	const char *why, *miss = NULL;
	size_t line;
	struct csv_table *t = csv_read_file(path, &why, &line);
	int cs, cw, cb, cp, cc, cv, cl, ch;

	if (!t) {
		warnx_("paper-tables: predictions '%s' skipped: %s (line %zu)", path, why, line);
		return;
	}
	cs = csv_col(t, "seed");
	cw = csv_col(t, "workload");
	cb = col_either(t, "base_variant", "base");
	cp = col_either(t, "patch_variant", "patch");
	cc = csv_col(t, "cpus");
	cv = col_either(t, "predicted_pct", "change_pct");
	cl = csv_col(t, "band_lo_pct");
	ch = csv_col(t, "band_hi_pct");
	miss = cs < 0 ? "seed" : cw < 0 ? "workload" : cb < 0 ? "base_variant|base"
		: cp < 0 ? "patch_variant|patch" : cc < 0 ? "cpus"
		: cv < 0 ? "predicted_pct|change_pct" : NULL;
	if (miss)
		warnx_("plot: predictions '%s' skipped: no column %s", path, miss);
	for (size_t i = 0; !miss && i < t->nrows; i++) {
		char **r = t->rows[i], *k = xasprintf("%s\n%s\n%s\n%s", r[cs], r[cw], r[cb], r[cp]);
		const char *b = r[cb], *p = r[cp];

		for (size_t j = 0; j < m->n; j++)
			if (!strcmp(m->cur[j], k)) {
				b = m->rb[j];
				p = m->rp[j];
				break;
			}
		free(k);
		csv_field(f, r[cs], 0);
		csv_field(f, r[cw], 0);
		csv_field(f, b, 0);
		csv_field(f, p, 0);
		csv_field(f, r[cc], 0);
		csv_field(f, r[cv], 0);
		csv_field(f, cl >= 0 ? r[cl] : "", 0);
		csv_field(f, ch >= 0 ? r[ch] : "", 1);
	}
	csv_free(t);
}

static int merge_predictions(const char *out, const char *runs, char **files, int n)
{
	struct rename m = { 0 };
	struct out_file o;

	renames_load(&m, runs);
	if (out_file_begin(&o, out, 0644))
		die_errno(1, "paper-tables: %s", out);
	fputs("seed,workload,base_variant,patch_variant,cpus,change_pct,band_lo_pct,band_hi_pct\n",
	      o.f);
	for (int i = 0; i < n; i++)
		merge_one(o.f, files[i], &m);
	renames_free(&m);
	if (ferror(o.f)) {
		out_file_abort(&o);
		die(1, "paper-tables: %s: write failed", out);
	}
	if (out_file_commit(&o))
		die_errno(1, "paper-tables: %s", out);
	return 0;
}

static int paper_tables_main(int argc, char **argv)
{
	const char *results = NULL, *out = NULL, *want = NULL, *pred = NULL, *runs = NULL,
		   *table = NULL;
	char **files = xcalloc((size_t)argc + 1, sizeof(char *));
	int nfiles = 0;
	struct paper_ledger *ls;
	const struct paper_ledger *p;
	struct paper_meta_opts meta = { 0 };
	bool want_primary = false;
	struct stat st;
	size_t n;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_usage(&paper_tables_cmd, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--primary")) {
			want_primary = true;
		} else if (!strcmp(argv[i], "--ledger") && i + 1 < argc) {
			want = argv[++i];
		} else if (!strcmp(argv[i], "--predictions") && i + 1 < argc) {
			pred = argv[++i];
		} else if (!strcmp(argv[i], "--published") && i + 1 < argc) {
			opt_published = argv[++i];
		} else if (!strcmp(argv[i], "--ab") && i + 1 < argc) {
			opt_ab = argv[++i];
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			opt_seed = argv[++i];
		} else if (!strcmp(argv[i], "--pred") && i + 1 < argc) {
			opt_pred = argv[++i];
		} else if (!strcmp(argv[i], "--cal") && i + 1 < argc) {
			opt_cal = argv[++i];
		} else if (!strcmp(argv[i], "--table") && i + 1 < argc) {
			table = argv[++i];
		} else if (!strcmp(argv[i], "--results") && i + 1 < argc) {
			meta.results = argv[++i];
		} else if (!strcmp(argv[i], "--fig") && i + 1 < argc) {
			meta.fig = argv[++i];
		} else if (!strcmp(argv[i], "--figrel") && i + 1 < argc) {
			meta.figrel = argv[++i];
		} else if (!strcmp(argv[i], "--root") && i + 1 < argc) {
			meta.root = argv[++i];
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			runs = argv[++i];
		} else if (argv[i][0] == '-') {
			cli_bad_option(&paper_tables_cmd, argv[i]);
		} else if (pred || table) {
			files[nfiles++] = argv[i];
		} else if (!results) {
			results = argv[i];
		} else {
			die(EXIT_USAGE, "paper-tables: one RESULTS directory, not '%s' too", argv[i]);
		}
	}
	if (table) {
		int rc = paper_meta_has(table) ? paper_meta(table, out, &meta, files, nfiles)
			: paper_more(table, out, files, nfiles);

		free(files);
		return rc;
	}
	if (opt_seed) {
		/* --out FILE: the seed's table */
		free(files);
		if (!out || !opt_ab || results)
			die(EXIT_USAGE, "paper-tables: want --seed SEED --ab FILE --out FILE");
		if (strspn(opt_seed, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(opt_seed))
			die(EXIT_USAGE, "paper-tables: bad --seed '%s' (want [a-z0-9_])", opt_seed);
		write_file(NULL, out, w_seed, NULL, 0, NULL);
		return 0;
	}
	if (pred && results)
		files[nfiles++] = (char *)results;
	if (pred) {
		int rc = merge_predictions(pred, runs, files, nfiles);

		free(files);
		return rc;
	}
	free(files);
	if (!results || (!out && !want_primary))
		die(EXIT_USAGE, "paper-tables: want RESULTS --out DIR");
	if (opt_published && !opt_ab)
		opt_ab = out;
	if (!want_primary && (stat(out, &st) || !S_ISDIR(st.st_mode)))
		die(EXIT_USAGE, "paper-tables: --out '%s' is not a directory", out);
	if (want && (!*want || strchr(want, '/')))
		die(EXIT_USAGE, "paper-tables: bad --ledger '%s' (want the NAME of ledger-NAME.csv)",
		    want);
	n = stat(results, &st) || !S_ISDIR(st.st_mode) ? 0 : find_ledgers(results, &ls);
	if (!n)
		ls = NULL;
	p = primary(ls, n, want);
	if (want_primary) {
		if (p && printf("%s\n", p->path) < 0)
			die_errno(1, "paper-tables: standard output");
	} else {
		write_file(out, "ledger.tex", w_ledger, ls, n, p);
		write_file(out, "ledger_macros.tex", w_macros, ls, n, p);
		if (opt_published)
			write_file(out, "allrows.tex", w_allrows, ls, n, p);
	}
	for (size_t i = 0; i < n; i++) {
		csv_free(ls[i].t);
		free(ls[i].r);
		free(ls[i].path);
		free(ls[i].name);
	}
	free(ls);
	return 0;
}
