/*
 * layout_btf.c - the layout of the kernel one actually boots: struct
 * mem_cgroup_per_node and its struct lruvec read member by member from
 * BTF (libbpf; /sys/kernel/btf/vmlinux, a raw BTF file or a vmlinux with
 * a .BTF section) or from saved `pahole -C` output, mapped onto the
 * fields the model uses (models/layout.h).
 */
#include "models/layout.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"

static void add_member(struct pn_member *v, size_t *n, size_t max,
		       const char *name, size_t off, size_t size)
{
	if (*n == max)
		return;
	snprintf(v[*n].name, sizeof(v[*n].name), "%s", name);
	v[*n].off = off;
	v[*n].size = size;
	(*n)++;
}

/* libbpf's own log lines would add to our one-line error. */
static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* A regular file (never a directory, FIFO or device), checked before
 * libbpf or stdio opens it; -1 with the reason in why. */
static int input_ok(const char *path, char *why, size_t len)
{
	const char *bad;
	FILE *f = input_fopen(path, &bad);

	if (!f) {
		snprintf(why, len, "cannot read BTF from '%s': it %s", path, bad);
		return -1;
	}
	fclose(f);
	return 0;
}

int pn_raw_from_btf(const char *path, struct pn_raw *r, char *why, size_t len)
{
	struct btf *btf;
	const struct btf_type *t, *lt = NULL;
	const struct btf_member *m;
	int id, zid;

	memset(r, 0, sizeof(*r));
	r->zone_normal = -1;
	if (input_ok(path, why, len))
		return -1;
	libbpf_set_print(quiet_libbpf);
	btf = btf__parse(path, NULL);
	if (!btf) {
		/* libbpf's own error numbers (4000 and up) have no strerror text. */
		if (errno >= 4000 || errno == EIO || errno == ENOENT)
			snprintf(why, len, "'%s' holds no BTF (want raw BTF such as "
				 "/sys/kernel/btf/vmlinux, or an ELF file with a .BTF "
				 "section)", path);
		else
			snprintf(why, len, "cannot read BTF from '%s': %s", path,
				 strerror(errno));
		return -1;
	}
	id = btf__find_by_name_kind(btf, "mem_cgroup_per_node", BTF_KIND_STRUCT);
	if (id < 0) {
		snprintf(why, len, "no struct mem_cgroup_per_node in the BTF of '%s'", path);
		btf__free(btf);
		return -1;
	}
	t = btf__type_by_id(btf, (unsigned)id);
	r->sizeof_pn = t->size;
	m = btf_members(t);
	for (unsigned i = 0; i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(btf, m->name_off);
		long size = btf__resolve_size(btf, m->type);
		size_t off = btf_member_bit_offset(t, i) / 8;

		add_member(r->pn, &r->npn, ARRAY_SIZE(r->pn), name, off,
			   size < 0 ? 0 : (size_t)size);
		if (!strcmp(name, "lruvec"))
			lt = btf__type_by_id(btf, (unsigned)btf__resolve_type(btf, m->type));
	}
	if (lt && btf_is_struct(lt)) {
		r->sizeof_lruvec = lt->size;
		m = btf_members(lt);
		for (unsigned i = 0; i < btf_vlen(lt); i++, m++) {
			long size = btf__resolve_size(btf, m->type);
			add_member(r->lruvec, &r->nlruvec, ARRAY_SIZE(r->lruvec),
				   btf__name_by_offset(btf, m->name_off),
				   btf_member_bit_offset(lt, i) / 8,
				   size < 0 ? 0 : (size_t)size);
		}
	}
	zid = btf__find_by_name_kind(btf, "zone_type", BTF_KIND_ENUM);
	if (zid >= 0) {
		const struct btf_type *e = btf__type_by_id(btf, (unsigned)zid);
		const struct btf_enum *v = btf_enum(e);
		for (unsigned i = 0; i < btf_vlen(e); i++, v++)
			if (!strcmp(btf__name_by_offset(btf, v->name_off), "ZONE_NORMAL"))
				r->zone_normal = v->val;
	}
	btf__free(btf);
	return 0;
}

