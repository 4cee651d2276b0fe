/*
 * paper_seed.c - one seed's table in the paper, for `memscale paper-tables
 * --seed SEED`: each pair of the seed's A/B table (plots/ab.awk's rows:
 * the published change, compare's measured change, interval, p and
 * verdict) with the change predicted at the largest CPU count the
 * predictions CSV (paper-tables --predictions, columns by header name)
 * has for it.  Strings reach TeX through paper_tex_brk (esc_tex).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/paper_tables.h"
#include "core/csv.h"
#include "core/escape.h"
#include "core/file.h"
#include "core/util.h"

static char *seed_pct(const char *v)
{
	return xasprintf("%+.1f\\,\\%%", strtod(v, NULL));
}

/* a published change, or a published range LO..HI */
static char *seed_pubpct(const char *v)
{
	const char *d = strstr(v, "..");

	if (!d)
		return seed_pct(v);
	return xasprintf("%+.1f..%+.1f\\,\\%%", strtod(v, NULL), strtod(d + 2, NULL));
}

static char *seed_si(const char *s)
{
	double v = strtod(s, NULL);

	return v >= 1e9 ? xasprintf("%.3g\\,G", v / 1e9) : v >= 1e6 ? xasprintf("%.3g\\,M", v / 1e6)
		: v >= 1e3 ? xasprintf("%.3g\\,k", v / 1e3) : xasprintf("%.3g", v);
}

static char *seed_pval(const char *p)
{
	double v = strtod(p, NULL);

	if (!strcmp(p, "NA") || !*p)
		return xstrdup("");
	if (v < 0.001)
		return xstrdup(", $p<0.001$");
	return xasprintf(", $p=%.2g$%s", v, v < 0.05 ? "" : " (n.s.)");
}

static bool seed_given(const char *v)
{
	return *v && strcmp(v, "NA");
}

struct seed_row {
	char *w, *b, *p, *ax, *m, *pub;
	unsigned npub;
};

/* The prediction at the most CPUs for (w, b, p), or NULL; *cpus set. */
static const char *seed_pred_for(const struct csv_table *t, const char *seed, const struct seed_row *sp,
			    double *cpus)
{
	int cs = csv_col(t, "seed"), cw = csv_col(t, "workload"), cb = csv_col(t, "base_variant"),
	    cp = csv_col(t, "patch_variant"), cc = csv_col(t, "cpus"), cv = csv_col(t, "change_pct");
	const char *v = NULL;

	if (cs < 0 || cw < 0 || cb < 0 || cp < 0 || cc < 0 || cv < 0)
		return NULL;
	for (size_t i = 0; i < t->nrows; i++) {
		char **r = t->rows[i];

		if (strcmp(r[cs], seed) || !*r[cv] || strcmp(r[cw], sp->w) || strcmp(r[cb], sp->b) ||
		    strcmp(r[cp], sp->p))
			continue;
		if (!v || strtod(r[cc], NULL) > *cpus) {
			*cpus = strtod(r[cc], NULL);
			v = r[cv];
		}
	}
	return v;
}

static void seed_measured(struct seed_row *sp, char **f)
{
	char *head, *iv, *a, *b, *pv;
	const char *chg = seed_given(f[17]) ? f[17] : f[9];
	long n = strtol(f[4], NULL, 10);

	sp->w = xstrdup(f[1]);
	sp->b = xstrdup(f[2]);
	sp->p = xstrdup(f[3]);
	sp->ax = xstrdup(f[12]);
	if (!strcmp(f[9], "NA")) {
		sp->m = xstrdup("not measured");
		return;
	}
	iv = seed_given(f[14]) && seed_given(f[15]) ? xasprintf("%+.1f..%+.1f\\,\\%%", strtod(f[14], NULL),
						      strtod(f[15], NULL)) : xstrdup("");
	/* a change whose interval spans zero has no signed headline */
	if (!strcmp(f[16], "yes")) {
		char *c = seed_pct(chg);

		head = *iv ? xasprintf("%s [%s]", c, iv) : xstrdup(c);
		free(c);
	} else {
		head = *iv ? xasprintf("n.s., interval [%s]", iv) : xstrdup("n.s., interval unbounded");
	}
	a = seed_si(f[5]);
	b = seed_si(f[6]);
	pv = seed_pval(f[13]);
	sp->m = xasprintf("%s at %ld worker%s\\newline %s $\\rightarrow$ %s ops/s (%ld+%ld runs%s)",
			  head, n, n == 1 ? "" : "s", a, b, strtol(f[7], NULL, 10),
			  strtol(f[8], NULL, 10), pv);
	free(head), free(iv), free(a), free(b), free(pv);
}

