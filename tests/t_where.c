/*
 * t_where.c - the one --where KEY=VALUE filter (core/where.c) that
 * memscale stats, compare and model fit usl share: what it refuses, which
 * column it reports missing, and which rows pass (every pair, exact text).
 */
#include "core/where.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

int main(void)
{
	static const char csv[] =
		"workload,workers,variant\n"
		"page_test,24,base\n"
		"page_test,2,base\n"
		"brk_test,24,\n";
	const char *err = NULL;
	size_t line = 0, bad = 99, pass = 0;
	FILE *f = fmemopen((void *)csv, sizeof(csv) - 1, "r");
	struct csv_table *t = csv_read(f, &err, &line);
	struct where w = { 0 }, miss = { 0 }, empty = { 0 };
	int *cols;
	char *key;

	fclose(f);
	ok(t && t->nrows == 3, "fixture CSV reads (%s)", err ? err : "ok");

	ok(!where_add(&w, "workers"), "no '=': refused");
	ok(!where_add(&w, "=24"), "empty KEY: refused");
	is_int(w.n, 0, "refused arguments are not kept");
	ok(where_add(&w, "workload=page_test"), "KEY=VALUE accepted");
	ok(where_add(&w, "workers=24"), "a second pair accepted");
	key = where_key(&w, 1);
	is_str(key, "workers", "where_key splits at the first '='");
	free(key);

	cols = where_columns(&w, t, &bad);
	ok(cols && cols[0] == 0 && cols[1] == 1, "columns resolved by header name");
	for (size_t r = 0; cols && r < t->nrows; r++)
		pass += where_match(&w, cols, t->rows[r]) ? (r + 1) * 10 : 0;
	is_int(pass, 10, "only row 1 holds both values (every pair must match)");
	free(cols);

	where_add(&miss, "workload=page_test");
	where_add(&miss, "colour=red");
	ok(!where_columns(&miss, t, &bad) && bad == 1,
	   "a KEY that is no column: NULL, and that pair (index 1) named");

	/* An empty VALUE matches an empty field only; a prefix never matches. */
	where_add(&empty, "variant=");
	cols = where_columns(&empty, t, &bad);
	pass = 0;
	for (size_t r = 0; cols && r < t->nrows; r++)
		pass += where_match(&empty, cols, t->rows[r]) ? r + 1 : 0;
	is_int(pass, 3, "variant= passes the row with an empty variant only");
	free(cols);
	where_free(&empty);
	where_add(&empty, "workers=2");
	cols = where_columns(&empty, t, &bad);
	pass = 0;
	for (size_t r = 0; cols && r < t->nrows; r++)
		pass += where_match(&empty, cols, t->rows[r]) ? r + 1 : 0;
	is_int(pass, 2, "workers=2 does not match 24 (exact text, no prefix)");
	free(cols);

	where_free(&w);
	where_free(&miss);
	where_free(&empty);
	csv_free(t);
	return done_testing();
}
