/*
 * cmd_layout.c - `memscale layout`: the byte layout of struct
 * mem_cgroup_per_node as the model uses it, per kernel version and
 * configuration (compiler-derived, models/layout_decls.inc), from BTF
 * (--btf) or from saved pahole output (--pahole), and the audit of the
 * element-level access sets (models/access.h): where one CPU's hot read
 * meets another CPU's hot write on a 64 B line or a 128 B line pair.
 *
 * Marks in the field listing follow the audit of the kernel profile the
 * layout belongs to, over every audited workload: `!` a field read
 * outside the LRU lock shares a 64 B line with an element another CPU
 * writes, `~` only a 128 B pair, `#` lock-sector: the lock holder
 * accesses it on the lock word's 64 B line or writes it in the lock
 * word's 128 B sector, where arriving waiters take it away
 * (models/access.h).  Written fields carry the elements the model
 * writes, never the whole array.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "locks/lock.h"
#include "models/access.h"
#include "models/layout.h"
#include "models/layout_struct.h"
#include "models/lru_gen.h"
#include "models/memcg.h"
#include "predict/predict.h"

static int layout_main(int argc, char **argv);

const struct subcommand layout_cmd = {
	.name = "layout",
	.summary = "print mem_cgroup_per_node layouts (declared, BTF, pahole) and audit their false sharing",
	.usage = "layout [--lock NAME] [--kconfig K] [LAYOUT... | --kernel NAME...]\n"
		 "       layout --btf [FILE] | --pahole FILE\n"
		 "       layout --audit [--kernel NAME] [--kconfig K] [--workload W] [--set K=V]\n"
		 "       layout --struct mem_cgroup|page_counter --kernel NAME...\n"
		 "  -l, --lock NAME     size the lru_lock slot for this lock (default: the\n"
		 "                      kernel's spinlock_t)\n"
		 "  -k, --kconfig K     configuration (default: the kconfig knob's default;\n"
		 "                      bundles rhel-8.3|ubuntu-6.8|running|none, options\n"
		 "                      such as rhel-8.3,LRU_GEN=y)\n"
		 "      --btf [FILE]    read the layout from BTF (default /sys/kernel/btf/vmlinux)\n"
		 "      --pahole FILE   read it from `pahole -C mem_cgroup_per_node -C lruvec` output\n"
		 "      --audit         per kernel profile x configuration x workload, every\n"
		 "                      64 B line and 128 B pair where a read outside the LRU\n"
		 "                      lock meets another CPU's write, and every lock-sector\n"
		 "                      conflict (the holder's access that a waiter's RMW on\n"
		 "                      the lock word takes away), element by element\n"
		 "      --kernel NAME   the layout of this profile; with --audit, audit\n"
		 "                      this profile only (repeatable)\n"
		 "      --kconfig all   audit every combination of the options\n"
		 "      --workload W    audit this workload only (repeatable)\n"
		 "  -s, --set KNOB=VALUE  a model knob for the layout and the audit's\n"
		 "                      recordings (repeatable), e.g. lru_gen=on: MGLRU\n"
		 "                      enabled at run time (needs a kconfig with LRU_GEN;\n"
		 "                      without --kconfig the bundles lacking it are skipped)\n"
		 "      --struct S      the compiler-derived layout of struct S (mem_cgroup,\n"
		 "                      page_counter) in the --kernel profiles: offset, size,\n"
		 "                      64 B line and 128 B pair of every member\n"
		 "marks: ! a field read outside the lock shares a 64 B line with an element\n"
		 "       another CPU writes; ~ only the 128 B pair; # lock-sector: the lock\n"
		 "       holder accesses it on the lock word's line or writes it in the lock\n"
		 "       word's 128 B sector (the profile's audit, all audited workloads)\n",
	.main = layout_main,
};
REGISTER(subcommand, layout_cmd);

/* The kernel profile a declared layout belongs to (its stats path and
 * lru_lock decide what is written). */
