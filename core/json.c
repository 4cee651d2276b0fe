#include "core/json.h"

#include <math.h>

static void sep(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = 0;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
	if (key) {
		fputc('"', j->f);
		fputs(key, j->f);
		fputs("\": ", j->f);
	}
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void json_begin(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = 1;
	fputc('{', f);
	j->depth = 1;
	j->first[1] = 1;
}

static void open_(struct json *j, const char *key, char c)
{
	sep(j, key);
	fputc(c, j->f);
	j->depth++;
	j->first[j->depth] = 1;
}

static void close_(struct json *j, char c)
{
	int empty = j->first[j->depth];
	j->depth--;
	if (!empty) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
}

void json_obj_open(struct json *j, const char *key) { open_(j, key, '{'); }
void json_obj_close(struct json *j) { close_(j, '}'); }
void json_arr_open(struct json *j, const char *key) { open_(j, key, '['); }
void json_arr_close(struct json *j) { close_(j, ']'); }

void json_str(struct json *j, const char *key, const char *val)
{
	sep(j, key);
	put_string(j->f, val);
}

void json_int(struct json *j, const char *key, long long val)
{
	sep(j, key);
	fprintf(j->f, "%lld", val);
}

void json_num(struct json *j, const char *key, double val)
{
	sep(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.17g", val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, int val)
{
	sep(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_end(struct json *j)
{
	close_(j, '}');
	fputc('\n', j->f);
}