/* A pahole member line: "struct lruvec lruvec; (comment: 72 152)" -> lruvec, 72, 152 */
static bool pahole_member(const char *line, char *name, size_t nlen,
			  size_t *off, size_t *size)
{
	const char *semi = strchr(line, ';'), *c = strstr(line, "/*");
	char decl[256], *p, *end;
	unsigned long o, s;

	if (!semi || !c || c < semi || sscanf(c, "/* %lu %lu */", &o, &s) != 2)
		return false;
	snprintf(decl, sizeof(decl), "%.*s", (int)(semi - line), line);
	if ((p = strstr(decl, "__attribute__")))
		*p = '\0';
	if ((p = strchr(decl, '[')))
		*p = '\0';
	if ((p = strchr(decl, ':')))    /* bit fields */
		*p = '\0';
	end = decl + strlen(decl);
	while (end > decl && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	p = end;
	while (p > decl && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
			    (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= '0' && p[-1] <= '9')))
		p--;
	if (p == end)
		return false;
	snprintf(name, nlen, "%s", p);
	*off = o;
	*size = s;
	return true;
}

int pn_raw_from_pahole(const char *path, struct pn_raw *r, char *why, size_t len)
{
	const char *bad;
	FILE *f = input_fopen(path, &bad);
	char line[512];
	enum { NONE, PN, LRUVEC, ZONES } in = NONE;
	int depth = 0, zone_idx = 0;

	memset(r, 0, sizeof(*r));
	r->zone_normal = -1;
	if (!f) {
		snprintf(why, len, "'%s' %s", path, bad);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[64];
		size_t off, size;
		unsigned long sz;

		if (in == NONE) {
			if (!strncmp(line, "struct mem_cgroup_per_node {", 28))
				in = PN;
			else if (!strncmp(line, "struct lruvec {", 15))
				in = LRUVEC;
			else if (!strncmp(line, "enum zone_type {", 16))
				in = ZONES;
			depth = 1;
			continue;
		}
		if (in == ZONES) {
			if (strstr(line, "ZONE_NORMAL"))
				r->zone_normal = zone_idx;
			if (strstr(line, "ZONE_"))
				zone_idx++;
			if (line[0] == '}')
				in = NONE;
			continue;
		}
		if (strchr(line, '{'))
			depth++;
		if (line[0] == '}' || (depth > 1 && strstr(line, "};")))
			depth--;
		if (sscanf(line, " /* size: %lu", &sz) == 1 && depth == 1) {
			if (in == PN)
				r->sizeof_pn = sz;
			else
				r->sizeof_lruvec = sz;
		}
		if (depth == 0) {
			in = NONE;
			continue;
		}
		if (depth == 1 && pahole_member(line, name, sizeof(name), &off, &size)) {
			if (in == PN)
				add_member(r->pn, &r->npn, ARRAY_SIZE(r->pn), name, off, size);
			else
				add_member(r->lruvec, &r->nlruvec, ARRAY_SIZE(r->lruvec), name,
					   off, size);
		}
	}
	fclose(f);
	if (!r->npn) {
		snprintf(why, len, "no 'struct mem_cgroup_per_node {' in '%s' (want "
			 "`pahole -C mem_cgroup_per_node -C lruvec` output)", path);
		return -1;
	}
	return 0;
}

static int pn_field_of(const char *name)
{
	static const struct { const char *name; enum pn_field f; } map[] = {
		{ "memcg", PN_MEMCG },
		{ "lruvec_stats_percpu", PN_STATS_PERCPU },
		{ "lruvec_stat_cpu", PN_STATS_PERCPU },
		{ "lruvec_stat_local", PN_STATS_LOCAL },
		{ "lruvec_stats", PN_LRUVEC_STATS },
		{ "lruvec_stat", PN_LRUVEC_STATS },
		{ "shrinker_info", PN_SHRINKER_INFO },
		{ "shrinker_map", PN_SHRINKER_INFO },
		{ "tree_node", PN_TREE_NODE },
		{ "usage_in_excess", PN_USAGE_IN_EXCESS },
		{ "on_tree", PN_ON_TREE },
		{ "congested", PN_CONGESTED },
		{ "_pad1_", PN_PAD1 },
		{ "_pad2_", PN_PAD2 },
		{ "lru_zone_size", PN_LRU_ZONE_SIZE },
		{ "iter", PN_ITER },
		/* lruvec members */
		{ "lists", PN_LISTS },
		{ "lru_lock", PN_LRU_LOCK },
		{ "lrugen", PN_LRUGEN },
		{ "mm_state", PN_MM_STATE },
		{ "pgdat", PN_PGDAT },
		{ "zswap_lruvec_state", PN_ZSWAP },
	};
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(map[i].name, name))
			return (int)map[i].f;
	return -1;
}

