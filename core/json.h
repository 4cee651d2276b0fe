/*
 * json.h - a minimal streaming JSON writer for result sidecars.
 * Keeps nesting state so callers never hand-place commas.
 */
#ifndef MEMSCALE_JSON_H
#define MEMSCALE_JSON_H

#include <stdio.h>

struct json {
	FILE *f;
	int depth;
	int first[32];
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
void json_end(struct json *j);

#endif