int paper_seed_table(FILE *out, const char *seed, const char *tsv, const char *pred,
		     const char *cal)
{
	char *text = read_text_file(tsv), *save = NULL, *line, *st, *ct;
	struct seed_row *sp = xcalloc(1, sizeof(*sp));
	size_t n = 0;
	const char *why;
	size_t ln;
	struct csv_table *pt = pred ? csv_read_file(pred, &why, &ln) : NULL;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char *f[32], *p = line;
		size_t nf = 0;

		while (nf < 32 && p) {
			f[nf++] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = 0;
		}
		while (nf < 20)
			f[nf++] = "";
		if (!strcmp(f[0], "measured")) {
			sp = realloc(sp, (n + 2) * sizeof(*sp));
			if (!sp)
				die(1, "paper-tables: out of memory");
			memset(&sp[n], 0, sizeof(*sp));
			seed_measured(&sp[n++], f);
		} else if (!strcmp(f[0], "published")) {
			for (size_t i = 0; i < n; i++) {
				char *pp, *mc, *old;

				if (strcmp(sp[i].w, f[1]) || strcmp(sp[i].b, f[2]) || strcmp(sp[i].p, f[3]))
					continue;
				pp = *f[8] ? seed_pubpct(f[8]) : xstrdup("n/a");
				mc = esc_tex(f[4]);
				old = sp[i].pub;
				sp[i].pub = xasprintf("%s%s%s (%s)", old ? old : "",
						      sp[i].npub++ ? "\\newline " : "", pp, mc);
				free(old), free(pp), free(mc);
			}
		}
	}
	st = esc_tex(seed);
	ct = cal && *cal ? esc_tex(cal) : NULL;
	fputs("\\begin{table}[tbp]\\centering\\small\\setlength{\\tabcolsep}{4pt}\n", out);
	fprintf(out, "\\caption{%s: published change, measured here (mean over runs at the largest "
		"worker count run for both; $p$: Welch's t-test over the runs), extrapolated by the "
		"model (patch vs base, throughput)%s%s.}\n", st, ct ? ". Model calibration: " : "",
		ct ? ct : "");
	fprintf(out, "\\label{tab:%s}\n", seed);
	fputs("\\begin{tabular}{@{}>{\\raggedright}p{0.13\\linewidth}>{\\raggedright}p{0.15\\linewidth}"
	      ">{\\raggedright}p{0.25\\linewidth}>{\\raggedright}p{0.25\\linewidth}"
	      ">{\\raggedright\\arraybackslash}p{0.14\\linewidth}@{}}\n"
	      "\\toprule\nWorkload & Variant & Published & Measured here & Extrapolated \\\\\n"
	      "\\midrule\n", out);
	for (size_t i = 0; i < n; i++) {
		double cpus = 0;
		const char *pv = pt ? seed_pred_for(pt, seed, &sp[i], &cpus) : NULL;
		char *w = paper_tex_brk(sp[i].w), *p = paper_tex_brk(sp[i].p), *b = paper_tex_brk(sp[i].b),
		     *ax = paper_tex_brk(sp[i].ax), *pc = pv ? seed_pct(pv) : NULL;

		if (sp[i].npub || pv || strcmp(sp[i].m, "not measured"))
			fprintf(out, "%s & %s vs %s%s%s & %s & %s & ", w, p, b, *sp[i].ax ? ", " : "",
				*sp[i].ax ? ax : "", sp[i].npub ? sp[i].pub : "not published", sp[i].m);
		if (sp[i].npub || pv || strcmp(sp[i].m, "not measured")) {
			if (pv)
				fprintf(out, "%s at %ld CPUs \\\\\n", pc, (long)cpus);
			else
				fputs("no prediction \\\\\n", out);
		}
		free(w), free(p), free(b), free(ax), free(pc);
		free(sp[i].w), free(sp[i].b), free(sp[i].p), free(sp[i].ax), free(sp[i].m), free(sp[i].pub);
	}
	if (!n)
		fputs("\\multicolumn{5}{c}{not measured} \\\\\n", out);
	fputs("\\bottomrule\n\\end{tabular}\n\\end{table}\n\n", out);
	free(sp), free(text), free(st), free(ct);
	if (pt)
		csv_free(pt);
	return 0;
}
