/*
 * t_where.c - the one --where KEY=VALUE filter (core/where.c) that
 * memscale stats, compare and model fit usl share: what it refuses, which
 * column it reports missing, and which rows pass (every pair, exact text).
 */
#include "core/where.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

/* Bit r set for each row r of t that passes w; ~0u when a KEY is missing. */
static unsigned passing_rows(const struct where *w, const struct csv_table *t)
{
	size_t bad = 0;
	int *cols = where_columns(w, t, &bad);
	unsigned mask = 0;

	if (!cols)
		return ~0u;
	for (size_t r = 0; r < t->nrows; r++)
		if (where_match(w, cols, t->rows[r]))
			mask |= 1u << r;
	free(cols);
	return mask;
}

int main(void)
{
	static const char csv[] =
		"workload,workers,variant\n"
		"page_test,24,base\n"
		"page_test,2,base\n"
		"brk_test,24,\n";
	const char *err = NULL;
	size_t line = 0, bad = 99;
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
	free(cols);
	is_int(passing_rows(&w, t), 1u << 0, "only row 0 holds both values (every pair must match)");

	where_add(&miss, "workload=page_test");
	where_add(&miss, "colour=red");
	ok(!where_columns(&miss, t, &bad) && bad == 1,
	   "a KEY that is no column: NULL, and that pair (index 1) named");

	/* An empty VALUE matches an empty field only; a prefix never matches. */
	where_add(&empty, "variant=");
	is_int(passing_rows(&empty, t), 1u << 2, "variant= passes the row with an empty variant only");
	where_free(&empty);
	where_add(&empty, "workers=2");
	is_int(passing_rows(&empty, t), 1u << 1, "workers=2 does not match 24 (exact text, no prefix)");

	where_free(&w);
	where_free(&miss);
	where_free(&empty);
	csv_free(t);
	return done_testing();
}
