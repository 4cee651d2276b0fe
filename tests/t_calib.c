/*
 * t_calib.c - calibration files: a valid file loads; a missing field, a
 * corrupt value, a negative or non-finite value, a line without '=', a
 * missing or wrong format line and a duplicate key are each rejected
 * with a message naming the problem; writing and reading back gives the
 * same figures; a (tiny) real calibration round-trips.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/calib_probe.h"
#include "predict/target.h"
#include "tap.h"

static const char *const probes[] = {
	"xfer.store", "xfer.atomic", "xfer.load", "atomic.uncontended",
	"atomic.contended", "hit", "miss", "percpu", "list", "page", "fault",
	"syscall",
};

/* A valid file; `drop` omits one line containing it, `extra` is appended. */
static char *make_file(const char *drop, const char *extra)
{
	static char buf[8192];
	char line[256];
	size_t n = 0;

	buf[0] = '\0';
#define ADD(s)                                                               \
	do {                                                                 \
		if (!drop || !strstr((s), drop))                             \
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s\n", (s)); \
	} while (0)
	ADD("# test calibration");
	ADD("format = memscale-calib 4");
	ADD("meta.host = testhost");
	ADD("meta.cpu_model = Some CPU @ 2.0GHz");
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++) {
		snprintf(line, sizeof(line), "%s.median_ns = %zu.5", probes[i], 10 * i + 1);
		ADD(line);
		snprintf(line, sizeof(line), "%s.q1_ns = %zu", probes[i], 10 * i);
		ADD(line);
	}
#undef ADD
	if (extra)
		snprintf(buf + n, sizeof(buf) - n, "%s\n", extra);
	return buf;
}

static int parse_str(const char *text, struct calib *c, char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc = calib_parse(c, f, "test.calib", err, len);
	fclose(f);
	return rc;
}

static void reject(const char *what, const char *text, const char *want_in_err)
{
	struct calib c;
	char err[512] = "";
	int rc = parse_str(text, &c, err, sizeof(err));

	ok(rc == -1 && strstr(err, want_in_err) && !strchr(err, '\n'),
	   "%s rejected: %s", what, err);
}

