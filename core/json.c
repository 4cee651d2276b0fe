/* json.c - JSON sidecars on jansson (see json.h). */
#include "core/json.h"
#include "core/util.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void json_add_member(struct json *j, const char *key, json_t *v)
{
	json_t *parent = j->node[j->depth];

	if (!v)
		die(1, "out of memory (JSON)");
	if (json_is_array(parent))
		json_array_append_new(parent, v);
	else if (json_object_set_new(parent, key ? key : "", v))
		die(1, "JSON: bad key '%s' (not UTF-8?)", key ? key : "");
}

void json_begin(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->node[0] = json_object();
}

static void open_(struct json *j, const char *key, json_t *v)
{
	if (j->depth + 1 >= JSON_MAX_DEPTH)
		die(1, "internal error: JSON nested deeper than %d", JSON_MAX_DEPTH);
	json_add_member(j, key, v);
	j->node[++j->depth] = v;
}

void json_obj_open(struct json *j, const char *key) { open_(j, key, json_object()); }
void json_arr_open(struct json *j, const char *key) { open_(j, key, json_array()); }
void json_obj_close(struct json *j) { if (j->depth) j->depth--; }
void json_arr_close(struct json *j) { if (j->depth) j->depth--; }

void json_str(struct json *j, const char *key, const char *val)
{
	/* invalid UTF-8 (a hostname, a CPU string) is kept byte for byte as
	 * far as jansson allows: fall back to a lossy copy */
	json_t *v = json_string(val ? val : "");

	if (!v) {
		char *c = xstrdup(val);
		for (char *p = c; *p; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
		v = json_string(c);
		free(c);
	}
	json_add_member(j, key, v);
}

void json_int(struct json *j, const char *key, long long val)
{
	json_add_member(j, key, json_integer(val));
}

void json_num(struct json *j, const char *key, double val)
{
	json_add_member(j, key, isfinite(val) ? json_real(val) : json_null());
}

void json_bool(struct json *j, const char *key, int val)
{
	json_add_member(j, key, json_boolean(val));
}

int json_end(struct json *j)
{
	int rc = json_dumpf(j->node[0], j->f, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			    JSON_REAL_PRECISION(17));

	json_decref(j->node[0]);
	j->node[0] = NULL;
	if (fputc('\n', j->f) == EOF)
		rc = -1;
	return rc ? -1 : 0;
}

struct json_doc {
	json_t *root;
};

static struct json_doc *read_open(FILE *f, const char *path, const char *why, char *err,
				  size_t errlen)
{
	json_error_t e;
	json_t *root;
	struct json_doc *d;

	if (!f) {
		snprintf(err, errlen, "'%s' %s", path, why);
		return NULL;
	}
	root = json_loadf(f, 0, &e);
	fclose(f);
	if (!root) {
		snprintf(err, errlen, "%s:%d:%d: %s", path, e.line, e.column, e.text);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->root = root;
	return d;
}

struct json_doc *json_read_file(const char *path, char *err, size_t errlen)
{
	const char *why = NULL;
	FILE *f = input_fopen(path, &why);

	return read_open(f, path, why, err, errlen);
}

struct json_doc *json_read_sidecar(const char *path, char *err, size_t errlen)
{
	const char *why = NULL;
	FILE *f = file_read_open(path, FILE_NOFOLLOW, &why);

	return read_open(f, path, why, err, errlen);
}

void json_doc_free(struct json_doc *d)
{
	if (!d)
		return;
	json_decref(d->root);
	free(d);
}

/* a real as jq prints it: the fewest significant digits that read back */
static char *real_text(double x)
{
	char *s = NULL;

	for (int p = 1; p <= 17; p++) {
		free(s);
		s = xasprintf("%.*g", p, x);
		if (strtod(s, NULL) == x)
			break;
	}
	return s;
}

/* a real with every digit a double holds */
static char *real_g17(double x)
{
	return xasprintf("%.17g", x);
}

/* a scalar's text: the string itself, the number (reals written by
 * real()), "true" or "false"; NULL for null, an object or an array */
static char *scalar_text(const json_t *v, char *(*real)(double))
{
	switch (json_typeof(v)) {
	case JSON_STRING:
		return xstrdup(json_string_value(v));
	case JSON_INTEGER:
		return xasprintf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
	case JSON_REAL:
		return real(json_real_value(v));
	case JSON_TRUE:
		return xstrdup("true");
	case JSON_FALSE:
		return xstrdup("false");
	default:
		return NULL;
	}
}

char *json_doc_get(const struct json_doc *d, ...)
{
	va_list ap;
	const char *k;
	json_t *v = d ? d->root : NULL;

	va_start(ap, d);
	while (v && (k = va_arg(ap, const char *)))
		v = json_is_object(v) ? json_object_get(v, k) : NULL;
	va_end(ap);
	if (!v)
		return NULL;
	return scalar_text(v, real_g17);
}

/* the first object at or below v, in preorder, with a member `having` */
static json_t *find_obj(json_t *v, const char *having)
{
	const char *k;
	json_t *c, *r;
	size_t i;

	if (json_is_object(v)) {
		if (json_object_get(v, having))
			return v;
		json_object_foreach(v, k, c)
			if ((r = find_obj(c, having)))
				return r;
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, c)
			if ((r = find_obj(c, having)))
				return r;
	}
	return NULL;
}

char *json_doc_find(const struct json_doc *d, const char *having, const char *key, int idx)
{
	json_t *o = d ? find_obj(d->root, having) : NULL, *v = o ? json_object_get(o, key) : NULL;
	char *s;

	if (v && idx >= 0)
		v = json_is_array(v) ? json_array_get(v, (size_t)idx) : NULL;
	if (!v || json_is_null(v) || json_is_false(v))
		return NULL;
	s = scalar_text(v, real_text);
	if (s)
		return s;
	s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (!s)
		die(1, "out of memory (JSON)");
	return s;
}

char *json_sidecar_runs(const char *doc, const char *prev, long long first_row,
			long long rows, char *err, size_t errlen)
{
	json_error_t e;
	json_t *now = json_loads(doc, 0, &e), *old = NULL, *runs, *entry, *r;
	char *text;

	if (!now || !json_is_object(now)) {
		snprintf(err, errlen, "internal: sidecar not an object (%s)", e.text);
		json_decref(now);
		return NULL;
	}
	if (prev) {
		old = json_loads(prev, 0, &e);
		if (!old || !json_is_object(old)) {
			snprintf(err, errlen, "%d:%d: %s", e.line, e.column,
				 old ? "not a JSON object" : e.text);
			json_decref(old);
			json_decref(now);
			return NULL;
		}
	}
	runs = json_array();
	if (old && json_is_array(r = json_object_get(old, "runs")))
		json_array_extend(runs, r);
	else if (old)
		json_array_append(runs, old); /* a sidecar of one run, before "runs" */
	entry = json_deep_copy(now);
	json_object_set_new(entry, "first_row", json_integer(first_row));
	json_object_set_new(entry, "rows", json_integer(rows));
	json_array_append_new(runs, entry);
	json_object_set_new(now, "runs", runs);
	text = json_dumps(now, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			  JSON_REAL_PRECISION(17));
	json_decref(old);
	json_decref(now);
	if (!text)
		die(1, "out of memory");
	return text;
}
