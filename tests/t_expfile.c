/*
 * t_expfile - the experiment-file reader on libinih: values come through
 * whole (a line longer than libinih's 200-byte buffer is split by the
 * reader hook and joined again, blanks kept), comments go, indentation is
 * not a continuation, integers and lists are normalised as read.
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
	exp_free(e);

	/* [quick] without the base variant, the base first in the file: its
	 * name is freed while the later variants are still looked at (a
	 * use-after-free make fuzz found; ASan catches a regression). */
	f = fopen(path, "w");
	fprintf(f, "[experiment]\nname = t_quick\nworkloads = lock\nworkers = 1\nbase = a\n"
		"[variant a]\n[variant b]\n[variant c]\n[quick]\nvariants = b, c\n");
	fclose(f);
	e = exp_load(path);
	exp_apply_quick(e);
	ok(e->nvariants == 2 && !strcmp(e->variants[0].name, "b") &&
	   !strcmp(e->variants[1].name, "c") && e->base == 0,
	   "[quick] dropping the base keeps b, c and takes the first as base");
	exp_free(e);
	unlink(path);
	free(desc);
	free(machine);
	return done_testing();
}
