/*
 * json.h - result sidecars: a streaming-style writer (callers never place
 * commas or braces by hand) and a reader, both on jansson.  The writer
 * builds the document as a jansson tree and writes it, indented, keys in
 * the order written, at json_end(); a non-finite number is written as
 * null (JSON has no NaN).
 */
#ifndef MEMSCALE_JSON_H
#define MEMSCALE_JSON_H

#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	void *node[JSON_MAX_DEPTH]; /* json_t *: the open object/array per level */
};

void json_begin(struct json *j, FILE *f);
void json_obj_open(struct json *j, const char *key);   /* key NULL in arrays/top */
void json_obj_close(struct json *j);
void json_arr_open(struct json *j, const char *key);
void json_arr_close(struct json *j);
void json_str(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, long long val);
void json_num(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, int val);
/* Writes the document and a newline; returns 0, or -1 on a write error. */
int json_end(struct json *j);

/* ---- reading ---- */
struct json_doc;
/* Parses a JSON file; NULL with "file:line:column: reason" in err. */
struct json_doc *json_read_file(const char *path, char *err, size_t errlen);
/* The same for a file the user did not name (a sidecar found in a
 * directory): a symbolic link is refused (core/file.h's FILE_NOFOLLOW). */
struct json_doc *json_read_sidecar(const char *path, char *err, size_t errlen);
void json_doc_free(struct json_doc *d);
/* The value at a path of object keys ("machine", "cpu_model", NULL), as
 * a string (numbers printed, strings unescaped); NULL when absent or an
 * object/array.  Heap string. */
char *json_doc_get(const struct json_doc *d, ...) __attribute__((sentinel));

/*
 * jq's `first(.. | objects | select(has(HAVING)) | .[KEY]) // empty`, as
 * `jq -r` prints it: KEY of the first object (the document in preorder,
 * members in their order) that has a member HAVING; with idx >= 0 the
 * idx'th element of that KEY (an array).  A string as it is, an integer
 * in full, a real in the fewest digits that read back the same, an array
 * or object as compact JSON.  NULL when there is no such object, or KEY
 * is absent, null or false.  Heap string.
 */
char *json_doc_find(const struct json_doc *d, const char *having, const char *key, int idx);

/*
 * The sidecar of a results file that several runs append to (`run -o`):
 * the text of `doc` (one run's object, as json_end wrote it) with a
 * "runs" array added: the previous sidecar's runs (`prev`, its text; a
 * previous sidecar without "runs" counts as one run; NULL: none), then
 * this run with "first_row" (data rows before it) and "rows" (its rows).
 * So the top level describes the last run and "runs" every run.  Heap
 * string; NULL with the reason in err when prev does not parse.
 */
char *json_sidecar_runs(const char *doc, const char *prev, long long first_row,
			long long rows, char *err, size_t errlen);

#endif
