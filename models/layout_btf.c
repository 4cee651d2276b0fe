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
#include "models/memcg.h"

/* One more member; false when the table is full (a struct of more
 * members than any kernel's is refused, not cut). */
static bool add_member(struct pn_member *v, size_t *n, size_t max,
		       const char *name, size_t off, size_t size)
{
	if (*n == max)
		return false;
	snprintf(v[*n].name, sizeof(v[*n].name), "%s", name);
	v[*n].off = off;
	v[*n].size = size;
	(*n)++;
	return true;
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

		if (!add_member(r->pn, &r->npn, ARRAY_SIZE(r->pn), name, off,
				size < 0 ? 0 : (size_t)size)) {
			snprintf(why, len, "'%s': struct mem_cgroup_per_node has more "
				 "than %zu members", path, ARRAY_SIZE(r->pn));
			btf__free(btf);
			return -1;
		}
		if (!strcmp(name, "lruvec"))
			lt = btf__type_by_id(btf, (unsigned)btf__resolve_type(btf, m->type));
	}
	if (lt && btf_is_struct(lt)) {
		r->sizeof_lruvec = lt->size;
		m = btf_members(lt);
		for (unsigned i = 0; i < btf_vlen(lt); i++, m++) {
			long size = btf__resolve_size(btf, m->type);
			if (!add_member(r->lruvec, &r->nlruvec, ARRAY_SIZE(r->lruvec),
					btf__name_by_offset(btf, m->name_off),
					btf_member_bit_offset(lt, i) / 8,
					size < 0 ? 0 : (size_t)size)) {
				snprintf(why, len, "'%s': struct lruvec has more than %zu "
					 "members", path, ARRAY_SIZE(r->lruvec));
				btf__free(btf);
				return -1;
			}
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
	return pn_raw_check(r, path, why, len);
}

static int pn_field_of(const char *name);

/* The natural alignment a member of `size` bytes needs at least (the
 * largest power of two dividing it, at most 8); 1 for size 0. */
static size_t align_of_size(size_t size)
{
	size_t a = size & (~size + 1);

	return !size ? 1 : a > 8 ? 8 : a;
}

/* One struct's members: each inside the struct (checked arithmetic),
 * unique, and each member the model knows aligned for its size. */
static int members_check(const struct pn_member *v, size_t n, size_t sizeof_s,
			 const char *sname, const char *path, char *why, size_t len)
{
	if (!sizeof_s) {
		snprintf(why, len, "'%s': struct %s has size 0 (or none given)", path, sname);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pn_member *m = &v[i];

		if (m->off > sizeof_s || m->size > sizeof_s - m->off) {
			snprintf(why, len, "'%s': member %s.%s (offset %zu, size %zu) lies "
				 "outside the struct's %zu bytes", path, sname, m->name,
				 m->off, m->size, sizeof_s);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(v[j].name, m->name)) {
				snprintf(why, len, "'%s': member %s.%s is given twice", path,
					 sname, m->name);
				return -1;
			}
		if ((pn_field_of(m->name) >= 0 || !strcmp(m->name, "lruvec")) &&
		    m->off % align_of_size(m->size)) {
			snprintf(why, len, "'%s': member %s.%s at offset %zu is not aligned "
				 "for its %zu bytes", path, sname, m->name, m->off, m->size);
			return -1;
		}
	}
	return 0;
}

static const struct pn_member *member_named(const struct pn_member *v, size_t n,
					    const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/*
 * What a file says is checked data: both structs' members inside them,
 * unique and aligned; struct lruvec embedded whole as member `lruvec`;
 * and every member the model writes present and big enough (memcg, the
 * stats pointers, lruvec.lists[5], lruvec.pgdat, lru_zone_size with
 * ZONE_NORMAL's row).  0, or -1 with the member named in why.
 */
int pn_raw_check(const struct pn_raw *r, const char *path, char *why, size_t len)
{
	static const struct { const char *name, *alt; size_t min; bool in_lruvec; } need[] = {
		{ "memcg", NULL, sizeof(void *), false },
		{ "lruvec_stats_percpu", "lruvec_stat_cpu", sizeof(void *), false },
		{ "lruvec_stats", "lruvec_stat", sizeof(void *), false },
		{ "lruvec", NULL, 1, false },
		{ "lru_zone_size", NULL, 5 * sizeof(long), false },
		{ "lists", NULL, 5 * 2 * sizeof(void *), true },
		{ "pgdat", NULL, sizeof(void *), true },
	};
	const struct pn_member *lv, *zs;

	if (members_check(r->pn, r->npn, r->sizeof_pn, "mem_cgroup_per_node", path,
			  why, len))
		return -1;
	if (r->nlruvec && members_check(r->lruvec, r->nlruvec, r->sizeof_lruvec,
					"lruvec", path, why, len))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(need); i++) {
		const struct pn_member *v = need[i].in_lruvec ? r->lruvec : r->pn;
		size_t n = need[i].in_lruvec ? r->nlruvec : r->npn;
		const struct pn_member *m = member_named(v, n, need[i].name);

		if (!m && need[i].alt)
			m = member_named(v, n, need[i].alt);
		if (!m || m->size < need[i].min) {
			snprintf(why, len, "'%s': struct %s %s member '%s' (the model "
				 "writes it)", path, need[i].in_lruvec ? "lruvec" :
				 "mem_cgroup_per_node", m ? "has too small a" : "lacks",
				 need[i].name);
			return -1;
		}
	}
	lv = member_named(r->pn, r->npn, "lruvec");
	if (!r->nlruvec || lv->size != r->sizeof_lruvec) {
		snprintf(why, len, "'%s': member mem_cgroup_per_node.lruvec is %zu bytes, "
			 "struct lruvec %zu", path, lv->size, r->sizeof_lruvec);
		return -1;
	}
	zs = member_named(r->pn, r->npn, "lru_zone_size");
	if (r->zone_normal >= 0 &&
	    (size_t)r->zone_normal >= zs->size / (5 * sizeof(long))) {
		snprintf(why, len, "'%s': member mem_cgroup_per_node.lru_zone_size has no "
			 "row for ZONE_NORMAL (%d)", path, r->zone_normal);
		return -1;
	}
	return 0;
}

/* A whole unsigned decimal token at *p (no sign, no overflow): its
 * value, *p moved past it; false otherwise. */
static bool whole_number(const char **p, size_t *v)
{
	const char *s = *p;
	unsigned long long x = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (SIZE_MAX - (unsigned)(*s - '0')) / 10)
			return false;
		x = x * 10 + (unsigned)(*s - '0');
	}
	if (*s && *s != ' ' && *s != '\t' && *s != '*' && *s != ',' && *s != ':' &&
	    *s != '\n')
		return false;
	*p = s;
	*v = (size_t)x;
	return true;
}

