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
	KNOB_INT,     /* integer in [min, max] */
	KNOB_ENUM,    /* one of values[] */
	KNOB_STR,     /* free text (validated by its owner) */
	KNOB_PROFILE, /* the name of a registered knob profile, or "none":
		       * setting it presets the knobs the profile lists */
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
	/* A property of the kernel version (not of the experiment): every
	 * kernel profile must set it (tests/kernels.t). */
	bool per_kernel;
	/* KNOB_STR: the owner's check of a value, so that --set and
	 * experiment files refuse a bad one when they are read (not when a
	 * run starts); NULL: any non-empty text.  `allowed` says what is. */
	bool (*check)(const char *value);
	const char *allowed;
};

/*
 * A knob profile: one kernel version or commit, written down once as the
 * value of every per-kernel knob with where that value comes from.  One
 * data file per kernel version or commit, models/kernels/NAME.ini (or
 * $MEMSCALE_KERNELS), with the commit's parent NAME^ in the same file
 * (core/knob.c reads them; docs/plugins.md).  `--kernel NAME` (or `--set
 * kernel=NAME`, `kernel = NAME` in an experiment file) presets the knobs;
 * a knob set explicitly (`--set`) wins over the profile whatever the
 * order.
 */
struct knob_preset {
	const char *knob, *value;
	const char *source; /* commit and file the value was read from */
};

struct knob_profile {
	const char *name;   /* "v6.9", "70a64b7919cb" */
	const char *title;  /* what the kernel is, one line */
	const char *commit; /* the commit it stands for */
	const struct knob_preset *sets; /* ends with { NULL } */
	const char *file;   /* the data file it was read from */
};

/* Every profile of kernel_dir(), sorted by name (read once; a bad file
 * dies with EXIT_USAGE and one line naming it). */
const struct knob_profile *knob_profile_find(const char *name);
size_t knob_profile_all(const struct knob_profile ***out);
/* models/kernels, or $MEMSCALE_KERNELS (core/util.h data_dir()). */
const char *kernel_dir(void);
/* Reads one profile file (FILE_NOFOLLOW in flags: refuse a symbolic
 * link): *out gets its profile and, with a [parent], the parent's; the
 * count is returned.  Dies with EXIT_USAGE on a bad file. */
size_t knob_profile_load(const char *path, unsigned flags, struct knob_profile **out);
void knob_profile_free(struct knob_profile *v, size_t n);

struct knobset;

const struct knob *knob_find(const char *name);
/* VALUE is one the knob allows. */
bool knob_value_ok(const struct knob *k, const char *value);
/* Ordered by owner then name. */
size_t knob_all(const struct knob ***out);
/* Human description of allowed values, e.g. "32..4096" or "pgdat|lruvec". */
const char *knob_allowed(const struct knob *k, char *buf, size_t len);

struct knobset *knobset_new(void);
void knobset_free(struct knobset *ks);
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
/* The value as an unsigned number (an integer knob, or an enum whose
 * values are numbers: read by value, never by position). */
unsigned long knob_uint(struct knobset *ks, const struct knob *k);
/* Where the effective value came from: "set", "kernel" or "default". */
const char *knob_origin(const struct knobset *ks, const struct knob *k);
/* The value set explicitly (--set, experiment file), or NULL; does not
 * mark the knob used. */
const char *knobset_value(const struct knobset *ks, const struct knob *k);
/* The profile preset in ks (NULL: none). */
const struct knob_profile *knobset_profile(const struct knobset *ks);
bool knob_enum_is(struct knobset *ks, const struct knob *k, const char *v);

/* The user's settings are complete (--set, an experiment's variant, fixed
 * setting or axis: run_opts_finish() seals them); values code sets later
 * (a resolved calibration) are not the user's. */
void knobset_seal(struct knobset *ks);
/* The first knob the user set (at knobset_seal()) that no code has
 * consulted, or NULL (always NULL for a set never sealed, such as an
 * internal calibration run's): a run that has set up calls it to refuse
 * a knob its code path does not read.  The kernel profile knob is a
 * preset, not read. */
const struct knob *knobset_unread(const struct knobset *ks);
/* Iterate over knobs that were consulted (or explicitly set), sorted. */
size_t knobset_used(const struct knobset *ks, const struct knob ***out);

#endif
