/*
 * lockstat.c - perf-lock style summaries of memscale traces, read with the
 * libbabeltrace2 C API: a graph src.ctf.fs -> filter.utils.muxer -> a
 * simple sink whose consume function pulls message batches.
 *
 * Two sources per lock class, both reported:
 *  - memscale:lock_agg: cumulative per-worker statistics covering the
 *    uncontended fast path too.  For each (config, rep, worker, class) the
 *    record with the highest sample index is final; finals are summed.
 *    acquired/contended/wait/hold/handoff columns come from these.
 *  - memscale:contention_end / lock_release: one record per contended
 *    acquisition.  Their count and waits are the cross-check printed under
 *    the table ("records"), and the whole table when a trace has no
 *    aggregates (rows marked '*': acquired then counts contended ones only).
 * avg wait is always wait_total / contended (over contended acquisitions,
 * never over all acquisitions; perf lock mixes the two).
 */
#include "tracing/lockstat.h"
#include "core/util.h"

#include <babeltrace2/babeltrace.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>

struct agg {
	uint64_t config;
	uint32_t rep, worker, sample;
	char cls[48];
	uint64_t acquired, contended, wait_ns, wait_min, wait_max;
	uint64_t hold_n, hold_ns, hold_max, handoffs;
	uint64_t wait_hist[LOCKSTAT_HIST], hold_hist[LOCKSTAT_HIST];
};

struct reader {
	struct lockstat_counts counts;
	bool want_cells;
	struct agg *aggs;
	size_t naggs, cap_aggs;
	struct lockstat_row *cells; /* per (class, worker) */
	size_t ncells, cap_cells;
	uint64_t (*runs)[2];
	size_t nruns, cap_runs;
	bool failed;
};

static void *grow(void *p, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	p = realloc(p, *cap * sz);
	if (!p)
		die(1, "out of memory");
	return p;
}

static struct lockstat_row *lockstat_cell(struct reader *rd, const char *cls, int worker)
{
	struct lockstat_row *c;

