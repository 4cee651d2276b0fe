/*
 * kpath.h - the kernel path reference (predict/work/kpath.ini): how many
 * instructions a kernel executes inside its LRU lock sections per folio
 * and inside its zone->lock sections per page, in a workload's system
 * calls outside them, and in reclaim per folio freed,
 * counted by single-stepping a distribution kernel under qemu
 * (scripts/kpath/count.sh), one count per era of the path (knob kpath,
 * models/knobs.c), and the instruction count of the list probe whose
 * time per instruction prices them (predict/target.c kpath_costs,
 * predict/sim_memcg.c section_work).
 */
#ifndef MEMSCALE_KPATH_H
#define MEMSCALE_KPATH_H

#include <stddef.h>

#include "models/memcg.h"

#define KPATH_MAX_BODY 16

/* One count of the file and where it was read (KEY and KEY.source). */
struct kpath_num {
	double n;            /* NAN until given */
	const char *src;
};

struct kpath {
	struct kpath_count {
		struct kpath_num add;     /* per folio, LRU add section */
		struct kpath_num del;     /* per folio, LRU delete section */
		struct kpath_num isolate; /* per folio of reclaim's isolation (a
					   * SWAP_CLUSTER_MAX batch) */
		struct kpath_num zalloc;  /* per page rmqueue_bulk takes, inside
					   * zone->lock */
		struct kpath_num zfree;   /* per page free_pcppages_bulk returns,
					   * inside zone->lock */
		struct kpath_num reclaim; /* optional: per folio reclaim frees,
					   * its work outside the LRU and zone
					   * sections (NAN: not counted, priced
					   * at nothing) */
		struct kpath_num fault;   /* optional: per page fault, what the
					   * era's kernel runs beyond the fault
					   * probe's (a build option: NAN, none) */
		struct kpath_num hold;    /* optional: per hold of an LRU or
					   * zone lock, beyond its per-folio and
					   * per-page counts (NAN: none) */
		int like;                 /* -1, or the era whose counts this
					   * one's add to (key `like`): a build
					   * option counted as what it adds */
		const char *kernel;
		/* body.WORKLOAD: the instructions per operation of the
		 * workload's system calls outside the LRU and zone sections
		 * (those are priced as above); a workload without one keeps
		 * its system calls at the entry's cost */
		struct kpath_body {
			char *workload;
			struct kpath_num c;
		} body[KPATH_MAX_BODY];
		unsigned nbody;
	} era[KPATH_NR];     /* [section named as knob kpath's value] */
	double list_probe;   /* instructions per iteration of the list probe */
	const char *list_probe_src;
};

/* The reference ($MEMSCALE_WORK/kpath.ini, else predict/work/kpath.ini),
 * read once; dies with EXIT_USAGE and one line on a bad file. */
const struct kpath *kpath_reference(void);
/* Parses the file at path into k (strings owned by k until kpath_free);
 * 0, or -1 with one line in err. */
int kpath_load(const char *path, struct kpath *k, char *err, size_t errlen);
void kpath_free(struct kpath *k);
/* The count body.WORKLOAD of era (instructions per operation), its
 * source in *src; NAN where the file has none. */
double kpath_body(const struct kpath *k, int era, const char *workload, const char **src);

#endif