static const char *const layout_profile[LAYOUT_NR] = {
	[LAYOUT_V5_3] = "v5.3", [LAYOUT_V5_10] = "v5.10", [LAYOUT_V5_11] = "v5.11",
	[LAYOUT_V69] = "v6.9", [LAYOUT_V610] = "70a64b7919cb",
	[LAYOUT_FIXED] = "fefc6e6631ff", [LAYOUT_FIXED_PADDED] = "v6.11",
	[LAYOUT_BTF] = "current", [LAYOUT_PAHOLE] = "current",
};

/* `--set KNOB=VALUE` pairs, applied after the profile and kconfig. */
static const char *sets[32];
static size_t nsets;

static void apply_sets(struct knobset *ks)
{
	char err[512];

	for (size_t i = 0; i < nsets; i++) {
		const char *eq = strchr(sets[i], '=');
		char key[64];

		if (!eq || eq == sets[i] || (size_t)(eq - sets[i]) >= sizeof(key))
			die(EXIT_USAGE, "layout: --set '%s': want KNOB=VALUE", sets[i]);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - sets[i]), sets[i]);
		if (!strcmp(key, "kernel") || !strcmp(key, "kconfig"))
			die(EXIT_USAGE, "layout: --set %s: use --%s", key, key);
		if (!knobset_set(ks, key, eq + 1, err, sizeof(err)))
			die(EXIT_USAGE, "layout: %s", err);
	}
}

/* The knobs --set names, as "k=v,k=v" (or "-"), for the audit's rows. */
static const char *sets_str(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nsets; i++)
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s",
					i ? "," : "", sets[i]);
	return nsets ? buf : "-";
}

static void params_of(const char *profile, const char *kconfig, struct model_params *p)
{
	struct knobset *ks = knobset_new();
	char err[512];

	if (!knobset_set(ks, "kernel", profile, err, sizeof(err)) ||
	    (kconfig && !knobset_set(ks, "kconfig", kconfig, err, sizeof(err))))
		die(EXIT_USAGE, "layout: %s", err);
	apply_sets(ks);
	if (model_params_from_knobs(p, ks))
		exit(EXIT_USAGE);
	knobset_free(ks);
}

#define MAX_ELEMS 64
#define MAX_CONFLICTS 256

/* Marks over every audited workload. */
static void marks(const struct pn_layout *l, const struct model_params *p,
		  char mark[PN_NR_FIELDS])
{
	memset(mark, ' ', PN_NR_FIELDS);
	for (const struct access_shape *ws = access_shapes; ws->workload; ws++) {
		struct pn_elem e[MAX_ELEMS];
		struct pn_conflict c[MAX_CONFLICTS];
		size_t n = pn_access_set(l, p, ws, e, MAX_ELEMS);
		size_t k = pn_audit(e, n, c, MAX_CONFLICTS);

		for (size_t i = 0; i < k; i++)
			for (int f = 0; f < PN_NR_FIELDS; f++)
				if (l->present[f] && c[i].read.off >= l->off[f] &&
				    c[i].read.off < l->off[f] + (l->size[f] ? l->size[f] : 1)) {
					if (c[i].cls == PN_LOCK_SECTOR)
						mark[f] = mark[f] == '!' ? '!' : '#';
					else if (c[i].unit == 64)
						mark[f] = '!';
					else if (mark[f] == ' ')
						mark[f] = '~';
				}
	}
}

/* Listing order: by offset, a zero-sized padding first, a container
 * (lruvec.lrugen) before the members inside it. */
static bool field_before(const struct pn_layout *l, enum pn_field a, enum pn_field b)
{
	if (l->off[a] != l->off[b])
		return l->off[a] < l->off[b];
	if (!l->size[a] != !l->size[b])
		return !l->size[a];
	return l->size[a] > l->size[b];
}

