/*
 * sensitivity.c - perturbed copies of a calibration and why an input does
 * not reach a target's costs; see sensitivity.h.
 */
#include "predict/sensitivity.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"

/* What target_costs() reads, probe by probe (predict/target.c). */
const struct sens_input sens_inputs[] = {
	{ "fault", "fault_ns" },
	{ "syscall", "syscall_ns" },
	{ "page", "page_ns" },
	{ "clear", "clear_ns" },
	{ "list", "list_ns" },
	{ "percpu", "percpu_ns" },
	{ "xfer.atomic", "xfer_ns" },
	{ "atomic.uncontended", "atomic_ns" },
	{ "hit", "hit_ns" },
	{ "miss", "miss_ns" },
	{ "walk.permemcg", "walk_step" },
	{ "walk.cached", "walk_step_cached" },
	{ "meta.cpu_mhz", "clock (scales every probe to the target)" },
	{ NULL, NULL },
};

void sens_scaled_copy(const struct calib *c, const struct sens_input *in, double f,
		      struct calib *out)
{
	static const char *const fields[] = { "median_ns", "q1_ns", "q3_ns", "min_ns",
					      "max_ns", NULL };
	bool meta = !strncmp(in->probe, "meta.", 5);

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < c->n; i++)
		calib_set(out, c->e[i].key, c->e[i].value);
	if (meta) {
		double v = calib_num(c, in->probe);
		if (isfinite(v))
			calib_set_num(out, in->probe, v * f);
		return;
	}
	for (size_t k = 0; fields[k]; k++) {
		char key[160];
		double v;

		snprintf(key, sizeof(key), "%s.%s", in->probe, fields[k]);
		v = calib_num(c, key);
		if (isfinite(v))
			calib_set_num(out, key, v * f);
	}
}

const char *sens_unused_reason(const struct calib *c, const struct target *t,
			       const struct sens_input *in, double f, char *buf, size_t len)
{
	struct target_costs a, b;
	struct calib cp;

	buf[0] = '\0';
	/* the calibration t's work comes from: c for "here", else the
	 * work reference (predict/target.h) */
	c = target_work(t, c);
	if (!strncmp(in->probe, "meta.", 5) ? isnan(calib_num(c, in->probe))
					    : isnan(calib_median(c, in->probe))) {
		snprintf(buf, len, "not in this calibration");
		return buf;
	}
	sens_scaled_copy(c, in, f, &cp);
	target_costs(t, c, NULL, &a);
	target_costs(t, &cp, NULL, &b);
	calib_free(&cp);
	if (!memcmp(&a.c, &b.c, sizeof(a.c))) {
		const struct param_note *p = NULL;
		for (size_t i = 0; i < a.np; i++)
			if (!strcmp(a.p[i].name, in->param))
				p = &a.p[i];
		if (p)
			snprintf(buf, len, "not read for target %s: %s comes from the %s (%s)",
				 t->name, p->name, param_origin_name(p->origin), p->src);
		else
			snprintf(buf, len, "not read for target %s", t->name);
	}
	return buf;
}
