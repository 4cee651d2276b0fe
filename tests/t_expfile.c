/*
 * t_expfile - the experiment-file reader on libinih: values come through
 * whole (a line longer than libinih's 200-byte buffer is split by the
 * reader hook and joined again, blanks kept), comments go, indentation is
 * not a continuation, integers and lists are normalised as read; a
 * [published] row is read whole into its one form (struct
 * published_row): numbers, citation and A/B pair, the pair following
 * the variants [quick] keeps; the limits the layers above hand down.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/expfile.h"
#include "tap.h"

static char *long_text(const char *word, const char *sep, int n)
{
	size_t cap = (size_t)n * (strlen(word) + 8) + 1, off = 0;
	char *s = calloc(cap, 1);

	for (int i = 0; i < n; i++)
		off += (size_t)snprintf(s + off, cap - off, "%s%s %d", i ? sep : "", word, i);
	return s;
}

int main(void)
{
	char path[] = "/tmp/t_expfile.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	char *desc = long_text("a word and more", ", ", 30);
	char *machine = long_text("52 CPUs", " x ", 40);
	struct experiment *e;

	fprintf(f, "# a comment\n[experiment]\n  name = t_exp   # trailing comment\n"
		"description = %s\n"
		"workloads = lock ; another comment\n"
		"   workers = 1, 2 ,3\n"
		"[variant base]\n"
		"[variant patch]\n  lines = 02\n  cs = 200ns\n"
		"[published]\nlock = 1, 2, +100%%, %s\n", desc, machine);
	fclose(f);
	e = exp_load(path);
	ok(strlen(desc) > 400, "the description line is longer than libinih's buffer (%zu)",
	   strlen(desc));
	is_str(e->name, "t_exp", "name read, comment stripped, indentation is not a continuation");
	is_str(e->description, desc, "a long value is read whole, blanks kept");
	ok(e->nworkloads == 1 && !strcmp(e->workloads[0], "lock"), "workloads read, ';' comment stripped");
	is_str(e->workers, "1,2,3", "workers normalised as --threads takes them");
	is_int(e->nvariants, 2, "an empty [variant base] still defines a variant");
	ok(e->nvariants == 2 && e->variants[1].nset == 2, "two settings in variant patch");
	ok(e->nvariants == 2 && e->variants[1].nset == 2 &&
	   !strcmp(e->variants[1].set[1].value, "200ns"), "cs value kept");
	ok(e->npublished == 1, "one published row");
	if (e->npublished == 1)
		is_str(e->published[0].machine, machine, "a long published field is read whole");
	else
		ok(0, "published row missing");
	ok(e->nvariants == 2 && e->variants[1].set[0].line == 9, "line numbers are physical lines (%d)",
	   e->nvariants == 2 ? e->variants[1].set[0].line : -1);
	if (e->npublished == 1) {
		const struct published_row *r = &e->published[0];

		ok(!strcmp(r->seed, "t_exp") && !strcmp(r->knob, "lines") &&
		   !strcmp(r->base_value, "") && !strcmp(r->patch_value, "02"),
		   "the row's pair: knob lines, '' -> 02 (%s: %s -> %s)", r->knob,
		   r->base_value, r->patch_value);
		ok(r->lo == 100 && r->hi == 100 && r->change_pct == 100 && r->cpus == 0 &&
		   !r->dev && r->note == r->machine && r->line == 12,
		   "the row's numbers: +100%%, no cpus, held, cited by its machine, line 12");
	} else {
		ok(0, "published row missing");
		ok(0, "published row missing");
	}
	exp_free(e);

	f = fopen(path, "w");
	fprintf(f, "[experiment]\nname = t_row\nworkloads = lock\n[variant base]\n"
		"[variant patch]\ncs = 200ns\n[published]\n"
		"lock = 100, 150, +50%%, m, pair=x>y, cpus=52, workers=8, role=dev, "
		"source=s, base_ops_s=1e3, patch_ops_s=1.5e3, abs_source=t, build=kpath:v6.12\n"
		"lock = -, -, -2..+3%%, m2, cpus=100000\n");
	fclose(f);
	e = exp_load(path);
	if (e->npublished == 2) {
		const struct published_row *r = &e->published[0], *q = &e->published[1];

		ok(!strcmp(r->knob, "cs") && !strcmp(r->base_value, "x") &&
		   !strcmp(r->patch_value, "y"), "pair=x>y gives the values, the knob the variants'");
		ok(r->cpus == 52 && r->workers == 8 && r->dev && !strcmp(r->note, "s") &&
		   r->base_ops_s == 1e3 && r->patch_ops_s == 1.5e3 && r->lo == 50 &&
		   !strcmp(r->text.cpus, "52"), "optional fields read as numbers, kept as written");
		ok(r->build && !strcmp(r->build, "kpath:v6.12") && !q->build,
		   "build=KNOB:VALUE kept as written, NULL where not given");
		ok(q->lo == -2 && q->hi == 3 && q->change_pct != q->change_pct && q->cpus == 0 &&
		   !strcmp(q->text.cpus, "100000"),
		   "a range has no one change; cpus beyond 65536 reads as not stated");
	} else {
		for (int i = 0; i < 4; i++)
			ok(0, "two published rows (%zu)", e->npublished);
	}
	exp_free(e);

	/* [quick] without the base variant, the base first in the file: its
	 * name is freed while the later variants are still looked at (a
	 * use-after-free make fuzz found; ASan catches a regression). */
	f = fopen(path, "w");
	fprintf(f, "[experiment]\nname = t_quick\nworkloads = lock\nworkers = 1\nbase = a\n"
		"[variant a]\ncs = 1ns\n[variant b]\ncs = 2ns\n[variant c]\ncs = 3ns\n"
		"[quick]\nvariants = b, c\n[published]\nlock = -, -, +5%%, m\n");
	fclose(f);
	e = exp_load(path);
	ok(e->npublished == 1 && !strcmp(e->published[0].base_value, "1ns") &&
	   !strcmp(e->published[0].patch_value, "2ns"), "the row measures base a against b");
	exp_apply_quick(e);
	ok(e->nvariants == 2 && !strcmp(e->variants[0].name, "b") &&
	   !strcmp(e->variants[1].name, "c") && e->base == 0,
	   "[quick] dropping the base keeps b, c and takes the first as base");
	/* a's values are freed: the row follows the variants kept */
	ok(e->npublished == 1 && !strcmp(e->published[0].base_value, "2ns") &&
	   !strcmp(e->published[0].patch_value, "3ns"), "after [quick] the row measures b against c");
	exp_free(e);

	{
		const char *names[] = { "lock", "page_fault1" };
		struct exp_limits lim = { names, 2, 8 };

		ok(exp_workload_known(&lim, "page_fault1") && !exp_workload_known(&lim, "nope") &&
		   exp_workload_known(NULL, "nope"),
		   "limits: a workload is known when listed; without limits, any");
		ok(exp_workload_known(exp_limits_here(), "lock") &&
		   !exp_workload_known(exp_limits_here(), "no_such_workload") &&
		   exp_limits_here()->workers_max >= 64,
		   "the harness's limits: its registered workloads, 64 workers a CPU at least");
	}
	unlink(path);
	free(desc);
	free(machine);
	return done_testing();
}