static void print_layout(const struct pn_layout *l, const struct model_params *p)
{
	enum pn_field order[PN_NR_FIELDS];
	char mark[PN_NR_FIELDS];
	struct pn_elem e[MAX_ELEMS];
	size_t n = 0, ne = 0;

	pn_access_prefetch(p, NULL, 0, predict_jobs(0)); /* on every CPU at once */
	marks(l, p, mark);
	for (const struct access_shape *ws = access_shapes; ws->workload; ws++) {
		struct pn_elem w[MAX_ELEMS];
		size_t k = pn_access_set(l, p, ws, w, MAX_ELEMS);
		for (size_t i = 0; i < k; i++) {
			bool dup = false;
			for (size_t j = 0; j < ne; j++)
				dup |= e[j].off == w[i].off && e[j].write == w[i].write;
			if (!dup && ne < MAX_ELEMS)
				e[ne++] = w[i];
		}
	}
	printf("%s: sizeof %zu, MAX_NR_ZONES %u, ZONE_NORMAL %u  (%s)%s\n", l->name,
	       l->sizeof_pn, l->max_nr_zones, l->zone_normal, l->source,
	       l->lock_grew ? "\n  (lock bigger than spinlock_t: layout differs from the kernel's)" : "");
	for (int f = 0; f < PN_NR_FIELDS; f++)
		if (l->present[f])
			order[n++] = (enum pn_field)f;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && field_before(l, order[j], order[j - 1]); j--) {
			enum pn_field t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	printf("  %-30s %6s %6s %-9s %-7s %s\n", "FIELD", "OFFSET", "SIZE", "LINES",
	       "PAIRS", "HOT ELEMENTS (read outside the lock / written)");
	for (size_t i = 0; i < n; i++) {
		enum pn_field f = order[i];
		size_t end = l->off[f] + (l->size[f] ? l->size[f] - 1 : 0);
		char lines[64], pairs[64], hot[1024] = "";
		size_t off = 0;

		for (size_t j = 0; j < ne; j++)
			if (e[j].off >= l->off[f] && e[j].off < l->off[f] + (l->size[f] ? l->size[f] : 1) &&
			    (e[j].write || !e[j].locked))
				off += (size_t)snprintf(hot + off, off < sizeof(hot) ? sizeof(hot) - off : 0,
							"%s%s %s@%zu", off ? ", " : "",
							e[j].write ? "write" : "read", e[j].name, e[j].off);
		snprintf(lines, sizeof(lines), "L%zu-L%zu", l->off[f] / 64, end / 64);
		snprintf(pairs, sizeof(pairs), "P%zu-P%zu", l->off[f] / 128, end / 128);
		printf("%c %-30s %6zu %6zu %-9s %-7s %s\n", mark[f], pn_field_name(l, f),
		       l->off[f], l->size[f], lines, pairs, hot);
	}
	printf("\n");
}

static void print_raw(const struct pn_raw *r, const char *src)
{
	printf("# %s: struct mem_cgroup_per_node (size %zu) member by member\n", src,
	       r->sizeof_pn);
	for (size_t i = 0; i < r->npn; i++)
		printf("mem_cgroup_per_node %s %zu %zu\n", r->pn[i].name, r->pn[i].off,
		       r->pn[i].size);
	printf("# struct lruvec (size %zu)\n", r->sizeof_lruvec);
	for (size_t i = 0; i < r->nlruvec; i++)
		printf("lruvec %s %zu %zu\n", r->lruvec[i].name, r->lruvec[i].off,
		       r->lruvec[i].size);
	if (r->zone_normal >= 0)
		printf("# ZONE_NORMAL = %d\n", r->zone_normal);
	printf("\n");
}