int main(void)
{
	struct calib c, d;
	char err[512] = "";
	struct memcg_costs mc;
	char *mem = NULL;
	size_t memlen = 0;
	FILE *f;
	int rc;

	rc = parse_str(make_file(NULL, NULL), &c, err, sizeof(err));
	ok(rc == 0, "valid file loads");
	ok(calib_median(&c, "xfer.store") == 1.5 && calib_median(&c, "syscall") == 111.5,
	   "probe medians read back");
	is_str(calib_str(&c, "meta.cpu_model"), "Some CPU @ 2.0GHz", "meta text kept whole");
	ok(isnan(calib_median(&c, "lock.nosuch.pair")), "absent probe is NAN");
	calib_costs(&c, &mc);
	ok(mc.sim.xfer_ns == 11.5 && mc.fault_ns == 101.5 && mc.sim.handoff_ns == 11.5,
	   "costs map from the probes (xfer %.1f, fault %.1f)", mc.sim.xfer_ns, mc.fault_ns);
	ok(isnan(mc.walk_step_ns[0]) && isnan(mc.walk_step_ns[1]),
	   "no walk probes: the walk step is not measured (the assumption stands)");
	calib_free(&c);
	rc = parse_str(make_file(NULL, "walk.permemcg.median_ns = 4.5\n"
				 "walk.permemcg.min_ns = 0\nwalk.cached.median_ns = 0.5"),
		       &c, err, sizeof(err));
	calib_costs(&c, &mc);
	ok(rc == 0 && mc.walk_step_ns[0] == 4.5 && mc.walk_step_ns[1] == 0.5,
	   "measured walk steps reach the predictor (median, not the biased minimum)");
	calib_free(&c);
	rc = parse_str(make_file(NULL, "xfer.atomic.min_ns = 7"), &c, err, sizeof(err));
	calib_costs(&c, &mc);
	ok(rc == 0 && mc.sim.xfer_ns == 7 && mc.sim.handoff_ns == 7,
	   "transfer cost from the least disturbed repetition when present");

	/* Write and read back. */
	f = open_memstream(&mem, &memlen);
	ok(calib_write(&c, f) == 0, "write");
	fclose(f);
	rc = parse_str(mem, &d, err, sizeof(err));
	ok(rc == 0 && d.n == c.n &&
	   calib_median(&d, "page") == calib_median(&c, "page"),
	   "written file reads back with the same keys and figures");
	free(mem);
	calib_free(&d);
	calib_free(&c);

	/* A probe that ran under steal is flagged in its basis line; one
	 * without steal is not; a loop probe says how a repetition was taken. */
	{
		char basis[512];
		rc = parse_str(make_file(NULL, "page.steal_pct = 4.5\nlist.steal_pct = 0.2"), &c,
			       err, sizeof(err));
		calib_probe_basis(&c, "page", basis, sizeof(basis));
		ok(rc == 0 && strstr(basis, "flagged: 4.5% of CPU time stolen by the hypervisor"),
		   "a probe under 4.5%% steal is flagged: %s", basis);
		calib_probe_basis(&c, "list", basis, sizeof(basis));
		ok(!strstr(basis, "flagged") && strstr(basis, "fastest of 256 short blocks"),
		   "0.2%% steal is not flagged; the block rule is named: %s", basis);
		calib_free(&c);
	}

	reject("missing field", make_file("fault.median_ns", NULL), "fault.median_ns");
	reject("missing miss", make_file("miss.median", NULL), "missing field 'miss.median_ns'");
	reject("corrupt value", make_file(NULL, "hit.max_ns = 12abc"), "12abc");
	reject("negative value", make_file(NULL, "hit.max_ns = -3"), "'-3'");
	reject("non-finite value", make_file(NULL, "hit.max_ns = inf"), "'inf'");
	reject("line without '='", make_file(NULL, "garbage line here"), "corrupt line");
	reject("empty value", make_file(NULL, "hit.max_ns ="), "empty value");
	reject("missing format", make_file("format", NULL), "missing 'format");
	reject("newer version", make_file("format", "format = memscale-calib 99"),
	       "format version 99 is newer than this memscale");
	reject("older version", make_file("format", "format = memscale-calib 1"),
	       "format version 1 is too old (this memscale reads version 4");
	reject("version 2 (loop probes timed as one loop)",
	       make_file("format", "format = memscale-calib 2"),
	       "format version 2 is too old (this memscale reads version 4");
	reject("version 3 (walk probes timed with the footprint walk)",
	       make_file("format", "format = memscale-calib 3"),
	       "format version 3 is too old (this memscale reads version 4");
	reject("wrong format", make_file("format", "format = other-thing 1"),
	       "unknown format");
	reject("duplicate key", make_file(NULL, "hit.median_ns = 2"), "duplicate key 'hit.median_ns'");
	reject("empty file", "", "missing 'format");
	rc = calib_load(&c, "/nonexistent/x.calib", err, sizeof(err));
	ok(rc == -1 && strstr(err, "/nonexistent/x.calib"), "unreadable path: %s", err);

	/* A real (tiny) calibration produces a loadable file. */
	{
		struct calib_opts o;
		calib_opts_default(&o);
		o.reps = 2;
		o.scale = 0.02;
		o.locks = false;
		o.workloads = false;
		calib_measure(&c, &o);
		mem = NULL;
		f = open_memstream(&mem, &memlen);
		calib_write(&c, f);
		fclose(f);
		rc = parse_str(mem, &d, err, sizeof(err));
		ok(rc == 0, "measured calibration loads");
		ok(calib_median(&d, "xfer.store") > 0 && calib_median(&d, "page") > 0 &&
		   calib_num(&d, "xfer.store.min_ns") <= calib_median(&d, "xfer.store") &&
		   calib_median(&d, "xfer.store") <= calib_num(&d, "xfer.store.max_ns"),
		   "measured probes positive, min <= median <= max");
		/* The steady-state fault family and its components. */
		ok(calib_median(&d, "fault") > 0 && calib_median(&d, "fault.first") > 0 &&
		   calib_median(&d, "fault.zero") > 0 && calib_median(&d, "fault.cow") > 0 &&
		   calib_median(&d, "fault.shared") > 0 && calib_median(&d, "fault.populate") > 0 &&
		   calib_median(&d, "syscall.falloc") > 0,
		   "fault kinds and the memcg syscall measured");
		ok(calib_num(&d, "part.fault_page_ns") >= 0 &&
		   calib_num(&d, "part.fault_trap_ns") >= 0 &&
		   calib_num(&d, "part.syscall_shmem_page_ns") >= 0,
		   "fault and syscall components derived");
		ok(fabs(calib_num(&d, "part.fault_page_ns") -
			fmax(0, calib_num(&d, "fault.min_ns") - calib_num(&d, "fault.zero.min_ns"))) < 1e-3 *
		   (1 + calib_num(&d, "fault.min_ns")),
		   "part.fault_page = fault - fault.zero (least disturbed reps)");
		/* Instruction counts: a count per probe, or the reason why not. */
		{
			const char *how = calib_str(&d, "meta.instructions");
			ok(how && (!strncmp(how, "unavailable", 11)
				   ? isnan(calib_num(&d, "syscall.insn"))
				   : calib_num(&d, "syscall.insn") > 0),
			   "instructions counted or recorded unavailable: %s", how ? how : "(none)");
		}
		free(mem);
		calib_free(&d);
		calib_free(&c);
	}
	return done_testing();
}
