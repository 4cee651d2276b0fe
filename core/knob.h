/*
 * knob.h - named run-time parameters (`--set KEY=VALUE`).
 *
 * A knob is declared once, next to the code that reads it, with its type,
 * default, allowed values and, for model variants, the kernel version or
 * commit each value stands for.  Knobs are registered like locks
 * (REGISTER(knob, ...)), so `memscale list variants` prints them all and
 * `--set` rejects unknown keys and bad values with exit status 2, naming the
 * knob and its allowed values.
 *
 * Values are looked up by the component that owns the knob when a run is
 * set up; the knob set remembers which knobs were consulted so result files
 * carry exactly the parameters that shaped the run.
 */
#ifndef MEMSCALE_KNOB_H
#define MEMSCALE_KNOB_H

#include <stdbool.h>
#include <stddef.h>

enum knob_type {
	KNOB_INT,  /* integer in [min, max] */
	KNOB_ENUM, /* one of values[] */
	KNOB_STR,  /* free text (validated by its owner) */
};

struct knob_value {
	const char *value; /* spelling on the command line */
	const char *note;  /* kernel version / commit it stands for */
};

struct knob {
	const char *name;
	const char *help;
	enum knob_type type;
	const char *def;                  /* default, as a string */
	long min, max;                    /* KNOB_INT */
	const struct knob_value *values;  /* KNOB_ENUM, ends with {NULL} */
	const char *owner;                /* "lock", "counter", "model", ... */
	/* KNOB_STR: the owner's check of a value, so that --set and
	 * experiment files refuse a bad one when they are read (not when a
	 * run starts); NULL: any non-empty text.  `allowed` says what is. */
	bool (*check)(const char *value);
	const char *allowed;
};

struct knobset;

const struct knob *knob_find(const char *name);
/* Ordered by owner then name. */
size_t knob_all(const struct knob ***out);
/* Human description of allowed values, e.g. "32..4096" or "pgdat|lruvec". */
const char *knob_allowed(const struct knob *k, char *buf, size_t len);

struct knobset *knobset_new(void);
void knobset_free(struct knobset *ks);
struct knobset *knobset_clone(const struct knobset *ks);
/* Parses "KEY=VALUE", validating key and value; on error prints a line
 * naming the knob and its allowed values and exits EXIT_USAGE. */
void knobset_set_arg(struct knobset *ks, const char *arg);
/* Validating setter used by experiment files: returns false with msg. */
bool knobset_set(struct knobset *ks, const char *key, const char *value,
		 char *err, size_t errlen);
bool knobset_is_set(const struct knobset *ks, const char *name);

/* Effective value (set or default); marks the knob as used. */
const char *knob_str(struct knobset *ks, const struct knob *k);
long knob_int(struct knobset *ks, const struct knob *k);
/* Index of the value in k->values. */
size_t knob_enum(struct knobset *ks, const struct knob *k);
bool knob_enum_is(struct knobset *ks, const struct knob *k, const char *v);

/* Iterate over knobs that were consulted (or explicitly set), sorted. */
size_t knobset_used(const struct knobset *ks, const struct knob ***out);

#endif