	for (size_t i = 0; i < rd->ncells; i++)
		if (rd->cells[i].worker == worker && !strcmp(rd->cells[i].name, cls))
			return &rd->cells[i];
	rd->cells = grow(rd->cells, &rd->cap_cells, rd->ncells, sizeof(*rd->cells));
	c = &rd->cells[rd->ncells++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", cls);
	c->worker = worker;
	return c;
}

static const bt_field *member(const bt_field *payload, const char *name)
{
	return payload ? bt_field_structure_borrow_member_field_by_name_const(
				 payload, name) : NULL;
}

static uint64_t u64(const bt_field *payload, const char *name)
{
	const bt_field *f = member(payload, name);
	bt_field_class_type t;

	if (!f)
		return 0;
	t = bt_field_get_class_type(f);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return bt_field_integer_unsigned_get_value(f);
	if (bt_field_class_type_is(t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return (uint64_t)bt_field_integer_signed_get_value(f);
	return 0;
}

static void u64_array(const bt_field *payload, const char *name, uint64_t *out)
{
	const bt_field *f = member(payload, name);
	uint64_t n;

	if (!f || !bt_field_class_type_is(bt_field_get_class_type(f),
					  BT_FIELD_CLASS_TYPE_ARRAY))
		return;
	n = bt_field_array_get_length(f);
	for (uint64_t i = 0; i < n && i < LOCKSTAT_HIST; i++) {
		const bt_field *e = bt_field_array_borrow_element_field_by_index_const(f, i);
		out[i] = bt_field_integer_unsigned_get_value(e);
	}
}

static void class_label(const bt_field *payload, char *buf, size_t len)
{
	const bt_field *f = member(payload, "cls");
	bt_field_class_enumeration_mapping_label_array labels;
	uint64_t n = 0;

	if (f && bt_field_class_type_is(bt_field_get_class_type(f),
					BT_FIELD_CLASS_TYPE_UNSIGNED_ENUMERATION) &&
	    bt_field_enumeration_unsigned_get_mapping_labels(f, &labels, &n) ==
		    BT_FIELD_ENUMERATION_GET_MAPPING_LABELS_STATUS_OK && n > 0) {
		snprintf(buf, len, "%s", labels[0]);
		return;
	}
	snprintf(buf, len, "class-%llu", (unsigned long long)u64(payload, "cls"));
}

static void on_agg(struct reader *rd, const bt_field *p)
{
	struct agg a = { 0 };
	size_t i;

	a.config = u64(p, "config");
	a.rep = (uint32_t)u64(p, "rep");
	a.worker = (uint32_t)u64(p, "worker");
	a.sample = (uint32_t)u64(p, "sample");
	class_label(p, a.cls, sizeof(a.cls));
	a.acquired = u64(p, "acquired");
	a.contended = u64(p, "contended");
	a.wait_ns = u64(p, "wait_ns");
	a.wait_min = u64(p, "wait_min_ns");
	a.wait_max = u64(p, "wait_max_ns");
	a.hold_n = u64(p, "hold_n");
	a.hold_ns = u64(p, "hold_ns");
	a.hold_max = u64(p, "hold_max_ns");
	a.handoffs = u64(p, "handoffs");
	u64_array(p, "wait_hist", a.wait_hist);
	u64_array(p, "hold_hist", a.hold_hist);
	for (i = 0; i < rd->naggs; i++) {
		struct agg *o = &rd->aggs[i];
		if (o->config == a.config && o->rep == a.rep &&
		    o->worker == a.worker && !strcmp(o->cls, a.cls)) {
			if (a.sample >= o->sample)
				*o = a;
			return;
		}
	}
	rd->aggs = grow(rd->aggs, &rd->cap_aggs, rd->naggs, sizeof(*rd->aggs));
	rd->aggs[rd->naggs++] = a;
}

static void on_run_phase(struct reader *rd, const bt_field *p)
{
	uint64_t cfg = u64(p, "config"), rep = u64(p, "rep");

	for (size_t i = 0; i < rd->nruns; i++)
		if (rd->runs[i][0] == cfg && rd->runs[i][1] == rep)
			return;
	rd->runs = grow(rd->runs, &rd->cap_runs, rd->nruns, sizeof(*rd->runs));
	rd->runs[rd->nruns][0] = cfg;
	rd->runs[rd->nruns++][1] = rep;
}

static void on_event(struct reader *rd, const bt_message *msg)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(ev));
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	char cls[48];

	rd->counts.events++;
	if (!name || strncmp(name, "memscale:", 9))
		return;
	rd->counts.memscale_events++;
	if (!rd->want_cells)
		return;
	name += 9;
	if (!strcmp(name, "lock_agg")) {
		on_agg(rd, p);
	} else if (!strcmp(name, "run_phase")) {
		on_run_phase(rd, p);
	} else if (!strcmp(name, "contention_begin")) {
		class_label(p, cls, sizeof(cls));
		lockstat_cell(rd, cls, (int)u64(p, "worker"))->ev_begin++;
	} else if (!strcmp(name, "contention_end")) {
		struct lockstat_row *c;
		uint64_t w = u64(p, "wait_ns");

		class_label(p, cls, sizeof(cls));
		c = lockstat_cell(rd, cls, (int)u64(p, "worker"));
		c->ev_contended++;
		c->ev_wait_total += w;
		if (w > c->ev_wait_max)
			c->ev_wait_max = w;
		if (c->ev_contended == 1 || w < c->ev_wait_min)
			c->ev_wait_min = w;
	} else if (!strcmp(name, "lock_release")) {
		struct lockstat_row *c;

		class_label(p, cls, sizeof(cls));
		c = lockstat_cell(rd, cls, (int)u64(p, "worker"));
		c->ev_holds++;
		c->ev_hold_total += u64(p, "hold_ns");
	}
}

static bt_graph_simple_sink_component_consume_func_status
consume(bt_message_iterator *it, void *data)
{
	struct reader *rd = data;
	bt_message_array_const msgs;
	uint64_t n, cnt;

	switch (bt_message_iterator_next(it, &msgs, &n)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	default:
		rd->failed = true;
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	for (uint64_t i = 0; i < n; i++) {
		const bt_message *m = msgs[i];

		switch (bt_message_get_type(m)) {
		case BT_MESSAGE_TYPE_EVENT:
			on_event(rd, m);
			break;
		case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
			if (bt_message_discarded_events_get_count(m, &cnt) ==
			    BT_PROPERTY_AVAILABILITY_AVAILABLE)
				rd->counts.discarded += cnt;
			break;
		case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
			if (bt_message_discarded_packets_get_count(m, &cnt) ==
			    BT_PROPERTY_AVAILABILITY_AVAILABLE)
				rd->counts.discarded_packets += cnt;
			break;
		default:
			break;
		}
		bt_message_put_ref(m);
	}
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

/* src.ctf.fs takes the directories that hold a "metadata" file; an LTTng
 * session directory has them a few levels down (ust/uid/0/64-bit/). */
static bt_value *trace_dirs; /* nftw has no user pointer */

static int found_metadata(const char *path, const struct stat *sb, int type,
			  struct FTW *ftw)
{
	(void)sb;
	if (type != FTW_F || strcmp(path + ftw->base, "metadata"))
		return 0;
	if (!trace_dirs)
		return 1;
	{
		char *d = strndup(path, ftw->base ? (size_t)ftw->base - 1 : 0);
		if (!d || bt_value_array_append_string_element(trace_dirs, d))
			die(1, "out of memory");
		free(d);
	}
	return 0;
}

bool lockstat_dir_has_trace(const char *dir)
{
	trace_dirs = NULL;
	return nftw(dir, found_metadata, 16, FTW_PHYS) == 1;
}

static const bt_plugin *find_plugin(const char *name)
{
	const bt_plugin *pl = NULL;

	/* Standard places only; no Python plugins. */
	if (bt_plugin_find(name, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_FALSE,
			   &pl) != BT_PLUGIN_FIND_STATUS_OK)
		return NULL;
	return pl;
}

static int read_trace(const char *dir, struct reader *rd)
{
	const bt_plugin *ctf = NULL, *utils = NULL;
	const bt_component_class_source *src_cls = NULL;
	const bt_component_class_filter *mux_cls = NULL;
	const bt_component_source *src = NULL;
	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	bt_value *params = NULL, *inputs = NULL;
	bt_graph *g = NULL;
	bt_graph_run_status st;
	int ret = -1;

	if (!lockstat_dir_has_trace(dir)) {
		warnx_("no CTF trace (no 'metadata' file) under '%s'", dir);
		return -1;
	}
	if ((ctf = find_plugin("ctf")))
		src_cls = bt_plugin_borrow_source_component_class_by_name_const(ctf, "fs");
	if ((utils = find_plugin("utils")))
		mux_cls = bt_plugin_borrow_filter_component_class_by_name_const(utils,
										"muxer");
	if (!src_cls || !mux_cls) {
		warnx_("babeltrace2 plugins ctf/utils not found (Debian package "
		       "babeltrace2)");
		goto out;
	}
	/* memscale says what went wrong in one line of its own; the
	 * library's log lines would come before it (and often instead). */
	bt_logging_set_global_level(BT_LOGGING_LEVEL_NONE);
	g = bt_graph_create(0);
	params = bt_value_map_create();
	if (!g || !params ||
	    bt_value_map_insert_empty_array_entry(params, "inputs", &inputs))
		die(1, "out of memory");
	trace_dirs = inputs;
	nftw(dir, found_metadata, 16, FTW_PHYS);
	trace_dirs = NULL;
	/* Components log nothing: their errors reach the user as one line
	 * of ours (below), not as babeltrace2 log lines before it. */
	if (bt_graph_add_source_component(g, src_cls, "src", params,
					  BT_LOGGING_LEVEL_NONE, &src) ||
	    bt_graph_add_filter_component(g, mux_cls, "mux", NULL,
					  BT_LOGGING_LEVEL_NONE, &mux) ||
	    bt_graph_add_simple_sink_component(g, "memscale", NULL, consume, NULL,
		    rd, &sink)) {
		warnx_("cannot open trace '%s' with babeltrace2 (not a readable "
		       "CTF trace)", dir);
		bt_current_thread_clear_error();
		goto out;
	}
	/* The muxer grows a new input port each time one is connected. */
	for (uint64_t i = 0; i < bt_component_source_get_output_port_count(src); i++)
		if (bt_graph_connect_ports(g,
			    bt_component_source_borrow_output_port_by_index_const(src, i),
			    bt_component_filter_borrow_input_port_by_index_const(mux, i),
			    NULL)) {
			warnx_("cannot connect trace stream %llu of '%s'",
			       (unsigned long long)i, dir);
			goto out;
		}
	if (bt_graph_connect_ports(g,
		    bt_component_filter_borrow_output_port_by_index_const(mux, 0),
		    bt_component_sink_borrow_input_port_by_index_const(sink, 0),
		    NULL)) {
		warnx_("cannot connect the trace reader for '%s'", dir);
		goto out;
	}
	do
		st = bt_graph_run(g);
	while (st == BT_GRAPH_RUN_STATUS_AGAIN);
	if (st != BT_GRAPH_RUN_STATUS_OK || rd->failed) {
		warnx_("error while reading trace '%s'", dir);
		goto out;
	}
	ret = 0;
out:
	bt_graph_put_ref(g);
	bt_value_put_ref(params);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	return ret;
}

int lockstat_count(const char *dir, struct lockstat_counts *c)
{
	struct reader rd = { 0 };
	int ret = read_trace(dir, &rd);

	*c = rd.counts;
	return ret;
}

static void merge_row(struct lockstat_row *o, const struct lockstat_row *s)
{
	bool first_wait = !o->contended, first_ev = !o->ev_contended;

	o->from_agg |= s->from_agg;
	o->acquired += s->acquired;
	if (s->contended && (first_wait || s->wait_min < o->wait_min))
		o->wait_min = s->wait_min;
	o->contended += s->contended;
	o->wait_total += s->wait_total;
	o->wait_max = s->wait_max > o->wait_max ? s->wait_max : o->wait_max;
	o->hold_n += s->hold_n;
	o->hold_total += s->hold_total;
	o->hold_max = s->hold_max > o->hold_max ? s->hold_max : o->hold_max;
	o->handoffs += s->handoffs;
	if (s->ev_contended && (first_ev || s->ev_wait_min < o->ev_wait_min))
		o->ev_wait_min = s->ev_wait_min;
	o->ev_contended += s->ev_contended;
	o->ev_begin += s->ev_begin;
	o->ev_wait_total += s->ev_wait_total;
	o->ev_wait_max = s->ev_wait_max > o->ev_wait_max ? s->ev_wait_max :
							   o->ev_wait_max;
	o->ev_holds += s->ev_holds;
	o->ev_hold_total += s->ev_hold_total;
	for (unsigned b = 0; b < LOCKSTAT_HIST; b++) {
		o->wait_hist[b] += s->wait_hist[b];
		o->hold_hist[b] += s->hold_hist[b];
	}
}

int lockstat_read(const char *dir, bool per_worker, struct lockstat_report *r)
{
	struct reader rd = { .want_cells = true };
	struct lockstat_row *out = NULL;
	size_t nout = 0, cap = 0;

	memset(r, 0, sizeof(*r));
	if (read_trace(dir, &rd)) {
		free(rd.aggs);
		free(rd.cells);
		free(rd.runs);
		return -1;
	}
	/* Final aggregates into the (class, worker) cells. */
	for (size_t i = 0; i < rd.naggs; i++) {
		const struct agg *a = &rd.aggs[i];
		struct lockstat_row one = { .from_agg = true };

		one.acquired = a->acquired;
		one.contended = a->contended;
		one.wait_total = a->wait_ns;
		one.wait_max = a->wait_max;
		one.wait_min = a->wait_min;
		one.hold_n = a->hold_n;
		one.hold_total = a->hold_ns;
		one.hold_max = a->hold_max;
		one.handoffs = a->handoffs;
		memcpy(one.wait_hist, a->wait_hist, sizeof(one.wait_hist));
		memcpy(one.hold_hist, a->hold_hist, sizeof(one.hold_hist));
		merge_row(lockstat_cell(&rd, a->cls, (int)a->worker), &one);
	}
	/* Cells without aggregates: what the per-event records say. */
	for (size_t i = 0; i < rd.ncells; i++) {
		struct lockstat_row *c = &rd.cells[i];
		if (c->from_agg)
			continue;
		c->acquired = c->contended = c->ev_contended;
		c->wait_total = c->ev_wait_total;
		c->wait_max = c->ev_wait_max;
		c->wait_min = c->ev_wait_min;
	}
	for (size_t i = 0; i < rd.ncells; i++) {
		struct lockstat_row *c = &rd.cells[i], *o = NULL;
		int w = per_worker ? c->worker : -1;

		for (size_t k = 0; k < nout && !o; k++)
			if (out[k].worker == w && !strcmp(out[k].name, c->name))
				o = &out[k];
		if (!o) {
			out = grow(out, &cap, nout, sizeof(*out));
			o = &out[nout++];
			memset(o, 0, sizeof(*o));
			memcpy(o->name, c->name, sizeof(o->name));
			o->worker = w;
		}
		merge_row(o, c);
	}
	r->counts = rd.counts;
	r->nruns = (unsigned)rd.nruns;
	r->rows = out;
	r->nrows = (unsigned)nout;
	free(rd.aggs);
	free(rd.cells);
	free(rd.runs);
	return 0;
}

static enum lockstat_sort sort_key;

static double row_sort_key(const struct lockstat_row *r)
{
	switch (sort_key) {
	case LS_SORT_CONTENDED:
		return (double)r->contended;
	case LS_SORT_AVG_WAIT:
		return r->contended ? (double)r->wait_total / (double)r->contended : 0;
	case LS_SORT_WAIT_TOTAL:
		return (double)r->wait_total;
	case LS_SORT_WAIT_MAX:
		return (double)r->wait_max;
	default:
		return (double)r->acquired;
	}
}

static int cmp_rows(const void *a, const void *b)
{
	const struct lockstat_row *x = a, *y = b;
	double kx = row_sort_key(x), ky = row_sort_key(y);
	int c;

	if (kx != ky)
		return kx < ky ? 1 : -1; /* descending */
	if ((c = strcmp(x->name, y->name)))
		return c;
	return x->worker - y->worker;
}

void lockstat_sort(struct lockstat_report *r, enum lockstat_sort key)
{
	sort_key = key;
	qsort(r->rows, r->nrows, sizeof(*r->rows), cmp_rows);
}

/* perf lock style: a number with a unit, 2 decimals above 1 us. */
static const char *fmt_ns(char *buf, size_t len, double ns)
{
	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.2f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", ns / 1e9);
	return buf;
}

static double avg(uint64_t total, uint64_t n)
{
	return n ? (double)total / (double)n : 0;
}

void lockstat_print(FILE *f, const struct lockstat_report *r, bool per_worker,
		    bool csv)
{
	char b[7][32];
	bool any_events_only = false;

	if (csv) {
		fprintf(f, "name,worker,acquired,contended,avg_wait_ns,wait_total_ns,"
			"wait_max_ns,wait_min_ns,hold_samples,avg_hold_ns,"
			"hold_max_ns,handoffs,contention_records,source\n");
		for (unsigned i = 0; i < r->nrows; i++) {
			const struct lockstat_row *x = &r->rows[i];
			fprintf(f, "%s,%d,%llu,%llu,%.1f,%llu,%llu,%llu,%llu,%.1f,"
				"%llu,%llu,%llu,%s\n", x->name, x->worker,
				(unsigned long long)x->acquired,
				(unsigned long long)x->contended,
				avg(x->wait_total, x->contended),
				(unsigned long long)x->wait_total,
				(unsigned long long)x->wait_max,
				(unsigned long long)x->wait_min,
				(unsigned long long)x->hold_n,
				avg(x->hold_total, x->hold_n),
				(unsigned long long)x->hold_max,
				(unsigned long long)x->handoffs,
				(unsigned long long)x->ev_contended,
				x->from_agg ? "aggregates" : "records");
		}
		fprintf(f, "# events=%llu discarded_events=%llu discarded_packets=%llu\n",
			(unsigned long long)r->counts.events,
			(unsigned long long)r->counts.discarded,
			(unsigned long long)r->counts.discarded_packets);
		return;
	}
	fprintf(f, "# lock classes from %u run(s); avg wait = total wait / "
		"contended (over contended acquisitions only)\n", r->nruns);
	fprintf(f, "# hold = sampled holds (knob lockstat_hold_every); handoffs = "
		"acquisitions whose previous owner was another worker\n");
	if (per_worker)
		fprintf(f, "%6s ", "worker");
	fprintf(f, "%22s %12s %10s %10s %11s %10s %10s %10s %10s %10s\n", "Name",
		"acquired", "contended", "avg wait", "total wait", "max wait",
		"min wait", "avg hold", "max hold", "handoffs");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct lockstat_row *x = &r->rows[i];

		any_events_only |= !x->from_agg;
		if (per_worker)
			fprintf(f, "%6d ", x->worker);
		fprintf(f, "%21s%s %12llu %10llu %10s %11s %10s %10s %10s %10s %10llu\n",
			x->name, x->from_agg ? " " : "*",
			(unsigned long long)x->acquired,
			(unsigned long long)x->contended,
			fmt_ns(b[0], 32, avg(x->wait_total, x->contended)),
			fmt_ns(b[1], 32, (double)x->wait_total),
			fmt_ns(b[2], 32, (double)x->wait_max),
			fmt_ns(b[3], 32, (double)x->wait_min),
			fmt_ns(b[4], 32, avg(x->hold_total, x->hold_n)),
			fmt_ns(b[5], 32, (double)x->hold_max),
			(unsigned long long)x->handoffs);
	}
	if (!r->nrows)
		fprintf(f, "(no memscale lock records in this trace)\n");
	if (any_events_only)
		fprintf(f, "* no aggregates: from per-event records only (acquired "
			"counts contended acquisitions only)\n");
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct lockstat_row *x = &r->rows[i];
		if (!x->from_agg || (!x->ev_contended && !x->contended))
			continue;
		fprintf(f, "# %s", x->name);
		if (per_worker)
			fprintf(f, " worker %d", x->worker);
		fprintf(f, ": %llu contention records (%llu begin), aggregates say "
			"%llu contended%s\n", (unsigned long long)x->ev_contended,
			(unsigned long long)x->ev_begin,
			(unsigned long long)x->contended,
			x->ev_contended == x->contended ? "" :
			r->counts.discarded ? " (gap: discarded events)" :
			!x->ev_contended && !x->ev_begin ?
			" (no records: were only aggregates enabled?)" :
			" (gap: contention outside the traced window)");
	}
	fprintf(f, "# %llu events read, %llu discarded by the tracer (lost)%s\n",
		(unsigned long long)r->counts.events,
		(unsigned long long)r->counts.discarded,
		r->counts.discarded_packets ? ", some packets lost too" : "");
}

static void print_one_hist(FILE *f, const char *what, const uint64_t *h)
{
	uint64_t max = 0;
	int lo = -1, hi = -1;

	for (int b = 0; b < LOCKSTAT_HIST; b++)
		if (h[b]) {
			if (lo < 0)
				lo = b;
			hi = b;
			max = h[b] > max ? h[b] : max;
		}
	fprintf(f, "  %s:%s\n", what, lo < 0 ? " (none)" : "");
	for (int b = lo; lo >= 0 && b <= hi; b++) {
		char from[32], to[32];
		int bar = (int)((h[b] * 40 + max - 1) / max);

		if (b == 0)
			snprintf(from, sizeof(from), "0");
		else
			fmt_ns(from, sizeof(from), (double)(1ull << (b - 1)));
		if (b == LOCKSTAT_HIST - 1)
			snprintf(to, sizeof(to), "inf");
		else
			fmt_ns(to, sizeof(to), b ? (double)(1ull << b) : 1);
		fprintf(f, "    [%9s, %9s) %12llu %.*s\n", from, to,
			(unsigned long long)h[b], bar,
			"########################################");
	}
}

void lockstat_print_hist(FILE *f, const struct lockstat_report *r)
{
	for (unsigned i = 0; i < r->nrows; i++) {
		const struct lockstat_row *x = &r->rows[i];

		if (!x->from_agg)
			continue;
		fprintf(f, "%s", x->name);
		if (x->worker >= 0)
			fprintf(f, " (worker %d)", x->worker);
		fprintf(f, "\n");
		print_one_hist(f, "wait of contended acquisitions", x->wait_hist);
		print_one_hist(f, "hold (sampled)", x->hold_hist);
	}
}

void lockstat_free(struct lockstat_report *r)
{
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}