int pn_layout_from_file(struct pn_layout *l, enum pn_layout_id id,
			const char *path, size_t lock_size, char *why, size_t len)
{
	struct pn_raw r;
	struct pn_decl d = { .id = id, .spinlock_size = 4 };
	size_t lruvec_off = 0, cost0 = SIZE_MAX, cost1 = 0;
	int rc = id == LAYOUT_BTF ? pn_raw_from_btf(path, &r, why, len)
				  : pn_raw_from_pahole(path, &r, why, len);

	if (rc)
		return rc;
	for (size_t i = 0; i < r.npn; i++) {
		int f = pn_field_of(r.pn[i].name);
		if (!strcmp(r.pn[i].name, "lruvec"))
			lruvec_off = r.pn[i].off;
		else if (f >= 0 && f != PN_LISTS && f != PN_LRU_LOCK) {
			d.off[f] = r.pn[i].off;
			d.size[f] = r.pn[i].size;
			d.present[f] = true;
		}
	}
	for (size_t i = 0; i < r.nlruvec; i++) {
		int f = pn_field_of(r.lruvec[i].name);
		if (f == PN_LISTS || f == PN_LRU_LOCK || f == PN_LRUGEN ||
		    f == PN_MM_STATE || f == PN_PGDAT || f == PN_ZSWAP) {
			d.off[f] = lruvec_off + r.lruvec[i].off;
			d.size[f] = r.lruvec[i].size;
			d.present[f] = true;
			if (f == PN_LRU_LOCK)
				d.spinlock_size = r.lruvec[i].size;
		} else {
			/* reclaim_stat / anon_cost .. refaults, flags */
			size_t a = lruvec_off + r.lruvec[i].off;
			cost0 = a < cost0 ? a : cost0;
			cost1 = a + r.lruvec[i].size > cost1 ? a + r.lruvec[i].size : cost1;
		}
	}
	if (cost1) {
		d.off[PN_COSTS] = cost0;
		d.size[PN_COSTS] = cost1 - cost0;
		d.present[PN_COSTS] = true;
	}
	if (!d.present[PN_MEMCG] || !d.present[PN_LISTS] || !d.present[PN_LRU_ZONE_SIZE] ||
	    !d.present[PN_PGDAT]) {
		snprintf(why, len, "'%s' lacks memcg, lruvec.lists, lruvec.pgdat or "
			 "lru_zone_size (want struct mem_cgroup_per_node and struct lruvec)",
			 path);
		return -1;
	}
	d.sizeof_pn = r.sizeof_pn;
	d.max_nr_zones = (unsigned)(d.size[PN_LRU_ZONE_SIZE] / (5 * sizeof(long)));
	/* ZONE_NORMAL from enum zone_type; without it, x86_64's zones: DMA and
	 * DMA32 before NORMAL when there are 5 (or 4 with ZONE_DMA, assumed) */
	d.zone_normal = r.zone_normal >= 0 ? (unsigned)r.zone_normal
					   : d.max_nr_zones >= 4 ? 2 : 1;
	memset(l, 0, sizeof(*l));
	l->id = id;
	l->name = pn_layout_names[id];
	snprintf(l->source, sizeof(l->source), "%s %s%s", id == LAYOUT_BTF ? "BTF" : "pahole",
		 path, r.zone_normal < 0 ? " (ZONE_NORMAL index assumed)" : "");
	pn_layout_from_decl(l, &d, lock_size);
	return 0;
}
