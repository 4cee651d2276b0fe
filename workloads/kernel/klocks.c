/*
 * klocks.c - `perf lock contention` and /proc/lock_stat text as rows
 * (klocks.h), and the model lock class each kernel lock stands for.
 * Formats as printed by tools/perf/builtin-lock.c (contention_keys,
 * lock_stat_key_print_time) and kernel/locking/lockdep_proc.c (seq_stats,
 * seq_lock_time, lock_stat version 0.4).
 */
#include "workloads/kernel/klocks.h"
#include "core/util.h"
#include "trace/lock_stat.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push(struct klock_row **v, int *n, const struct klock_row *r)
{
	*v = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
	if (!*v)
		die(1, "out of memory");
	(*v)[(*n)++] = *r;
}

/* perf's time field: "%9.2f UU" with UU h, m, s, ms, us, or "%9llu ns". */
static const char *perf_time(const char *p, double *ns)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "h", 3600e9 }, { "m", 60e9 }, { "s", 1e9 }, { "ms", 1e6 },
		{ "us", 1e3 }, { "ns", 1 },
	};
	char *end, unit[4];
	double v = strtod(p, &end);
	int len = 0;

	if (end == p || sscanf(end, " %3[a-z]%n", unit, &len) != 1)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i].unit)) {
			*ns = v * units[i].scale;
			return end + len;
		}
	return NULL;
}

/* The contention keys perf printed, in header order. */
enum pkey { PK_CONTENDED, PK_TOTAL, PK_MAX, PK_MIN, PK_AVG, PK_NR };

int klock_parse_perf(const char *text, struct klock_row **out)
{
	static const char *const headers[PK_NR] = {
		[PK_CONTENDED] = "contended", [PK_TOTAL] = "total wait",
		[PK_MAX] = "max wait", [PK_MIN] = "min wait", [PK_AVG] = "avg wait",
	};
	enum pkey order[PK_NR];
	int nkeys = 0, n = 0;
	const char *line = text, *next;
	bool in_table = false, seen_header = false;

	*out = NULL;
	for (; line && *line; line = next) {
		size_t len;
		char buf[512];

		next = strchr(line, '\n');
		len = next ? (size_t)(next - line) : strlen(line);
		if (next)
			next++;
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		if (!in_table) {
			/* header: keys in the order printed, then type/caller,
			 * pid/comm or address/symbol */
			const char *p = buf;
			nkeys = 0;
			while (*p && nkeys < PK_NR) {
				int k;
				while (*p == ' ')
					p++;
				for (k = 0; k < PK_NR; k++)
					if (!strncmp(p, headers[k], strlen(headers[k])))
						break;
				if (k == PK_NR)
					break;
				order[nkeys++] = (enum pkey)k;
				p += strlen(headers[k]);
			}
			in_table = nkeys && order[0] == PK_CONTENDED &&
				   (strstr(p, "caller") || strstr(p, "comm") ||
				    strstr(p, "owner") || strstr(p, "symbol"));
			seen_header |= in_table;
			continue;
		}
		if (!*buf || buf[0] == '=')
			continue;
		{
			struct klock_row r = { .acquisitions = NAN, .wait_min_ns = NAN,
					       .wait_avg_ns = NAN };
			const char *p = buf;
			char *end;
			bool ok = true;
			int used = 0;

			r.contended = strtod(p, &end);
			if (end == p) {
				in_table = false; /* past the table: a footer */
				continue;
			}
			p = end;
			for (int k = 1; k < nkeys && ok; k++) {
				double ns;
				p = perf_time(p, &ns);
				ok = p != NULL;
				if (!ok)
					break;
				switch (order[k]) {
				case PK_TOTAL: r.wait_total_ns = ns; break;
				case PK_MAX: r.wait_max_ns = ns; break;
				case PK_MIN: r.wait_min_ns = ns; break;
				case PK_AVG: r.wait_avg_ns = ns; break;
				default: break;
				}
			}
			if (!ok || sscanf(p, " %31s %n", r.type, &used) != 1 || !p[used]) {
				in_table = false;
				continue;
			}
			snprintf(r.name, sizeof(r.name), "%s", p + used);
			if (isnan(r.wait_avg_ns) && r.contended > 0)
				r.wait_avg_ns = r.wait_total_ns / r.contended;
			push(out, &n, &r);
		}
	}
	return seen_header ? n : -1;
}