/* A pahole member line: "struct lruvec lruvec; (comment: 72 152)" -> lruvec,
 * 72, 152: 1; 0 for no member line; -1 for a member whose offset or size
 * is no whole number in range (its name in `name`). */
static int pahole_member(const char *line, char *name, size_t nlen,
			 size_t *off, size_t *size)
{
	const char *semi = strchr(line, ';'), *c = strstr(line, "/*");
	char decl[256], *p, *end;
	size_t o = 0, s = 0;
	bool good;

	if (!semi || !c || c < semi)
		return 0;
	c += 2;
	good = whole_number(&c, &o);
	if (good && *c == ':')      /* a bit field: "8: 0 4" */
		return 0;
	good = good && whole_number(&c, &s);
	while (*c == ' ' || *c == '\t')
		c++;
	good = good && !strncmp(c, "*/", 2);
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
		return 0;
	snprintf(name, nlen, "%s", p);
	*off = o;
	*size = s;
	return good ? 1 : -1;
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
		size_t off, size, sz;
		const char *sp, *sname = in == PN ? "mem_cgroup_per_node" : "lruvec";
		int mrc;

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
		if (depth == 1 && (sp = strstr(line, "/* size:"))) {
			sp += 8;
			if (!whole_number(&sp, &sz)) {
				snprintf(why, len, "'%s': the size of struct %s is no whole "
					 "number in range", path, sname);
				fclose(f);
				return -1;
			}
			if (in == PN)
				r->sizeof_pn = sz;
			else
				r->sizeof_lruvec = sz;
		}
		if (depth == 0) {
			in = NONE;
			continue;
		}
		mrc = depth == 1 ? pahole_member(line, name, sizeof(name), &off, &size) : 0;
		if (mrc < 0) {
			snprintf(why, len, "'%s': member %s.%s: offset or size is no whole "
				 "number in range", path, sname, name);
			fclose(f);
			return -1;
		}
		if (mrc > 0 && !(in == PN ? add_member(r->pn, &r->npn, ARRAY_SIZE(r->pn),
						       name, off, size)
					  : add_member(r->lruvec, &r->nlruvec,
						       ARRAY_SIZE(r->lruvec), name, off, size))) {
			snprintf(why, len, "'%s': struct %s has more than %zu members",
				 path, sname, ARRAY_SIZE(r->pn));
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!r->npn) {
		snprintf(why, len, "no 'struct mem_cgroup_per_node {' in '%s' (want "
			 "`pahole -C mem_cgroup_per_node -C lruvec` output)", path);
		return -1;
	}
	return pn_raw_check(r, path, why, len);
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
	/* embedded lruvec_stats (v6.9): the model keeps its state[],
	 * state_local[] and state_pending[] there, K_NR_NODE_STAT each */
	if (d.present[PN_LRUVEC_STATS] && d.size[PN_LRUVEC_STATS] > sizeof(void *) &&
	    d.size[PN_LRUVEC_STATS] < 3 * K_NR_NODE_STAT * sizeof(long)) {
		snprintf(why, len, "'%s': member mem_cgroup_per_node.lruvec_stats is %zu "
			 "bytes, neither a pointer nor the %zu the model writes", path,
			 d.size[PN_LRUVEC_STATS], 3 * K_NR_NODE_STAT * sizeof(long));
		return -1;
	}
	if (d.zone_normal >= d.max_nr_zones) {
		snprintf(why, len, "'%s': member mem_cgroup_per_node.lru_zone_size (%zu "
			 "bytes) has no row for ZONE_NORMAL (%u)", path,
			 d.size[PN_LRU_ZONE_SIZE], d.zone_normal);
		return -1;
	}
	memset(l, 0, sizeof(*l));
	l->id = id;
	l->name = pn_layout_names[id];
	snprintf(l->source, sizeof(l->source), "%s %s%s", id == LAYOUT_BTF ? "BTF" : "pahole",
		 path, r.zone_normal < 0 ? " (ZONE_NORMAL index assumed)" : "");
	pn_layout_from_decl(l, &d, lock_size);
	return 0;
}
