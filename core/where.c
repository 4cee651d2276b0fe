/*
 * where.c - the --where KEY=VALUE row filter (core/where.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "core/where.h"

bool where_add(struct where *w, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return false;
	if (w->n == w->cap) {
		const char **grown;

		w->cap = w->cap ? 2 * w->cap : 4;
		grown = xcalloc(w->cap, sizeof(*grown));
		if (w->n)
			memcpy(grown, w->pairs, w->n * sizeof(*grown));
		free(w->pairs);
		w->pairs = grown;
	}
	w->pairs[w->n++] = arg;
	return true;
}

char *where_key(const struct where *w, size_t i)
{
	const char *p = w->pairs[i];

	return xasprintf("%.*s", (int)(strchr(p, '=') - p), p);
}

int *where_columns(const struct where *w, const struct csv_table *t, size_t *bad)
{
	int *cols = xcalloc(w->n + 1, sizeof(int));

	for (size_t i = 0; i < w->n; i++) {
		char *key = where_key(w, i);

		cols[i] = csv_col(t, key);
		free(key);
		if (cols[i] < 0) {
			*bad = i;
			free(cols);
			return NULL;
		}
	}
	return cols;
}

bool where_match(const struct where *w, const int *cols, char *const *row)
{
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(row[cols[i]], strchr(w->pairs[i], '=') + 1))
			return false;
	return true;
}

void where_free(struct where *w)
{
	free(w->pairs);
	memset(w, 0, sizeof(*w));
}