static bool listed(const char *const *v, size_t n, const char *s)
{
	if (!n)
		return true;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* One audit row per access shape (workload) of the layout: its conflicts
 * on 64 B lines, 128 B pairs and lock sectors. */
static void audit_shapes(const char *kernel, const struct pn_layout *l,
			 const struct model_params *p, const char *kc,
			 const char *const *wls, size_t nw)
{
	for (const struct access_shape *ws = access_shapes; ws->workload; ws++) {
		struct pn_elem e[MAX_ELEMS];
		struct pn_conflict c[MAX_CONFLICTS];
		size_t n, k, n64 = 0, n128 = 0, nls = 0;

		if (!listed(wls, nw, ws->workload))
			continue;
		n = pn_access_set(l, p, ws, e, MAX_ELEMS);
		k = pn_audit(e, n, c, MAX_CONFLICTS);
		for (size_t i = 0; i < k; i++)
			*(c[i].cls == PN_LOCK_SECTOR ? &nls
			  : c[i].unit == 64 ? &n64 : &n128) += 1;
		printf("%-14s %-12s %-26s %-12s %5zu %5zu %5zu ", kernel,
		       pn_layout_names[p->layout], kc, ws->workload, n64, n128, nls);
		for (size_t i = 0; i < k; i++)
			printf(" %s%s%zu: %s%s@%zu <- %s@%zu;",
			       c[i].cls == PN_LOCK_SECTOR ? "lock-sector " : "",
			       c[i].unit == 64 ? "L" : "P", c[i].index,
			       c[i].cls != PN_LOCK_SECTOR ? ""
			       : c[i].read.write ? "write " : "read ", c[i].read.name,
			       c[i].read.off, c[i].write.name, c[i].write.off);
		printf("%s\n", k ? "" : "  -");
	}
}

static void audit(const char *const *kernels, size_t nk, const char *kconfig,
		  const char *const *wls, size_t nw)
{
	static const char *const bundle_names[] = { "rhel-8.3", "ubuntu-6.8", "running", "none" };
	const char *const *bundles = bundle_names;
	size_t nbundles = ARRAY_SIZE(bundle_names);
	const struct knob_profile **prof;
	size_t np = knob_profile_all(&prof);
	char **every = NULL;

	if (kconfig && !strcmp(kconfig, "all")) {
		/* every combination of the options (LRU_GEN_WALKS_MMU only
		 * with LRU_GEN), spelt as options */
		every = xcalloc(1u << KC_NR, sizeof(*every));
		nbundles = 0;
		for (unsigned b = 0; b < (1u << KC_NR); b++) {
			char buf[160];
			if ((b & 3) == 2)
				continue;
			every[nbundles++] = xstrdup(kconfig_str((struct kconfig){ b }, buf, sizeof(buf)));
		}
		bundles = (const char *const *)every;
		kconfig = NULL;
	}

	for (size_t i = 0; i < nk; i++)
		if (!knob_profile_find(kernels[i]))
			die(EXIT_USAGE, "layout: unknown kernel profile '%s' (see 'memscale "
			    "list kernels')", kernels[i]);
	for (size_t i = 0; i < nw; i++)
		if (!access_shape_find(wls[i]))
			die(EXIT_USAGE, "layout: no access shape for workload '%s'", wls[i]);
	{
		char buf[512];
		printf("# knobs set: %s\n", sets_str(buf, sizeof(buf)));
	}
	printf("%-14s %-12s %-26s %-12s %5s %5s %5s  %s\n", "KERNEL", "LAYOUT", "KCONFIG",
	       "WORKLOAD", "64B", "128B", "LOCKS",
	       "CONFLICTS (line: read outside the lock <- write; lock-sector: "
	       "holder's access <- waiters)");
	for (size_t pi = 0; pi < np; pi++) {
		if (!listed(kernels, nk, prof[pi]->name))
			continue;
		for (size_t b = 0; b < (kconfig ? 1 : nbundles); b++) {
			const char *kc = kconfig ? kconfig : bundles[b];
			struct model_params p;
			struct pn_layout l;
			char why[256];
			struct knobset *ks = knobset_new();
			char err[512];

			if (!knobset_set(ks, "kernel", prof[pi]->name, err, sizeof(err)) ||
			    !knobset_set(ks, "kconfig", kc, err, sizeof(err)))
				die(EXIT_USAGE, "layout: %s", err);
			apply_sets(ks);
			{
				struct kconfig probe;
				if (kconfig_parse(kc, &probe, why, sizeof(why))) {
					if (kconfig)
						die(EXIT_USAGE, "layout: kconfig '%s': %s", kc, why);
					printf("%-14s %-12s %-26s skipped: %s\n", prof[pi]->name, "-",
					       kc, why);
					knobset_free(ks);
					continue;
				}
				/* lru_gen=on over every bundle: those without
				 * CONFIG_LRU_GEN are skipped (named: refused) */
				if (!kconfig && knob_enum(ks, &knob_lru_gen) == 1 &&
				    !kconfig_has(probe, KC_LRU_GEN)) {
					printf("%-14s %-12s %-26s skipped: lru_gen=on needs "
					       "CONFIG_LRU_GEN\n", prof[pi]->name, "-", kc);
					knobset_free(ks);
					continue;
				}
			}
			if (knob_enum(ks, &knob_lru_gen) == 1) {
				/* lru_gen=on on a profile whose layout has no
				 * lrugen (v5.x): skipped, named */
				struct model_params q;
				if (!knobset_set(ks, "lru_gen", "off", err, sizeof(err)) ||
				    model_params_from_knobs(&q, ks) ||
				    !knobset_set(ks, "lru_gen", "on", err, sizeof(err)))
					exit(EXIT_USAGE);
				q.lru_gen = true;
				if (model_lru_gen_check(&q, why, sizeof(why))) {
					printf("%-14s %-12s %-26s skipped: lru_gen=on: %s\n",
					       prof[pi]->name, pn_layout_names[q.layout], kc, why);
					knobset_free(ks);
					continue;
				}
			}
			if (model_params_from_knobs(&p, ks))
				exit(EXIT_USAGE);
			knobset_free(ks);
			if (model_resolve_layout(&l, &p, 4, why, sizeof(why))) {
				printf("%-14s %-12s %-26s skipped: %s\n", prof[pi]->name,
				       pn_layout_names[p.layout], kc, why);
				continue;
			}
			pn_access_prefetch(&p, wls, nw, predict_jobs(0));
			audit_shapes(prof[pi]->name, &l, &p, kc, wls, nw);
		}
	}
	if (every) {
		for (size_t b = 0; b < nbundles; b++)
			free(every[b]);
		free(every);
	}
}

/* `--struct S --kernel NAME`: every declared member of the struct the
 * profile's kernel had (models/layout_struct.c), with its 64 B line and
 * 128 B pair. */
static void print_struct(enum kstruct_kind kind, const char *profile)
{
	const struct knob_profile *kp = knob_profile_find(profile);
	const struct kstruct_decl *d;
	const char *version;

	if (!kp)
		die(EXIT_USAGE, "layout: unknown kernel profile '%s' (see 'memscale list kernels')",
		    profile);
	version = kernel_struct_version(kp, kind);
	if (!version)
		die(EXIT_USAGE, "layout: no declared struct %s for kernel profile '%s' "
		    "(declared: see 'memscale list kernels')", kstruct_names[kind], profile);
	d = kstruct_decl_find(kind, version);
	if (!d)
		die(1, "internal error: profile '%s' names struct %s@%s, which is not declared",
		    profile, kstruct_names[kind], version);
	printf("# kernel %s: struct %s@%s, %s %zu (%s)\n", profile, kstruct_names[kind],
	       d->version, d->whole ? "sizeof" : "declared leading part, bytes", d->size,
	       d->source);
	printf("  %-34s %6s %6s %-9s %s\n", "MEMBER", "OFFSET", "SIZE", "LINES", "PAIRS");
	/* by offset, a zero-sized padding before the member it aligns,
	 * a container before its first member */
	const struct kstruct_member **by = xcalloc(d->nmembers, sizeof(*by));
	for (size_t i = 0; i < d->nmembers; i++) {
		size_t j = i;
		for (; j > 0 && (by[j - 1]->off > d->members[i].off ||
				 (by[j - 1]->off == d->members[i].off &&
				  ((by[j - 1]->size < d->members[i].size && by[j - 1]->size) ||
				   (!d->members[i].size && by[j - 1]->size)))); j--)
			by[j] = by[j - 1];
		by[j] = &d->members[i];
	}
	for (size_t i = 0; i < d->nmembers; i++) {
		const struct kstruct_member *m = by[i];
		size_t end = m->off + (m->size ? m->size - 1 : 0);
		char lines[48], pairs[48];

		snprintf(lines, sizeof(lines), "L%zu-L%zu", m->off / 64, end / 64);
		snprintf(pairs, sizeof(pairs), "P%zu-P%zu", m->off / 128, end / 128);
		printf("  %-34s %6zu %6zu %-9s %s\n", m->name, m->off, m->size, lines, pairs);
	}
	free(by);
	printf("\n");
}

/* --btf / --pahole: the raw offsets read from FILE and the layout. */
static void show_file_layout(enum pn_layout_id from, const char *file, size_t lock_size)
{
	struct pn_raw r;
	struct pn_layout l;
	struct model_params p;
	char why[256];
	int rc = from == LAYOUT_BTF ? pn_raw_from_btf(file, &r, why, sizeof(why))
				    : pn_raw_from_pahole(file, &r, why, sizeof(why));
	if (rc || pn_layout_from_file(&l, from, file, lock_size, why, sizeof(why)))
		die(EXIT_USAGE, "layout: %s", why);
	print_raw(&r, file);
	params_of("current", NULL, &p);
	print_layout(&l, &p);
}

/* --kernel NAME...: the layouts of the named profiles. */
static void show_profiles(const char *const *kernels, size_t nk, const char *kconfig,
			  size_t lock_size)
{
	for (size_t i = 0; i < nk; i++) {
		struct model_params p;
		struct pn_layout l;
		char why[256];

		if (!knob_profile_find(kernels[i]))
			die(EXIT_USAGE, "layout: unknown kernel profile '%s' (see "
			    "'memscale list kernels')", kernels[i]);
		params_of(kernels[i], kconfig, &p);
		if (model_resolve_layout(&l, &p, lock_size, why, sizeof(why)))
			die(EXIT_USAGE, "layout: %s", why);
		printf("# kernel %s: %s\n", kernels[i], knob_layout.values[p.layout].note);
		print_layout(&l, &p);
	}
}

/* The declared layouts named in argv[first..argc), or all of them. */
static void show_declared(int argc, char **argv, int first, const char *kconfig,
			  size_t lock_size)
{
	for (int i = first; i < argc; i++) {
		bool found = false;
		for (int id = 0; id < LAYOUT_NR_DECLARED; id++)
			found |= !strcmp(argv[i], pn_layout_names[id]);
		if (!found)
			die(EXIT_USAGE, "unknown layout '%s' (allowed: v5.3|v5.10|v5.11|v6.9|"
			    "v6.10|fixed|fixed_padded; --btf and --pahole read files)", argv[i]);
	}
	for (int id = 0; id < LAYOUT_NR_DECLARED; id++) {
		struct pn_layout l;
		struct model_params p;
		bool want = first >= argc;

		for (int i = first; i < argc; i++)
			want |= !strcmp(argv[i], pn_layout_names[id]);
		if (!want)
			continue;
		params_of(layout_profile[id], kconfig, &p);
		pn_layout_resolve(&l, (enum pn_layout_id)id, p.kconfig, lock_size);
		printf("# %s (profile %s)\n", knob_layout.values[id].note, layout_profile[id]);
		print_layout(&l, &p);
	}
}

static int layout_main(int argc, char **argv)
{
	enum { O_BTF = 256, O_PAHOLE, O_AUDIT, O_KERNEL, O_WORKLOAD, O_STRUCT };
	static const struct option longopts[] = {
		{ "lock", required_argument, NULL, 'l' },
		{ "kconfig", required_argument, NULL, 'k' },
		{ "btf", optional_argument, NULL, O_BTF },
		{ "pahole", required_argument, NULL, O_PAHOLE },
		{ "audit", no_argument, NULL, O_AUDIT },
		{ "kernel", required_argument, NULL, O_KERNEL },
		{ "workload", required_argument, NULL, O_WORKLOAD },
		{ "struct", required_argument, NULL, O_STRUCT },
		{ "set", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *kconfig = NULL, *file = NULL, *kernels[32], *wls[32];
	size_t lock_size = 4, nk = 0, nw = 0;
	enum pn_layout_id from = LAYOUT_NR;
	bool do_audit = false;
	enum kstruct_kind want_struct = KSTRUCT_NR;
	int c;

	opterr = 0;
	optind = 1;
	nsets = 0;
	while ((c = getopt_long(argc, argv, "l:k:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (nsets == ARRAY_SIZE(sets))
				die(EXIT_USAGE, "layout: too many --set");
			sets[nsets++] = optarg;
			break;
		case 'l': {
			const struct lock_ops *ops = lock_find(optarg);
			if (!ops)
				die(EXIT_USAGE, "unknown lock '%s' (see 'memscale list locks')",
				    optarg);
			lock_size = ops->size;
			break;
		}
		case 'k':
			kconfig = optarg;
			break;
		case O_BTF:
			from = LAYOUT_BTF;
			file = optarg ? optarg : (optind < argc && argv[optind][0] != '-' ?
						  argv[optind++] : "/sys/kernel/btf/vmlinux");
			break;
		case O_PAHOLE:
			from = LAYOUT_PAHOLE;
			file = optarg;
			break;
		case O_AUDIT:
			do_audit = true;
			break;
		case O_KERNEL:
			if (nk == ARRAY_SIZE(kernels))
				die(EXIT_USAGE, "layout: too many --kernel");
			kernels[nk++] = optarg;
			break;
		case O_WORKLOAD:
			if (nw == ARRAY_SIZE(wls))
				die(EXIT_USAGE, "layout: too many --workload");
			wls[nw++] = optarg;
			break;
		case O_STRUCT:
			want_struct = kstruct_kind_parse(optarg);
			if (want_struct == KSTRUCT_NR)
				die(EXIT_USAGE, "layout: unknown --struct '%s' (allowed: "
				    "mem_cgroup|page_counter)", optarg);
			break;
		case 'h':
			cli_usage(&layout_cmd, stdout);
			return 0;
		default:
			cli_bad_getopt(&layout_cmd, argv, "l:k:s:h");
		}
	}
	if (kconfig && !(do_audit && !strcmp(kconfig, "all"))) {
		struct kconfig probe;
		char why[256];
		if (kconfig_parse(kconfig, &probe, why, sizeof(why)))
			die(EXIT_USAGE, "layout: bad --kconfig '%s' (%s)", kconfig, why);
	}
	if (want_struct != KSTRUCT_NR) {
		if (!nk || optind < argc || do_audit || from != LAYOUT_NR)
			die(EXIT_USAGE, "layout: --struct takes --kernel NAME (repeatable) "
			    "and nothing else");
		for (size_t i = 0; i < nk; i++)
			print_struct(want_struct, kernels[i]);
		return 0;
	}
	if (do_audit) {
		if (optind < argc || from != LAYOUT_NR)
			die(EXIT_USAGE, "layout: --audit takes --kernel/--kconfig/--workload, "
			    "not layouts or files");
		if (kconfig && nsets && strcmp(kconfig, "all")) {
			/* a --set the configuration refuses: one line, before any output */
			struct model_params p;
			params_of(nk ? kernels[0] : "v6.9", kconfig, &p);
		}
		audit(kernels, nk, kconfig, wls, nw);
		return 0;
	}
	if (from != LAYOUT_NR) {
		show_file_layout(from, file, lock_size);
		return 0;
	}
	if (nk) {
		/* the layouts of the named profiles */
		if (optind < argc)
			die(EXIT_USAGE, "layout: give layouts or --kernel profiles, not both");
		show_profiles(kernels, nk, kconfig, lock_size);
		return 0;
	}
	show_declared(argc, argv, optind, kconfig, lock_size);
	return 0;
}
