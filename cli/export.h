/*
 * export.h - the result rows `memscale export` reads (cmd_export.c) and
 * the writers of its formats: mmtests' log tree (cmd_export.c) and LKP's
 * result root (export_lkp.c).
 */
#ifndef MEMSCALE_EXPORT_H
#define MEMSCALE_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

/* One result row as exported. */
struct xrow {
	char *run;      /* variant (+ other axes) or the CSV's name: [A-Za-z0-9._-] */
	char *workload; /* as in the CSV: "page_fault2", "kernel:page_fault2" */
	char *wl;       /* the same with ':' and '-' as '_' */
	char *model;    /* processes or threads */
	char *host;     /* [A-Za-z0-9._-], "unknown" where the CSV has none */
	long workers, rep;
	double ops, per_worker;
	double seconds; /* measured seconds (measured_s, else seconds; 0: unknown) */
};

struct xset {
	struct xrow *rows;
	size_t n;
	char **runs; /* in order of first appearance */
	size_t nruns;
};

/* Writes text to path (whole or not at all); dies naming path on error. */
void export_write(const char *path, const char *text);
/* mkdir that accepts an existing directory; dies naming path on error. */
void export_mkdir(const char *path);
/* Does LKP run this workload (will-it-scale, aim9, vm-scalability)? */
bool export_lkp_has(const char *workload);
/* `export lkp`: the LKP result root in dir; returns the jobs written. */
size_t export_lkp(const struct xset *s, const char *dir, size_t *skipped);

#endif