int klock_parse_lock_stat(const char *text, struct klock_row **out)
{
	const char *line = text, *next;
	int n = 0;

	*out = NULL;
	if (!strstr(text, "lock_stat version"))
		return -1;
	for (; line && *line; line = next) {
		char buf[1024], *colon, *name;
		double x[12];
		size_t len;
		struct klock_row r = { .wait_min_ns = NAN };
		int k;

		next = strchr(line, '\n');
		len = next ? (size_t)(next - line) : strlen(line);
		if (next)
			next++;
		if (len >= sizeof(buf))
			continue;
		memcpy(buf, line, len);
		buf[len] = '\0';
		if (!(colon = strstr(buf, ": ")))
			continue;
		*colon = '\0';
		if (sscanf(colon + 1, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf",
			   &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7],
			   &x[8], &x[9], &x[10], &x[11]) != 12)
			continue;
		for (name = buf; *name == ' '; name++)
			;
		len = strlen(name);
		/* the -R and -W halves of a read-write lock are one class */
		if (len > 2 && name[len - 2] == '-' && (name[len - 1] == 'R' || name[len - 1] == 'W'))
			name[len - 2] = '\0';
		snprintf(r.name, sizeof(r.name), "%s", name);
		r.contended = x[1];
		r.wait_min_ns = x[2] * 1e3;
		r.wait_max_ns = x[3] * 1e3;
		r.wait_total_ns = x[4] * 1e3;
		r.acquisitions = x[7];
		for (k = 0; k < n && strcmp((*out)[k].name, r.name); k++)
			;
		if (k < n) {
			struct klock_row *h = &(*out)[k];
			h->contended += r.contended;
			h->wait_total_ns += r.wait_total_ns;
			h->acquisitions += r.acquisitions;
			h->wait_max_ns = fmax(h->wait_max_ns, r.wait_max_ns);
			if (r.contended > 0 && (isnan(h->wait_min_ns) || h->contended == r.contended ||
						r.wait_min_ns < h->wait_min_ns))
				h->wait_min_ns = r.wait_min_ns;
		} else {
			push(out, &n, &r);
		}
	}
	for (int i = 0; i < n; i++)
		(*out)[i].wait_avg_ns = (*out)[i].contended > 0 ?
			(*out)[i].wait_total_ns / (*out)[i].contended : 0;
	return n;
}

/*
 * Kernel names of the model's lock classes: lockdep class names
 * (&lruvec->lru_lock; &pgdat->lru_lock, pgdat->lru_lock before v5.11's
 * 6168d0da2b47 moved it into the lruvec) and the callers perf names
 * (folio_lruvec_lock_irq*, lruvec_lock_irq*, the rstat flush under
 * cgroup_rstat_lock, percpu_counter's fbc->lock).  A prefix match.
 */
const char *klock_model_class(const char *name)
{
	static const struct { const char *prefix; int cls; } map[] = {
		{ "&lruvec->lru_lock", LC_LRUVEC_LRU },
		{ "folio_lruvec_lock", LC_LRUVEC_LRU },
		{ "lruvec_lock", LC_LRUVEC_LRU },
		{ "lock_page_lruvec", LC_LRUVEC_LRU },
		{ "&pgdat->lru_lock", LC_PGDAT_LRU },
		{ "&pgdat->__lruvec.lru_lock", LC_PGDAT_LRU },
		{ "cgroup_rstat_lock", LC_STATS_FLUSH },
		{ "css_rstat_flush", LC_STATS_FLUSH },
		{ "cgroup_rstat_flush", LC_STATS_FLUSH },
		{ "&zone->lock", LC_ZONE },
		{ "&fbc->lock", LC_COUNTER_FOLD },
		{ "__percpu_counter", LC_COUNTER_FOLD },
		{ "percpu_counter", LC_COUNTER_FOLD },
	};
	const char *p = name;

	while (*p == ' ')
		p++;
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (!strncmp(p, map[i].prefix, strlen(map[i].prefix)))
			return lock_class_keys[map[i].cls];
	return NULL;
}
