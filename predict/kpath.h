/*
 * kpath.h - the kernel path reference (predict/work/kpath.ini): how many
 * instructions a kernel executes inside its LRU lock sections per folio
 * and inside its zone->lock sections per page,
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

struct kpath {
	struct kpath_count {
		double add;  /* instructions per folio, LRU add section */
		double del;  /* instructions per folio, LRU delete section */
		double isolate; /* per folio of reclaim's isolation (a
				 * SWAP_CLUSTER_MAX batch) */
		double zalloc; /* per page rmqueue_bulk takes, inside
				* zone->lock */
		double zfree;  /* per page free_pcppages_bulk returns,
				* inside zone->lock */
		const char *kernel, *add_src, *del_src, *isolate_src;
		const char *zalloc_src, *zfree_src;
		/* body.WORKLOAD: the instructions per operation of the
		 * workload's system calls outside the LRU and zone sections
		 * (those are priced as above); a workload without one keeps
		 * its system calls at the entry's cost */
		struct kpath_body {
			char *workload, *src;
			double n;
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
